// Many tenants behind one address (a vendor's NAT, carrier-grade NAT, a proxy): one integration
// without a valid key must not block the others. A request with a valid key is decided by its
// account's windows only; the address's anonymous windows ("ip:burst", "ip:minute", "ip:day") count
// and refuse requests without one, and are named apart from an account's in every header. And the day
// window's X-RateLimit-Reset is exactly the next 00:00 UTC.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS_LIMITS, PLANS } from "@fiskal/limits";
import { call, callFrom, startHarness, VALID_OIB, type CallResult, type Harness } from "./harness.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DAY_S = 86_400;

const ANONYMOUS_POLICY = `"ip:burst";q=${ANONYMOUS_LIMITS.burst};w=1, "ip:minute";q=${ANONYMOUS_LIMITS.perMinute};w=60, "ip:day";q=${ANONYMOUS_LIMITS.perDay};w=86400`;
const SANDBOX_OIB_POLICY = `"burst";q=${PLANS.SANDBOX.burst};w=1, "minute";q=${PLANS.SANDBOX.perMinute};w=60, "endpoint:oib";q=300;w=60, "day";q=${PLANS.SANDBOX.perDay};w=86400`;

type Send = (opts?: { key?: string; headers?: Record<string, string> }) => Promise<CallResult>;

/**
 * Requests without a key from one address until its anonymous minute window refuses: the 401s it
 * admitted are exactly the minute's quota, and the refusal names the address's window.
 */
async function exhaustAnonymousMinute(send: Send): Promise<CallResult> {
  let admitted = 0;
  for (let i = 0; i < 200; i++) {
    const r = await send();
    expect(r.headers.get("ratelimit-policy")).toBe(ANONYMOUS_POLICY);
    if (r.status === 401) {
      admitted++;
      continue;
    }
    expect(r.status).toBe(429);
    if (r.headers.get("x-ratelimit-limit") === String(ANONYMOUS_LIMITS.perMinute)) {
      expect(admitted).toBe(ANONYMOUS_LIMITS.perMinute);
      expect(r.headers.get("ratelimit")).toMatch(/"ip:minute";r=0;t=\d+/);
      return r;
    }
    // the burst window refused: wait until it admits again
    expect(r.headers.get("ratelimit")).toMatch(/"ip:burst";r=0;t=1/);
    await sleep(Number(r.headers.get("retry-after")) * 1000);
  }
  throw new Error("the anonymous minute window never refused");
}

/** The request-log row of a response, written by the meter's next flush. */
async function loggedRow(h: Harness, r: CallResult) {
  await h.api.services.meter.flush();
  const requestId = r.headers.get("x-request-id")!;
  return h.api.services.db.usageEvent.findFirst({ where: { requestId } });
}

async function expectServedUnderKey(h: Harness, r: CallResult, account: { id: string; keyId: string }) {
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ oib: VALID_OIB, valid: true });
  // the account's windows, and nothing of the address's
  expect(r.headers.get("ratelimit-policy")).toBe(SANDBOX_OIB_POLICY);
  expect(r.headers.get("ratelimit")).not.toContain("ip:");
  expect(r.headers.get("retry-after")).toBeNull();
  expect(r.headers.get("x-ratelimit-limit")).toBe(String(PLANS.SANDBOX.burst));
  expect(r.headers.get("x-ratelimit-remaining")).toBe(String(PLANS.SANDBOX.burst - 1));
  const row = await loggedRow(h, r);
  expect(row).toMatchObject({ accountId: account.id, apiKeyId: account.keyId, status: 200, refused: false, endpoint: "POST /v1/validate/oib", rateWindow: "burst" });
}

describe("an address over its anonymous quota", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  it("still serves a valid key from it, by the key's account, and logs it under the key", async () => {
    const address = "127.0.71.1";
    const account = await h.account({ plan: "SANDBOX" });
    const refused = await exhaustAnonymousMinute((o) => callFrom(address, h.url, "POST", "/v1/validate/oib", { body: { oib: VALID_OIB }, ...o }));
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(1);

    const served = await callFrom(address, h.url, "POST", "/v1/validate/oib", { key: account.key, body: { oib: VALID_OIB } });
    await expectServedUnderKey(h, served, account);

    // requests without a valid key from the address are still refused, by the address's windows
    const revokedKey = await h.account({ plan: "SANDBOX" });
    await h.api.services.db.apiKey.update({ where: { id: revokedKey.keyId }, data: { revokedAt: new Date() } });
    for (const authorization of [undefined, "Bearer nope", `Bearer fsk_test_${"Z".repeat(32)}`, `Bearer ${revokedKey.key}`]) {
      const r = await callFrom(address, h.url, "POST", "/v1/validate/oib", { body: { oib: VALID_OIB }, headers: authorization ? { authorization } : {} });
      expect(r.status, String(authorization)).toBe(429);
      expect(r.body.error.code).toBe("rate_limit_exceeded");
      expect(r.headers.get("ratelimit-policy")).toBe(ANONYMOUS_POLICY);
      expect(r.headers.get("x-ratelimit-limit")).toBe(String(ANONYMOUS_LIMITS.perMinute));
    }

    // and the valid key keeps being served, counted in its account's windows only
    const again = await callFrom(address, h.url, "POST", "/v1/validate/oib", { key: account.key, body: { oib: VALID_OIB } });
    expect(again.status).toBe(200);
    expect(again.headers.get("ratelimit")).toMatch(new RegExp(`"minute";r=${PLANS.SANDBOX.perMinute - 2};`));
  });

  it("a valid key takes nothing from its address's anonymous windows; an unknown well-formed key does", async () => {
    const address = "127.0.71.2";
    const account = await h.account({ plan: "SANDBOX" });
    for (let i = 0; i < 3; i++) {
      expect((await callFrom(address, h.url, "POST", "/v1/validate/oib", { key: account.key, body: { oib: VALID_OIB } })).status).toBe(200);
    }
    const windows = () => h.api.services.limiter.peek({ identity: `ip:${address}`, limits: ANONYMOUS_LIMITS });
    expect((await windows()).map((w) => w.remaining)).toEqual([ANONYMOUS_LIMITS.burst, ANONYMOUS_LIMITS.perMinute, ANONYMOUS_LIMITS.perDay]);

    const unknown = await callFrom(address, h.url, "POST", "/v1/validate/oib", { key: `fsk_live_${"u".repeat(32)}`, body: { oib: VALID_OIB } });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("ratelimit")).toMatch(/^"ip:burst";r=4;t=1, "ip:minute";r=29;t=60, "ip:day";r=999;t=\d+$/);
    expect((await windows()).map((w) => w.remaining)).toEqual([ANONYMOUS_LIMITS.burst - 1, ANONYMOUS_LIMITS.perMinute - 1, ANONYMOUS_LIMITS.perDay - 1]);
  });
});

describe("the same behind trusted proxies (X-Forwarded-For)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { trustProxyHops: 2 } });
  });
  afterAll(() => h?.close());

  it("the forwarded client address over its anonymous quota still gets a valid key served", async () => {
    const client = "198.51.100.23";
    // the client wrote a spoofed entry first; the two trusted proxies appended what they saw
    const forwarded = { "x-forwarded-for": `10.9.9.9, ${client}, 10.0.0.5` };
    const account = await h.account({ plan: "SANDBOX" });
    const send: Send = (o = {}) => call(h.url, "POST", "/v1/validate/oib", { body: { oib: VALID_OIB }, key: o.key, headers: { ...forwarded, ...o.headers } });
    await exhaustAnonymousMinute(send);

    const served = await send({ key: account.key });
    await expectServedUnderKey(h, served, account);

    // the client without a key is still refused; another client behind the same proxies is not
    expect((await send()).status).toBe(429);
    const other = await call(h.url, "POST", "/v1/validate/oib", { body: { oib: VALID_OIB }, headers: { "x-forwarded-for": `${client}, 198.51.100.24, 10.0.0.5` } });
    expect(other.status).toBe(401);
    expect(other.headers.get("ratelimit")).toMatch(/^"ip:burst";r=4;t=1, "ip:minute";r=29;t=60, /);
  });
});

describe("X-RateLimit-Reset of the day window", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  it("is exactly the next 00:00 UTC on every admitted and refused response", async () => {
    // the day binds: it has the fewest requests left on every admit, and it is the one that refuses
    const perDay = 60;
    const account = await h.account({ plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 10_000, perDay } });
    const statuses: number[] = [];
    for (let i = 0; i < perDay + 20; i++) {
      const before = Date.now();
      const r = await call(h.url, "POST", "/v1/validate/oib", { key: account.key, body: { oib: VALID_OIB } });
      const after = Date.now();
      statuses.push(r.status);
      expect(r.headers.get("x-ratelimit-limit")).toBe(String(perDay));
      const reset = Number(r.headers.get("x-ratelimit-reset"));
      expect(reset % DAY_S, `X-RateLimit-Reset ${reset} (${new Date(reset * 1000).toISOString()})`).toBe(0);
      // the next midnight of the moment the request was decided
      expect([Math.floor(before / 1000 / DAY_S) + 1, Math.floor(after / 1000 / DAY_S) + 1]).toContain(reset / DAY_S);
      // the day's t in RateLimit counts down to the same instant
      const t = Number(/"day";r=\d+;t=(\d+)/.exec(r.headers.get("ratelimit")!)![1]);
      expect(reset - t).toBeGreaterThanOrEqual(Math.floor(before / 1000) - 1);
      expect(reset - t).toBeLessThanOrEqual(Math.ceil(after / 1000));
      if (r.status === 429) expect(r.headers.get("retry-after")).toBe(String(t));
    }
    expect(statuses).toEqual([...Array<number>(perDay).fill(200), ...Array<number>(20).fill(429)]);
  });
});
