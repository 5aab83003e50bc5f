// POST /v1/einvoices/{id}/rejection — e-reporting that the buyer rejected a delivered e-invoice
// (Fiscalization 2.0, EvidentirajOdbijanjeZahtjev). One rejection per e-invoice. See report.ts.
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { reportDateProblem, reportedBuyerOib, ReportSchema, sendReport } from "./report.ts";

// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

const RejectionInput = z.strictObject({
  id: z.string().max(64).describe("Id e-računa."),
  rejected_on: z.iso.date({ error: "Datum u obliku GGGG-MM-DD." }).describe("Datum odbijanja (datumOdbijanja)."),
  reason_type: z
    .enum(["N", "U", "O"], { error: "Vrsta razloga: N, U ili O." })
    .describe("Vrsta razloga odbijanja: N neusklađenost podataka koji ne utječu na obračun poreza, U neusklađenost koja utječe na obračun poreza, O ostalo."),
  reason: z.string().trim().min(1, "Navedite razlog odbijanja.").max(1024, "Razlog može imati najviše 1024 znaka.").describe("Razlog odbijanja (razlogOdbijanja)."),
});

export const reportRejection = apiKeyProcedure
  .meta({
    group: "einvoice",
    idempotent: true,
    openapi: {
      method: "POST",
      path: "/v1/einvoices/{id}/rejection",
      tags: ["einvoices"],
      summary: "eIzvještavanje: odbijanje e-računa",
      description:
        "Prijavljuje Poreznoj upravi da je primatelj odbio isporučeni e-račun (EvidentirajOdbijanjeZahtjev), jednom po e-računu. Odbijena prijava je validation_error s kodom " +
        "Porezne uprave (details.f2_code); nedostupnost servisa je 503 s Retry-After. Pošaljite zaglavlje Idempotency-Key.",
      protect: true,
    },
  })
  .input(RejectionInput)
  .output(ReportSchema)
  .mutation(({ input, ctx }) =>
    sendReport(ctx, input.id, "rejection", input, async (einvoice) => {
      const buyerOib = reportedBuyerOib(einvoice);
      const problems: { path: string; message: string }[] = [];
      const dateProblem = reportDateProblem("rejected_on", input.rejected_on, einvoice);
      if (dateProblem) problems.push(dateProblem);
      if (NOT_XML_CHAR.test(input.reason)) problems.push({ path: "reason", message: "Razlog sadrži kontrolne znakove koji nisu dopušteni." });
      if (problems.length) throw new ApiError("validation_error", "Prijava odbijanja nije ispravna.", problems);
      const earlier = await ctx.services.db.eInvoiceReport.findFirst({
        where: { eInvoiceId: einvoice.id, kind: "rejection", status: { in: ["recorded", "pending", "unknown"] } },
        select: { id: true, status: true },
      });
      if (earlier) {
        throw new ApiError("conflict", `Odbijanje e-računa ${einvoice.number} već je prijavljeno.`, { reason: "already_reported", id: earlier.id, status: earlier.status });
      }
      return {
        brojDokumenta: einvoice.number,
        datumIzdavanja: einvoice.issueDate,
        oibPorezniBrojIzdavatelja: einvoice.sellerOib,
        oibPorezniBrojPrimatelja: buyerOib,
        datumOdbijanja: input.rejected_on,
        vrstaRazlogaOdbijanja: input.reason_type,
        razlogOdbijanja: input.reason,
      };
    }),
  );
