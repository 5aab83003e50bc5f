import { describe, expect, it } from "vitest";
import { thresholdUsage, warningDedupeKey, windowDay } from "./detector.ts";
import { generateSecret, messageId, uuidv7 } from "./ids.ts";
import { DEFAULT_RETRY_DELAYS_MS, MAX_RETRY_AFTER_MS, nextAttemptDelay } from "./schedule.ts";
import { parseRetryAfter } from "./send.ts";

describe("retry schedule", () => {
  it("is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and then stops", () => {
    const delays = [1, 2, 3, 4, 5, 6].map((n) => nextAttemptDelay(DEFAULT_RETRY_DELAYS_MS, n, null));
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    expect(nextAttemptDelay(DEFAULT_RETRY_DELAYS_MS, 7, null)).toBeNull();
  });

  it("lets Retry-After postpone but not advance a retry, up to a day", () => {
    expect(nextAttemptDelay([1_000], 1, 60_000)).toBe(60_000);
    expect(nextAttemptDelay([300_000], 1, 1_000)).toBe(300_000);
    expect(nextAttemptDelay([1_000], 1, 30 * 86_400_000)).toBe(MAX_RETRY_AFTER_MS);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-21T12:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 12:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe("warning threshold", () => {
  it("needs the first whole request at or above 80 %", () => {
    expect(thresholdUsage(10, 0.8)).toBe(8);
    expect(thresholdUsage(10, 0.7)).toBe(7);
    expect(thresholdUsage(1000, 0.8)).toBe(800);
    expect(thresholdUsage(7, 0.8)).toBe(6);
    expect(thresholdUsage(1, 0.8)).toBe(1);
  });

  it("names the UTC day that ends at the window reset", () => {
    expect(windowDay(Date.UTC(2026, 10, 22))).toBe("2026-11-21");
    expect(windowDay(Date.UTC(2027, 0, 1))).toBe("2026-12-31");
    expect(warningDedupeKey("2026-11-21", 3)).toBe("rate_limit.warning:2026-11-21:v3");
  });
});

describe("ids and secrets", () => {
  it("makes whsec_ secrets of 32 random bytes", () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it("makes time-ordered UUIDv7 ids and msg_ message ids", () => {
    const a = uuidv7(1_000);
    const b = uuidv7(2_000);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a < b).toBe(true);
    expect(messageId()).toMatch(/^msg_[0-9a-f]{32}$/);
  });
});
