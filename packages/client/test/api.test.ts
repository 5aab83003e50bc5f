// The client against the real API server (PostgreSQL + Redis limits), with small Enterprise limits
// so the rate-limit rules show within seconds.
import { randomBytes, randomUUID } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "@fiskal/api";
import { createAccount, createApiKey, createTestDatabase, readKpdCsv } from "@fiskal/accounts";
import { FiskalClient, FiskalError, MemoryKpdCache, systemClock, type Clock, type FiskalClientOptions, type RetryEvent } from "../src/index.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const VALID_OIB = "69435151530";

let api: RunningApi;
let dropDatabase: () => Promise<void>;

beforeAll(async () => {
  const db = await createTestDatabase();
  dropDatabase = db.drop;
  api = await startApi({
    databaseUrl: db.url,
    store: { kind: "redis", url: REDIS_URL },
    portalUrl: "http://portal.test",
    limiterPrefix: `tc${randomBytes(6).toString("hex")}`,
    logger: pino({ level: "silent" }),
    meterFlushIntervalMs: 100,
  });
});

afterAll(async () => {
  await api?.close();
  await dropDatabase?.();
});

type Custom = { burst: number; perMinute: number; perDay: number; endpoints?: { oib?: number; kpd?: number; fiscalize?: number; einvoice?: number } };
const ROOMY: Custom = { burst: 500, perMinute: 5_000, perDay: 100_000 };

async function account(custom: Custom = ROOMY) {
  const acct = await createAccount(api.services.db, { name: "Klijent d.o.o.", plan: "ENTERPRISE", custom });
  const key = await createApiKey(api.services.db, acct.id, "client tests");
  return { id: acct.id, key: key.key };
}

interface Exchange {
  sentAt: number;
  method: string;
  path: string;
  body: any;
  requestHeaders: Headers;
  status: number;
  headers: Headers;
}

/** The real fetch, with a log of every exchange; `intercept` may replace what the caller sees. */
function recorder(intercept?: (e: Exchange, index: number) => void) {
  const log: Exchange[] = [];
  const fetchImpl = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const sentAt = Date.now();
    const res = await fetch(input, init);
    const url = new URL(String(input));
    const e: Exchange = {
      sentAt,
      method: init.method ?? "GET",
      path: url.pathname + url.search,
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
      requestHeaders: new Headers(init.headers),
      status: res.status,
      headers: res.headers,
    };
    log.push(e);
    intercept?.(e, log.length - 1);
    return res;
  };
  return { log, fetch: fetchImpl };
}

function client(key: string, opts: Partial<FiskalClientOptions> = {}) {
  return new FiskalClient({ apiKey: key, baseUrl: api.url, ...opts });
}

let receiptNo = 1_000;
const receipt = (over: Record<string, unknown> = {}) => ({
  oib: VALID_OIB,
  issued_at: new Date().toISOString(),
  number: String(receiptNo++),
  premises: "POSL1",
  device: "1",
  total: "125.00",
  payment_method: "K" as const,
  operator_oib: "94577403194",
  vat_registered: true,
  sequence: "P" as const,
  ...over,
});

/** ISO 7064 MOD 11,10, to know independently which generated OIBs are valid. */
function oibValid(oib: string): boolean {
  if (!/^\d{11}$/.test(oib)) return false;
  let a = 10;
  for (let i = 0; i < 10; i++) {
    a = (a + Number(oib[i])) % 10;
    if (a === 0) a = 10;
    a = (a * 2) % 11;
  }
  return (11 - a) % 10 === Number(oib[10]);
}

describe("rate limits against the real server", () => {
  it("50 concurrent calls on a Sandbox key (10/s) run at the full allowed rate with at most one 429", async () => {
    const acct = await createAccount(api.services.db, { name: "Sandbox d.o.o.", plan: "SANDBOX" });
    const { key } = await createApiKey(api.services.db, acct.id, "client tests");
    const { log, fetch } = recorder();
    const c = client(key, { fetch });
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => c.validateOib(String(10_000_000_000 + i))));
    const seconds = (performance.now() - started) / 1000;
    const refused = log.filter((e) => e.status === 429).length;
    console.info(`50 concurrent Sandbox calls: ${seconds.toFixed(2)} s, ${refused} × 429`);

    expect(results).toHaveLength(50);
    // Cold start: the standing is read from the free GET /v1/limits before the burst.
    expect(log[0]!.path).toBe("/v1/limits");
    expect(log.filter((e) => e.path === "/v1/limits")).toHaveLength(1);
    expect(refused).toBeLessThanOrEqual(1);
    // 50 calls at 10 per second: 5 s at the allowed rate; at most 1.2 × that.
    expect(seconds).toBeLessThanOrEqual(1.2 * 5);
    // And faster than anything but full speed: the last of five waves of ten goes after 4 s.
    expect(seconds).toBeGreaterThanOrEqual(4);
  });

  it("15 concurrent calls on a burst of 5: paced from the real standing, all succeed, none refused twice in a row", async () => {
    const a = await account({ burst: 5, perMinute: 1_000, perDay: 100_000, endpoints: { oib: 1_000 } });
    const { log, fetch } = recorder();
    const c = client(a.key, { fetch });
    const oibs = Array.from({ length: 15 }, (_, i) => String(10_000_000_000 + i));
    const results = await Promise.all(oibs.map((oib) => c.validateOib(oib)));

    expect(results.map((r) => r.oib)).toEqual(oibs);
    const calls = log.filter((e) => e.path === "/v1/validate/oib");
    for (const oib of oibs) {
      const statuses = calls.filter((e) => e.body.oib === oib).map((e) => e.status);
      expect(statuses.at(-1), `statuses of ${oib}: ${statuses}`).toBe(200);
      for (let i = 1; i < statuses.length; i++) expect(statuses[i - 1] === 429 && statuses[i] === 429, `${oib} refused twice in a row: ${statuses}`).toBe(false);
    }
    expect(calls.filter((e) => e.status === 200)).toHaveLength(15);
    expect(calls.filter((e) => e.status === 429).length).toBeLessThanOrEqual(1);
    // Never more than 5 sent in any second.
    const sent = calls.map((e) => e.sentAt);
    for (let i = 5; i < sent.length; i++) expect(sent[i]! - sent[i - 5]!).toBeGreaterThanOrEqual(1_000);
  });

  it("a window used by another client is learned, not guessed: the calls wait for its requests to leave", async () => {
    const a = await account({ burst: 6, perMinute: 1_000, perDay: 100_000, endpoints: { oib: 1_000 } });
    // Another client of the same account spends the whole burst window.
    const other = client(a.key, { rateLimit: { learn: false } });
    await Promise.all(Array.from({ length: 6 }, () => other.validateOib(VALID_OIB)));
    const spentAt = Date.now();
    const { log, fetch } = recorder();
    const pauses: number[] = [];
    const c = client(a.key, { fetch, onPause: (p) => pauses.push(p.until) });
    await Promise.all(Array.from({ length: 4 }, () => c.validateOib(VALID_OIB)));

    expect(log[0]!.path).toBe("/v1/limits");
    const calls = log.filter((e) => e.path === "/v1/validate/oib");
    expect(calls.map((e) => e.status)).toEqual([200, 200, 200, 200]);
    expect(Math.min(...calls.map((e) => e.sentAt))).toBeGreaterThanOrEqual(spentAt + 1_000 - 50);
    expect(pauses.length).toBeGreaterThan(0);
  });

  it("limits() reports the standing in every window without consuming any", async () => {
    const a = await account({ burst: 7, perMinute: 70, perDay: 700 });
    const c = client(a.key);
    const first = await c.limits();
    const second = await c.limits();
    expect(first.limits).toEqual({ burst: 7, per_minute: 70, per_day: 700 });
    expect(first.windows.map((w) => w.name).sort()).toEqual(["burst", "day", "minute"]);
    expect(second.windows.find((w) => w.name === "day")!.remaining).toBe(700);
    expect(c.rateLimit).toMatchObject({ remaining: expect.any(Number), reset: expect.any(Number) });
  });
});

describe("idempotent retries fiscalize once", () => {
  const TIMEOUT_MS = 30_000;
  /**
   * The real clock, but retry waits are recorded and shortened so the test does not sit out
   * Retry-After. The per-attempt timeout runs on the same clock and must stay real: a shortened
   * one would abandon requests the server is still processing.
   */
  function hurriedClock(): Clock & { waits: number[] } {
    const waits: number[] = [];
    return {
      waits,
      now: () => Date.now(),
      sleep: (ms, signal) => (ms === TIMEOUT_MS ? systemClock.sleep(ms, signal) : (waits.push(ms), systemClock.sleep(Math.min(ms, 20), signal))),
    };
  }

  it("an intermediary outage (503 upstream_unavailable) is retried with the same Idempotency-Key", async () => {
    const a = await account();
    const { log, fetch } = recorder();
    const clock = hurriedClock();
    const retries: RetryEvent[] = [];
    const c = client(a.key, { fetch, clock, timeoutMs: TIMEOUT_MS, onRetry: (e) => retries.push(e) });
    // The default intermediary is the simulator, whose next send can be made to fail.
    (api.services.intermediary as typeof api.services.intermediary & { inject(f: { failNext: number }): void }).inject({ failNext: 1 });
    const number = `E-OUT-${receiptNo++}`;
    const sent = await c.sendEInvoice({
      number,
      issue_date: "2026-11-21",
      seller: { oib: VALID_OIB, name: "Prodavatelj d.o.o.", iban: "HR1210010051863000160" },
      buyer: { oib: "94577403194", name: "Kupac d.o.o." },
      operator: { name: "Ana Horvat", oib: "12345678903" },
      lines: [{ description: "Razvoj aplikacije", quantity: "10", unit: "HUR", unit_price: "50.00", vat_rate: "25", kpd: "62.10.11", line_total: "500.00" }],
      totals: { net: "500.00", vat: "125.00", gross: "625.00" },
    });

    const calls = log.filter((e) => e.path === "/v1/einvoices/send");
    expect(calls.map((e) => e.status)).toEqual([503, 200]);
    const keys = calls.map((e) => e.requestHeaders.get("idempotency-key"));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(retries).toMatchObject([{ reason: "upstream_unavailable", attempt: 1 }]);
    expect(clock.waits).toContain(retries[0]!.waitMs);
    const rows = await api.services.db.eInvoice.findMany({ where: { accountId: a.id, number } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(sent.id);
  });

  it("a CIS outage issues the receipt with its ZKI at once: no retry, late delivery follows on the server", async () => {
    const a = await account();
    const { log, fetch } = recorder();
    const retries: RetryEvent[] = [];
    const c = client(a.key, { fetch, clock: hurriedClock(), timeoutMs: TIMEOUT_MS, onRetry: (e) => retries.push(e) });
    (api.services.taxAuthority as typeof api.services.taxAuthority & { inject(f: { failNext: number }): void }).inject({ failNext: 1 });
    const invoice = await c.fiscalize(receipt());
    expect(log.filter((e) => e.path === "/v1/invoices/fiscalize").map((e) => e.status)).toEqual([200]);
    expect(retries).toEqual([]);
    expect(invoice).toMatchObject({ status: "pending", jir: null });
    expect(invoice.zki).toMatch(/^[0-9a-f]{32}$/);
  });

  it("a response lost after the server fiscalized is retried and replayed, not fiscalized again", async () => {
    const a = await account();
    const lost = new TypeError("fetch failed: socket closed after the response started");
    const { log, fetch } = recorder((e, i) => {
      if (i === 0) throw lost;
    });
    const clock = hurriedClock();
    const retries: RetryEvent[] = [];
    const c = client(a.key, { fetch, clock, timeoutMs: TIMEOUT_MS, onRetry: (e) => retries.push(e) });
    const body = receipt();
    const invoice = await c.fiscalize(body);

    expect(log.map((e) => e.status)).toEqual([200, 200]);
    expect(log[1]!.headers.get("idempotent-replayed")).toBe("true");
    expect(log[1]!.requestHeaders.get("idempotency-key")).toBe(log[0]!.requestHeaders.get("idempotency-key"));
    // Backoff with full jitter: a wait drawn up to 500 ms.
    expect(retries.map((r) => r.reason)).toEqual(["network_error"]);
    expect(retries[0]!.waitMs).toBeLessThanOrEqual(500);
    expect(clock.waits).toContain(retries[0]!.waitMs);
    const rows = await api.services.db.invoice.findMany({ where: { accountId: a.id, number: body.number } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(invoice.id);
  });
});

describe("batch helpers", () => {
  it("validateOibs: 250 OIBs go as 3 batch requests and come back in input order", async () => {
    const a = await account();
    const { log, fetch } = recorder();
    const c = client(a.key, { fetch });
    const oibs = Array.from({ length: 250 }, (_, i) => (i % 7 === 0 ? VALID_OIB : String(12_345_678_900 + i * 37)));
    const r = await c.validateOibs(oibs);

    const batches = log.filter((e) => e.path === "/v1/validate/oib/batch");
    expect(batches.map((e) => e.body.oibs.length)).toEqual([100, 100, 50]);
    // Three concurrent calls on a cold client: the standing is read first (free), then the batches.
    expect(log.map((e) => e.path.split("?")[0])).toEqual(["/v1/limits", ...batches.map(() => "/v1/validate/oib/batch")]);
    expect(r.results.map((x) => x.oib)).toEqual(oibs);
    expect(r.results.map((x) => x.valid)).toEqual(oibs.map(oibValid));
    expect(r.valid).toBe(oibs.filter(oibValid).length);
    expect(r.invalid).toBe(250 - r.valid);
  });

  it("lookupKpd: 150 codes go as 2 batch requests, merged in input order with the missing ones marked", async () => {
    const a = await account();
    const { log, fetch } = recorder();
    const c = client(a.key, { fetch });
    const known = (await readKpdCsv()).filter((row) => row.level === 5).slice(0, 148).map((row) => row.code);
    const codes = [...known.slice(0, 70), "99.99.99", ...known.slice(70), "00.00.01"];
    const r = await c.lookupKpd(codes);

    const batches = log.filter((e) => e.path.startsWith("/v1/kpd/batch"));
    expect(batches.map((e) => new URL(e.path, api.url).searchParams.get("codes")!.split(",").length)).toEqual([100, 50]);
    expect(log).toHaveLength(3);
    expect(r.results.map((x) => x.code)).toEqual(codes);
    expect(r.results.map((x) => x.found)).toEqual(codes.map((code) => known.includes(code)));
    expect(r.missing).toEqual(["99.99.99", "00.00.01"]);
    expect(r.found).toBe(148);
    expect(r.results[0]!.entry).toMatchObject({ code: codes[0], level: 5 });
  });
});

describe("KPD cache", () => {
  it("a fresh entry needs no request; a stale one is revalidated with If-None-Match and answered 304", async () => {
    const a = await account();
    const { log, fetch } = recorder();
    let offset = 0;
    const clock: Clock = { now: () => Date.now() + offset, sleep: systemClock.sleep };
    const cache = new MemoryKpdCache();
    const c = client(a.key, { fetch, clock, kpdCache: cache });

    const first = await c.getKpd("62.10.11");
    const second = await c.getKpd("62.10.11");
    expect(second).toEqual(first);
    expect(log).toHaveLength(1);
    expect(log[0]!.headers.get("cache-control")).toBe("private, max-age=3600");

    offset = 3_601_000;
    const third = await c.request({ method: "GET", path: "/v1/kpd/62.10.11", cache: true });
    expect(log.map((e) => e.status)).toEqual([200, 304]);
    expect(log[1]!.requestHeaders.get("if-none-match")).toBe(log[0]!.headers.get("etag"));
    expect(third).toMatchObject({ status: 304, cache: "revalidated", data: first });
    expect(first).toMatchObject({ code: "62.10.11", level: 5 });
  });
});

describe("every endpoint, typed, against the real server", () => {
  it("fiscalize / getInvoice, sendEInvoice / getEInvoice, KPD search and batch, openapi", async () => {
    const a = await account();
    const c = client(a.key);
    const invoice = await c.fiscalize(receipt());
    expect(invoice.zki).toMatch(/^[0-9a-f]{32}$/);
    expect(await c.getInvoice(invoice.id)).toEqual(invoice);

    const sent = await c.sendEInvoice({
      number: `E-${receiptNo++}`,
      issue_date: "2026-11-21",
      seller: { oib: VALID_OIB, name: "Prodavatelj d.o.o.", iban: "HR1210010051863000160" },
      buyer: { oib: "94577403194", name: "Kupac d.o.o." },
      operator: { name: "Ana Horvat", oib: "12345678903" },
      lines: [{ description: "Razvoj aplikacije", quantity: "10", unit: "HUR", unit_price: "50.00", vat_rate: "25", kpd: "62.10.11", line_total: "500.00" }],
      totals: { net: "500.00", vat: "125.00", gross: "625.00" },
    });
    const doc = await c.getEInvoice(sent.id);
    expect(doc.ubl).toContain("62.10.11");
    expect(doc.totals).toEqual({ net: "500.00", vat: "125.00", gross: "625.00" });

    const search = await c.searchKpd({ q: "psenica", limit: 5 });
    expect(search.results.some((r) => r.name.includes("Pšenica"))).toBe(true);
    // every result of a search (29 for "voce"), seven a page: as many as the total, each once, in ranked order
    const first = await c.searchKpd({ q: "voce", limit: 100 });
    const all: string[] = [];
    for await (const r of c.searchKpdAll({ q: "voce", limit: 7 })) all.push(r.code);
    expect(first.total).toBeGreaterThan(7);
    expect(all).toHaveLength(first.total);
    expect(new Set(all).size).toBe(first.total);
    expect(all.slice(0, first.results.length)).toEqual(first.results.map((r) => r.code));
    const batch = await c.kpdBatch(["62.10.11", "nope"]);
    expect(batch).toMatchObject({ found: 1, missing: ["nope"] });
    expect((await c.validateOibBatch([VALID_OIB, "123"])).results).toEqual([
      { oib: VALID_OIB, valid: true },
      { oib: "123", valid: false, reason: "format" },
    ]);
    const doc3 = await c.openApiDocument();
    expect(String(doc3.openapi)).toMatch(/^3\.1/);
  });

  it("errors arrive as FiskalError with code, status, doc_url, details and request id", async () => {
    const a = await account();
    const c = client(a.key);
    const missing = await c.getInvoice(randomUUID()).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(FiskalError);
    expect(missing).toMatchObject({ code: "not_found", status: 404, docUrl: "http://portal.test/docs/errors#not_found", requestId: expect.stringMatching(/^req_/) });

    const invalid = (await c.fiscalize(receipt({ total: "12.5" })).catch((e: unknown) => e)) as FiskalError;
    expect(invalid).toMatchObject({ code: "validation_error", status: 400, attempts: 1 });
    expect(invalid.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "total" })]));

    const denied = await client("fsk_test_notakey").validateOib(VALID_OIB).catch((e: unknown) => e);
    expect(denied).toMatchObject({ code: "unauthorized", status: 401 });

    const down = await new FiskalClient({ apiKey: a.key, baseUrl: "http://127.0.0.1:9", retry: { maxAttempts: 1 } }).limits().catch((e: unknown) => e);
    expect(down).toMatchObject({ code: "network_error", status: null });
  });
});
