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
    const { db, reconciler } = ctx.services;
    const find = () => db.invoice.findFirst({ where: { id: input.id, accountId: ctx.principal.accountId } });
    const row = z.uuid().safeParse(input.id).success ? await find() : null;
    if (!row) throw new ApiError("not_found", `Račun ${input.id} ne postoji.`);
    if (row.jir !== null) return toInvoice({ ...row, jir: row.jir });
    // Pending: its JIR may be in the journal, waiting for the database to take it.
    const journaled = await reconciler.journaled((e) => e.kind === "invoice" && e.id === row.id);
    if (journaled) return journaled.response as z.infer<typeof InvoiceSchema>;
    const now = await find();
    if (now?.jir) return toInvoice({ ...now, jir: now.jir });
    // Issued with its ZKI only while CIS was unreachable: valid as it is, delivered late (resubmit.ts).
    if (now?.nextAttemptAt) return toInvoice(now);
    throw new ApiError("conflict", `Račun ${input.id} poslan je Poreznoj upravi i još nema zabilježen JIR.`, { reason: "pending" });
  });
