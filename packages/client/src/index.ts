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
export { MemoryKpdCache, type KpdCache, type KpdCacheEntry } from "./cache.js";
export { systemClock, type Clock } from "./clock.js";
export type { GatePause, RateLimitStanding, RateLimitWindow } from "./gate.js";
export type {
  EInvoice,
  EInvoiceDocument,
  FiscalizeRequest,
  Invoice,
  KpdBatchResult,
  KpdCode,
  KpdSearchParams,
  KpdSearchResult,
  Limits,
  LimitWindow,
  OibBatchResult,
  OibResult,
  SendEInvoiceRequest,
} from "./types.js";
export type { components, operations, paths } from "./generated/openapi.js";
