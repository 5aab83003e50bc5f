export { createMeter, MeterError } from "./meter.ts";
export type { Meter, MeterOptions, UsageRecord } from "./meter.ts";
export { usageSummary, requestsToday } from "./summary.ts";
export type { UsageSummary, PeriodTotals, DailyUsage, HourlyUsage, EndpointUsage } from "./summary.ts";
export { recentRequests } from "./recent.ts";
export type { RecentRequest, RecentRequestsOptions } from "./recent.ts";
export { pruneUsageEvents } from "./retention.ts";
export type { PruneOptions, PruneResult } from "./retention.ts";
