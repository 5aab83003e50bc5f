// Example responses for the docs, produced by the same functions the API uses. The window states are
// what the limiter answers in the scenarios the page describes (Sandbox, POST /v1/validate/oib).
import { ENDPOINT_LIMITS, PLANS, rateLimitExceededBody, rateLimitHeaders, type Decision, type WindowState } from "@fiskal/limits";

const plan = PLANS.SANDBOX;
const MIDNIGHT = Date.UTC(2026, 10, 22);

/** The first request of the day at 12:00:00.300 UTC, this one at 12:00:20.000. */
const ADMIT_AT = Date.UTC(2026, 10, 21, 12, 0, 20);
const FIRST_AT = Date.UTC(2026, 10, 21, 12, 0, 0, 300);

/**
 * At 12:10:00.000: 60 requests since 12:09:20.400 (the last 3 after 12:09:59.000), 1,877 today.
 * The minute window is full until 12:09:20.400 leaves it, 20.4 s later.
 */
const REFUSE_AT = Date.UTC(2026, 10, 21, 12, 10, 0);

function win(name: WindowState["name"], policy: string, limit: number, windowSeconds: number, remaining: number, resetInMs: number, now: number): WindowState {
  return { name, policy, limit, remaining, reset: now + resetInMs, resetInMs, windowSeconds };
}

function windows(now: number, s: { burst: [number, number]; minute: [number, number]; oib: [number, number]; day: number }): WindowState[] {
  return [
    win("burst", "burst", plan.burst, 1, s.burst[0], s.burst[1], now),
    win("minute", "minute", plan.perMinute, 60, s.minute[0], s.minute[1], now),
    win("endpoint", "endpoint:oib", ENDPOINT_LIMITS.oib.perMinute, 60, s.oib[0], s.oib[1], now),
    win("day", "day", plan.perDay, 86_400, s.day, MIDNIGHT - now, now),
  ];
}

// burst: only this request (leaves in 1 s); minute and endpoint: both, the older leaves at 12:01:00.300
const admittedWindows = windows(ADMIT_AT, {
  burst: [plan.burst - 1, 1_000],
  minute: [plan.perMinute - 2, FIRST_AT + 60_000 - ADMIT_AT],
  oib: [ENDPOINT_LIMITS.oib.perMinute - 2, FIRST_AT + 60_000 - ADMIT_AT],
  day: plan.perDay - 2,
});
const admitted: Decision = {
  allowed: true,
  windows: admittedWindows,
  // the fewest remaining
  binding: admittedWindows[0] as WindowState,
  degraded: false,
  decidedAt: ADMIT_AT,
};

// nothing of the refused request is counted: the windows as they stand
const refusedWindows = windows(REFUSE_AT, {
  burst: [plan.burst - 3, 400],
  minute: [0, 20_400],
  oib: [ENDPOINT_LIMITS.oib.perMinute - 60, 20_400],
  day: plan.perDay - 1_877,
});
const refused: Decision = {
  allowed: false,
  windows: refusedWindows,
  binding: refusedWindows[1] as WindowState,
  retryAfterSeconds: 21,
  degraded: false,
  decidedAt: REFUSE_AT,
};

export function examples(docUrl: string) {
  return {
    plan,
    admitted,
    refused,
    refusedHeaders: rateLimitHeaders(refused),
    admittedHeaders: rateLimitHeaders(admitted),
    body: rateLimitExceededBody(refused, docUrl),
  };
}

export function headerBlock(status: string, headers: Record<string, string>): string {
  return [status, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join("\n");
}
