// POST /v1/einvoices/{id}/acceptance — the account accepts an e-invoice it received. Recorded in
// Fiskal (with its archive entry) by the same function as the portal's; Fiscalization 2.0 has no
// acceptance message, so nothing is sent. Accepting an accepted e-invoice again answers it as it is.
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { decide, ReceivedEInvoiceSchema, toReceivedEInvoice } from "./received.ts";

export const acceptEInvoice = apiKeyProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/einvoices/{id}/acceptance",
      tags: ["einvoices"],
      summary: "Prihvaćanje primljenog e-računa",
      description:
        "Primatelj prihvaća primljeni e-račun. Bilježi se u Fiskalu i arhivi; Poreznoj upravi se ne šalje ništa (Fiskalizacija 2.0 nema poruku o prihvaćanju). " +
        "Već odbijen e-račun je 409 conflict s details.reason already_decided; izdani e-račun je 404.",
      protect: true,
    },
  })
  .input(z.strictObject({ id: z.string().max(64).describe("Id primljenog e-računa.") }))
  .output(ReceivedEInvoiceSchema)
  .mutation(async ({ input, ctx }) => {
    const { db } = ctx.services;
    try {
      return toReceivedEInvoice(await decide(db, { accountId: ctx.principal.accountId, id: input.id, decision: "accepted", actor: `api_key:${ctx.principal.apiKeyId}` }));
    } catch (err) {
      // A repeated acceptance (e.g. a retry after a lost answer) is answered with the e-invoice as accepted.
      if (err instanceof ApiError && err.code === "conflict") {
        const row = await db.receivedEInvoice.findFirst({ where: { id: input.id, accountId: ctx.principal.accountId } });
        if (row?.status === "accepted") return toReceivedEInvoice(row);
      }
      throw err;
    }
  });
