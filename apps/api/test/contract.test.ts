// The contract every route keeps, generated from the route table: each REST route (procedure meta
// `openapi`, as the OpenAPI document lists them) and each tRPC procedure is checked here without a
// test of its own — a route added to the router is covered the moment it exists.
//
// For every route: 401 in the envelope with every header the OpenAPI document promises, the same
// code, message and doc_url on /trpc; the per-IP 429 with Retry-After on both surfaces; 405 with
// Allow for another method; for routes with a body 413 and 415; 400 validation_error for a body that
// is not an object; and the document's responses listing what the route answers. REST runs each
// procedure directly and /trpc through tRPC's caller: every route gives the same status, data or
// error (code, message, details) and headers on both for the same input, and an answer that fails
// its output schema is a 500 on both.
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS_LIMITS } from "@fiskal/limits";
import { appRouter } from "../src/router.ts";
import { buildRouteTable, procedureMetas, type RouteInfo } from "../src/http/routes.ts";
import { directCall } from "../src/trpc.ts";
import { MAX_BODY_BYTES } from "../src/http/body.ts";
import { ApiError, docUrl, type ErrorCode } from "../src/errors.ts";
import { PORTAL, startHarness, timely, type Harness } from "./harness.ts";

const table = buildRouteTable(appRouter);
const procedures = procedureMetas(appRouter);
/** query or mutation: how /trpc takes the procedure (GET with ?input=, or POST with a body). */
const procType = (path: string) => procedures.find(([p]) => p === path)![2];
const takesBody = (r: RouteInfo) => r.method === "POST" || r.method === "PUT" || r.method === "PATCH";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** One request from a chosen loopback address (127.0.0.0/8), a raw body and exact headers. */
function send(base: string, from: string, method: string, path: string, opts: { key?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const url = new URL(base + path);
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined) {
    headers["content-type"] ??= "application/json";
    headers["content-length"] = String(Buffer.byteLength(opts.body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress: from, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(", ") : v;
        resolve({ status: res.statusCode ?? 0, headers: flat, body });
      });
    });
    // A server may answer (413) before the body is sent in full and close: that answer is what counts.
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** A concrete path for a route template: `{code}` a real KPD code, any other parameter a fresh UUID. */
function concrete(route: RouteInfo): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === "code" ? "62.10.11" : randomUUID()));
}

/** The call of a procedure on /trpc, as the tRPC client makes it (batching off). */
function trpcCall(procedure: string, input: unknown): { method: string; path: string; body?: string } {
  if (procType(procedure) === "query") return { method: "GET", path: `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}` };
  return { method: "POST", path: `/trpc/${procedure}`, body: JSON.stringify(input) };
}

/** Distinct client addresses: every check of every route gets its own per-IP quota. */
let nextAddress = 0;
function address(): string {
  const n = nextAddress++;
  return `127.${16 + (n >> 16)}.${(n >> 8) & 255}.${(n & 255) || 1}`;
}

function expectEnvelope(a: Answer, status: number, code: string) {
  expect({ status: a.status, code: a.body?.error?.code }).toEqual({ status, code });
  expect(a.headers["content-type"]).toMatch(/^application\/json/);
  expect(Object.keys(a.body)).toEqual(["error"]);
  expect(typeof a.body.error.message).toBe("string");
  expect(a.body.error.message.length).toBeGreaterThan(5);
  expect(a.body.error.doc_url).toBe(docUrl(PORTAL, code as ErrorCode));
  expect(a.headers["x-content-type-options"]).toBe("nosniff");
}

/** tRPC's error shape with the same code, message and doc_url in error.data, and the same status. */
function expectTrpcError(a: Answer, rest: Answer) {
  expect({ status: a.status, code: a.body?.error?.data?.code }).toEqual({ status: rest.status, code: rest.body.error.code });
  expect(a.body.error.data.httpStatus).toBe(rest.status);
  expect(a.body.error.data.doc_url).toBe(rest.body.error.doc_url);
  expect(a.body.error.message).toBe(a.body.error.data.message);
  expect(a.headers["x-content-type-options"]).toBe("nosniff");
}

function expectRateLimitHeaders(a: Answer) {
  expect(a.headers["x-ratelimit-limit"]).toMatch(/^\d+$/);
  expect(a.headers["x-ratelimit-remaining"]).toMatch(/^\d+$/);
  expect(Number(a.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000 - 1);
  // an account's windows, or the address's anonymous ones ("ip:burst", …) for requests without a valid key
  expect(a.headers["ratelimit-policy"]).toMatch(/"(ip:)?burst";q=\d+;w=1/);
  expect(a.headers["ratelimit"]).toMatch(/"(ip:)?burst";r=\d+;t=\d+/);
  expect(a.headers["x-request-id"]).toMatch(/^req_[\w-]+$/);
}

let h: Harness;
let key: string;
let doc: any;
beforeAll(async () => {
  h = await startHarness();
  // The fiscalize group (30/min by default) holds four routes here: room for every case of each.
  const custom = { burst: 10_000, perMinute: 100_000, perDay: 1_000_000, endpoints: { fiscalize: 10_000 } };
  key = (await h.account({ plan: "ENTERPRISE", custom })).key;
  doc = (await send(h.url, address(), "GET", "/v1/openapi.json")).body;
});
afterAll(() => h?.close());

describe("the route table", () => {
  it("is the OpenAPI document's list of operations, and every procedure is reachable", () => {
    expect(table.all.length).toBeGreaterThan(0);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(table.all.map((r) => r.label).sort());
    // a procedure without REST meta is still served on /trpc and covered below
    expect(procedures.map(([p]) => p).sort()).toEqual(expect.arrayContaining(table.all.map((r) => r.procedure).sort()));
  });
});

describe("route policy (procedure meta) as README documents it", () => {
  const labels = (pick: (r: RouteInfo) => unknown) => table.all.filter((r) => pick(r)).map((r) => r.label).sort();

  it("Idempotency-Key on fiscalize and e-invoice sends; documented on exactly the routes whose policy says so", () => {
    expect(labels((r) => r.idempotent)).toEqual(expect.arrayContaining(["POST /v1/einvoices/send", "POST /v1/invoices/fiscalize"]));
    for (const r of table.all) {
      const names = ((doc.paths[r.path][r.method.toLowerCase()].parameters ?? []) as { name: string }[]).map((p) => p.name);
      expect({ route: r.label, documented: names.includes("Idempotency-Key") }).toEqual({ route: r.label, documented: Boolean(r.idempotent) });
    }
  });

  it("ETag on every KPD lookup; the dedicated groups of DESIGN §3; GET /v1/limits is free", () => {
    expect(labels((r) => r.etag)).toEqual(labels((r) => r.path.startsWith("/v1/kpd/")));
    expect(labels((r) => r.group === "kpd")).toEqual(["GET /v1/kpd/batch", "GET /v1/kpd/search", "GET /v1/kpd/{code}"]);
    expect(labels((r) => r.group === "oib")).toEqual(["POST /v1/validate/oib", "POST /v1/validate/oib/batch"]);
    expect(labels((r) => r.group === "fiscalize")).toEqual(expect.arrayContaining(["POST /v1/invoices/fiscalize"]));
    expect(labels((r) => r.group === "einvoice")).toEqual(expect.arrayContaining(["POST /v1/einvoices/send"]));
    expect(labels((r) => r.statusLimits)).toEqual(expect.arrayContaining(["GET /v1/limits"]));
    // a free status call reads; it never changes anything
    for (const r of table.all.filter((x) => x.statusLimits)) expect(r.method).toBe("GET");
  });
});

describe("an ApiError a procedure throws as it is", () => {
  it("answers its own status and code on both surfaces (404 for an unknown KPD code)", async () => {
    const rest = await send(h.url, address(), "GET", "/v1/kpd/99.99.99", { key });
    expectEnvelope(rest, 404, "not_found");
    const t = trpcCall("kpd.get", { code: "99.99.99" });
    const trpc = await send(h.url, address(), t.method, t.path, { key });
    expectTrpcError(trpc, rest);
    expect(trpc.body.error.message).toBe(rest.body.error.message);
  });
});

describe.each(table.all.map((r) => [r.label, r] as const))("%s", (_label, route) => {
  const path = concrete(route);
  const hasBody = takesBody(route);
  const op = () => doc.paths[route.path][route.method.toLowerCase()];
  const documentedHeaders = (status: string) => Object.keys(op().responses[status]?.headers ?? {}).map((n) => n.toLowerCase());

  it("documents every status the contract below checks", () => {
    const statuses = Object.keys(op().responses);
    expect(statuses).toEqual(expect.arrayContaining(["200", "400", "401", "429", "500", "503"]));
    if (hasBody) expect(statuses).toEqual(expect.arrayContaining(["413", "415"]));
    expect(documentedHeaders("401")).toEqual(expect.arrayContaining(["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit-policy", "ratelimit", "x-request-id"]));
    expect(documentedHeaders("429")).toContain("retry-after");
  });

  it("401 without a key, with every documented header; the same on /trpc", async () => {
    const from = address();
    const rest = await send(h.url, from, route.method, path, hasBody ? { body: "{}" } : {});
    expectEnvelope(rest, 401, "unauthorized");
    expectRateLimitHeaders(rest);
    for (const name of documentedHeaders("401")) expect(rest.headers, name).toHaveProperty(name);
    expect(rest.headers["cache-control"]).toBe("no-store");

    const t = trpcCall(route.procedure, {});
    const trpc = await send(h.url, from, t.method, t.path, t.body !== undefined ? { body: t.body } : {});
    expectTrpcError(trpc, rest);
    expect(trpc.body.error.message).toBe(rest.body.error.message);
    expectRateLimitHeaders(trpc);

    // a key that is not one: the same answer (an unknown and a malformed key are not told apart from a missing one by status)
    const wrong = await send(h.url, from, route.method, path, { key: `fsk_test_${"A".repeat(32)}`, ...(hasBody ? { body: "{}" } : {}) });
    expectEnvelope(wrong, 401, "unauthorized");
  });

  it("429 per client IP once the address's anonymous burst is spent, on both surfaces", async () => {
    const refused = await timely(async () => {
      const from = address();
      const started = performance.now();
      const answers: Answer[] = [];
      for (let i = 0; i <= ANONYMOUS_LIMITS.burst; i++) answers.push(await send(h.url, from, route.method, path, hasBody ? { body: "{}" } : {}));
      return { spanMs: performance.now() - started, result: { from, answers } };
    }, 800);
    const statuses = refused.answers.map((a) => a.status);
    expect(statuses).toEqual([...Array(ANONYMOUS_LIMITS.burst).fill(401), 429]);
    const rest = refused.answers.at(-1)!;
    expectEnvelope(rest, 429, "rate_limit_exceeded");
    expectRateLimitHeaders(rest);
    expect(rest.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
    expect(rest.body.error.message).toContain(rest.headers["retry-after"]);
    for (const name of documentedHeaders("429")) expect(rest.headers, name).toHaveProperty(name);

    // the address is over its quota: /trpc refuses it too
    const t = trpcCall(route.procedure, {});
    const trpc = await send(h.url, refused.from, t.method, t.path, t.body !== undefined ? { body: t.body } : {});
    expectTrpcError(trpc, rest);
    expect(trpc.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
    // a valid key from the same address is decided by its account's windows only
    const withKey = await send(h.url, refused.from, route.method, path, { key, ...(hasBody ? { body: "{}" } : {}) });
    expect(withKey.status).not.toBe(429);
    expect(withKey.headers["ratelimit-policy"]).toMatch(/^"burst";/);
  });

  it("405 with Allow for a method the path does not take; the same on /trpc", async () => {
    const other = ["DELETE", "PUT", "PATCH", "POST", "GET"].find((m) => {
      const match = table.matchRest(m, path);
      return !(match && "route" in match);
    })!;
    const rest = await send(h.url, address(), other, path, { key });
    expectEnvelope(rest, 405, "method_not_allowed");
    const allow = rest.headers["allow"]!.split(", ");
    expect(allow).toContain(route.method);
    expect(allow).not.toContain(other);
    expect(new Set(allow).size).toBe(allow.length);
    expectRateLimitHeaders(rest);

    const trpc = await send(h.url, address(), "PUT", `/trpc/${route.procedure}`, { key });
    expectTrpcError(trpc, rest);
    expect(trpc.headers["allow"]).toBe(procType(route.procedure) === "query" ? "GET" : "POST");
  });
});

describe.each(table.all.filter(takesBody).map((r) => [r.label, r] as const))("%s with a body", (_label, route) => {
  const path = concrete(route);
  it("413 for a body over 1 MB, 415 for a body that is not JSON, 400 for JSON that is not an object; the same on /trpc", async () => {
    const big = JSON.stringify({ x: "a".repeat(MAX_BODY_BYTES) });
    const cases: { name: string; body: string; headers?: Record<string, string>; status: number; code: string }[] = [
      { name: "413", body: big, status: 413, code: "payload_too_large" },
      { name: "415", body: "{}", headers: { "content-type": "text/plain" }, status: 415, code: "unsupported_media_type" },
      { name: "400", body: "[1]", status: 400, code: "validation_error" },
      { name: "400 malformed", body: "{", status: 400, code: "validation_error" },
    ];
    for (const c of cases) {
      const rest = await send(h.url, address(), route.method, path, { key, body: c.body, headers: c.headers });
      expectEnvelope(rest, c.status, c.code);
      expectRateLimitHeaders(rest);
      const trpc = await send(h.url, address(), "POST", `/trpc/${route.procedure}`, { key, body: c.body, headers: c.headers });
      expect({ case: c.name, status: trpc.status, code: trpc.body?.error?.data?.code }).toEqual({ case: c.name, status: rest.status, code: rest.body.error.code });
      expectTrpcError(trpc, rest);
    }
  });
});

describe.each(procedures.filter(([p]) => !table.byProcedure(p)).map(([p]) => [p] as const))("tRPC-only procedure %s", (procedure) => {
  it("401 without a key in tRPC's shape, with the rate-limit headers", async () => {
    const t = trpcCall(procedure, {});
    const a = await send(h.url, address(), t.method, t.path, t.body !== undefined ? { body: t.body } : {});
    expect(a.status).toBe(401);
    expect(a.body.error.data).toMatchObject({ code: "unauthorized", httpStatus: 401, doc_url: docUrl(PORTAL, "unauthorized") });
    expectRateLimitHeaders(a);
  });
});

/**
 * Inputs that a procedure answers with data, for routes whose empty input is refused: with them the
 * comparison below sees a success as well as a validation error. A route without one is compared
 * on its empty input only.
 */
const SAMPLE_INPUTS: Record<string, Record<string, unknown>> = {
  "oib.validate": { oib: "69435151530" },
  "oib.validateBatch": { oibs: ["69435151530", "12345678901", "x"] },
  "kpd.search": { q: "psenica" },
  "kpd.batch": { codes: "62.10.11,01.11" },
};

/** The headers both surfaces set alike; the transport's own (Date, Content-Length, …) aside. */
const COMPARED_HEADERS = [
  "x-content-type-options",
  "strict-transport-security",
  "x-ratelimit-limit",
  "ratelimit-policy",
  "retry-after",
  "idempotent-replayed",
];
const RATE_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit-policy", "ratelimit", "x-request-id"];

describe("REST runs each procedure directly", () => {
  it("every route of the table, without tRPC's caller", () => {
    const viaCaller = procedures
      .filter(([path]) => table.byProcedure(path))
      .filter(([path, , , procedure]) => directCall(procedure, path, { validateOutput: true }) === null)
      .map(([path]) => path);
    expect(viaCaller).toEqual([]);
  });
});

describe.each(table.all.map((r) => [r.label, r] as const))("%s on REST and on /trpc", (_label, route) => {
  const path = concrete(route);
  // the path's parameters, which /trpc takes in its input
  const values = path.split("/");
  const params = Object.fromEntries(
    route.path.split("/").flatMap((segment, i) => {
      const m = /^\{(\w+)\}$/.exec(segment);
      return m ? [[m[1]!, values[i]!] as const] : [];
    }),
  );
  const inputs = [{}, ...(SAMPLE_INPUTS[route.procedure] ? [SAMPLE_INPUTS[route.procedure]!] : [])];

  it.each(inputs.map((input) => [JSON.stringify(input), input] as const))("the same answer to %s: status, data or error with its details, headers", async (_name, sample) => {
    // a fresh account per comparison: both calls see the same windows (the second has one more counted)
    const { key: own } = await h.account({ plan: "ENTERPRISE", custom: { burst: 10_000, perMinute: 100_000, perDay: 1_000_000 } });
    const input = { ...sample, ...params };
    const rest =
      route.method === "GET"
        ? await send(h.url, address(), "GET", `${path}?${new URLSearchParams(sample as Record<string, string>)}`, { key: own })
        : await send(h.url, address(), route.method, path, { key: own, body: JSON.stringify(sample) });
    const t = trpcCall(route.procedure, input);
    const trpc = await send(h.url, address(), t.method, t.path, { key: own, ...(t.body !== undefined ? { body: t.body } : {}) });

    expect(trpc.status).toBe(rest.status);
    if (rest.status === 200) {
      expect(trpc.body.result.data).toEqual(rest.body);
    } else {
      expectTrpcError(trpc, rest);
      expect({ message: trpc.body.error.data.message, details: trpc.body.error.data.details }).toEqual({
        message: rest.body.error.message,
        details: rest.body.error.details,
      });
      expect(rest.status).toBeLessThan(500);
    }
    for (const name of RATE_HEADERS) {
      expect(rest.headers, name).toHaveProperty(name);
      expect(trpc.headers, name).toHaveProperty(name);
    }
    for (const name of COMPARED_HEADERS) expect({ name, value: trpc.headers[name] }).toEqual({ name, value: rest.headers[name] });
    // remaining: one request more counted by the second (a free status call counts none of the account's)
    expect(Number(rest.headers["x-ratelimit-remaining"]) - Number(trpc.headers["x-ratelimit-remaining"])).toBe(route.statusLimits ? 0 : 1);
    expect(rest.headers["content-type"]).toMatch(/^application\/json/);
    expect(trpc.headers["content-type"]).toMatch(/^application\/json/);
    // the one difference: a successful answer of an ETag route is cacheable on REST (tRPC's GET URL carries the input)
    const etag = Boolean(route.etag) && rest.status === 200;
    expect(rest.headers["etag"] !== undefined).toBe(etag);
    expect(rest.headers["cache-control"]).toBe(etag ? "private, max-age=3600" : "no-store");
    expect(trpc.headers["cache-control"]).toBe("no-store");
    expect(trpc.headers["etag"]).toBeUndefined();
    expect(rest.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(rest.headers["content-length"])).toBe(Buffer.byteLength(JSON.stringify(rest.body)));
  });
});

describe("an answer that does not match its output schema", () => {
  it("is a 500 internal_error on both surfaces, never the caller's validation_error (output validation runs in the tests)", async () => {
    const kpd = h.api.services.kpd;
    const original = kpd.get.bind(kpd);
    kpd.get = (code: string) => {
      const entry = original(code);
      // a name that is not a string: the resolver passes it on, the output schema refuses it
      return entry && { ...entry, name: 42 as unknown as string }; // deliberately not a string
    };
    try {
      const rest = await send(h.url, address(), "GET", "/v1/kpd/62.10.11", { key });
      expectEnvelope(rest, 500, "internal_error");
      const t = trpcCall("kpd.get", { code: "62.10.11" });
      const trpc = await send(h.url, address(), t.method, t.path, { key });
      expectTrpcError(trpc, rest);
      expect(trpc.body.error.data.message).toBe(rest.body.error.message);
    } finally {
      kpd.get = original;
    }
  });
});

describe("a header value Node refuses (CR LF in it)", () => {
  it("is answered 500 internal_error without the header, and the server goes on answering", async () => {
    const kpd = h.api.services.kpd;
    const original = kpd.get.bind(kpd);
    kpd.get = () => {
      throw new ApiError("not_found", "Nema je.", undefined, { "X-Broken": "a\r\nInjected: 1" });
    };
    try {
      const rest = await send(h.url, address(), "GET", "/v1/kpd/62.10.11", { key });
      expectEnvelope(rest, 500, "internal_error");
      expect(rest.headers["x-broken"]).toBeUndefined();
      expect(rest.headers["injected"]).toBeUndefined();
      expect(rest.headers["x-request-id"]).toMatch(/^req_[\w-]+$/);
    } finally {
      kpd.get = original;
    }
    const after = await send(h.url, address(), "GET", "/v1/kpd/62.10.11", { key });
    expect(after.status).toBe(200);
  });
});
