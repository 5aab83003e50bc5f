// Security headers on every API response: nosniff always, no-store unless a route sets its own
// caching (KPD lookups, the OpenAPI document), Strict-Transport-Security when the API is served over
// https — on success, on errors and on 429 alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applySecurityHeaders, HSTS_VALUE } from "../src/http/security-headers.ts";
import { call, callFrom, startHarness, timely, VALID_OIB, type CallResult, type Harness } from "./harness.ts";

function expectHardened(r: CallResult, opts: { hsts: boolean; cacheControl?: string }) {
  expect(r.headers.get("x-content-type-options")).toBe("nosniff");
  expect(r.headers.get("cache-control")).toBe(opts.cacheControl ?? "no-store");
  if (opts.hsts) expect(r.headers.get("strict-transport-security")).toBe(HSTS_VALUE);
  else expect(r.headers.get("strict-transport-security")).toBeNull();
}

/** A second call inside the same second on a burst of 1: the 429. */
async function refused(h: Harness): Promise<CallResult> {
  return timely(async () => {
    const small = await h.account({ plan: "ENTERPRISE", custom: { burst: 1, perMinute: 100, perDay: 1_000 } });
    const started = performance.now();
    await call(h.url, "POST", "/v1/validate/oib", { key: small.key, body: { oib: VALID_OIB } });
    const result = await call(h.url, "POST", "/v1/validate/oib", { key: small.key, body: { oib: VALID_OIB } });
    return { spanMs: performance.now() - started, result };
  }, 1_000);
}

describe("security headers over plain http", () => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await startHarness();
    key = (await h.account({ plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 10_000, perDay: 100_000 } })).key;
  });
  afterAll(() => h.close());

  it("2xx: nosniff and no-store, no HSTS", async () => {
    const r = await call(h.url, "POST", "/v1/validate/oib", { key, body: { oib: VALID_OIB } });
    expect(r.status).toBe(200);
    expectHardened(r, { hsts: false });
    const limits = await call(h.url, "GET", "/v1/limits", { key });
    expect(limits.status).toBe(200);
    expectHardened(limits, { hsts: false });
  });

  it("4xx: 401, 404, 405 and 400 carry them too", async () => {
    const unauthorized = await call(h.url, "POST", "/v1/validate/oib", { body: { oib: VALID_OIB } });
    expect(unauthorized.status).toBe(401);
    expectHardened(unauthorized, { hsts: false });
    const missing = await call(h.url, "GET", "/v1/does-not-exist", { key });
    expect(missing.status).toBe(404);
    expectHardened(missing, { hsts: false });
    const outside = await call(h.url, "GET", "/nowhere");
    expect(outside.status).toBe(404);
    expectHardened(outside, { hsts: false });
    const method = await call(h.url, "GET", "/v1/validate/oib", { key });
    expect(method.status).toBe(405);
    expectHardened(method, { hsts: false });
    const invalid = await call(h.url, "POST", "/v1/validate/oib", { key, rawBody: "{", headers: { "content-type": "application/json" } });
    expect(invalid.status).toBe(400);
    expectHardened(invalid, { hsts: false });
  });

  it("429 from the key's limits and from the per-IP limit of unauthenticated callers", async () => {
    const r = await refused(h);
    expect(r.status).toBe(429);
    expectHardened(r, { hsts: false });
    let ipRefusal: CallResult | undefined;
    for (let i = 0; i < 40 && !ipRefusal; i++) {
      const res = await callFrom("127.0.0.91", h.url, "GET", "/v1/kpd/62", { headers: { authorization: `Bearer fsk_test_${String(i).padStart(32, "y")}` } });
      if (res.status === 429) ipRefusal = res;
    }
    expect(ipRefusal?.status).toBe(429);
    expectHardened(ipRefusal!, { hsts: false });
  });

  it("KPD lookups keep their own private caching and ETag; KPD errors are not stored", async () => {
    const found = await call(h.url, "GET", "/v1/kpd/62.10.11", { key });
    expect(found.status).toBe(200);
    expect(found.headers.get("etag")).toMatch(/^"kpd-/);
    expectHardened(found, { hsts: false, cacheControl: "private, max-age=3600" });
    const confirmed = await call(h.url, "GET", "/v1/kpd/62.10.11", { key, headers: { "if-none-match": found.headers.get("etag")! } });
    expect(confirmed.status).toBe(304);
    expectHardened(confirmed, { hsts: false, cacheControl: "private, max-age=3600" });
    const unknown = await call(h.url, "GET", "/v1/kpd/99.99.99", { key });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("etag")).toBeNull();
    expectHardened(unknown, { hsts: false });
  });

  it("public routes: the OpenAPI document keeps its public caching; health answers are not stored", async () => {
    const doc = await call(h.url, "GET", "/v1/openapi.json");
    expect(doc.status).toBe(200);
    expectHardened(doc, { hsts: false, cacheControl: "public, max-age=300" });
    for (const path of ["/healthz", "/readyz", "/metrics"]) {
      const r = await call(h.url, "GET", path);
      expect(r.status).toBe(200);
      expectHardened(r, { hsts: false });
    }
  });

  it("tRPC answers carry them too", async () => {
    const ok = await call(h.url, "GET", `/trpc/limits.get`, { key });
    expect(ok.status).toBe(200);
    expectHardened(ok, { hsts: false });
    const anonymous = await call(h.url, "GET", `/trpc/limits.get`);
    expect(anonymous.status).toBe(401);
    expectHardened(anonymous, { hsts: false });
  });
});

describe("security headers behind https", () => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    // The public URL is https (TLS ends at a proxy in front of the API): every answer sends HSTS.
    h = await startHarness({ config: { apiUrl: "https://api.fiskal.test" } });
    key = (await h.account({ plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 10_000, perDay: 100_000 } })).key;
  });
  afterAll(() => h.close());

  it("2xx, 4xx and 429 all send Strict-Transport-Security", async () => {
    const ok = await call(h.url, "POST", "/v1/validate/oib", { key, body: { oib: VALID_OIB } });
    expect(ok.status).toBe(200);
    expectHardened(ok, { hsts: true });
    const unauthorized = await call(h.url, "GET", "/v1/limits");
    expect(unauthorized.status).toBe(401);
    expectHardened(unauthorized, { hsts: true });
    const missing = await call(h.url, "GET", "/v1/does-not-exist", { key });
    expect(missing.status).toBe(404);
    expectHardened(missing, { hsts: true });
    const tooMany = await refused(h);
    expect(tooMany.status).toBe(429);
    expectHardened(tooMany, { hsts: true });
    const kpd = await call(h.url, "GET", "/v1/kpd/62.10.11", { key });
    expectHardened(kpd, { hsts: true, cacheControl: "private, max-age=3600" });
    expectHardened(await call(h.url, "GET", "/healthz"), { hsts: true });
  });
});

describe("the hsts option wins over the URL", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { apiUrl: "https://api.fiskal.test", hsts: false } });
  });
  afterAll(() => h.close());

  it("an https public URL with hsts: false sends no Strict-Transport-Security", async () => {
    const r = await call(h.url, "GET", "/v1/limits");
    expect(r.status).toBe(401);
    expectHardened(r, { hsts: false });
  });
});

describe("applySecurityHeaders", () => {
  function headersOf(opts: Parameters<typeof applySecurityHeaders>[1]): Record<string, string> {
    const set: Record<string, string> = {};
    applySecurityHeaders({ setHeader: (name: string, value: string) => void (set[name.toLowerCase()] = value) }, opts);
    return set;
  }

  it("follows the public URL unless told otherwise", () => {
    expect(headersOf({ apiUrl: () => "http://127.0.0.1:3001" })).toEqual({ "x-content-type-options": "nosniff", "cache-control": "no-store" });
    expect(headersOf({ apiUrl: () => "https://api.fiskal.hr" })["strict-transport-security"]).toBe(HSTS_VALUE);
    expect(headersOf({ apiUrl: () => "HTTPS://api.fiskal.hr" })["strict-transport-security"]).toBe(HSTS_VALUE);
    expect(headersOf({ apiUrl: () => "https://api.fiskal.hr", hsts: false })["strict-transport-security"]).toBeUndefined();
    expect(headersOf({ apiUrl: () => "http://127.0.0.1:3001", hsts: true })["strict-transport-security"]).toBe(HSTS_VALUE);
    expect(headersOf({})["strict-transport-security"]).toBeUndefined();
  });

  it("the HSTS value lasts a year and covers subdomains", () => {
    expect(HSTS_VALUE).toBe("max-age=31536000; includeSubDomains");
  });
});
