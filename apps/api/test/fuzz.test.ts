// Fuzzing the API from its own description. Requests are generated from /v1/openapi.json (as the
// started server serves it) and from the tRPC procedures: valid inputs built from the schemas, then
// wrong types, missing and extra fields, huge strings, odd unicode, bad JSON, wrong content types,
// odd paths, methods and headers. Whatever comes in, the API must answer:
//   - never 5xx;
//   - X-Request-Id and the rate-limit headers on every response;
//   - the error envelope on every non-2xx ({"error":{code,message,doc_url}}, on /trpc in error.data),
//     its code one of the documented ones and, on REST, the status that code stands for;
//   - a rejected request changes nothing: no invoice or e-invoice row appears on a 4xx.
// One run with a fixed seed and one with a random seed (FUZZ_SEED=<n> replays it); FUZZ_RUNS sets
// the number of cases of each (default 500).
import { request as httpRequest } from "node:http";
import pg from "pg";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApiKey, revokeApiKey } from "@fiskal/accounts";
import { createCisSimulator, createIntermediarySimulator } from "@fiskal/fiscal";
import { ENDPOINT_GROUPS } from "@fiskal/limits";
import { ERROR_STATUS } from "../src/errors.ts";
import { buildRouteTable, procedureMetas } from "../src/http/routes.ts";
import { appRouter } from "../src/router.ts";
import { PORTAL, startHarness, VALID_OIB, type Harness } from "./harness.ts";

const FIXED_SEED = 20_261_121;
const RANDOM_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = Number(process.env.FUZZ_RUNS ?? 500);

type Json = Record<string, any>;

interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; required?: boolean; schema: Json }[];
  body?: Json;
  procedure?: string;
  procedureType?: "query" | "mutation" | "subscription";
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  localAddress?: string;
  /** how the request was made, for the failure report */
  how: string[];
}

interface FuzzResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

let h: Harness;
let keys: { valid: string; revoked: string; tiny: string };
let ops: Operation[];
let db: pg.Client;
let nextAddress = 0;
/** Documents of the fuzz account (an issued and a received e-invoice), so that routes taking an id reach past the look-up. */
const KNOWN_IDS = ["0193b7f2-0000-7000-8000-00000000f001", "0193b7f2-0000-7000-8000-00000000f002"];

beforeAll(async () => {
  h = await startHarness({
    config: {
      taxAuthority: createCisSimulator({ latencyMs: [0, 1] }),
      intermediary: createIntermediarySimulator({ latencyMs: [0, 1], perSecond: 100_000 }),
    },
  });
  const prisma = h.api.services.db;
  // High enough never to throttle the fuzz account, every endpoint group included.
  const endpoints = Object.fromEntries(ENDPOINT_GROUPS.map((g) => [g, 1_000_000]));
  const account = await createAccount(prisma, {
    name: "Fuzz d.o.o.",
    plan: "ENTERPRISE",
    custom: { burst: 100_000, perMinute: 1_000_000, perDay: 10_000_000, endpoints },
  });
  const valid = await createApiKey(prisma, account.id, "fuzz");
  const revoked = await createApiKey(prisma, account.id, "revoked");
  await revokeApiKey(prisma, account.id, revoked.id);
  // The one account meant to be throttled.
  const tinyAccount = await createAccount(prisma, { name: "Malen d.o.o.", plan: "ENTERPRISE", custom: { burst: 2, perMinute: 1_000, perDay: 100_000 } });
  const tiny = await createApiKey(prisma, tinyAccount.id, "tiny");
  keys = { valid: valid.key, revoked: revoked.key, tiny: tiny.key };
  await prisma.eInvoice.create({
    data: { id: KNOWN_IDS[0], accountId: account.id, number: "FZ-ZNANI", sellerOib: VALID_OIB, buyerOib: "94577403194", issueDate: "2026-11-02", currency: "EUR", totalNet: 100, totalTax: 25, totalGross: 125, ubl: "<Invoice/>", status: "accepted", intermediaryId: "fz-znani", request: {} },
  });
  await prisma.receivedEInvoice.create({
    data: { id: KNOWN_IDS[1], accountId: account.id, messageId: "fz-znani", number: "UL-ZNANI", documentType: "380", sellerOib: "94577403194", buyerOib: VALID_OIB, issueDate: "2026-11-02", currency: "EUR", ubl: "<Invoice/>", ublSha256: "0".repeat(64), validationStatus: "valid", validation: { checked: [], violations: [] } },
  });

  const doc = (await send({ method: "GET", path: "/v1/openapi.json", headers: {}, how: [] })).body as Json;
  const table = buildRouteTable(appRouter);
  const procedureTypes = new Map(procedureMetas(appRouter).map(([path, , type]) => [path, type]));
  ops = [];
  for (const [path, methods] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(methods)) {
      const route = table.all.find((r) => r.path === path && r.method === method.toUpperCase());
      ops.push({
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: op.requestBody?.content?.["application/json"]?.schema,
        procedure: route?.procedure,
        procedureType: route ? procedureTypes.get(route.procedure) : undefined,
      });
    }
  }
  db = new pg.Client({ connectionString: h.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await h?.close();
});

// ---------------------------------------------------------------------------------------------
// Sending and checking

function send(req: FuzzRequest): Promise<FuzzResponse> {
  const url = new URL(h.url);
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers: req.headers, localAddress: req.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on("error", reject);
      },
    );
    r.setTimeout(20_000, () => r.destroy(new Error("no answer within 20 s")));
    r.on("error", reject);
    r.end(req.body);
  });
}

function problemsOf(req: FuzzRequest, res: FuzzResponse): string[] {
  const problems: string[] = [];
  const h = res.headers;
  const one = (name: string) => (Array.isArray(h[name]) ? h[name][0] : h[name]);
  if (res.status >= 500) problems.push(`status ${res.status}`);
  if (!/^req_[\w-]+$/.test(one("x-request-id") ?? "")) problems.push("no X-Request-Id");
  for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
    if (!/^\d+$/.test(one(name) ?? "")) problems.push(`no ${name}`);
  }
  if (!one("ratelimit-policy") || !one("ratelimit")) problems.push("no RateLimit-Policy / RateLimit");
  if (res.status === 429 && !/^\d+$/.test(one("retry-after") ?? "")) problems.push("429 without Retry-After");
  if (res.status >= 400 && req.method !== "HEAD") {
    // On /trpc the envelope travels in error.data — except for what is refused before routing (the
    // HTTP parser's rejections), which gets the plain envelope like any other path.
    const trpc = /^(?:https?:\/\/[^/]*)?\/trpc\//.test(req.path) && res.body?.error?.data !== undefined;
    const e = trpc ? res.body?.error?.data : res.body?.error;
    if (!e || typeof e !== "object") problems.push("no error envelope");
    else {
      if (!(e.code in ERROR_STATUS)) problems.push(`undocumented code ${JSON.stringify(e.code)}`);
      if (typeof e.message !== "string" || e.message.length < 5) problems.push("no message");
      if (typeof e.doc_url !== "string" || !e.doc_url.startsWith(`${PORTAL}/docs/`)) problems.push("no doc_url");
      if (!trpc && ERROR_STATUS[e.code as keyof typeof ERROR_STATUS] !== res.status) problems.push(`code ${e.code} with status ${res.status}`);
      if (!trpc && Object.keys(res.body).join() !== "error") problems.push("more than the envelope");
    }
  }
  return problems;
}

async function rowCounts(): Promise<string> {
  const r = await db.query(`SELECT (SELECT count(*) FROM "Invoice") AS invoices, (SELECT count(*) FROM "EInvoice") AS einvoices`);
  return `${r.rows[0].invoices}/${r.rows[0].einvoices}`;
}

const statuses = new Map<number, number>();

/** Sends the case's requests; throws with the whole story when an invariant fails. */
async function runCase(requests: FuzzRequest[], parallel = false): Promise<void> {
  const before = await rowCounts();
  const send1 = async (req: FuzzRequest) => {
    let res: FuzzResponse;
    try {
      res = await send(req);
    } catch (err) {
      throw new Error(`no HTTP answer (${(err as Error).message}) to ${describe1(req)}`);
    }
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const problems = problemsOf(req, res);
    if (problems.length) throw new Error(`${problems.join("; ")}\n  request: ${describe1(req)}\n  answer: ${res.status} ${res.text.slice(0, 300)}`);
    return res;
  };
  const results = parallel ? await Promise.all(requests.map(send1)) : await sequential(requests, send1);
  if (results.every((r) => r.status >= 400)) {
    const after = await rowCounts();
    if (after !== before) {
      throw new Error(`rejected requests changed state (invoices/e-invoices ${before} → ${after}): ${requests.map(describe1).join(" | ")}`);
    }
  }
}

async function sequential<T>(items: FuzzRequest[], f: (r: FuzzRequest) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (const item of items) out.push(await f(item));
  return out;
}

function describe1(req: FuzzRequest): string {
  const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${v.length > 80 ? `${v.slice(0, 80)}…(${v.length})` : v}`);
  const body = req.body ? (req.body.length > 200 ? `${req.body.subarray(0, 200).toString("latin1")}…(${req.body.length} bytes)` : req.body.toString("latin1")) : "";
  return `${req.method} ${req.path.length > 200 ? `${req.path.slice(0, 200)}…` : req.path} [${headers.join(", ")}] ${JSON.stringify(body)} (${req.how.join(", ")})`;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** A value as a path or query string: strings as they are, anything else as JSON. */
const asText = (v: unknown): string => (typeof v === "string" ? v : (JSON.stringify(v) ?? "null"));

/** A percent-encoding that never throws (lone surrogates become U+FFFD). */
const pct = (s: string) => [...Buffer.from(s, "utf8")].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`)).join("");

const oddString = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "\udfff\ud800",
    "\u202e\u2066",
    "\ufeff",
    "e\u0301\u0301\u0301",
    "👩‍👩‍👧‍👦",
    "\u2028\u2029",
    "null",
    "NaN",
    "-0",
    "1e309",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "%00",
    "%",
    "\\",
    '"',
    "\r\n",
    "Ω".repeat(2_000),
    "69435151530 ",
    "６９４３５１５１５３０",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.integer({ min: 1, max: 80_000 }).map((n) => "x".repeat(n)),
);

const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: oddString },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, [], {}) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }) },
);

/** A value the schema accepts (or close to it: formats without a pattern are not enforced). */
function fromSchema(s: Json | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 6) return fc.constant(null);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.anyOf || s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf).map((x: Json) => fromSchema(x, depth + 1)));
  switch (s.type) {
    case "string": {
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
      if (s.format === "date-time") return fc.date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }).map((d) => d.toISOString());
      if (s.format === "date") return fc.date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      const min = s.minLength ?? 0;
      return fc.string({ minLength: min, maxLength: Math.max(min, Math.min(s.maxLength ?? 24, 24)) });
    }
    case "integer":
      return fc.integer({ min: s.minimum ?? -1_000, max: s.maximum ?? 1_000 });
    case "number":
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "array": {
      const min = s.minItems ?? 0;
      return fc.array(fromSchema(s.items, depth + 1), { minLength: min, maxLength: Math.max(min, Math.min(s.maxItems ?? 3, 3)) });
    }
    case "object": {
      const props = Object.entries<Json>(s.properties ?? {});
      if (!props.length) return fc.constant({});
      return fc.record(Object.fromEntries(props.map(([k, v]) => [k, fromSchema(v, depth + 1)])), { requiredKeys: (s.required ?? []).filter((k: string) => s.properties?.[k]) });
    }
    default:
      return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null));
  }
}

/** Inputs that pass validation, so the fuzz reaches past it (with random numbers, some collide). */
const knownGood: Record<string, fc.Arbitrary<unknown>> = {
  "POST /v1/invoices/fiscalize": fc.record({
    oib: fc.constant(VALID_OIB),
    issued_at: fc.constant(new Date().toISOString()),
    number: fc.integer({ min: 1, max: 5_000 }).map(asText),
    premises: fc.constantFrom("POSL1", "FUZZ"),
    device: fc.constant("1"),
    total: fc.constantFrom("125.00", "0.01", "10.00"),
    payment_method: fc.constantFrom("G", "K", "T"),
    operator_oib: fc.constant("94577403194"),
    vat_registered: fc.boolean(),
    sequence: fc.constantFrom("P", "N"),
  }),
  "POST /v1/einvoices/send": fc.integer({ min: 1, max: 5_000 }).map((n) => ({
    number: `FZ-${n}`,
    issue_date: "2026-11-21",
    seller: { oib: VALID_OIB, name: "Prodavatelj d.o.o.", iban: "HR1210010051863000160" },
    buyer: { oib: "94577403194", name: "Kupac d.o.o." },
    operator: { name: "Ana Horvat", oib: "12345678903" },
    lines: [{ description: "Razvoj aplikacije", quantity: "10", unit: "HUR", unit_price: "50.00", vat_rate: "25", kpd: "62.10.11", line_total: "500.00" }],
    totals: { net: "500.00", vat: "125.00", gross: "625.00" },
  })),
  "POST /v1/validate/oib": fc.record({ oib: fc.constantFrom(VALID_OIB, "12345678901") }),
};

type Path = (string | number)[];

function pathsOf(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (v && typeof v === "object") {
    for (const [k, child] of Object.entries(v)) {
      const p = [...at, Array.isArray(v) ? Number(k) : k];
      out.push(p);
      if (out.length < 200) pathsOf(child, p, out);
    }
  }
  return out;
}

function clone<T>(v: T): T {
  return v === undefined ? v : JSON.parse(JSON.stringify(v));
}

function update(root: unknown, path: Path, f: (parent: any, key: string | number) => void): unknown {
  const copy = clone(root);
  let node: any = copy;
  for (const k of path.slice(0, -1)) node = node[k];
  f(node, path[path.length - 1]!);
  return copy;
}

const setOwn = (o: any, k: string | number, v: unknown) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });

/** Mutations of a valid value: wrong types, missing and extra fields, odd values, another root. */
function mutated(base: unknown): fc.Arbitrary<{ value: unknown; how: string }> {
  const paths = pathsOf(base);
  const objects = [[] as Path, ...paths].filter((p) => {
    let node: any = base;
    for (const k of p) node = node?.[k];
    return node && typeof node === "object" && !Array.isArray(node);
  });
  const options: fc.WeightedArbitrary<{ value: unknown; how: string }>[] = [
    { weight: 6, arbitrary: fc.constant({ value: base, how: "as generated" }) },
    { weight: 1, arbitrary: oddValue.map((v) => ({ value: v, how: "another root" })) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 5_000 }).map((d) => ({ value: nested(d), how: `nested ${d} deep` })) },
  ];
  if (paths.length) {
    options.push(
      { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...paths), oddValue).map(([p, v]) => ({ value: update(base, p, (o, k) => setOwn(o, k, v)), how: `${p.join(".")} odd` })) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(...paths).map((p) => ({
          value: update(base, p, (o, k) => (Array.isArray(o) ? o.splice(Number(k), 1) : delete o[k])),
          how: `without ${p.join(".")}`,
        })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.constantFrom(...paths), fc.integer({ min: 10_000, max: 1_200_000 })).map(([p, n]) => ({
          value: update(base, p, (o, k) => setOwn(o, k, "A".repeat(n))),
          how: `${p.join(".")} of ${n} characters`,
        })),
      },
    );
  }
  if (objects.length) {
    options.push({
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...objects), fc.constantFrom("extra", "__proto__", "constructor", "prototype", "accountId", "id", ""), oddValue)
        .map(([p, k, v]) => ({ value: p.length ? update(base, [...p, k], (o) => setOwn(o, k, v)) : setOwn(clone(base) ?? {}, k, v), how: `extra ${JSON.stringify(k)} at ${p.join(".") || "root"}` })),
    });
  }
  return fc.oneof(...options);
}

/** Arrays and objects nested `depth` deep, written out as JSON text by encode(). */
class Nested {
  constructor(readonly depth: number) {}
  toJSON(): string {
    let open = "";
    let close = "";
    for (let i = 0; i < this.depth; i++) {
      open += i % 2 ? '{"a":' : "[";
      close = (i % 2 ? "}" : "]") + close;
    }
    return `${open}1${close}`;
  }
}

function nested(depth: number): unknown {
  return new Nested(depth);
}

/** How a value goes on the wire: JSON, or JSON broken in one of the usual ways. */
const encoding = fc.oneof(
  { weight: 8, arbitrary: fc.constant("json") },
  { weight: 1, arbitrary: fc.constantFrom("truncated", "trailing garbage", "bom", "single quotes", "empty", "not utf-8", "NaN literal", "only whitespace", "duplicate keys") },
);

function encode(value: unknown, how: string, cut: number): Buffer {
  const json = value instanceof Nested ? value.toJSON() : (JSON.stringify(value) ?? "");
  switch (how) {
    case "truncated":
      return Buffer.from(json.slice(0, Math.floor(json.length * cut)));
    case "trailing garbage":
      return Buffer.from(`${json} }{`);
    case "bom":
      return Buffer.from(`\ufeff${json}`);
    case "single quotes":
      return Buffer.from(json.replace(/"/g, "'"));
    case "empty":
      return Buffer.alloc(0);
    case "not utf-8":
      return Buffer.concat([Buffer.from(json.slice(0, 5)), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(json.slice(5))]);
    case "NaN literal":
      return Buffer.from(json.replace(/:(\s*)"[^"]*"/, ":NaN"));
    case "only whitespace":
      return Buffer.from(" \n\t ");
    case "duplicate keys":
      return Buffer.from(json.replace(/^\{/, '{"oib":1,'));
    default:
      return Buffer.from(json);
  }
}

const contentType = fc.oneof(
  { weight: 10, arbitrary: fc.constant<string | undefined>("application/json") },
  {
    weight: 3,
    arbitrary: fc.constantFrom<string | undefined>(
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/json;",
      "application/json; charset=latin1",
      undefined,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json-patch+json",
      "application/jsonx",
      ";;;",
      "*/*",
    ),
  },
);

type Auth = "valid" | "none" | "malformed" | "unknown" | "revoked" | "basic" | "huge" | "lowercase scheme" | "two spaces" | "tiny";

const auth = fc.oneof(
  { weight: 14, arbitrary: fc.constant<Auth>("valid") },
  { weight: 4, arbitrary: fc.constantFrom<Auth>("none", "malformed", "unknown", "revoked", "basic", "huge", "lowercase scheme", "two spaces", "tiny") },
);

function authHeader(a: Auth): string | undefined {
  switch (a) {
    case "valid":
      return `Bearer ${keys.valid}`;
    case "none":
      return undefined;
    case "malformed":
      return "Bearer fsk_test_short";
    case "unknown":
      return `Bearer fsk_live_${"U".repeat(32)}`;
    case "revoked":
      return `Bearer ${keys.revoked}`;
    case "basic":
      return "Basic dXNlcjpwYXNz";
    case "huge":
      return `Bearer ${"k".repeat(12_000)}`;
    case "lowercase scheme":
      return `bearer ${keys.valid}`;
    case "two spaces":
      return `Bearer  ${keys.valid}  `;
    case "tiny":
      return `Bearer ${keys.tiny}`;
  }
}

/** Header values a client can send: visible latin-1 and spaces, now and then a long one. */
const headerValue = fc.oneof(
  { weight: 12, arbitrary: fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 256, max: 2_000 }).map((n) => "v".repeat(n)) },
);

const extraHeaders = fc.record(
  {
    "idempotency-key": fc.oneof(
      { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 20, unit: "grapheme-ascii" }).map((s) => `fz-${s.replace(/[^\x21-\x7e]/g, "x")}`) },
      { weight: 1, arbitrary: headerValue },
    ),
    "if-none-match": fc.oneof(fc.constantFrom("*", '"kpd-x"', "W/\"x\""), headerValue),
    "x-forwarded-for": fc.oneof(fc.constantFrom("1.2.3.4", "::1", "unknown", "1.2.3.4, 5.6.7.8"), headerValue),
    accept: fc.constantFrom("*/*", "text/html", "application/xml", ""),
    expect: fc.constantFrom("100-continue", "coffee"),
    "x-request-id": headerValue,
    "x-odd": headerValue,
    "transfer-encoding": fc.constant("chunked"),
  },
  { requiredKeys: [] },
).chain((headers) =>
  // Now and then headers over the parser's 16 KB.
  fc
    .oneof({ weight: 14, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 16_000, max: 20_000 }) })
    .map((big) => (big ? { ...headers, "x-big": "v".repeat(big) } : headers)),
);

const otherMethod = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "FOO", "PROPFIND", "M-SEARCH", "PURGE");

function addressFor(_a: Auth): string | undefined {
  // Every case comes from an address of its own, so that the per-IP limit (unauthenticated and
  // malformed requests) answers only where a case aims at it.
  const n = nextAddress++;
  return `127.${100 + Math.floor(n / 62_500)}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

function buildHeaders(a: Auth, extra: Record<string, string>, ct?: string): Record<string, string> {
  const headers: Record<string, string> = { ...extra };
  const authorization = authHeader(a);
  if (authorization !== undefined) headers.authorization = authorization;
  if (ct !== undefined) headers["content-type"] = ct;
  return headers;
}

/** A REST call of one documented operation. */
const restCase = fc
  .integer({ min: 0, max: 1_000 })
  .chain((i) => {
    const op = ops[i % ops.length]!;
    const pathParams = op.params.filter((p) => p.in === "path");
    const queryParams = op.params.filter((p) => p.in === "query");
    const good = knownGood[`${op.method} ${op.path}`];
    const base = good ? fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: fromSchema(op.body) }) : fromSchema(op.body);
    return fc.record({
      op: fc.constant(op),
      method: fc.oneof({ weight: 8, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: otherMethod }),
      pathValues: fc.tuple(
        ...pathParams.map((p) =>
          fc.oneof({ weight: 3, arbitrary: fromSchema(p.schema) }, { weight: 1, arbitrary: oddValue }, { weight: p.name === "id" ? 2 : 0, arbitrary: fc.constantFrom(...KNOWN_IDS) }).map(asText),
        ),
        fc.constant(""),
      ),
      query: fc.tuple(
        ...queryParams.map((p) => fc.option(fc.oneof({ weight: 3, arbitrary: fromSchema(p.schema) }, { weight: 1, arbitrary: oddValue }).map(asText), { nil: undefined, freq: 4 })),
        fc.constant(undefined),
      ),
      extraQuery: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), oddString) }),
      suffix: fc.oneof({ weight: 10, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom("/", "//", "?", "?&&", "#frag", "/..", "%2F", ";x=1") }),
      body: op.body
        ? base.chain(mutated)
        : fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: oddValue.map((value) => ({ value, how: "body on a body-less call" })) }),
      encoding,
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
      contentType,
      auth,
      extra: extraHeaders,
    });
  })
  .map((c): FuzzRequest[] => {
    let i = 0;
    let path = c.op.path.replace(/\{(\w+)\}/g, () => pct(c.pathValues[i++] ?? ""));
    const q = c.op.params
      .filter((p) => p.in === "query")
      .map((p, j) => (c.query[j] === undefined ? null : `${pct(p.name)}=${pct(c.query[j])}`))
      .filter(Boolean);
    if (c.extraQuery) q.push(`${pct(c.extraQuery[0])}=${pct(c.extraQuery[1])}`);
    path += c.suffix;
    if (q.length) path += (path.includes("?") ? "&" : "?") + q.join("&");
    const body = c.body ? encode(c.body.value, c.encoding, c.cut) : undefined;
    return [
      {
        method: c.method,
        path,
        headers: buildHeaders(c.auth, c.extra, body ? c.contentType : undefined),
        body,
        localAddress: addressFor(c.auth),
        how: [`REST ${c.op.method} ${c.op.path}`, `auth ${c.auth}`, ...(c.body ? [c.body.how, c.encoding] : [])],
      },
    ];
  });

/** The same procedures over tRPC: queries as GET ?input=, mutations as POST bodies. */
const trpcCase = fc
  .integer({ min: 0, max: 1_000 })
  .chain((i) => {
    const withProc = ops.filter((o) => o.procedure);
    const op = withProc[i % withProc.length]!;
    const paramsSchema: Json = {
      type: "object",
      properties: Object.fromEntries(op.params.filter((p) => p.in !== "header").map((p) => [p.name, p.schema])),
      required: op.params.filter((p) => p.in !== "header" && p.required).map((p) => p.name),
    };
    const schema = op.body ?? paramsSchema;
    const good = knownGood[`${op.method} ${op.path}`];
    return fc.record({
      op: fc.constant(op),
      name: fc.oneof({ weight: 10, arbitrary: fc.constant(op.procedure!) }, { weight: 1, arbitrary: fc.constantFrom("nope", "kpd", "kpd.get,oib.validate", "__proto__.x", "oib.validate/extra", "") }),
      method: fc.oneof({ weight: 8, arbitrary: fc.constant(op.procedureType === "query" ? "GET" : "POST") }, { weight: 1, arbitrary: otherMethod }),
      input: (good ? fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: fromSchema(schema) }) : fromSchema(schema)).chain(mutated),
      encoding,
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
      batch: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      contentType,
      auth,
      extra: extraHeaders,
    });
  })
  .map((c): FuzzRequest[] => {
    const query = c.method === "GET" || c.method === "HEAD" || c.method === "DELETE";
    let path = `/trpc/${c.name}`;
    if (query) path += `?input=${pct(encode(c.input.value, c.encoding, c.cut).toString("utf8"))}`;
    if (c.batch && !query) path += "?batch=1";
    const body = query ? undefined : encode(c.input.value, c.encoding, c.cut);
    return [
      {
        method: c.method,
        path,
        headers: buildHeaders(c.auth, c.extra, body ? c.contentType : undefined),
        body,
        localAddress: addressFor(c.auth),
        how: [`tRPC ${c.op.procedure}`, `auth ${c.auth}`, c.input.how, c.encoding],
      },
    ];
  });

/** Paths and methods nobody documented. */
const oddCase = fc
  .record({
    method: otherMethod,
    path: fc.oneof(
      fc.constantFrom(
        "/",
        "/v1",
        "/v1/",
        "//v1/limits",
        "/v1//limits",
        "/V1/LIMITS",
        "/v1/limits/",
        "/v1/../v1/limits",
        "/v1/./limits",
        "/v1/limits?%zz=%",
        "/v1/kpd/%",
        "/v1/kpd/%ff%fe",
        "/v1/kpd/\xc4\x8d",
        "/v1/invoices/..%2F..%2Fetc",
        "/v1/einvoices/00000000-0000-0000-0000-000000000000",
        "/trpc",
        "/trpc/",
        "/trpc/limits.get?batch=1&input={}",
        "/favicon.ico",
        "/v2/limits",
        "/.env",
        "/v1/openapi.json?x",
      ),
      fc.webPath().map((p) => `/v1${p}`),
      fc.webPath().filter((p) => p.startsWith("/") && !/^\/(healthz|readyz|metrics)\b/.test(p)),
      fc.webSegment().map((s) => `/trpc/${s}`),
      fc.integer({ min: 1_000, max: 15_000 }).map((n) => `/v1/kpd/${"9".repeat(n)}`),
      fc.constant("absolute").map(() => `http://127.0.0.1:${new URL(h.url).port}/v1/limits`),
    ),
    auth,
    extra: extraHeaders,
    body: fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.string({ maxLength: 200 }) }),
    contentType,
  })
  .map((c): FuzzRequest[] => [
    {
      method: c.method,
      path: c.path,
      headers: buildHeaders(c.auth, c.extra, c.body !== undefined ? c.contentType : undefined),
      body: c.body === undefined ? undefined : Buffer.from(c.body),
      localAddress: addressFor(c.auth),
      how: ["odd path", `auth ${c.auth}`],
    },
  ]);

/** Bursts meant to be throttled: the tiny account, or one address without a key. */
const THROTTLED_ADDRESS = "127.99.0.1";
const throttleCase = fc
  .record({
    who: fc.constantFrom("tiny account", "one address"),
    n: fc.integer({ min: 3, max: 10 }),
    path: fc.constantFrom("/v1/kpd/62", "/v1/limits", "/v1/validate/oib", "/trpc/kpd.get?input=%7B%22code%22%3A%2262%22%7D"),
  })
  .map((c): FuzzRequest[] =>
    Array.from({ length: c.n }, () => {
      const post = c.path === "/v1/validate/oib";
      return {
        method: post ? "POST" : "GET",
        path: c.path,
        headers: { ...(c.who === "tiny account" ? { authorization: `Bearer ${keys.tiny}` } : {}), ...(post ? { "content-type": "application/json" } : {}) },
        body: post ? Buffer.from(JSON.stringify({ oib: VALID_OIB })) : undefined,
        localAddress: c.who === "one address" ? THROTTLED_ADDRESS : undefined,
        how: [`throttle ${c.who} ×${c.n}`],
      };
    }),
  );

const fuzzCase = fc.oneof(
  { weight: 12, arbitrary: restCase.map((r) => ({ requests: r, parallel: false })) },
  { weight: 4, arbitrary: trpcCase.map((r) => ({ requests: r, parallel: false })) },
  { weight: 3, arbitrary: oddCase.map((r) => ({ requests: r, parallel: false })) },
  { weight: 1, arbitrary: throttleCase.map((r) => ({ requests: r, parallel: true })) },
);

async function fuzz(seed: number, label: string) {
  statuses.clear();
  let cases = 0;
  const started = performance.now();
  const details = await fc.check(
    fc.asyncProperty(fuzzCase, async (c) => {
      cases++;
      await runCase(c.requests, c.parallel);
    }),
    // Every request goes to a live server: report the first failure as found, without shrinking.
    { seed, numRuns: RUNS, endOnFailure: true },
  );
  const ms = Math.round(performance.now() - started);
  const distribution = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(" ");
  const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
  const summary = `fuzz ${label}: ${cases} cases, ${requests} requests, seed ${seed}, ${ms} ms; statuses ${distribution}`;
  if (details.failed) {
    // The request is described by runCase's error; the counterexample itself can be megabytes.
    const reason = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(`${summary}\nfailed at case ${details.numRuns} — replay with FUZZ_SEED=${seed}\n${reason.slice(0, 4_000)}`);
  }
  const rows = await rowCounts();
  console.log(`${summary}; invoices/e-invoices in the database: ${rows}`);
  return { cases, statuses: new Map(statuses), rows };
}

describe("fuzzing /v1 and /trpc", () => {
  it("the document the fuzz is generated from lists the operations", () => {
    expect(ops.length).toBeGreaterThanOrEqual(10);
    expect(ops.filter((o) => o.procedure).length).toBe(ops.length);
  });

  it(`holds every invariant with the fixed seed ${FIXED_SEED}`, async () => {
    const run = await fuzz(FIXED_SEED, "fixed seed");
    expect(run.cases).toBe(RUNS);
    // The fuzz reaches past validation and into throttling, not only into 400s. How many of the fixed
    // seed's requests pass depends on how many the burst windows refuse, which depends on the host's
    // speed (50–107 of 645 seen), so the reach is checked at a twentieth, not at the edge of that spread.
    expect(run.statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 20);
    expect(run.statuses.get(429) ?? 0).toBeGreaterThan(0);
    // ...and into fiscalizing and sending, so that "a rejected request changes nothing" means something.
    expect(run.rows).not.toBe("0/0");
  });

  it(`holds every invariant with a random seed (this run: ${RANDOM_SEED})`, async () => {
    const run = await fuzz(RANDOM_SEED, "random seed");
    expect(run.cases).toBe(RUNS);
  });
});
