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
/** An e-invoice with its UBL 2.1 XML. */
export type EInvoiceDocument = Ok<"einvoices-get">;

export type KpdCode = Ok<"kpd-get">;
export type KpdSearchParams = Query<"kpd-search">;
export type KpdSearchResult = Ok<"kpd-search">;
export type KpdBatchResult = Ok<"kpd-batch">;

export type OibResult = Ok<"oib-validate">;
export type OibBatchResult = Ok<"oib-validateBatch">;

export type Limits = Ok<"limits-get">;
export type LimitWindow = Limits["windows"][number];
