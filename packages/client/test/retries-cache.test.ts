// Retries of idempotent calls with backoff and full jitter, the overall deadline, and the KPD cache
// bounded in bytes with identical lookups coalesced; virtual clock, scripted fetch.
import { describe, expect, it } from "vitest";
import { FiskalClient, FiskalError, MemoryKpdCache, type FiskalClientOptions, type RetryEvent } from "../src/index.ts";
import { FakeClock, fakeFetch, json, tooMany, type Responder } from "./fakes.ts";

const INVOICE = { id: "inv_1", jir: "j", zki: "z" };

function setup(responder: Responder, opts: Partial<FiskalClientOptions> = {}) {
  const clock = new FakeClock();
  const { fetch, requests } = fakeFetch(clock, responder);
  const retries: RetryEvent[] = [];
  const client = new FiskalClient({ apiKey: "fsk_test_x", baseUrl: "http://api.test", fetch, clock, onRetry: (e) => retries.push(e), ...opts });
  const t0 = clock.now();
  return { clock, client, requests, retries, at: () => requests.map((r) => r.at - t0) };
}

async function rejection(p: Promise<unknown>): Promise<FiskalError> {
  const err = await p.then(
    () => new Error("expected a rejection"),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FiskalError);
  return err as FiskalError;
}

const envelope = (code: string) => ({ error: { code, message: "Greška.", doc_url: "http://portal.test/docs/errors" } });

describe("retries of idempotent calls: 500, 502, 503, 504 and network errors, backoff with full jitter", () => {
  it("a GET is retried after 500, 502 and 504, each wait drawn up to 500 ms × 2^n", async () => {
    const statuses = [500, 502, 504];
    const s = setup((_, i) => (i < 3 ? json(statuses[i]!, envelope("internal_error")) : json(200, INVOICE)), { random: () => 0.5 });
    expect(await s.clock.run(s.client.getInvoice("inv_1"))).toEqual(INVOICE);
    expect(s.retries.map((r) => [r.reason, r.waitMs])).toEqual([
      ["server_error", 250],
      ["server_error", 500],
      ["server_error", 1_000],
    ]);
    expect(s.at()).toEqual([0, 250, 750, 1_750]);
  });

  it("the waits are random (full jitter): two clients failing together retry at different times", async () => {
    const draws = [0.1, 0.9];
    const times = await Promise.all(
      draws.map(async (d) => {
        const s = setup((_, i) => (i === 0 ? json(503, envelope("upstream_unavailable")) : json(200, INVOICE)), { random: () => d });
        await s.clock.run(s.client.getInvoice("inv_1"));
        return s.at()[1];
      }),
    );
    expect(times).toEqual([50, 450]);
  });

  it("a POST with an Idempotency-Key is retried after a 502 with the same key; one without is not", async () => {
    const s = setup((_, i) => (i === 0 ? json(502, envelope("internal_error")) : json(200, INVOICE)), { random: () => 0 });
    await s.clock.run(s.client.fiscalize({} as never, { idempotencyKey: "k-1" }));
    expect(s.requests.map((r) => r.headers["idempotency-key"])).toEqual(["k-1", "k-1"]);

    const plain = setup(() => json(500, envelope("internal_error")));
    const err = await plain.clock.run(rejection(plain.client.validateOib("1")));
    expect(err).toMatchObject({ code: "internal_error", status: 500, attempts: 1 });
  });

  it("a 429 waits at least Retry-After, plus a random extra of up to a second", async () => {
    const s = setup((_, i) => (i === 0 ? tooMany(2) : json(200, { oib: "1", valid: true })), { random: () => 0.25 });
    await s.clock.run(s.client.validateOib("1"));
    expect(s.at()).toEqual([0, 2_250]);
  });
});

describe("the overall deadline", () => {
  it("a wait that would end after the deadline is not started: the 429 is returned at once", async () => {
    const s = setup(() => tooMany(30), { deadlineMs: 10_000 });
    const err = await s.clock.run(rejection(s.client.validateOib("1")));
    expect(err).toMatchObject({ code: "rate_limit_exceeded", attempts: 1, retryAfter: 30 });
    expect(s.clock.now() - s.at()[0]! - new FakeClock().now()).toBe(0);
  });

  it("a call that runs out of time ends with code timeout, not aborted", async () => {
    const s = setup(() => new Promise<Response>(() => undefined), { deadlineMs: 2_000, timeoutMs: 60_000 });
    const t0 = s.clock.now();
    const err = await s.clock.run(rejection(s.client.getInvoice("inv_1")));
    expect(err.code).toBe("timeout");
    expect(s.clock.now() - t0).toBe(2_000);

    // Per call, across retries: 5xx answers after 700 ms each, deadline 1.5 s.
    const slow = setup(async () => {
      await slow.clock.sleep(700);
      return json(503, envelope("upstream_unavailable"));
    }, { retry: { jitter: false, networkDelayMs: 100 } });
    const err2 = await slow.clock.run(rejection(slow.client.getInvoice("inv_1", { deadlineMs: 1_500 })));
    expect(err2.code).toBe("timeout");
    expect(slow.at()).toEqual([0, 800]);
  });

  it("a signal that times out (AbortSignal.timeout) ends with code timeout", async () => {
    const s = setup(() => new Promise<Response>(() => undefined));
    const controller = new AbortController();
    const p = rejection(s.client.getInvoice("inv_1", { signal: controller.signal }));
    await new Promise((r) => setImmediate(r));
    controller.abort(new DOMException("The operation timed out.", "TimeoutError"));
    expect((await p).code).toBe("timeout");
  });
});

describe("KPD cache: bounded in bytes, identical lookups coalesced", () => {
  /** A search page of 100 results, about 61 kB of JSON like the API's. */
  const page = (offset: number) => ({
    results: Array.from({ length: 100 }, (_, i) => ({
      code: `01.11.${offset + i}`,
      name: `Pšenica i suražica, sjeme ${offset + i} `.padEnd(480, "x"),
      level: 5,
      section: "A",
      ancestors: ["A", "01", "01.1"],
    })),
    total: 100_000,
  });

  it("pages beyond the byte bound push out the least recently used: the cache never holds more than its bound", async () => {
    const body = JSON.stringify(page(0));
    expect(body.length).toBeGreaterThan(50_000);
    const cache = new MemoryKpdCache({ maxBytes: 2 * 1024 * 1024 });
    const c = setup((req) => new Response(JSON.stringify(page(Number(new URL(req.url).searchParams.get("offset")))), { headers: { "content-type": "application/json", etag: '"p"', "cache-control": "private, max-age=3600" } }), {
      kpdCache: cache,
      rateLimit: { learn: false },
    });
    for (let i = 0; i < 200; i++) await c.clock.run(c.client.searchKpd({ q: "psenica", offset: i * 100 }));
    expect(c.requests).toHaveLength(200);
    expect(cache.bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(cache.bytes).toBeGreaterThan(2 * 1024 * 1024 - 2 * body.length);
    expect(cache.size).toBeLessThan(40);
    // The most recent page is still served from memory, the first one is gone.
    await c.clock.run(c.client.searchKpd({ q: "psenica", offset: 199 * 100 }));
    expect(c.requests).toHaveLength(200);
    await c.clock.run(c.client.searchKpd({ q: "psenica", offset: 0 }));
    expect(c.requests).toHaveLength(201);
  });

  it("an entry larger than the whole bound is not kept; the default bound is 16 MiB", () => {
    const cache = new MemoryKpdCache({ maxBytes: 1_000 });
    cache.set("big", { body: { x: "y".repeat(2_000) }, etag: null, freshUntil: 0 });
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    const dflt = new MemoryKpdCache();
    for (let i = 0; i < 400; i++) dflt.set(`k${i}`, { body: null, etag: null, freshUntil: 0, bytes: 61_000 });
    expect(dflt.bytes).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(dflt.size).toBe(Math.floor((16 * 1024 * 1024) / (61_000 + 64 + 4)));
    expect(() => new MemoryKpdCache({ maxBytes: 0 })).toThrow(RangeError);
  });

  it("20 concurrent getKpd of one code send one request; each caller may still abort its own wait", async () => {
    const entry = { code: "62.10.11", name: "Usluge", level: 5 };
    const s = setup(async () => {
      await s.clock.sleep(50);
      return json(200, entry, { etag: '"e"', "cache-control": "private, max-age=3600" });
    });
    const controller = new AbortController();
    const aborted = rejection(s.client.getKpd("62.10.11", { signal: controller.signal }));
    const all = Array.from({ length: 20 }, () => s.client.getKpd("62.10.11"));
    controller.abort();
    expect((await aborted).code).toBe("aborted");
    const results = await s.clock.run(Promise.all(all));
    expect(results.every((r) => JSON.stringify(r) === JSON.stringify(entry))).toBe(true);
    expect(s.requests).toHaveLength(1);
    // Different codes are not merged.
    await s.clock.run(Promise.all([s.client.getKpd("62"), s.client.getKpd("J")]));
    expect(s.requests).toHaveLength(3);
  });
});
