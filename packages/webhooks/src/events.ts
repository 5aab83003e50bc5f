import { z } from "zod";

/**
 * Event types an endpoint can subscribe to. `webhook.test` is only sent by "send test event".
 * `invoice.fiscalized`: a receipt issued without a JIR (CIS was unreachable) got its JIR by late delivery.
 * `reporting.due`: 5 days before the 20th, the previous month still has delivered e-invoices with
 * neither a payment nor a rejection reported (eIzvještavanje); once per account and month.
 * `einvoice.received`: the intermediary delivered an e-invoice to the account (stored, valid or not).
 * `einvoice.fiscalized`: the tax authority recorded an e-invoice (Fiscalization 2.0): issued ("I") or received ("U").
 * `einvoice.rejected`: the account rejected a received e-invoice and the tax authority answered its report.
 */
export const EVENT_TYPES = ["rate_limit.warning", "invoice.fiscalized", "reporting.due", "einvoice.received", "einvoice.fiscalized", "einvoice.rejected"] as const;
export type SubscribableEventType = (typeof EVENT_TYPES)[number];
export type WebhookEventType = SubscribableEventType | "webhook.test";

export type RateLimitWarningData = {
  account_id: string;
  plan: string;
  window: "day";
  limit: number;
  used: number;
  remaining: number;
  threshold: number;
  /** ISO 8601, UTC: when the day window resets. */
  resets_at: string;
};

export type WebhookTestData = { endpoint_id: string; message: string };

export type InvoiceFiscalizedData = {
  invoice_id: string;
  /** BrOznRac/OznPosPr/OznNapUr, e.g. "123/POSL1/1". */
  number: string;
  oib: string;
  jir: string;
  zki: string;
  /** ISO 8601: when the receipt was issued (to the buyer, with its ZKI only). */
  issued_at: string;
  /** ISO 8601: when CIS received the late delivery. */
  fiscalized_at: string;
  /** Always true: the receipt went to CIS with NakDost (late delivery). */
  late_delivery: true;
  /** Calls made to CIS for this receipt. */
  attempts: number;
};

export type ReportingDueData = {
  account_id: string;
  /** The month reported, "YYYY-MM". */
  period: string;
  /** "YYYY-MM-DD": the 20th of the following month, the last day to report it. */
  deadline: string;
  /** Delivered e-invoices of the period with neither a payment nor a rejection reported. */
  unreported_einvoices: number;
  /** Up to 20 of them, oldest first. */
  examples: { id: string; number: string; issue_date: string }[];
};

export type EInvoiceReceivedData = {
  einvoice_id: string;
  direction: "received";
  /** The intermediary's message id of the delivery. */
  message_id: string;
  /** null where the document cannot be read (then valid is false). */
  number: string | null;
  document_type: string | null;
  seller_oib: string | null;
  seller_name: string | null;
  buyer_oib: string;
  issue_date: string | null;
  currency: string | null;
  totals: { net: string | null; vat: string | null; gross: string | null; payable: string | null };
  /** No fatal violation of the UBL 2.1 XSD, EN 16931 or HR CIUS. */
  valid: boolean;
  /** The fatal violations (at most 20). */
  violations: { rule: string; message: string }[];
  /** ISO 8601: when Fiskal stored it. */
  received_at: string;
};

export type EInvoiceFiscalizedData = {
  einvoice_id: string;
  direction: "issued" | "received";
  /** vrstaERacuna: "I" issued, "U" received. */
  type: "I" | "U";
  number: string;
  seller_oib: string;
  buyer_oib: string | null;
  /** The id of the EvidentirajERacunZahtjev the tax authority confirmed. */
  request_id: string;
  /** ISO 8601: when the tax authority recorded it. */
  fiscalized_at: string;
  attempts: number;
};

export type EInvoiceRejectedData = {
  einvoice_id: string;
  direction: "received";
  number: string;
  seller_oib: string;
  buyer_oib: string;
  /** N, U or O (eIzvjestavanjeSchema.xsd). */
  reason_type: string;
  reason: string;
  /** GGGG-MM-DD */
  rejected_on: string;
  /** The report to the tax authority (EvidentirajOdbijanjeZahtjev): "recorded" or "refused" (with error). */
  report: { status: string; request_id: string; recorded_at: string | null; error: string | null };
};

export type EventData = {
  "rate_limit.warning": RateLimitWarningData;
  "invoice.fiscalized": InvoiceFiscalizedData;
  "reporting.due": ReportingDueData;
  "einvoice.received": EInvoiceReceivedData;
  "einvoice.fiscalized": EInvoiceFiscalizedData;
  "einvoice.rejected": EInvoiceRejectedData;
  "webhook.test": WebhookTestData;
};

/** The JSON body of every delivery. */
export type WebhookPayload<T extends WebhookEventType = WebhookEventType> = {
  type: T;
  /** ISO 8601, UTC: when the event happened (not when it was delivered). */
  timestamp: string;
  data: EventData[T];
};

const storedPayload = z.object({ type: z.string(), timestamp: z.string(), data: z.record(z.string(), z.unknown()) });

/**
 * The exact bytes sent: key order fixed here because PostgreSQL jsonb does not keep the order the
 * payload was written in.
 */
export function serializePayload(stored: unknown): string {
  const p = storedPayload.parse(stored);
  return JSON.stringify({ type: p.type, timestamp: p.timestamp, data: p.data });
}
