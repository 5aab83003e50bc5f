export {
  ANONYMOUS_LIMITS,
  ANONYMOUS_SCOPE,
  anonymousDecision,
  ENDPOINT_GROUPS,
  ENDPOINT_LIMITS,
  InvalidLimitsError,
  PLANS,
  STATUS_LIMITS,
  MAX_DAY_LIMIT,
  MAX_ROLLING_LIMIT,
  assertLimits,
  endpointLimit,
  limitsFor,
  type AccountLimitsInput,
  type EndpointGroup,
  type Limits,
  type PlanName,
} from "./policy.ts";
export {
  CustomLimits,
  CustomLimitsBounds,
  CustomLimitsHr,
  customLimitsSchema,
  describeLimitIssues,
  isPlanName,
  isUpgrade,
  LIMITS_ORDER_MESSAGE,
  PLAN_NAMES,
  SELF_SERVICE_PLANS,
} from "./plans.ts";
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
export { forwardedClientIp } from "./client-ip.ts";
