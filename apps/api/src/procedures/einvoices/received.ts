// Received (incoming) e-invoices as the API returns them, and the recipient's decision through the
// one function of @fiskal/accounts (`decideReceivedEInvoice`) the portal calls too.
import { z } from "zod";
import { decideReceivedEInvoice, odbijanjeOf, ReceivedEInvoiceError, type DecisionInput } from "@fiskal/accounts";
import type { ReceivedEInvoice } from "@fiskal/db";
import { ApiError } from "../../errors.ts";
import type { ReportOut } from "./report.ts";
import { f2State, F2StateSchema, type F2State } from "./schemas.ts";

const amount = z.string().nullable();


const ViolationSchema = z.object({ rule: z.string().describe("Npr. BR-CO-15, HR-BR-9, UBL-XSD."), flag: z.enum(["fatal", "warning"]), message: z.string() });

export const ReceivedEInvoiceSchema = z.object({
  id: z.string().describe("Identifikator primljenog e-računa u Fiskalu."),
  direction: z.literal("received"),
  status: z.enum(["received", "accepted", "rejected"]).describe("Odluka primatelja: \"received\" (još bez odluke), \"accepted\" (prihvaćen) ili \"rejected\" (odbijen, vidi decision)."),
  document_type: z.string().nullable().describe("Vrsta dokumenta (UNTDID 1001); null ako se dokument ne može pročitati."),
  number: z.string().nullable().describe("Broj računa; null ako se dokument ne može pročitati."),
  seller_oib: z.string().nullable().describe("OIB izdavatelja (prodavatelja)."),
  seller_name: z.string().nullable(),
  buyer_oib: z.string().describe("OIB primatelja: OIB tvrtke kojoj je posrednik isporučio dokument."),
  issue_date: z.string().nullable().describe("Datum izdavanja (GGGG-MM-DD)."),
  currency: z.string().nullable(),
  totals: z.object({ net: amount, vat: amount, gross: amount }).describe("Iznos bez PDV-a (BT-109), PDV (BT-110) i iznos s PDV-om (BT-112) kako ih dokument navodi."),
  payable: amount.describe("Iznos za plaćanje (BT-115)."),
  message_id: z.string().describe("Identifikator isporuke kod posrednika."),
  received_at: z.string().describe("Kada ga je Fiskal zaprimio (ISO 8601)."),
  validation: z
    .object({
      valid: z.boolean().describe("true: bez kobnih pogrešaka."),
      checked: z.array(z.string()).describe("Provjere: xsd (UBL 2.1), en16931, hr-cius; structure i xsd gdje službeni validatori nisu instalirani."),
      violations: z.array(ViolationSchema),
    })
    .describe("Provjera istim validatorima kao za slanje. Neispravan dokument je ipak zaprimljen i čuva se."),
  decision: z
    .object({
      decided_at: z.string(),
      reason_type: z.enum(["N", "U", "O"]).nullable().describe("Odbijanje: N, U ili O (eIzvjestavanjeSchema.xsd)."),
      reason: z.string().nullable(),
      rejected_on: z.string().nullable(),
      report: z
        .object({
          status: z.string().describe("pending: šalje se; recorded: Porezna uprava je zaprimila; refused: odbila (vidi error; odbijanje se smije poslati ponovno); unknown: poslano, odgovor nije stigao."),
          request_id: z.string(),
          recorded_at: z.string().nullable(),
          attempts: z.number().int(),
          error: z.string().nullable(),
        })
        .nullable()
        .describe("Prijava odbijanja Poreznoj upravi (EvidentirajOdbijanjeZahtjev); null za prihvaćanje, koje se ne prijavljuje."),
    })
    .nullable()
    .describe("Odluka primatelja; null dok je nema."),
  fiscalization: F2StateSchema,
  created_at: z.string(),
});
export type ReceivedEInvoiceOut = z.infer<typeof ReceivedEInvoiceSchema>;

const fixed = (d: { toFixed(n: number): string } | null) => d?.toFixed(2) ?? null;

export function receivedF2State(row: ReceivedEInvoice): F2State {
  return f2State("U", row.validationStatus === "valid" ? "pending" : "not_applicable", row);
}

export function toReceivedEInvoice(row: ReceivedEInvoice): ReceivedEInvoiceOut {
  const validation = row.validation as { checked: string[]; violations: { rule: string; flag: "fatal" | "warning"; message: string }[] };
  return {
    id: row.id,
    direction: "received",
    status: row.status as ReceivedEInvoiceOut["status"],
    document_type: row.documentType,
    number: row.number,
    seller_oib: row.sellerOib,
    seller_name: row.sellerName,
    buyer_oib: row.buyerOib,
    issue_date: row.issueDate,
    currency: row.currency,
    totals: { net: fixed(row.totalNet), vat: fixed(row.totalTax), gross: fixed(row.totalGross) },
    payable: fixed(row.totalPayable),
    message_id: row.messageId,
    received_at: row.receivedAt.toISOString(),
    validation: { valid: row.validationStatus === "valid", checked: validation.checked, violations: validation.violations },
    decision: row.decidedAt
      ? {
          decided_at: row.decidedAt.toISOString(),
          reason_type: row.rejectionReasonType as "N" | "U" | "O" | null,
          reason: row.rejectionReason,
          rejected_on: row.rejectionDate,
          report: row.rejectionReportRequestId
            ? { status: row.rejectionReportStatus ?? "", request_id: row.rejectionReportRequestId, recorded_at: row.rejectionReportedAt?.toISOString() ?? null, attempts: row.rejectionReportAttempts, error: row.rejectionReportError }
            : null,
        }
      : null,
    fiscalization: receivedF2State(row),
    created_at: row.createdAt.toISOString(),
  };
}

/** The rejection report of a received e-invoice in the shape of POST /v1/einvoices/{id}/rejection's answer (its id is the e-invoice's). */
export function receivedRejectionReport(row: ReceivedEInvoice): ReportOut {
  return {
    id: row.id,
    einvoice_id: row.id,
    kind: "rejection",
    status: row.rejectionReportStatus ?? "",
    request_id: row.rejectionReportRequestId ?? "",
    data: { ...odbijanjeOf(row) },
    recorded_at: row.rejectionReportedAt?.toISOString() ?? null,
    created_at: (row.decidedAt ?? row.createdAt).toISOString(),
  };
}

/** The decision, with the package's refusals as the API's errors. */
export async function decide(db: Parameters<typeof decideReceivedEInvoice>[0], input: DecisionInput): Promise<ReceivedEInvoice> {
  try {
    return await decideReceivedEInvoice(db, input);
  } catch (err) {
    if (!(err instanceof ReceivedEInvoiceError)) throw err;
    if (err.reason === "not_found") throw new ApiError("not_found", err.message);
    if (err.reason === "already_decided") throw new ApiError("conflict", err.message, { reason: "already_decided" });
    throw new ApiError("validation_error", err.message, err.problems.length ? err.problems : [{ path: "id", message: err.message }]);
  }
}
