export {
  FiskalClient,
  MAX_BATCH,
  retryAfterSeconds,
  type CallOptions,
  type FiskalClientOptions,
  type FiskalResponse,
  type IdempotentCallOptions,
  type RateLimitOptions,
  type RequestSpec,
  type RetryEvent,
  type RetryOptions,
} from "./client.js";
export { FiskalError, isFiskalError, type ApiErrorCode, type ClientErrorCode, type ErrorEnvelope, type FiskalErrorCode, type FiskalErrorInit } from "./errors.js";
export { MemoryKpdCache, type KpdCache, type KpdCacheEntry, type MemoryKpdCacheOptions } from "./cache.js";
export { redisPacingStore, type PacingStore, type PacingWindow, type RedisCommandSender, type RedisPacingOptions } from "./pacing-store.js";
export { systemClock, type Clock } from "./clock.js";
export { allEInvoices, allInvoices, allReceivedEInvoices, autoPage, listEInvoices, listInvoices, type EInvoiceListParams, type InvoiceListParams, type ListPage } from "./pagination.js";
export type { GatePause, RateLimitStanding, RateLimitWindow } from "./gate.js";
export type {
  EInvoice,
  EInvoiceDocument,
  EInvoiceRejection,
  EInvoiceReport,
  FiscalizeRequest,
  Invoice,
  KpdBatchResult,
  KpdCode,
  KpdSearchParams,
  KpdSearchResult,
  Limits,
  LimitWindow,
  ListedEInvoice,
  OibBatchResult,
  OibResult,
  ReceivedEInvoice,
  ReceivedEInvoiceDocument,
  SendEInvoiceRequest,
} from "./types.js";
export type { components, operations, paths } from "./generated/openapi.js";
