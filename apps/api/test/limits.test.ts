// DESIGN §4 through the real HTTP stack, on the shared Redis store and on the in-process store.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPlan } from "@fiskal/accounts";
import { call, startHarness, timely, trpcClient, VALID_OIB, type Harness } from "./harness.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const oib = (h: Harness, key: string) => call(h.url, "POST", "/v1/validate/oib", { key, body: { oib: VALID_OIB } });

describe.each(["redis", "memory"] as const)("rate limits over REST (%s store)", (store) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ store });
  });
  afterAll(() => h.close());

  it("admits exactly the burst limit out of 200 simultaneous requests", async () => {
    // the precondition, retried on a fresh account: all 200 answered within one second, so the
    // rolling burst window never had room for more than 50 of them
    const results = await timely(async () => {
      const a = await h.account({ plan: "ENTERPRISE", custom: { burst: 50, perMinute: 10_000, perDay: 100_000 } });
      // warm the key cache (/v1/limits consumes nothing) and open the connections beforehand
      await call(h.url, "GET", "/v1/limits", { key: a.key });
      await Promise.all(Array.from({ length: 200 }, () => call(h.url, "GET", "/healthz")));
      const started = performance.now();
      const result = await Promise.all(Array.from({ length: 200 }, () => oib(h, a.key)));
      return { spanMs: performance.now() - started, result };
    }, 1_000);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150);
  });

  it("does not let minute-limit refusals drain the daily quota", async () => {
    const a = await h.account({ plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 20, perDay: 1_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await oib(h, a.key)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    const refused = await oib(h, a.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit")).toMatch(/"minute";r=0/);
    const limits = await call(h.url, "GET", "/v1/limits", { key: a.key });
    const day = limits.body.windows.find((w: { name: string }) => w.name === "day");
    expect(day.remaining).toBe(1_000 - 20);
  });

  it("refuses one endpoint at its dedicated limit while other endpoints still work", async () => {
    const a = await h.account({ plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 5_000, perDay: 100_000 } });
    const codes = await Promise.all(Array.from({ length: 300 }, () => call(h.url, "GET", "/v1/kpd/62.10.11", { key: a.key })));
    expect(codes.every((r) => r.status === 200)).toBe(true);
    const refusedLookup = await call(h.url, "GET", "/v1/kpd/search?q=psenica", { key: a.key });
    expect(refusedLookup.status).toBe(429);
    expect(refusedLookup.headers.get("x-ratelimit-limit")).toBe("300");
    expect(refusedLookup.body.error.code).toBe("rate_limit_exceeded");
    const other = await oib(h, a.key);
    expect(other.status).toBe(200);
  });

  it("judges requests by the new plan as soon as the change is announced", async () => {
    const a = await h.account({ plan: "SANDBOX" });
    const before = await oib(h, a.key);
    expect(before.headers.get("ratelimit-policy")).toContain('"minute";q=60;w=60');
    const changedAt = Date.now();
    await setPlan(h.api.services.db, a.id, "BUSINESS");
    // PostgreSQL delivers the NOTIFY asynchronously; it must land well inside the 5 s cache lifetime.
    let policy = "";
    while (Date.now() - changedAt < 500) {
      policy = (await oib(h, a.key)).headers.get("ratelimit-policy") ?? "";
      if (policy.includes('"minute";q=300;w=60')) break;
    }
    expect(policy).toContain('"minute";q=300;w=60');
    expect(policy).toContain('"burst";q=50;w=1');
  });

  it("admits a client that waits exactly Retry-After", async () => {
    const { key, refused } = await timely(async () => {
      const a = await h.account({ plan: "ENTERPRISE", custom: { burst: 3, perMinute: 1_000, perDay: 10_000 } });
      await call(h.url, "GET", "/v1/limits", { key: a.key }); // warms the key cache, counts nothing
      const started = performance.now();
      const admitted = [];
      for (let i = 0; i < 3; i++) admitted.push((await oib(h, a.key)).status);
      const refused = await oib(h, a.key);
      return { spanMs: performance.now() - started, result: { key: a.key, admitted, refused } };
    }, 1_000);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.body.error.message).toContain(`${retryAfter} sekund`);
    // the IETF field names the same wait for the refusing window
    expect(refused.headers.get("ratelimit")).toContain(`"burst";r=0;t=${retryAfter}`);
    await sleep(retryAfter * 1000);
    expect((await oib(h, key)).status).toBe(200);
  });

  it("returns the exact 429 body and the binding window in the headers", async () => {
    const a = await h.account({ plan: "ENTERPRISE", custom: { burst: 2, perMinute: 2, perDay: 10_000 } });
    await oib(h, a.key);
    await oib(h, a.key);
    const r = await oib(h, a.key);
    expect(r.status).toBe(429);
    expect(Object.keys(r.body)).toEqual(["error"]);
    expect(Object.keys(r.body.error).sort()).toEqual(["code", "doc_url", "message"]);
    expect(r.body.error.code).toBe("rate_limit_exceeded");
    expect(r.body.error.doc_url).toBe("http://portal.test/docs/rate-limits#odgovor-429");
    expect(r.headers.get("x-ratelimit-limit")).toBe("2");
    expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
    // refused by the minute, which admits again when the first request is 60 s old
    expect(r.headers.get("retry-after")).toMatch(/^(59|60)$/);
    const reset = Number(r.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(Date.now() / 1000 + 58);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
  });
});

describe("rate limits over tRPC", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("applies the same limits and carries code, message and doc_url in error.data", async () => {
    // the same 200 calls on an account that no limit refuses: they open the connections and warm the
    // client's and the server's tRPC path, so that the counted calls fit in one second on a slow host
    const warm = await h.account({ plan: "ENTERPRISE", custom: { burst: 10_000, perMinute: 10_000, perDay: 100_000 } });
    const warmClient = trpcClient(h.url, warm.key);
    await Promise.all(Array.from({ length: 200 }, () => warmClient.oib.validate.mutate({ oib: VALID_OIB })));
    const outcomes = await timely(async () => {
      const a = await h.account({ plan: "ENTERPRISE", custom: { burst: 50, perMinute: 10_000, perDay: 100_000 } });
      const client = trpcClient(h.url, a.key);
      await client.limits.get.query();
      const started = performance.now();
      const result = await Promise.allSettled(Array.from({ length: 200 }, () => client.oib.validate.mutate({ oib: VALID_OIB })));
      return { spanMs: performance.now() - started, result };
    }, 1_000);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(50);
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(rejected).toHaveLength(150);
    const data = rejected[0]!.reason.data;
    expect(data.code).toBe("rate_limit_exceeded");
    expect(data.doc_url).toBe("http://portal.test/docs/rate-limits#odgovor-429");
    expect(data.message).toMatch(/\d+ sekund/);
    expect(data.httpStatus).toBe(429);
  });

  it("shares one quota with REST and sends the headers on /trpc responses", async () => {
    const a = await h.account({ plan: "ENTERPRISE", custom: { burst: 100, perMinute: 4, perDay: 1_000 } });
    expect((await oib(h, a.key)).status).toBe(200);
    expect((await oib(h, a.key)).status).toBe(200);
    const client = trpcClient(h.url, a.key);
    await client.oib.validate.mutate({ oib: VALID_OIB });
    await client.kpd.get.query({ code: "62.10.11" });
    const res = await fetch(`${h.url}/trpc/oib.validate`, {
      method: "POST",
      headers: { authorization: `Bearer ${a.key}`, "content-type": "application/json" },
      body: JSON.stringify({ oib: VALID_OIB }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(res.headers.get("x-ratelimit-limit")).toBe("4");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    const body = (await res.json()) as { error: { data: { code: string } } };
    expect(body.error.data.code).toBe("rate_limit_exceeded");
  });

  it("refuses a missing key with unauthorized in error.data", async () => {
    const client = trpcClient(h.url);
    await expect(client.oib.validate.mutate({ oib: VALID_OIB })).rejects.toMatchObject({ data: { code: "unauthorized", httpStatus: 401 } });
  });
});
