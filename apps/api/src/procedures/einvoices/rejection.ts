// POST /v1/einvoices/{id}/rejection — e-reporting that the buyer rejected an e-invoice (Fiscalization
// 2.0, EvidentirajOdbijanjeZahtjev). For a received e-invoice the account is the buyer: its decision
// is recorded with the report "pending" (decideReceivedEInvoice, the portal's function too), then the
// report is sent at once; whatever the answer, the rejection stays recorded, and a report the tax
// authority could not take now is sent again by the periodic job (received-einvoices.ts). For an
// issued e-invoice the issuer reports only a self-billed invoice (report.ts).
import { z } from "zod";
import { findReceivedEInvoice } from "@fiskal/accounts";
import { ApiError } from "../../errors.ts";
import { withIdempotency } from "../../idempotency.ts";
import { apiKeyProcedure, type Context, type Principal } from "../../trpc.ts";
import { decide, receivedRejectionReport } from "./received.ts";
import { reportDateProblem, reportedBuyerOib, ReportSchema, sendReport, type ReportOut } from "./report.ts";

// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/**
 * The recipient reports a rejection (Fiscalization Act art. 52, Fiscalization 2.0 spec §5). On an
 * e-invoice the account issued, it may report a rejection only where the issuer does so in the
 * recipient's place: a self-billed invoice (UNTDID 1001 code 389, issued by the buyer on the
 * supplier's behalf). Received e-invoices are rejected by their recipient (rejectReceived).
 */
function issuerMayReject(documentType: string): boolean {
  return documentType === "389";
}

type Input = z.infer<typeof RejectionInput>;

/** The account rejects an e-invoice it received: decision (report pending) → report → the report as it stands. */
async function rejectReceived(ctx: Context & { principal: Principal }, input: Input): Promise<ReportOut> {
  return withIdempotency(ctx, "einvoice.rejection", input, async (control) => {
    const row = await decide(ctx.services.db, {
      accountId: ctx.principal.accountId,
      id: input.id,
      decision: "rejected",
      reasonType: input.reason_type,
      reason: input.reason,
      rejectedOn: input.rejected_on,
      actor: `api_key:${ctx.principal.apiKeyId}`,
    });
    control.committed();
    const sent = (await ctx.services.receivedEInvoices?.sendRejectionReport(row.id)) ?? row;
    if (sent.rejectionReportStatus === "refused") {
      throw new ApiError(
        "validation_error",
        `Odbijanje je zabilježeno, ali ga je Porezna uprava odbila: ${sent.rejectionReportError ?? ""}. Ispravite ga i pošaljite ponovno.`,
        { reason: "report_refused", id: sent.id, request_id: sent.rejectionReportRequestId, f2_code: /^(\w+):/.exec(sent.rejectionReportError ?? "")?.[1] ?? null },
      );
    }
    return receivedRejectionReport(sent);
  });
}

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
        "Prijavljuje Poreznoj upravi da je primatelj odbio e-račun (EvidentirajOdbijanjeZahtjev), jednom po e-računu. Odbijanje prijavljuje primatelj: za primljeni e-račun " +
        "odbijanje se bilježi i odmah šalje; ako servis nije dostupan, prijava čeka i Fiskal je šalje ponovno; ako je Porezna uprava odbije, validation_error s details.reason report_refused, a odbijanje se smije ispraviti i poslati ponovno. " +
        "Izdavatelj izdanog e-računa samo kod samoizdavanja (vrsta 389), inače 403 forbidden s details.reason recipient_reports. Odbijena prijava je validation_error s kodom " +
        "Porezne uprave (details.f2_code); nedostupnost servisa je 503 s Retry-After. Pošaljite zaglavlje Idempotency-Key.",
      protect: true,
    },
  })
  .input(RejectionInput)
  .output(ReportSchema)
  .mutation(async ({ input, ctx }) => {
    // Ids are UUIDs across both tables: one the account received is rejected as its recipient.
    if (await findReceivedEInvoice(ctx.services.db, ctx.principal.accountId, input.id)) return rejectReceived(ctx, input);
    return sendReport(ctx, input.id, "rejection", input, async (einvoice) => {
      if (!issuerMayReject(einvoice.documentType)) {
        throw new ApiError(
          "forbidden",
          `E-račun ${einvoice.number} izdali ste vi; njegovo odbijanje Poreznoj upravi prijavljuje primatelj (čl. 52. Zakona o fiskalizaciji), a izdavatelj samo kod samoizdavanja računa (vrsta dokumenta 389).`,
          { reason: "recipient_reports", document_type: einvoice.documentType },
        );
      }
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
    });
  });
