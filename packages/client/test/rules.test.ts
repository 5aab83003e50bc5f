// The documented client behaviour, checked to the millisecond on a virtual clock with a scripted fetch.
import { describe, expect, it } from "vitest";
import { FiskalClient, FiskalError, type FiskalClientOptions, type RetryEvent } from "../src/index.ts";
import { FakeClock, exactServer, fakeFetch, json, standing, tooMany, type Responder } from "./fakes.ts";

const OK = { oib: "69435151530", valid: true };
const RECEIPT = {
  oib: "69435151530",
  issued_at: "2026-11-21T10:15:00+01:00",
  number: "1",
  premises: "POSL1",
  device: "1",
  total: "125.00",
  payment_method: "K" as const,
  operator_oib: "94577403194",
  vat_registered: true,
  sequence: "P" as const,
};
const INVOICE = { id: "inv_1", jir: "j", zki: "z", ...RECEIPT, issued_at: "x", created_at: "y" };

function setup(responder: Responder, opts: Partial<FiskalClientOptions> = {}) {
  const clock = new FakeClock();
  const { fetch, requests } = fakeFetch(clock, responder);
  const retries: RetryEvent[] = [];
  // Exact waits unless a test asks for jitter.
  const client = new FiskalClient({ apiKey: "fsk_test_x", baseUrl: "http://api.test", fetch, clock, onRetry: (e) => retries.push(e), ...opts, retry: { jitter: false, ...opts.retry } });
  const t0 = clock.now();
  return { clock, client, requests, retries, t0, at: () => requests.map((r) => r.at - t0) };
}

async function rejection(p: Promise<unknown>): Promise<FiskalError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(FiskalError);
    return err as FiskalError;
  }
  throw new Error("expected a rejection");
}

describe("429: wait Retry-After, doubling on each further 429", () => {
  it("waits exactly Retry-After × 2^n before each retry, then returns the result", async () => {
    const s = setup((_, i) => (i < 3 ? tooMany(2) : json(200, OK, standing(50, 0))));
    const result = await s.clock.run(s.client.validateOib("69435151530"));
    expect(result).toEqual(OK);
    expect(s.at()).toEqual([0, 2_000, 6_000, 14_000]);
    expect(s.retries.map((r) => [r.reason, r.waitMs])).toEqual([
      ["rate_limited", 2_000],
      ["rate_limited", 4_000],
      ["rate_limited", 8_000],
    ]);
  });

  it("caps each wait and gives up after maxAttempts with a typed error", async () => {
    const s = setup(() => tooMany(3), { retry: { maxDelayMs: 10_000, maxAttempts: 5 } });
    const err = await s.clock.run(rejection(s.client.validateOib("69435151530")));
    expect(s.at()).toEqual([0, 3_000, 9_000, 19_000, 29_000]);
    expect(err).toMatchObject({ code: "rate_limit_exceeded", status: 429, retryAfter: 3, attempts: 5, requestId: "req_429", docUrl: "http://portal.test/docs/rate-limits" });
  });

  it("doubles with the default cap too: 60 s, 120 s, 240 s, then the 300 s cap", async () => {
    const s = setup(() => tooMany(60));
    const err = await s.clock.run(rejection(s.client.validateOib("69435151530")));
    expect(s.retries.map((r) => r.waitMs)).toEqual([60_000, 120_000, 240_000, 300_000]);
    expect(s.at()).toEqual([0, 60_000, 180_000, 420_000, 720_000]);
    expect(err).toMatchObject({ code: "rate_limit_exceeded", retryAfter: 60, attempts: 5 });
  });

  it("uses Retry-After 60 when the header is absent, but err.retryAfter stays null", async () => {
    const s = setup((_, i) => (i === 0 ? tooMany(null) : json(200, OK)));
    await s.clock.run(s.client.validateOib("69435151530"));
    expect(s.at()).toEqual([0, 60_000]);

    const bare = setup(() => tooMany(null), { retry: { maxAttempts: 2 } });
    const err = await bare.clock.run(rejection(bare.client.validateOib("69435151530")));
    expect(bare.at()).toEqual([0, 60_000]);
    expect(err).toMatchObject({ code: "rate_limit_exceeded", status: 429, attempts: 2, retryAfter: null });
  });

  it("the doubled wait belongs to the call that earned it: the next call waits the server's Retry-After", async () => {
    // Three sends refused with Retry-After 100: waits of 100 s and 200 s, then the call gives up at 300 s.
    const s = setup((req) => ((req.body as { oib: string }).oib === "a" ? tooMany(100) : json(200, OK)), { retry: { maxAttempts: 3 } });
    const err = await s.clock.run(rejection(s.client.validateOib("a")));
    expect(err).toMatchObject({ retryAfter: 100, attempts: 3 });
    expect(s.at()).toEqual([0, 100_000, 300_000]);
    // An unrelated call right after waits the 100 s the server asked for, not the 400 s of the next doubling.
    await s.clock.run(s.client.validateOib("b"));
    expect(s.at()).toEqual([0, 100_000, 300_000, 400_000]);
  });

  it("while one call sits out its doubled wait, other calls go as soon as the server's Retry-After is over", async () => {
    const s = setup((req, i) => ((req.body as { oib: string }).oib === "a" && i < 2 ? tooMany(2) : json(200, OK, standing(50, 0))));
    const a = s.client.validateOib("a");
    await s.clock.run(new Promise<void>((r) => void s.clock.sleep(2_500).then(r)));
    const b = s.client.validateOib("b");
    await s.clock.run(Promise.all([a, b]));
    // a: 0, 2 s (429 again, Retry-After 2), then its doubled 4 s → 6 s. b starts at 2.5 s and goes
    // when the server's Retry-After of that second 429 is over (4 s), not at a's 6 s.
    expect(s.requests.map((r) => [r.at - s.t0, (r.body as { oib: string }).oib])).toEqual([
      [0, "a"],
      [2_000, "a"],
      [4_000, "b"],
      [6_000, "a"],
    ]);
  });

  it("fails at once when Retry-After is longer than the cap (e.g. the daily quota)", async () => {
    const s = setup(() => tooMany(3_600));
    const err = await s.clock.run(rejection(s.client.validateOib("69435151530")));
    expect(s.requests).toHaveLength(1);
    expect(err).toMatchObject({ code: "rate_limit_exceeded", retryAfter: 3_600, attempts: 1 });
  });

  it("accepts Retry-After as an HTTP date", async () => {
    const s = setup((_, i) => (i === 0 ? tooMany(null, { "retry-after": new Date(Date.UTC(2026, 0, 15, 10, 0, 7)).toUTCString() }) : json(200, OK)));
    await s.clock.run(s.client.validateOib("69435151530"));
    expect(s.at()).toEqual([0, 7_000]);
  });
});

describe("X-RateLimit-Remaining below 5: wait until X-RateLimit-Reset", () => {
  it("holds the next request until the reset (Unix seconds → ms), and not before", async () => {
    const clock0 = new FakeClock().now();
    const s = setup((_, i) => json(200, OK, i === 0 ? standing(5, clock0 + 4_000) : i === 1 ? standing(4, clock0 + 3_000) : standing(9, clock0 + 9_000)));
    await s.clock.run(s.client.validateOib("1"));
    await s.clock.run(s.client.validateOib("2"));
    await s.clock.run(s.client.validateOib("3"));
    // 5 remaining is not below 5: no wait; 4 is: the third call goes at the reset.
    expect(s.at()).toEqual([0, 0, 3_000]);
    expect(s.clock.sleeps).toContain(3_000);
  });

  it("defaults Remaining to 100 when the headers are absent, so nothing waits", async () => {
    const s = setup(() => json(200, OK));
    for (let i = 0; i < 3; i++) await s.clock.run(s.client.validateOib(String(i)));
    expect(s.at()).toEqual([0, 0, 0]);
    expect(s.client.rateLimit).toEqual({ limit: null, remaining: 100, reset: null, windows: null });
  });

  it("does not block for a reset beyond the cap (the day window); the server decides", async () => {
    const clock0 = new FakeClock().now();
    const s = setup(() => json(200, OK, standing(3, clock0 + 5 * 3_600_000, 10_000)));
    await s.clock.run(s.client.validateOib("1"));
    await s.clock.run(s.client.validateOib("2"));
    expect(s.at()).toEqual([0, 0]);
  });
});

describe("one shared gate per client", () => {
  it("a 429 seen by one call holds every other call, then one request probes alone", async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const { fetch, requests } = fakeFetch(clock, async (_, i) => {
      await clock.sleep(10);
      return i === 0 ? tooMany(2) : json(200, OK, standing(50, t0 + 60_000, 100));
    });
    const client = new FiskalClient({ apiKey: "fsk_test_x", baseUrl: "http://api.test", fetch, clock, retry: { jitter: false } });
    const a = client.validateOib("a");
    // Start b and c just after a's 429 has arrived.
    await clock.run(new Promise<void>((r) => void clock.sleep(11).then(r)));
    const b = client.validateOib("b");
    const c = client.validateOib("c");
    await clock.run(Promise.all([a, b, c]));
    expect(requests.map((r) => [r.at - t0, (r.body as { oib: string }).oib])).toEqual([
      [0, "a"],
      [2_010, "a"],
      [2_020, "b"],
      [2_020, "c"],
    ]);
  });

  it("X-RateLimit-* only, nothing else known: concurrent calls follow the seed rules with no 429 at all", async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const counts = new Map<number, number>();
    let refused = 0;
    const { fetch, requests } = fakeFetch(clock, async () => {
      const win = Math.floor(clock.now() / 1000);
      const used = (counts.get(win) ?? 0) + 1;
      counts.set(win, used);
      await clock.sleep(5);
      const reset = (win + 1) * 1000;
      if (used > 10) {
        refused++;
        return tooMany(Math.ceil((reset - clock.now()) / 1000), standing(0, reset));
      }
      return json(200, OK, standing(10 - used, reset, 10));
    });
    const client = new FiskalClient({ apiKey: "fsk_test_x", baseUrl: "http://api.test", fetch, clock, retry: { jitter: false } });
    await clock.run(client.validateOib("warm-up"));
    const results = await clock.run(Promise.all(Array.from({ length: 30 }, (_, i) => client.validateOib(String(i)))));
    expect(results).toHaveLength(30);
    expect(refused).toBe(0);
    // Per window: the warm-up and 5 more (until Remaining showed 4). A reset may free a single slot
    // (the API's windows slide), so after it one request probes alone and its answer (9 left)
    // lets 5 more go at once, until Remaining shows 4 again.
    const perWindow = [...counts.values()];
    expect(perWindow).toEqual([6, 6, 6, 6, 6, 1]);
    expect(requests.at(-1)!.at - t0).toBe(5_000);
  });

  it("an aborted call leaves the queue at once and sends nothing", async () => {
    const s = setup((_, i) => (i === 0 ? tooMany(30) : json(200, OK)));
    const first = s.client.validateOib("a");
    const controller = new AbortController();
    await s.clock.run(new Promise<void>((r) => setImmediate(r)));
    const second = s.client.validateOib("b", { signal: controller.signal });
    const aborted = rejection(second);
    controller.abort();
    const err = await aborted;
    expect(err.code).toBe("aborted");
    expect(s.requests).toHaveLength(1);
    await s.clock.run(first);
    expect(s.at()).toEqual([0, 30_000]);
  });
});

describe("exact windows (IETF RateLimit fields): full speed, never early", () => {
  const SANDBOX = [
    { name: "burst", limit: 10, seconds: 1 },
    { name: "minute", limit: 60, seconds: 60 },
  ];

  it("50 concurrent calls on 10/s finish in the minimum time with no 429, reading GET /v1/limits first", async () => {
    const clock = new FakeClock();
    const server = exactServer(clock, SANDBOX);
    const { fetch, requests, limitsRequests } = fakeFetch(clock, server.responder, server.limits);
    const client = new FiskalClient({ apiKey: "fsk_test_x", baseUrl: "http://api.test", fetch, clock, retry: { jitter: false } });
    const t0 = clock.now();
    const results = await clock.run(Promise.all(Array.from({ length: 50 }, (_, i) => client.validateOib(String(i)))));
    expect(results).toHaveLength(50);
    expect(server.refused()).toBe(0);
    expect(limitsRequests).toHaveLength(1);
    expect(limitsRequests[0]!.at).toBeLessThan(requests[0]!.at);
    // Five waves of ten: the last admitted one second (plus one round trip) after the wave before.
    const waves = server.admitted.map((t) => Math.floor((t - server.admitted[0]!) / 1_000));
    expect(waves.filter((w) => w === 0)).toHaveLength(10);
    expect(server.admitted.at(-1)! - t0).toBeLessThan(4_100);
    // Never more than 10 in any span of one second.
    for (let i = 10; i < server.admitted.length; i++) expect(server.admitted[i]! - server.admitted[i - 10]!).toBeGreaterThan(1_000);
  });

  it("a cold start learns that other clients used the window, instead of assuming 100 remaining", async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    // Another client of the account sent 7 requests 400 ms ago, and 30 in the minute.
    const server = exactServer(clock, SANDBOX, { used: [...Array(7).fill(t0 - 400)] });
    const { fetch, limitsRequests } = fakeFetch(clock, server.responder, server.limits);
    const client = new FiskalClient({ apiKey: "fsk_test_x", baseUrl: "http://api.test", fetch, clock, retry: { jitter: false } });
    await clock.run(Promise.all(Array.from({ length: 20 }, (_, i) => client.validateOib(String(i)))));
    expect(server.refused()).toBe(0);
    expect(limitsRequests).toHaveLength(1);
    // At most the 3 left before the other client's requests leave the second (another client is
    // there, so each burst takes half of what is free), the rest after.
    const early = server.admitted.filter((t) => t < t0 + 600).length;
    expect(early).toBeGreaterThanOrEqual(1);
    expect(early).toBeLessThanOrEqual(3);
  });

  it("a single call sends at once, with no GET /v1/limits", async () => {
    const clock = new FakeClock();
    const server = exactServer(clock, SANDBOX);
    const { fetch, requests, limitsRequests } = fakeFetch(clock, server.responder, server.limits);
    const client = new FiskalClient({ apiKey: "fsk_test_x", baseUrl: "http://api.test", fetch, clock, retry: { jitter: false } });
    await clock.run(client.validateOib("1"));
    expect(limitsRequests).toHaveLength(0);
    expect(requests).toHaveLength(1);
    expect(client.rateLimit?.windows).toEqual([
      { name: "burst", limit: 10, windowSeconds: 1, remaining: 9, resetSeconds: 1 },
      { name: "minute", limit: 60, windowSeconds: 60, remaining: 59, resetSeconds: 60 },
    ]);
  });

  it("a window spent by others is waited out until its oldest request leaves, then the calls go", async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const server = exactServer(clock, SANDBOX, { used: [...Array(10).fill(t0 - 300)] });
    const { fetch } = fakeFetch(clock, server.responder, server.limits);
    const client = new FiskalClient({ apiKey: "fsk_test_x", baseUrl: "http://api.test", fetch, clock, retry: { jitter: false } });
    await clock.run(Promise.all(Array.from({ length: 5 }, (_, i) => client.validateOib(String(i)))));
    expect(server.refused()).toBe(0);
    expect(Math.min(...server.admitted)).toBeGreaterThan(t0 + 700);
  });
});

describe("idempotency and 503", () => {
  it("fiscalize sends one generated Idempotency-Key, the same on every retry", async () => {
    const s = setup((_, i) => {
      if (i === 0) return tooMany(1);
      if (i === 1) throw new TypeError("fetch failed");
      if (i === 2) return json(503, { error: { code: "upstream_unavailable", message: "CIS", doc_url: "d" } }, { "retry-after": "5" });
      return json(200, INVOICE);
    });
    const invoice = await s.clock.run(s.client.fiscalize(RECEIPT));
    expect(invoice).toEqual(INVOICE);
    const keys = s.requests.map((r) => r.headers["idempotency-key"]);
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(s.retries.map((r) => [r.reason, r.waitMs])).toEqual([
      ["rate_limited", 1_000],
      ["network_error", 500],
      ["upstream_unavailable", 5_000],
    ]);
    expect(s.at()).toEqual([0, 1_000, 1_500, 6_500]);

    await s.clock.run(s.client.fiscalize(RECEIPT));
    expect(s.requests[4]!.headers["idempotency-key"]).not.toBe(keys[0]);
    await s.clock.run(s.client.sendEInvoice({} as never, { idempotencyKey: "my-key-1" }));
    expect(s.requests[5]!.headers["idempotency-key"]).toBe("my-key-1");
  });

  it("when the outcome stays unknown, the error names the Idempotency-Key to retry with", async () => {
    const s = setup(() => {
      throw new TypeError("fetch failed");
    }, { retry: { maxAttempts: 3 } });
    const err = await s.clock.run(rejection(s.client.fiscalize(RECEIPT, { idempotencyKey: "receipt-1-POSL1-1" })));
    expect(err).toMatchObject({ code: "network_error", attempts: 3, idempotencyKey: "receipt-1-POSL1-1" });
    expect(s.at()).toEqual([0, 500, 1_500]);
    expect(s.requests.every((r) => r.headers["idempotency-key"] === "receipt-1-POSL1-1")).toBe(true);
  });

  it("a POST without an Idempotency-Key is not retried after a 503 or a network error", async () => {
    const s = setup(() => json(503, { error: { code: "upstream_unavailable", message: "down", doc_url: "d" } }, { "retry-after": "5", "x-request-id": "req_1" }));
    const err = await s.clock.run(rejection(s.client.validateOib("1")));
    expect(err).toMatchObject({ code: "upstream_unavailable", status: 503, retryAfter: 5, requestId: "req_1", attempts: 1 });
    const n = setup(() => {
      throw new TypeError("fetch failed");
    });
    const netErr = await n.clock.run(rejection(n.client.validateOib("1")));
    expect(netErr).toMatchObject({ code: "network_error", status: null, attempts: 1 });
    expect(netErr.cause).toBeInstanceOf(TypeError);
    expect(n.requests).toHaveLength(1);
  });

  it("GETs are retried after a 503 with Retry-After, with the same doubling", async () => {
    const s = setup((_, i) => (i < 2 ? json(503, { error: { code: "upstream_unavailable", message: "down", doc_url: "d" } }, { "retry-after": "2" }) : json(200, INVOICE)));
    await s.clock.run(s.client.getInvoice("inv_1"));
    expect(s.at()).toEqual([0, 2_000, 6_000]);
  });
});

describe("timeouts, aborts and errors", () => {
  const hang: Responder = () => new Promise<Response>(() => undefined);

  it("a timeout is its own error; idempotent calls retry it", async () => {
    const clock = new FakeClock();
    const seen: number[] = [];
    const fetch: typeof globalThis.fetch = (_, init) =>
      new Promise<Response>((_, reject) => {
        seen.push(clock.now());
        init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason));
      });
    const client = new FiskalClient({ apiKey: "k", baseUrl: "http://api.test", fetch, clock, timeoutMs: 1_000, retry: { maxAttempts: 2, jitter: false } });
    const t0 = clock.now();
    const err = await clock.run(rejection(client.getInvoice("x")));
    expect(err).toMatchObject({ code: "timeout", status: null, attempts: 2 });
    expect(seen.map((t) => t - t0)).toEqual([0, 1_500]);

    const once = await clock.run(rejection(client.validateOib("1", { timeoutMs: 200 })));
    expect(once).toMatchObject({ code: "timeout", attempts: 1 });
  });

  it("aborting an in-flight call rejects with code aborted and no retry", async () => {
    const s = setup(hang);
    const controller = new AbortController();
    const p = rejection(s.client.getInvoice("x", { signal: controller.signal }));
    await new Promise((r) => setImmediate(r));
    controller.abort(new Error("user left"));
    const err = await p;
    expect(err.code).toBe("aborted");
    expect((err.cause as Error).message).toBe("user left");
    expect(s.requests).toHaveLength(1);
  });

  it("maps the API envelope to FiskalError fields", async () => {
    const details = [{ path: "oib", message: "OIB ima točno 11 znamenki." }];
    const s = setup(() => json(400, { error: { code: "validation_error", message: "Neispravan zahtjev", doc_url: "http://portal.test/docs/errors#validation_error", details } }, { "x-request-id": "req_abc" }));
    const err = await s.clock.run(rejection(s.client.fiscalize(RECEIPT)));
    expect(err).toMatchObject({ code: "validation_error", status: 400, message: "Neispravan zahtjev", docUrl: "http://portal.test/docs/errors#validation_error", requestId: "req_abc", retryAfter: null });
    expect(err.details).toEqual(details);
    expect(s.requests).toHaveLength(1);
  });

  it("a body that is not JSON is invalid_response", async () => {
    const s = setup(() => new Response("<html>proxy</html>", { status: 200 }));
    expect((await s.clock.run(rejection(s.client.getInvoice("inv_1")))).code).toBe("invalid_response");
  });

  it("rejects bad options and oversized batches before sending anything", async () => {
    expect(() => new FiskalClient({ apiKey: "", baseUrl: "http://x" })).toThrow(/apiKey/);
    expect(() => new FiskalClient({ apiKey: "k", baseUrl: "api.test" })).toThrow(/baseUrl/);
    expect(() => new FiskalClient({ apiKey: "k", baseUrl: "http://x", retry: { maxAttempts: 0 } })).toThrow(/maxAttempts/);
    const s = setup(() => json(200, OK));
    await expect(s.client.kpdBatch(Array.from({ length: 101 }, () => "62"))).rejects.toThrow(/lookupKpd/);
    await expect(s.client.validateOibBatch([])).rejects.toThrow(RangeError);
    expect(s.requests).toHaveLength(0);
  });
});

describe("batch helpers", () => {
  it("validateOibs splits 250 OIBs into 100 + 100 + 50 and keeps input order", async () => {
    const oibs = Array.from({ length: 250 }, (_, i) => String(10_000_000_000 + i));
    const s = setup((req) => {
      const batch = (req.body as { oibs: string[] }).oibs;
      const results = batch.map((oib) => ({ oib, valid: Number(oib) % 2 === 0 }));
      return json(200, { results, valid: results.filter((r) => r.valid).length, invalid: results.filter((r) => !r.valid).length });
    });
    const r = await s.clock.run(s.client.validateOibs(oibs));
    expect(s.requests.map((q) => (q.body as { oibs: string[] }).oibs.length)).toEqual([100, 100, 50]);
    expect(r.results.map((x) => x.oib)).toEqual(oibs);
    expect(r.valid).toBe(125);
    expect(r.invalid).toBe(125);
    expect(await s.clock.run(s.client.validateOibs([]))).toEqual({ results: [], valid: 0, invalid: 0 });
    expect(s.requests).toHaveLength(3);
  });

  it("lookupKpd splits 150 codes into 100 + 50 and merges results, found and missing", async () => {
    const codes = Array.from({ length: 150 }, (_, i) => `c${i}`);
    const s = setup((req) => {
      const batch = new URL(req.url).searchParams.get("codes")!.split(",");
      const results = batch.map((code) => ({ code, found: code !== "c120", entry: null }));
      return json(200, { results, found: results.filter((x) => x.found).length, missing: results.filter((x) => !x.found).map((x) => x.code) });
    });
    const r = await s.clock.run(s.client.lookupKpd(codes));
    expect(s.requests).toHaveLength(2);
    expect(r.results.map((x) => x.code)).toEqual(codes);
    expect(r.found).toBe(149);
    expect(r.missing).toEqual(["c120"]);
  });
});

describe("KPD cache", () => {
  const entry = { code: "62.10.11", name: "Usluge", level: 5, level_name: "subcategory", section: "J", parent: "62.10.1", is_leaf: true, ancestors: [] };
  const etag = '"kpd-1"';
  const responder: Responder = (req) =>
    req.headers["if-none-match"] === etag
      ? new Response(null, { status: 304, headers: { etag, "cache-control": "private, max-age=3600" } })
      : json(200, entry, { etag, "cache-control": "private, max-age=3600" });

  it("serves a fresh entry without a request and revalidates a stale one with If-None-Match", async () => {
    const s = setup(responder);
    expect(await s.clock.run(s.client.getKpd("62.10.11"))).toEqual(entry);
    expect(await s.clock.run(s.client.getKpd("62.10.11"))).toEqual(entry);
    expect(s.requests).toHaveLength(1);
    s.clock.t += 3_600_000;
    const r = await s.clock.run(s.client.request({ method: "GET", path: "/v1/kpd/62.10.11", cache: true }));
    expect(r).toMatchObject({ status: 304, cache: "revalidated", data: entry });
    expect(s.requests[1]!.headers["if-none-match"]).toBe(etag);
    // The 304 renewed the entry's freshness.
    await s.clock.run(s.client.getKpd("62.10.11"));
    expect(s.requests).toHaveLength(2);
  });

  it("takes any async key-value store, and can be turned off", async () => {
    const store = new Map<string, unknown>();
    const cache = { get: async (k: string) => store.get(k) as never, set: async (k: string, v: unknown) => void store.set(k, v) };
    const s = setup(responder, { kpdCache: cache });
    await s.clock.run(s.client.searchKpd({ q: "psenica", level: 5 }));
    expect([...store.keys()]).toEqual(["/v1/kpd/search?q=psenica&level=5"]);
    await s.clock.run(s.client.searchKpd({ q: "psenica", level: 5 }));
    expect(s.requests).toHaveLength(1);

    const off = setup(responder, { kpdCache: false });
    await off.clock.run(off.client.getKpd("62.10.11"));
    await off.clock.run(off.client.getKpd("62.10.11"));
    expect(off.requests).toHaveLength(2);
    expect(off.requests[1]!.headers["if-none-match"]).toBeUndefined();
  });
});
