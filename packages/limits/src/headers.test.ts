import { describe, expect, it } from "vitest";
import { rateLimitExceededBody, rateLimitHeaders, sekundi } from "./headers.ts";
import type { Decision, WindowState } from "./types.ts";

describe("sekundi", () => {
  it.each([
    [0, "0 sekundi"],
    [1, "1 sekundu"],
    [2, "2 sekunde"],
    [3, "3 sekunde"],
    [4, "4 sekunde"],
    [5, "5 sekundi"],
    [10, "10 sekundi"],
    [11, "11 sekundi"],
    [12, "12 sekundi"],
    [13, "13 sekundi"],
    [14, "14 sekundi"],
    [15, "15 sekundi"],
    [20, "20 sekundi"],
    [21, "21 sekundu"],
    [22, "22 sekunde"],
    [24, "24 sekunde"],
    [25, "25 sekundi"],
    [101, "101 sekundu"],
    [104, "104 sekunde"],
    [111, "111 sekundi"],
    [112, "112 sekundi"],
    [114, "114 sekundi"],
    [121, "121 sekundu"],
    [1001, "1001 sekundu"],
    [86400, "86400 sekundi"],
  ])("%i → %s", (n, expected) => {
    expect(sekundi(n)).toBe(expected);
  });

  it("rejects non-integers", () => {
    expect(() => sekundi(1.5)).toThrow(RangeError);
    expect(() => sekundi(-1)).toThrow(RangeError);
  });
});

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0, 250);
const w = (name: WindowState["name"], policy: string, limit: number, remaining: number, resetIn: number, windowSeconds: number): WindowState => ({
  name,
  policy,
  limit,
  remaining,
  reset: NOW + resetIn,
  resetInMs: resetIn,
  windowSeconds,
});

describe("rateLimitHeaders", () => {
  it("on admit describes the binding window and lists every window in the IETF fields", () => {
    const windows = [
      w("burst", "burst", 10, 9, 1_001, 1),
      w("minute", "minute", 60, 3, 59_500, 60),
      w("endpoint", "endpoint:kpd", 300, 290, 60_000, 60),
      w("day", "day", 10_000, 9_000, 43_199_750, 86_400),
    ];
    const d: Decision = { allowed: true, windows, binding: windows[1]!, degraded: false, decidedAt: NOW };
    expect(rateLimitHeaders(d)).toEqual({
      "X-RateLimit-Limit": "60",
      "X-RateLimit-Remaining": "3",
      "X-RateLimit-Reset": String(Math.ceil((NOW + 59_500) / 1000)),
      "RateLimit-Policy": '"burst";q=10;w=1, "minute";q=60;w=60, "endpoint:kpd";q=300;w=60, "day";q=10000;w=86400',
      RateLimit: '"burst";r=9;t=2, "minute";r=3;t=60, "endpoint:kpd";r=290;t=60, "day";r=9000;t=43200',
    });
  });

  it("on refuse describes the refusing window and adds Retry-After, equal to its t", () => {
    const windows = [
      w("burst", "burst", 10, 0, 400, 1),
      w("minute", "minute", 60, 40, 61_000, 60),
      w("day", "day", 10_000, 9_000, 43_199_750, 86_400),
    ];
    const d: Decision = { allowed: false, windows, binding: windows[0]!, retryAfterSeconds: 1, degraded: false, decidedAt: NOW };
    const h = rateLimitHeaders(d);
    expect(h["Retry-After"]).toBe("1");
    expect(h["X-RateLimit-Limit"]).toBe("10");
    expect(h["X-RateLimit-Remaining"]).toBe("0");
    expect(h["X-RateLimit-Reset"]).toBe(String(Math.ceil((NOW + 400) / 1000)));
    expect(h.RateLimit).toBe('"burst";r=0;t=1, "minute";r=40;t=61, "day";r=9000;t=43200');
  });

  it("an unused window has t=0 and resets now, rounded up to whole Unix seconds", () => {
    const windows = [w("burst", "burst", 10, 10, 0, 1)];
    const h = rateLimitHeaders({ allowed: true, windows, binding: windows[0]!, degraded: false, decidedAt: NOW });
    expect(h["X-RateLimit-Reset"]).toBe(String(Math.ceil(NOW / 1000)));
    expect(h.RateLimit).toBe('"burst";r=10;t=0');
    expect(h["Retry-After"]).toBeUndefined();
  });

  it("on refuse X-RateLimit-Reset is when the window admits, rounded up: never early, never after now + Retry-After", () => {
    const windows = [w("minute", "minute", 60, 0, 20_001, 60)];
    const h = rateLimitHeaders({ allowed: false, windows, binding: windows[0]!, retryAfterSeconds: 21, degraded: false, decidedAt: NOW });
    expect(h["Retry-After"]).toBe("21");
    expect(h.RateLimit).toBe('"minute";r=0;t=21');
    expect(Number(h["X-RateLimit-Reset"]) * 1000).toBeGreaterThanOrEqual(NOW + 20_001);
    expect(Number(h["X-RateLimit-Reset"])).toBeLessThanOrEqual(Math.ceil(NOW / 1000) + 21);
    expect(h["X-RateLimit-Reset"]).toBe(String(Math.ceil((NOW + 20_001) / 1000)));
  });

  describe("every absolute instant is on the store's clock, the decision's own", () => {
    // the store decided at 23:59:59.998 UTC; this process's clock reads something else entirely
    const STORE_NOW = Date.UTC(2026, 10, 26, 23, 59, 59, 998);
    const MIDNIGHT = Date.UTC(2026, 10, 27);
    const at = (name: WindowState["name"], limit: number, remaining: number, resetInMs: number, windowSeconds: number): WindowState => ({
      name,
      policy: name,
      limit,
      remaining,
      reset: STORE_NOW + resetInMs,
      resetInMs,
      windowSeconds,
    });

    it("the day's X-RateLimit-Reset is exactly 00:00 UTC, admitted or refused, whatever the local clock", () => {
      expect(Math.abs(Date.now() - STORE_NOW)).toBeGreaterThan(1_000);
      const windows = [at("burst", 100, 99, 1_000, 1), at("minute", 1_000, 998, 59_000, 60), at("day", 10, 2, MIDNIGHT - STORE_NOW, 86_400)];
      const admitted = rateLimitHeaders({ allowed: true, windows, binding: windows[2]!, degraded: false, decidedAt: STORE_NOW });
      expect(admitted["X-RateLimit-Reset"]).toBe(String(MIDNIGHT / 1000));
      expect(admitted.RateLimit).toBe('"burst";r=99;t=1, "minute";r=998;t=59, "day";r=2;t=1');

      const full = [at("burst", 100, 99, 1_000, 1), at("minute", 1_000, 998, 59_000, 60), at("day", 10, 0, MIDNIGHT - STORE_NOW, 86_400)];
      const refused = rateLimitHeaders({ allowed: false, windows: full, binding: full[2]!, retryAfterSeconds: 1, degraded: false, decidedAt: STORE_NOW });
      expect(refused["X-RateLimit-Reset"]).toBe(String(MIDNIGHT / 1000));
      expect(refused["Retry-After"]).toBe("1");
    });

    it("a rolling window's reset is the store's instant rounded up, not the local clock's", () => {
      const windows = [at("minute", 60, 0, 20_001, 60)];
      const h = rateLimitHeaders({ allowed: false, windows, binding: windows[0]!, retryAfterSeconds: 21, degraded: false, decidedAt: STORE_NOW });
      // 23:59:59.998 + 20.001 s = 00:00:19.999 → 00:00:20
      expect(h["X-RateLimit-Reset"]).toBe(String(MIDNIGHT / 1000 + 20));
    });

    it("the same on a decision whose store clock is ahead of the local one", () => {
      const ahead = Date.now() + 3_600_000;
      const day = Math.floor(ahead / 86_400_000) + 1;
      const w: WindowState = { name: "day", policy: "day", limit: 5, remaining: 4, reset: day * 86_400_000, resetInMs: day * 86_400_000 - ahead, windowSeconds: 86_400 };
      expect(rateLimitHeaders({ allowed: true, windows: [w], binding: w, degraded: false, decidedAt: ahead })["X-RateLimit-Reset"]).toBe(String(day * 86_400));
    });
  });
});

describe("rateLimitExceededBody", () => {
  const windows = [w("minute", "minute", 60, 0, 22_000, 60)];
  const refused: Decision = { allowed: false, windows, binding: windows[0]!, retryAfterSeconds: 22, degraded: false, decidedAt: NOW };

  it("has exactly the error envelope and names the Retry-After seconds in Croatian", () => {
    const body = rateLimitExceededBody(refused, "https://portal.example/docs/rate-limits");
    expect(Object.keys(body)).toEqual(["error"]);
    expect(Object.keys(body.error)).toEqual(["code", "message", "doc_url"]);
    expect(body.error.code).toBe("rate_limit_exceeded");
    expect(body.error.doc_url).toBe("https://portal.example/docs/rate-limits");
    expect(body.error.message).toContain("za 22 sekunde.");
    expect(JSON.stringify(body)).toMatch(/^\{"error":\{"code":"rate_limit_exceeded","message":"[^"]+","doc_url":"https:\/\/portal\.example\/docs\/rate-limits"\}\}$/);
  });

  it("uses the singular for one second", () => {
    expect(rateLimitExceededBody({ ...refused, retryAfterSeconds: 1 }, "/d").error.message).toContain("za 1 sekundu.");
  });

  it("refuses to describe an admitted decision", () => {
    expect(() => rateLimitExceededBody({ ...refused, allowed: true, retryAfterSeconds: undefined }, "/d")).toThrow();
  });
});
