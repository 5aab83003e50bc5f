import { describe, expect, it } from "vitest";
import { rateLimitHeaders } from "./headers.ts";
import { ANONYMOUS_LIMITS, ENDPOINT_LIMITS, InvalidLimitsError, PLANS, anonymousDecision, endpointLimit, limitsFor } from "./policy.ts";
import type { Decision, WindowState } from "./types.ts";

describe("plans", () => {
  it("grant the limits of DESIGN §4", () => {
    expect(PLANS).toEqual({
      SANDBOX: { burst: 10, perMinute: 60, perDay: 10_000 },
      STARTER: { burst: 20, perMinute: 120, perDay: 50_000 },
      BUSINESS: { burst: 50, perMinute: 300, perDay: 200_000 },
    });
    expect(Object.fromEntries(Object.entries(ENDPOINT_LIMITS).map(([k, v]) => [k, v.perMinute]))).toEqual({
      fiscalize: 30,
      einvoice: 60,
      kpd: 300,
      oib: 300,
    });
    expect(ANONYMOUS_LIMITS).toEqual({ burst: 5, perMinute: 30, perDay: 1_000 });
  });

  it("limitsFor returns the plan's limits, a copy the caller may not mutate into the table", () => {
    const l = limitsFor({ plan: "STARTER", customBurst: 999 });
    expect(l).toEqual(PLANS.STARTER);
    l.burst = 1;
    expect(PLANS.STARTER.burst).toBe(20);
  });

  it("limitsFor ENTERPRISE returns the custom values", () => {
    expect(limitsFor({ plan: "ENTERPRISE", customBurst: 100, customPerMinute: 1_000, customPerDay: 1_000_000 })).toEqual({
      burst: 100,
      perMinute: 1_000,
      perDay: 1_000_000,
    });
  });

  it("limitsFor ENTERPRISE throws, naming what is missing or invalid", () => {
    expect(() => limitsFor({ plan: "ENTERPRISE", customBurst: 100, customPerMinute: null })).toThrow(
      /customPerMinute, customPerDay/,
    );
    expect(() => limitsFor({ plan: "ENTERPRISE", customBurst: 0, customPerMinute: 1.5, customPerDay: 10 })).toThrow(
      InvalidLimitsError,
    );
  });

  it("limitsFor ENTERPRISE carries custom endpoint limits and validates them", () => {
    const base = { plan: "ENTERPRISE" as const, customBurst: 100, customPerMinute: 1_000, customPerDay: 1_000_000 };
    const l = limitsFor({ ...base, customEndpointLimits: { oib: 5_000 } });
    expect(l.endpoints).toEqual({ oib: 5_000 });
    expect(endpointLimit(l, "oib")).toBe(5_000);
    expect(endpointLimit(l, "fiscalize")).toBe(30);
    expect(() => limitsFor({ ...base, customEndpointLimits: { oib: 0 } })).toThrow(/endpoints\.oib/);
    expect(() => limitsFor({ ...base, customEndpointLimits: { admin: 5 } })).toThrow(/not an endpoint group/);
    expect(() => limitsFor({ ...base, customEndpointLimits: { toString: 5 } })).toThrow(/not an endpoint group/);
    expect(() => limitsFor({ ...base, customEndpointLimits: [1] })).toThrow(InvalidLimitsError);
    expect(limitsFor({ plan: "BUSINESS", customEndpointLimits: { oib: 5_000 } }).endpoints).toBeUndefined();
  });

  it("limitsFor rejects an unknown plan", () => {
    expect(() => limitsFor({ plan: "GOLD" as never })).toThrow(/unknown plan GOLD/);
  });
});

describe("anonymousDecision", () => {
  const NOW = Date.UTC(2026, 10, 26, 9, 0, 0, 500);
  const w = (name: WindowState["name"], limit: number, remaining: number, resetInMs: number, windowSeconds: number): WindowState => ({
    name,
    policy: name,
    limit,
    remaining,
    reset: NOW + resetInMs,
    resetInMs,
    windowSeconds,
  });
  const windows = [w("burst", 5, 0, 300, 1), w("minute", 30, 20, 50_000, 60), w("day", 1_000, 990, 53_999_500, 86_400)];
  const refused: Decision = { allowed: false, windows, binding: windows[0]!, retryAfterSeconds: 1, degraded: false, decidedAt: NOW };

  it("names every window ip:…, keeps the counts and the binding window", () => {
    const d = anonymousDecision(refused);
    expect(d.windows.map((x) => x.policy)).toEqual(["ip:burst", "ip:minute", "ip:day"]);
    expect(d.windows.map((x) => x.name)).toEqual(["burst", "minute", "day"]);
    expect(d.binding).toBe(d.windows[0]);
    expect(d).toMatchObject({ allowed: false, retryAfterSeconds: 1, decidedAt: NOW });
    // the decision it came from is left as it was
    expect(refused.windows[0]!.policy).toBe("burst");
  });

  it("in the headers no anonymous window has an account window's name", () => {
    const h = rateLimitHeaders(anonymousDecision(refused));
    expect(h["RateLimit-Policy"]).toBe('"ip:burst";q=5;w=1, "ip:minute";q=30;w=60, "ip:day";q=1000;w=86400');
    // the binding window's t is Retry-After
    expect(h.RateLimit).toBe('"ip:burst";r=0;t=1, "ip:minute";r=20;t=50, "ip:day";r=990;t=54000');
    expect(h["Retry-After"]).toBe("1");
  });
});
