// GET /v1/einvoices/{id} — an e-invoice of the caller's account, issued or received, with its UBL
// document and its Fiscalization 2.0 state.
import { z } from "zod";
import { findReceivedEInvoice } from "@fiskal/accounts";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { ReceivedEInvoiceSchema, toReceivedEInvoice } from "./received.ts";
import { EInvoiceSchema, F2StateSchema, issuedF2State, toEInvoice, type EInvoiceOut } from "./schemas.ts";

const UBL_DESCRIPTION = "UBL 2.1 dokument (Invoice ili CreditNote): izdani kako je predan posredniku ili kako ga je posrednik odbio; primljeni točno kako ga je posrednik isporučio.";

const IssuedWithUbl = EInvoiceSchema.extend({
  direction: z.literal("issued"),
  fiscalization: F2StateSchema,
  ubl: z.string().describe(UBL_DESCRIPTION),
});
const ReceivedWithUbl = ReceivedEInvoiceSchema.extend({ ubl: z.string().describe(UBL_DESCRIPTION) });

export const getEInvoice = apiKeyProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/einvoices/{id}",
      tags: ["einvoices"],
      summary: "Dohvat e-računa s UBL XML dokumentom",
      description:
        "Izdani e-račun (direction issued: accepted, queued, ili rejected s pravilima u rejection) ili primljeni (s provjerom i odlukom primatelja), " +
        "sa stanjem Fiskalizacije 2.0 u fiscalization (pojedinosti i prijave na /fiscalization).",
      protect: true,
    },
  })
  .input(z.object({ id: z.string().max(64) }))
  .output(z.discriminatedUnion("direction", [IssuedWithUbl, ReceivedWithUbl]))
  .query(async ({ input, ctx }) => {
    const { db, reconciler } = ctx.services;
    const accountId = ctx.principal.accountId;
    const find = () => db.eInvoice.findFirst({ where: { id: input.id, accountId } });
    const row = z.uuid().safeParse(input.id).success ? await find() : null;
    if (!row) {
      const received = await findReceivedEInvoice(db, accountId, input.id);
      if (!received) throw new ApiError("not_found", `E-račun ${input.id} ne postoji.`);
      return { ...toReceivedEInvoice(received), ubl: received.ubl };
    }
    const issued = (out: EInvoiceOut, state = row) => ({ ...out, direction: "issued" as const, fiscalization: issuedF2State({ ...state, status: out.status }), ubl: row.ubl });
    if (row.intermediaryId !== null || row.status === "rejected") return issued(toEInvoice(row));
    // Pending: the intermediary's answer may be in the journal, waiting for the database to take it.
    const journaled = await reconciler.journaled((e) => e.kind === "einvoice" && e.id === row.id);
    if (journaled) return issued(journaled.response as EInvoiceOut);
    const now = await find();
    if (now?.intermediaryId || now?.status === "rejected") return issued(toEInvoice(now), now);
    throw new ApiError("conflict", `E-račun ${input.id} predan je posredniku i još nema zabilježen odgovor.`, { reason: "pending" });
  });
