// GET /v1/einvoices/{id}/fiscalization — where an e-invoice stands with the tax authority
// (Fiscalization 2.0): its recording after delivery, and its e-reported payments and rejection.
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { ReportSchema, toReport } from "./report.ts";

const FiscalizationSchema = z.object({
  einvoice_id: z.string(),
  status: z
    .enum(["not_delivered", "pending", "recorded", "refused"])
    .describe(
      "not_delivered: posrednik još nije isporučio e-račun; pending: čeka evidentiranje kod Porezne uprave (ponavlja se dok servis nije dostupan); " +
        "recorded: evidentiran; refused: Porezna uprava ga je odbila (vidi error).",
    ),
  request_id: z.string().nullable().describe("Id zadnjeg zahtjeva EvidentirajERacunZahtjev."),
  recorded_at: z.string().nullable(),
  attempts: z.number().int().describe("Broj slanja Poreznoj upravi."),
  error: z.string().nullable().describe("Zašto zadnje slanje nije uspjelo (kod i poruka Porezne uprave ili nedostupnost)."),
  reports: z.array(ReportSchema).describe("Prijave naplate i odbijanja (eIzvještavanje), od najstarije."),
});

export const getEInvoiceFiscalization = apiKeyProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/einvoices/{id}/fiscalization",
      tags: ["einvoices"],
      summary: "Fiskalizacija 2.0: stanje evidentiranja e-računa i prijave naplate i odbijanja",
      protect: true,
    },
  })
  .input(z.object({ id: z.string().max(64) }))
  .output(FiscalizationSchema)
  .query(async ({ input, ctx }) => {
    const { db } = ctx.services;
    const row = z.uuid().safeParse(input.id).success ? await db.eInvoice.findFirst({ where: { id: input.id, accountId: ctx.principal.accountId } }) : null;
    if (!row) throw new ApiError("not_found", `E-račun ${input.id} ne postoji.`);
    const reports = await db.eInvoiceReport.findMany({ where: { eInvoiceId: row.id, accountId: ctx.principal.accountId }, orderBy: { createdAt: "asc" } });
    return {
      einvoice_id: row.id,
      status: (row.fiscalizationStatus ?? (row.status === "accepted" ? "pending" : "not_delivered")) as z.infer<typeof FiscalizationSchema>["status"],
      request_id: row.fiscalizationRequestId,
      recorded_at: row.fiscalizedAt?.toISOString() ?? null,
      attempts: row.fiscalizationAttempts,
      error: row.fiscalizationError,
      reports: reports.map(toReport),
    };
  });
