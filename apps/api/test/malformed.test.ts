// Requests Node's HTTP parser rejects, CONNECT, slow or short requests, absolute-form targets and
// the connection cap: every one is answered in the error envelope with X-Request-Id and the
// per-IP rate-limit headers, then the connection is closed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, PORTAL, startHarness, type Harness } from "./harness.ts";
import { rawExchange, type RawResponse } from "./raw-http.ts";

const REQUEST_TIMEOUT_MS = 1_000;

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness({ config: { http: { requestTimeoutMs: REQUEST_TIMEOUT_MS, headersTimeoutMs: REQUEST_TIMEOUT_MS } } });
  key = (await h.account({ plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 10_000, perDay: 100_000 } })).key;
});
afterAll(() => h?.close());

// Each case comes from an address of its own, so the per-IP quota of one never answers another.
let nextAddress = 0;
const freshAddress = () => `127.0.${40 + Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

function expectEnvelope(r: RawResponse | undefined, status: number, code: string) {
  expect(r, "no parseable HTTP response").toBeDefined();
  expect(r!.status).toBe(status);
  expect(r!.headers["content-type"]).toMatch(/^application\/json/);
  expect(r!.body?.error?.code).toBe(code);
  expect(typeof r!.body.error.message).toBe("string");
  expect(r!.body.error.message.length).toBeGreaterThan(5);
  expect(r!.body.error.doc_url).toBe(code === "rate_limit_exceeded" ? `${PORTAL}/docs/rate-limits#odgovor-429` : `${PORTAL}/docs/errors#${code}`);
  expectHeaders(r!);
}

function expectHeaders(r: RawResponse) {
  expect(r.headers["x-request-id"]).toMatch(/^req_[\w-]+$/);
  expect(r.headers["x-ratelimit-limit"]).toMatch(/^\d+$/);
  expect(r.headers["x-ratelimit-remaining"]).toMatch(/^\d+$/);
  const reset = Number(r.headers["x-ratelimit-reset"]);
  expect(reset).toBeGreaterThan(Date.now() / 1000 - 2);
  expect(r.headers["ratelimit-policy"]).toMatch(/"(ip:)?minute"/);
  expect(r.headers["ratelimit"]).toMatch(/"(ip:)?minute"/);
}

const GET = (path: string, extra = "") => `GET ${path} HTTP/1.1\r\nHost: api.test\r\n${extra}\r\n`;

describe("what Node's HTTP parser rejects is answered in the envelope", () => {
  const cases: { name: string; bytes: string; status: number; code: string }[] = [
    { name: "an unknown method", bytes: "FOO /v1/limits HTTP/1.1\r\nHost: api.test\r\n\r\n", status: 405, code: "method_not_allowed" },
    { name: "a lower-case method", bytes: "get /v1/limits HTTP/1.1\r\nHost: api.test\r\n\r\n", status: 405, code: "method_not_allowed" },
    { name: "a TLS handshake on the plain port", bytes: "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", status: 400, code: "malformed_request" },
    { name: "CR inside a header value", bytes: GET("/v1/limits", "X-A: a\rb\r\n"), status: 400, code: "malformed_request" },
    { name: "LF inside a header value", bytes: GET("/v1/limits", "X-A: a\nb\r\n"), status: 400, code: "malformed_request" },
    { name: "NUL inside a header value", bytes: GET("/v1/limits", "X-A: a\0b\r\n"), status: 400, code: "malformed_request" },
    { name: "an obs-fold continuation line", bytes: GET("/v1/limits", "X-A: a\r\n  b\r\n"), status: 400, code: "malformed_request" },
    { name: "a header without a colon", bytes: GET("/v1/limits", "Bogus\r\n"), status: 400, code: "malformed_request" },
    {
      name: "both Content-Length and Transfer-Encoding",
      bytes: "POST /v1/validate/oib HTTP/1.1\r\nHost: api.test\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      status: 400,
      code: "malformed_request",
    },
    { name: "a Content-Length that is not a number", bytes: "POST /v1/validate/oib HTTP/1.1\r\nHost: api.test\r\nContent-Length: abc\r\n\r\n", status: 400, code: "malformed_request" },
    { name: "a negative Content-Length", bytes: "POST /v1/validate/oib HTTP/1.1\r\nHost: api.test\r\nContent-Length: -1\r\n\r\n", status: 400, code: "malformed_request" },
    {
      name: "two different Content-Lengths",
      bytes: "POST /v1/validate/oib HTTP/1.1\r\nHost: api.test\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
      status: 400,
      code: "malformed_request",
    },
    { name: "headers over 16 KB", bytes: GET("/v1/limits", `X-Big: ${"a".repeat(17_000)}\r\n`), status: 431, code: "headers_too_large" },
    { name: "a URL over 16 KB", bytes: GET(`/v1/kpd/${"1".repeat(17_000)}`), status: 431, code: "headers_too_large" },
    { name: "an HTTP/1.1 request without Host", bytes: "GET /v1/limits HTTP/1.1\r\n\r\n", status: 400, code: "malformed_request" },
    { name: "a space inside the target", bytes: GET("/v1/kpd/62 10"), status: 400, code: "malformed_request" },
    { name: "raw non-ASCII in the target", bytes: GET("/v1/kpd/\xc4\x8d"), status: 400, code: "malformed_request" },
    { name: "an unknown HTTP version", bytes: "GET /v1/limits HTTP/9.9\r\nHost: api.test\r\n\r\n", status: 400, code: "malformed_request" },
    { name: "an HTTP/2 preface", bytes: "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", status: 400, code: "malformed_request" },
    {
      name: "a malformed chunk size in a body being read",
      bytes: "POST /v1/validate/oib HTTP/1.1\r\nHost: api.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      status: 400,
      code: "malformed_request",
    },
    {
      name: "a transfer coding other than chunked",
      bytes: "POST /v1/validate/oib HTTP/1.1\r\nHost: api.test\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n",
      status: 400,
      code: "malformed_request",
    },
    {
      name: "chunk extensions over the parser's limit",
      bytes: `POST /v1/validate/oib HTTP/1.1\r\nHost: api.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1;${"a".repeat(20_000)}\r\nx\r\n0\r\n\r\n`,
      status: 413,
      code: "payload_too_large",
    },
  ];

  for (const c of cases) {
    it(`${c.name} → ${c.status} ${c.code}`, async () => {
      const ex = await rawExchange(h.api.port, [c.bytes], { localAddress: freshAddress(), untilClose: true, waitMs: 3_000 });
      expect(ex.received.length, "the server answered nothing").toBeGreaterThan(0);
      expectEnvelope(ex.responses[0], c.status, c.code);
      expect(ex.responses[0]!.headers.connection).toBe("close");
      expect(ex.responses).toHaveLength(1);
      expect(ex.closed).toBe(true);
      if (c.code === "method_not_allowed") expect(ex.responses[0]!.headers.allow).toMatch(/^[A-Z, ]+$/);
    });
  }

  it("CONNECT → 405 method_not_allowed instead of a silent close", async () => {
    const ex = await rawExchange(h.api.port, ["CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"], {
      localAddress: freshAddress(),
      untilClose: true,
      waitMs: 3_000,
    });
    expectEnvelope(ex.responses[0], 405, "method_not_allowed");
    expect(ex.responses[0]!.headers.allow).toBeTruthy();
    expect(ex.responses[0]!.headers.connection).toBe("close");
    expect(ex.closed).toBe(true);
  });

  it("an unknown Expect value is not a bare 417: it is a 417 in the envelope", async () => {
    const ex = await rawExchange(h.api.port, [GET("/v1/limits", "Expect: coffee\r\n")], { localAddress: freshAddress() });
    expectEnvelope(ex.responses[0], 417, "expectation_failed");
  });

  it("a malformed request behind a good one on the same connection: both answered, in order", async () => {
    const ex = await rawExchange(h.api.port, [GET("/v1/limits", `Authorization: Bearer ${key}\r\n`) + "FOO /v1/limits HTTP/1.1\r\nHost: api.test\r\n\r\n"], {
      localAddress: freshAddress(),
      expect: 2,
      untilClose: true,
      waitMs: 3_000,
    });
    expect(ex.responses.map((r) => r.status)).toEqual([200, 405]);
    expectHeaders(ex.responses[0]!);
    expectEnvelope(ex.responses[1], 405, "method_not_allowed");
  });

  it("each rejected request counts against the sender's per-IP quota", async () => {
    const address = freshAddress();
    const minuteLeft: number[] = [];
    for (let i = 0; i < 3; i++) {
      const ex = await rawExchange(h.api.port, [GET("/v1/limits", "X-A: a\0b\r\n")], { localAddress: address, untilClose: true });
      expectEnvelope(ex.responses[0], 400, "malformed_request");
      minuteLeft.push(Number(/"ip:minute";r=(\d+)/.exec(ex.responses[0]!.headers.ratelimit!)![1]));
    }
    expect(minuteLeft).toEqual([29, 28, 27]);
  });
});

describe("slow and short requests", () => {
  it("a body shorter than its Content-Length is answered 408 within the request timeout", async () => {
    const ex = await rawExchange(
      h.api.port,
      [
        `POST /v1/validate/oib HTTP/1.1\r\nHost: api.test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"oib":`,
      ],
      { localAddress: freshAddress(), untilClose: true, waitMs: 10_000 },
    );
    expectEnvelope(ex.responses[0], 408, "request_timeout");
    expect(ex.responses[0]!.headers.connection).toBe("close");
    // The account's own windows: the gate had admitted the request before its body stalled.
    expect(ex.responses[0]!.headers["ratelimit-policy"]).toContain('"minute";q=10000');
    expect(ex.elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(ex.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1_500);
    expect(ex.closed).toBe(true);
  });

  it("on /trpc too, in the envelope", async () => {
    const ex = await rawExchange(
      h.api.port,
      [
        `POST /trpc/oib.validate HTTP/1.1\r\nHost: api.test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"oib":`,
      ],
      { localAddress: freshAddress(), untilClose: true, waitMs: 10_000 },
    );
    expectEnvelope(ex.responses[0], 408, "request_timeout");
    expect(ex.responses).toHaveLength(1);
    expect(ex.closed).toBe(true);
  });

  it("headers that never end are answered 408 within the headers timeout", async () => {
    const ex = await rawExchange(h.api.port, ["GET /v1/limits HTTP/1.1\r\nHost: api.test\r\nX-Slow: 1\r\n"], {
      localAddress: freshAddress(),
      untilClose: true,
      waitMs: 10_000,
    });
    expectEnvelope(ex.responses[0], 408, "request_timeout");
    expect(ex.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1_500);
    expect(ex.closed).toBe(true);
  });

  it("an idle keep-alive connection outlives the headers timeout", async () => {
    const req = GET("/v1/limits", `Authorization: Bearer ${key}\r\n`);
    const ex = await rawExchange(h.api.port, [req, REQUEST_TIMEOUT_MS * 2, req], { localAddress: freshAddress(), expect: 2, waitMs: 8_000 });
    expect(ex.responses.map((r) => r.status)).toEqual([200, 200]);
    expect(ex.closed).toBe(false);
  });
});

describe("absolute-form request targets", () => {
  it("are routed like origin-form, with the same headers", async () => {
    const host = `127.0.0.1:${h.api.port}`;
    const ok = await rawExchange(h.api.port, [GET(`http://${host}/v1/limits`, `Authorization: Bearer ${key}\r\n`)], { localAddress: freshAddress() });
    expect(ok.responses[0]?.status).toBe(200);
    expect(ok.responses[0]!.body.windows).toBeDefined();
    expectHeaders(ok.responses[0]!);

    const query = await rawExchange(h.api.port, [GET(`http://${host}/v1/kpd/search?q=psenica&limit=2`, `Authorization: Bearer ${key}\r\n`)], { localAddress: freshAddress() });
    expect(query.responses[0]?.status).toBe(200);
    expect(query.responses[0]!.body.results.length).toBeGreaterThan(0);

    const anonymous = await rawExchange(h.api.port, [GET(`http://${host}/v1/limits`)], { localAddress: freshAddress() });
    expectEnvelope(anonymous.responses[0], 401, "unauthorized");

    const trpc = await rawExchange(h.api.port, [GET(`http://${host}/trpc/limits.get`, `Authorization: Bearer ${key}\r\n`)], { localAddress: freshAddress() });
    expect(trpc.responses[0]?.status).toBe(200);
    expectHeaders(trpc.responses[0]!);
  });

  it("another scheme or no path is a 404 in the envelope, not a crash", async () => {
    for (const target of ["ftp://example.com/v1/limits", "http://", "*"]) {
      const ex = await rawExchange(h.api.port, [GET(target)], { localAddress: freshAddress() });
      expectEnvelope(ex.responses[0], 404, "not_found");
    }
  });
});

describe("/metrics", () => {
  it("counts what the parser rejected, by reason", async () => {
    await rawExchange(h.api.port, ["FOO / HTTP/1.1\r\nHost: api.test\r\n\r\n"], { localAddress: freshAddress(), untilClose: true });
    const metrics = (await call(h.url, "GET", "/metrics")).text;
    expect(metrics).toMatch(/fiskal_http_client_errors_total\{code="HPE_INVALID_METHOD"\} [1-9]/);
    expect(metrics).toMatch(/fiskal_http_requests_total\{route="malformed request",status="405"\} [1-9]/);
  });
});

describe("connection cap", () => {
  it("closes connections over the cap at once and counts them", async () => {
    const capped = await startHarness({ config: { http: { maxConnections: 2 } } });
    try {
      const held = [1, 2].map(() => rawExchange(capped.api.port, [], { waitMs: 1_500 }));
      await new Promise((r) => setTimeout(r, 200));
      const over = await rawExchange(capped.api.port, [GET("/v1/limits")], { waitMs: 1_000 });
      expect(over.closed).toBe(true);
      expect(over.received).toBe("");
      await Promise.all(held);
      await new Promise((r) => setTimeout(r, 100));
      const metrics = (await call(capped.url, "GET", "/metrics")).text;
      expect(metrics).toMatch(/fiskal_http_connections_dropped_total [1-9]/);
    } finally {
      await capped.close();
    }
  });
});
