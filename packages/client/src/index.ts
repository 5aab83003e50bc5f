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
} from "./client.ts";
export { FiskalError, isFiskalError, type ApiErrorCode, type ClientErrorCode, type ErrorEnvelope, type FiskalErrorCode, type FiskalErrorInit } from "./errors.ts";
export { MemoryKpdCache, type KpdCache, type KpdCacheEntry } from "./cache.ts";
export { systemClock, type Clock } from "./clock.ts";
export type { GatePause, RateLimitStanding } from "./gate.ts";
export type * from "./types.ts";
export type { components, operations, paths } from "./generated/openapi.ts";
