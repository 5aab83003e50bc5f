// Example responses for the docs, produced by the same functions the API uses.
import { PLANS, rateLimitExceededBody, rateLimitHeaders, type Decision, type WindowState } from "@fiskal/limits";

// 21 Nov 2026 09:30:00 UTC: a fixed instant keeps the example stable.
const NOW = Date.UTC(2026, 10, 21, 9, 30, 0);
const MIDNIGHT = Date.UTC(2026, 10, 22);
const plan = PLANS.SANDBOX;

function windows(minuteRemaining: number, minuteReset: number): WindowState[] {
  return [
    { name: "burst", policy: "burst", limit: plan.burst, remaining: plan.burst - 1, reset: NOW + 1_000, windowSeconds: 1 },
    { name: "minute", policy: "minute", limit: plan.perMinute, remaining: minuteRemaining, reset: minuteReset, windowSeconds: 60 },
    { name: "day", policy: "day", limit: plan.perDay, remaining: plan.perDay - 1_877, reset: MIDNIGHT, windowSeconds: 86_400 },
  ];
}

const refusedWindows = windows(0, NOW + 12_000);
const refused: Decision = {
  allowed: false,
  windows: refusedWindows,
  binding: refusedWindows[1] as WindowState,
  retryAfterSeconds: 12,
  degraded: false,
};

const admittedWindows = windows(3, NOW + 41_000);
const admitted: Decision = { allowed: true, windows: admittedWindows, binding: admittedWindows[1] as WindowState, degraded: false };

export function examples(docUrl: string) {
  return {
    plan,
    refusedHeaders: rateLimitHeaders(refused, NOW),
    admittedHeaders: rateLimitHeaders(admitted, NOW),
    body: rateLimitExceededBody(refused, docUrl),
  };
}

export function headerBlock(status: string, headers: Record<string, string>): string {
  return [status, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join("\n");
}
