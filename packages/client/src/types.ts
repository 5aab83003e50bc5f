// Request and response types of the v1 API, taken from the generated OpenAPI types so they
// follow the server's schemas (regenerate with `pnpm --filter @fiskal/client generate`).
import type { operations } from "./generated/openapi.js";

type JsonBody<Op extends keyof operations> = operations[Op] extends { requestBody: { content: { "application/json": infer B } } } ? B : never;
type Ok<Op extends keyof operations> = operations[Op]["responses"] extends { 200: { content: { "application/json": infer R } } } ? R : never;
type Query<Op extends keyof operations> = operations[Op]["parameters"] extends { query: infer Q } ? Q : never;

export type FiscalizeRequest = JsonBody<"invoices-fiscalize">;
export type Invoice = Ok<"invoices-fiscalize">;
export type SendEInvoiceRequest = JsonBody<"einvoices-send">;
export type EInvoice = Ok<"einvoices-send">;
/** An e-invoice with its UBL 2.1 XML: issued or received (`direction`), with its Fiscalization 2.0 state. */
export type EInvoiceDocument = Ok<"einvoices-get">;
/** An e-invoice as listed (without its UBL): issued or received, told apart by `direction`. */
export type ListedEInvoice = Ok<"einvoices-list">["data"][number];
/** A received e-invoice as listed: with its validation, the recipient's decision and its Fiscalization 2.0 (type U). */
export type ReceivedEInvoice = Extract<ListedEInvoice, { direction: "received" }>;
/** A received e-invoice as POST /v1/einvoices/{id}/acceptance answers it. */
export type ReceivedEInvoiceDocument = Ok<"einvoices-acceptance">;
/** The recipient's rejection (art. 52): date, reason type N, U or O, and reason. */
export type EInvoiceRejection = Omit<JsonBody<"einvoices-rejection">, "id">;
/** An eIzvještavanje report (payment or rejection) and where it stands with the tax authority. */
export type EInvoiceReport = Ok<"einvoices-rejection">;

export type KpdCode = Ok<"kpd-get">;
export type KpdSearchParams = Query<"kpd-search">;
export type KpdSearchResult = Ok<"kpd-search">;
export type KpdBatchResult = Ok<"kpd-batch">;

export type OibResult = Ok<"oib-validate">;
export type OibBatchResult = Ok<"oib-validateBatch">;

export type Limits = Ok<"limits-get">;
export type LimitWindow = Limits["windows"][number];
