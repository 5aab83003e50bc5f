// GET /v1/invoices/{id} — a fiscalized receipt of the caller's account.
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { InvoiceSchema, toInvoice } from "./schemas.ts";

export const getInvoice = apiKeyProcedure
  .meta({ openapi: { method: "GET", path: "/v1/invoices/{id}", tags: ["invoices"], summary: "Dohvat fiskaliziranog računa", protect: true } })
  .input(z.object({ id: z.string().max(64) }))
  .output(InvoiceSchema)
  .query(async ({ input, ctx }) => {
    const row = z.uuid().safeParse(input.id).success
      ? await ctx.services.db.invoice.findFirst({ where: { id: input.id, accountId: ctx.principal.accountId } })
      : null;
    if (!row) throw new ApiError("not_found", `Račun ${input.id} ne postoji.`).toTRPC();
    return toInvoice(row);
  });
