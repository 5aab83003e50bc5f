// The common envelope and the rate-limit headers on every kind of /v1 response.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, timely, callFrom, startHarness, VALID_OIB, type CallResult, type Harness } from "./harness.ts";

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness();
  key = (await h.account({ plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 10_000, perDay: 100_000 } })).key;
});
afterAll(() => h.close());

function expectRateLimitHeaders(r: CallResult) {
  expect(r.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
  expect(r.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  const reset = Number(r.headers.get("x-ratelimit-reset"));
  expect(reset).toBeGreaterThan(Date.now() / 1000 - 1);
  expect(reset).toBeLessThan(Date.now() / 1000 + 86_401);
  expect(r.headers.get("x-request-id")).toMatch(/^req_[\w-]+$/);
  expect(r.headers.get("ratelimit-policy")).toBeTruthy();
  expect(r.headers.get("ratelimit")).toBeTruthy();
}

function expectEnvelope(r: CallResult, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  expect(r.body.error.code).toBe(code);
  expect(typeof r.body.error.message).toBe("string");
  expect(r.body.error.message.length).toBeGreaterThan(5);
  expect(r.body.error.doc_url).toMatch(/^http:\/\/portal\.test\/docs\//);
}

describe("headers and the error envelope", () => {
  it("2xx", async () => {
    const r = await call(h.url, "POST", "/v1/validate/oib", { key, body: { oib: VALID_OIB } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ oib: VALID_OIB, valid: true });
    expectRateLimitHeaders(r);
    expect(r.headers.get("retry-after")).toBeNull();
  });

  it("accepts application/json with a charset", async () => {
    const r = await call(h.url, "POST", "/v1/validate/oib", {
      key,
      rawBody: JSON.stringify({ oib: "69435151531" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ oib: "69435151531", valid: false, reason: "checksum" });
  });

  it("401 for a missing, malformed, unknown key — limited per IP, still with headers", async () => {
    for (const authorization of [undefined, "Bearer nope", "Bearer fsk_test_" + "A".repeat(32), "Basic abc"]) {
      const r = await call(h.url, "POST", "/v1/validate/oib", { body: { oib: VALID_OIB }, headers: authorization ? { authorization } : {} });
      expectEnvelope(r, 401, "unauthorized");
      expectRateLimitHeaders(r);
    }
  });

  it("404 for unknown routes and unknown ids", async () => {
    const route = await call(h.url, "GET", "/v1/does-not-exist", { key });
    expectEnvelope(route, 404, "not_found");
    expectRateLimitHeaders(route);
    const code = await call(h.url, "GET", "/v1/kpd/99.99.99", { key });
    expectEnvelope(code, 404, "not_found");
    expectRateLimitHeaders(code);
    const invoice = await call(h.url, "GET", "/v1/invoices/01a1ffe7-7988-761f-be46-1c06ddf857cd", { key });
    expectEnvelope(invoice, 404, "not_found");
  });

  it("405 with Allow for a known path under another method", async () => {
    const r = await call(h.url, "GET", "/v1/validate/oib", { key });
    expectEnvelope(r, 405, "method_not_allowed");
    expect(r.headers.get("allow")).toBe("POST");
  });

  it("413 for bodies over 1 MB", async () => {
    const r = await call(h.url, "POST", "/v1/validate/oib/batch", {
      key,
      rawBody: JSON.stringify({ oibs: ["x".repeat(1_100_000)] }),
      headers: { "content-type": "application/json" },
    });
    expectEnvelope(r, 413, "payload_too_large");
    expectRateLimitHeaders(r);
  });

  it("415 for other content types", async () => {
    const r = await call(h.url, "POST", "/v1/validate/oib", { key, rawBody: "oib=1", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expectEnvelope(r, 415, "unsupported_media_type");
    expectRateLimitHeaders(r);
  });

  it("400 for malformed JSON and for schema violations, with details", async () => {
    const bad = await call(h.url, "POST", "/v1/validate/oib", { key, rawBody: '{"oib":', headers: { "content-type": "application/json" } });
    expectEnvelope(bad, 400, "validation_error");
    expectRateLimitHeaders(bad);
    const schema = await call(h.url, "POST", "/v1/validate/oib/batch", { key, body: { oibs: [] } });
    expectEnvelope(schema, 400, "validation_error");
    expect(schema.body.error.details[0].path).toBe("oibs");
    const tooMany = await call(h.url, "POST", "/v1/validate/oib/batch", { key, body: { oibs: Array(101).fill(VALID_OIB) } });
    expectEnvelope(tooMany, 400, "validation_error");
  });

  it("429 carries Retry-After beside the headers", async () => {
    const r = await timely(async () => {
      const small = await h.account({ plan: "ENTERPRISE", custom: { burst: 1, perMinute: 100, perDay: 1_000 } });
      const started = performance.now();
      await call(h.url, "POST", "/v1/validate/oib", { key: small.key, body: { oib: VALID_OIB } });
      const result = await call(h.url, "POST", "/v1/validate/oib", { key: small.key, body: { oib: VALID_OIB } });
      return { spanMs: performance.now() - started, result };
    }, 1_000);
    expectEnvelope(r, 429, "rate_limit_exceeded");
    expectRateLimitHeaders(r);
    expect(r.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
  });

  it("requests without a valid key are throttled per IP; a valid key from that address is not", async () => {
    const guesser = "127.0.0.77";
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const guess = `Bearer fsk_test_${String(i).padStart(32, "x")}`;
      statuses.push((await callFrom(guesser, h.url, "GET", "/v1/kpd/62", { headers: { authorization: guess } })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
    // A valid key is decided by its account's windows alone: tenants sharing the address are not
    // blocked by another's traffic (a 32-character key is not guessed at any speed).
    const valid = await callFrom(guesser, h.url, "GET", "/v1/kpd/62", { key });
    expect(valid.status).toBe(200);
    // Another address with the same key is unaffected.
    expect((await callFrom("127.0.0.78", h.url, "GET", "/v1/kpd/62", { key })).status).toBe(200);
  });
});

describe("KPD caching and batch", () => {
  it("sends an ETag and answers If-None-Match with 304", async () => {
    const first = await call(h.url, "GET", "/v1/kpd/01.11.11", { key });
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"kpd-/);
    expect(first.headers.get("cache-control")).toContain("max-age");
    const second = await call(h.url, "GET", "/v1/kpd/01.11.11", { key, headers: { "if-none-match": etag } });
    expect(second.status).toBe(304);
    expect(second.text).toBe("");
    expectRateLimitHeaders(second);
  });

  it("finds Pšenica without diacritics and batches up to 100 codes as one request", async () => {
    const s = await call(h.url, "GET", "/v1/kpd/search?q=psenica&limit=5", { key });
    expect(s.status).toBe(200);
    expect(s.body.results.some((r: { name: string }) => r.name.includes("Pšenica"))).toBe(true);
    const before = Number((await call(h.url, "GET", "/v1/limits", { key })).body.windows.find((w: { name: string }) => w.name === "minute").remaining);
    const b = await call(h.url, "GET", "/v1/kpd/batch?codes=62.10.11,01.11.11,99.99.99", { key });
    expect(b.status).toBe(200);
    expect(b.body.found).toBe(2);
    expect(b.body.missing).toEqual(["99.99.99"]);
    const after = Number((await call(h.url, "GET", "/v1/limits", { key })).body.windows.find((w: { name: string }) => w.name === "minute").remaining);
    expect(before - after).toBe(1);
  });

  it("KPD search reports the real total and pages with offset", async () => {
    const first = await call(h.url, "GET", "/v1/kpd/search?q=usluge&limit=3", { key });
    expect(first.status).toBe(200);
    expect(first.body.results).toHaveLength(3);
    expect(first.body.total).toBeGreaterThan(100);
    const six = await call(h.url, "GET", "/v1/kpd/search?q=usluge&limit=6", { key });
    const next = await call(h.url, "GET", "/v1/kpd/search?q=usluge&limit=3&offset=3", { key });
    expect(next.body).toMatchObject({ total: first.body.total, offset: 3 });
    expect(next.body.results.map((r: { code: string }) => r.code)).toEqual(six.body.results.slice(3).map((r: { code: string }) => r.code));
    const bad = await call(h.url, "GET", "/v1/kpd/search?q=usluge&offset=-1", { key });
    expect(bad.status).toBe(400);
  });
});

describe("service endpoints", () => {
  it("serves health, readiness, metrics and the OpenAPI document", async () => {
    expect((await call(h.url, "GET", "/healthz")).status).toBe(200);
    const ready = await call(h.url, "GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.checks.database).toBe("ok");
    const metrics = await call(h.url, "GET", "/metrics");
    expect(metrics.text).toContain("fiskal_ratelimit_decisions_total");
    expect(metrics.text).toContain("fiskal_http_request_duration_seconds_bucket");
    const doc = await call(h.url, "GET", "/v1/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(["/v1/invoices/fiscalize", "/v1/einvoices/send", "/v1/kpd/{code}", "/v1/kpd/search", "/v1/kpd/batch", "/v1/validate/oib", "/v1/validate/oib/batch"]),
    );
    expectRateLimitHeaders(doc);
  });
});

describe("client address behind proxies", () => {
  it("takes the address the trusted proxy wrote, not the one the client claims", async () => {
    const proxied = await startHarness({ config: { trustProxyHops: 1 } });
    try {
      const statuses: number[] = [];
      // Each request claims a fresh address on the left; the proxy-written entry (right) is constant.
      for (let i = 0; i < 40; i++) {
        const r = await call(proxied.url, "GET", "/v1/kpd/62", { headers: { "x-forwarded-for": `9.9.9.${i % 250}, 198.51.100.7` } });
        statuses.push(r.status);
      }
      expect(statuses).toContain(429);
      // A long or malformed entry falls back to the socket address instead of failing.
      const odd = await call(proxied.url, "GET", "/v1/kpd/62", { headers: { "x-forwarded-for": "x".repeat(300) } });
      expect([401, 429]).toContain(odd.status);
      expect(odd.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    } finally {
      await proxied.close();
    }
  });
});

describe("GET /v1/limits", () => {
  it("takes nothing from the account's quota but has its own allowance", async () => {
    const { small, statuses } = await timely(async () => {
      const small = await h.account({ plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 5, perDay: 100 } });
      const started = performance.now();
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) statuses.push((await call(h.url, "GET", "/v1/limits", { key: small.key })).status);
      return { spanMs: performance.now() - started, result: { small, statuses } };
    }, 1_000);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses).toContain(429);
    // None of that touched the account's own windows.
    for (let i = 0; i < 5; i++) expect((await call(h.url, "POST", "/v1/validate/oib", { key: small.key, body: { oib: VALID_OIB } })).status).toBe(200);
    expect((await call(h.url, "POST", "/v1/validate/oib", { key: small.key, body: { oib: VALID_OIB } })).status).toBe(429);
  });
});
