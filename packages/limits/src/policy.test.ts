import { describe, expect, it } from "vitest";
import { ANONYMOUS_LIMITS, ENDPOINT_LIMITS, InvalidLimitsError, PLANS, endpointLimit, limitsFor } from "./policy.ts";

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
