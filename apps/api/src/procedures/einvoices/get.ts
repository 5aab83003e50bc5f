// GET /v1/einvoices/{id} — an e-invoice of the caller's account, with its UBL document.
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { EInvoiceSchema, toEInvoice, type EInvoiceOut } from "./schemas.ts";

const UBL_DESCRIPTION = "UBL 2.1 dokument (Invoice ili CreditNote) kako je predan posredniku, ili kako ga je posrednik odbio.";

export const getEInvoice = apiKeyProcedure
  .meta({ openapi: { method: "GET", path: "/v1/einvoices/{id}", tags: ["einvoices"], summary: "Dohvat e-računa s UBL XML dokumentom", description: "Poslani e-račun (accepted, queued) ili e-račun koji je posrednik odbio (rejected, s pravilima u rejection).", protect: true } })
  .input(z.object({ id: z.string().max(64) }))
  .output(EInvoiceSchema.extend({ ubl: z.string().describe(UBL_DESCRIPTION) }))
  .query(async ({ input, ctx }) => {
    const { db, reconciler } = ctx.services;
    const find = () => db.eInvoice.findFirst({ where: { id: input.id, accountId: ctx.principal.accountId } });
    const row = z.uuid().safeParse(input.id).success ? await find() : null;
    if (!row) throw new ApiError("not_found", `E-račun ${input.id} ne postoji.`);
    if (row.intermediaryId !== null || row.status === "rejected") return { ...toEInvoice(row), ubl: row.ubl };
    // Pending: the intermediary's answer may be in the journal, waiting for the database to take it.
    const journaled = await reconciler.journaled((e) => e.kind === "einvoice" && e.id === row.id);
    if (journaled) return { ...(journaled.response as EInvoiceOut), ubl: row.ubl };
    const now = await find();
    if (now?.intermediaryId || now?.status === "rejected") return { ...toEInvoice(now), ubl: now.ubl };
    throw new ApiError("conflict", `E-račun ${input.id} predan je posredniku i još nema zabilježen odgovor.`, { reason: "pending" });
  });
