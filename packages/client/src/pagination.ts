// Auto-paging over the list endpoints (GET /v1/invoices, GET /v1/einvoices): each page is one
// request through the client, so pacing, retries and the rate-limit headers apply to every page.
import type { CallOptions, FiskalClient } from "./client.js";
import type { EInvoice, Invoice, ListedEInvoice, ReceivedEInvoice } from "./types.js";

/** One page of a list: newest first; `next_cursor` fetches the next with the same filters. */
export interface ListPage<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

interface Paging {
  /** Documents per request, 1–100 (default 100 here, 20 on the API). */
  limit?: number;
  /** Start after this next_cursor instead of at the newest document. */
  cursor?: string;
  /** Issued on or after this day (GGGG-MM-DD, Zagreb). */
  from?: string;
  /** Issued on or before this day (GGGG-MM-DD, Zagreb). */
  to?: string;
}

export interface InvoiceListParams extends Paging {
  status?: "fiscalized" | "pending";
  number?: string;
  premises?: string;
  device?: string;
  buyer_oib?: string;
}

export interface EInvoiceListParams extends Paging {
  /** "issued" (default) or "received". */
  direction?: "issued" | "received";
  /** Issued: pending, accepted, queued, rejected (the intermediary's answer). Received: received, accepted, rejected (the recipient's decision). */
  status?: "pending" | "accepted" | "queued" | "rejected" | "received";
  document_type?: EInvoice["document_type"];
  number?: string;
  buyer_oib?: string;
  seller_oib?: string;
}

function query(params: object): Record<string, string | number | undefined> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
}

/** GET /v1/invoices: one page. */
export async function listInvoices(client: FiskalClient, params: InvoiceListParams = {}, options: CallOptions = {}): Promise<ListPage<Invoice>> {
  return (await client.request<ListPage<Invoice>>({ ...options, method: "GET", path: "/v1/invoices", query: query(params) })).data;
}

/** GET /v1/einvoices: one page. */
export async function listEInvoices(client: FiskalClient, params: EInvoiceListParams = {}, options: CallOptions = {}): Promise<ListPage<ListedEInvoice>> {
  return (await client.request<ListPage<ListedEInvoice>>({ ...options, method: "GET", path: "/v1/einvoices", query: query(params) })).data;
}

/**
 * Every item of a cursor-paged list, a page at a time as the loop consumes them. Stop the loop
 * (`break`) and no further page is fetched.
 */
export async function* autoPage<T, P extends { cursor?: string }>(fetchPage: (params: P) => Promise<ListPage<T>>, params: P): AsyncGenerator<T, void, undefined> {
  let cursor = params.cursor;
  for (;;) {
    const page = await fetchPage({ ...params, ...(cursor !== undefined ? { cursor } : {}) });
    yield* page.data;
    if (!page.has_more || page.next_cursor === null) return;
    cursor = page.next_cursor;
  }
}

/** Every receipt matching the filters, newest first: `for await (const r of allInvoices(fiskal, { from: "2026-11-01" })) …`. */
export function allInvoices(client: FiskalClient, params: InvoiceListParams = {}, options: CallOptions = {}): AsyncGenerator<Invoice, void, undefined> {
  return autoPage((p: InvoiceListParams) => listInvoices(client, p, options), { limit: 100, ...params });
}

/** Every e-invoice matching the filters, newest first: `for await (const e of allEInvoices(fiskal, { status: "rejected" })) …`. */
export function allEInvoices(client: FiskalClient, params: EInvoiceListParams = {}, options: CallOptions = {}): AsyncGenerator<ListedEInvoice, void, undefined> {
  return autoPage((p: EInvoiceListParams) => listEInvoices(client, p, options), { limit: 100, ...params });
}

/** Every received e-invoice matching the filters, newest first: `for await (const e of allReceivedEInvoices(fiskal, { status: "received" })) …`. */
export async function* allReceivedEInvoices(client: FiskalClient, params: Omit<EInvoiceListParams, "direction"> = {}, options: CallOptions = {}): AsyncGenerator<ReceivedEInvoice, void, undefined> {
  for await (const e of allEInvoices(client, { ...params, direction: "received" }, options)) if (e.direction === "received") yield e;
}
