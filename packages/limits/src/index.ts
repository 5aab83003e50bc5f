export {
  ANONYMOUS_LIMITS,
  ENDPOINT_GROUPS,
  ENDPOINT_LIMITS,
  InvalidLimitsError,
  PLANS,
  assertLimits,
  endpointLimit,
  limitsFor,
  type AccountLimitsInput,
  type EndpointGroup,
  type Limits,
  type PlanName,
} from "./policy.ts";
export type {
  DecideInput,
  Decision,
  RateLimitEvent,
  RateLimiter,
  StoreConfig,
  WindowName,
  WindowState,
} from "./types.ts";
export { createRateLimiter, type RateLimiterOptions } from "./limiter.ts";
export { rateLimitExceededBody, rateLimitHeaders, sekundi, type RateLimitExceededBody } from "./headers.ts";
export { storeConfigFrom, type StoreSettings } from "./store-config.ts";
export { bindingWindow } from "./algorithm.ts";
