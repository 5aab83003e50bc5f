// GET /v1/einvoices/{id} — an e-invoice of the caller's account, with its UBL document.
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { EInvoiceSchema, toEInvoice } from "./schemas.ts";

export const getEInvoice = apiKeyProcedure
  .meta({ openapi: { method: "GET", path: "/v1/einvoices/{id}", tags: ["einvoices"], summary: "Dohvat e-računa s UBL XML dokumentom", protect: true } })
  .input(z.object({ id: z.string().max(64) }))
  .output(EInvoiceSchema.extend({ ubl: z.string() }))
  .query(async ({ input, ctx }) => {
    const row = z.uuid().safeParse(input.id).success
      ? await ctx.services.db.eInvoice.findFirst({ where: { id: input.id, accountId: ctx.principal.accountId } })
      : null;
    if (!row) throw new ApiError("not_found", `E-račun ${input.id} ne postoji.`).toTRPC();
    return { ...toEInvoice(row), ubl: row.ubl };
  });
