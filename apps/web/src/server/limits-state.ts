// Reads where an account stands in every window of the API's limiter (the same store and prefix the
// API counts in), consuming nothing: what GET /v1/limits answers, for the operator's customer view.
import { createRateLimiter, ENDPOINT_GROUPS, type Limits, type RateLimiter, type WindowState } from "@fiskal/limits";
import { env } from "~/env";

const holder = globalThis as typeof globalThis & { __fiskalApiLimiterReader?: RateLimiter };

export function currentWindows(accountId: string, limits: Limits): Promise<WindowState[]> {
  holder.__fiskalApiLimiterReader ??= createRateLimiter({ store: env().limiterStore, prefix: env().rateLimitPrefix, redisTimeoutMs: env().rateLimitStoreTimeoutMs });
  return holder.__fiskalApiLimiterReader.peek({ identity: `acct:${accountId}`, limits, endpoints: ENDPOINT_GROUPS });
}
