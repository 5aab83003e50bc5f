// Pacing from the client's own log of sends, on a virtual clock against a scripted exact
// sliding-log server: answers out of order, slow and lost, stripped headers, per-address windows
// and an exhausted day. In every case where the client had the information: no 429.
import { describe, expect, it } from "vitest";
import { FiskalClient, FiskalError, type FiskalClientOptions } from "../src/index.ts";
import { FakeClock, exactServer, fakeFetch, type ExactServerOptions } from "./fakes.ts";

const SANDBOX = [
  { name: "burst", limit: 10, seconds: 1 },
  { name: "minute", limit: 60, seconds: 60 },
];

function run(windows: Array<{ name: string; limit: number; seconds: number }>, serverOpts: ExactServerOptions = {}, opts: Partial<FiskalClientOptions> = {}) {
  const clock = new FakeClock();
  const t0 = clock.now();
  const server = exactServer(clock, windows, serverOpts);
  const { fetch, requests, limitsRequests } = fakeFetch(clock, server.responder, server.limits);
  const client = new FiskalClient({ apiKey: "fsk_test_x", baseUrl: "http://api.test", fetch, clock, ...opts, retry: { jitter: false, ...opts.retry } });
  return { clock, t0, server, client, requests, limitsRequests };
}

/** A deterministic sequence in [0, 1). */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

/** Never more than `limit` admissions in any span of `seconds` (admission times ascending). */
function expectWithin(admitted: number[], limit: number, seconds: number): void {
  for (let i = limit; i < admitted.length; i++) expect(admitted[i]! - admitted[i - limit]!).toBeGreaterThanOrEqual(seconds * 1000);
}

describe("answers out of order: a late answer's count never frees a slot", () => {
  it("exact 2/s window, A answered 300 ms late: C, started when A's answer arrives, waits for a slot instead of a 429", async () => {
    // A and B are admitted at once; A's answer (r=1, decided before B) arrives 300 ms after B's (r=0).
    let late = -1;
    const s = run([{ name: "burst", limit: 2, seconds: 1 }], { answerDelay: (i) => (i === late ? 300 : 0) });
    // A first call shows that nobody else uses the account (until then a burst takes half the slots).
    await s.clock.run(s.client.validateOib("warm-up"));
    await s.clock.run(s.clock.sleep(2_000));
    s.requests.length = 0;
    s.server.admitted.length = 0;
    late = 0;
    const t0 = s.clock.now();
    const a = s.client.validateOib("a");
    const b = s.client.validateOib("b");
    await s.clock.run(a);
    const c = s.client.validateOib("c");
    await s.clock.run(Promise.all([b, c]));
    expect(s.server.refused()).toBe(0);
    expect(s.requests.map((r) => (r.body as { oib: string }).oib)).toEqual(["a", "b", "c"]);
    const [, , sentC] = s.requests.map((r) => r.at - t0);
    // A and B were admitted at +5 ms: the first slot is back one second later, not at +310 ms.
    expect(sentC).toBeGreaterThanOrEqual(1_005);
    expect(s.server.admitted.map((t) => t - t0)).toEqual([5, 5, sentC! + 5]);
  });

  it("60 calls, 20 at a time, every answer delayed 0–400 ms at random: no 429, never more than the window", async () => {
    const random = lcg(7);
    const delays = Array.from({ length: 200 }, () => Math.floor(random() * 400));
    const s = run(SANDBOX, { answerDelay: (i) => delays[i]! });
    const results: Array<Promise<unknown>> = [];
    let next = 0;
    const worker = async () => {
      while (next < 60) await s.client.validateOib(String(next++));
    };
    for (let i = 0; i < 20; i++) results.push(worker());
    await s.clock.run(Promise.all(results));
    expect(s.server.refused()).toBe(0);
    expect(s.server.admitted).toHaveLength(60);
    expectWithin(s.server.admitted, 10, 1);
  });

  it("lost answers (the server admitted, the connection dropped) keep their slot; GETs are retried, still no 429", async () => {
    const s = run([{ name: "burst", limit: 5, seconds: 1 }], { drop: (i) => i % 4 === 1 }, { random: () => 0.5 });
    const results = await s.clock.run(Promise.all(Array.from({ length: 20 }, (_, i) => s.client.getInvoice(`inv_${i}`))));
    expect(results).toHaveLength(20);
    expect(s.server.refused()).toBe(0);
    expectWithin(s.server.admitted, 5, 1);
    // Every fourth answer was lost and its call sent again.
    expect(s.requests.length).toBeGreaterThan(20);
  });
});

describe("X-RateLimit-* only (a proxy strips the IETF fields)", () => {
  it("100 calls, 50 at a time on a Sandbox key: the windows are read once from GET /v1/limits and paced, no 429", async () => {
    const s = run(SANDBOX, { xOnly: true });
    await s.clock.run(Promise.all(Array.from({ length: 100 }, (_, i) => s.client.validateOib(String(i)))));
    expect(s.server.refused()).toBe(0);
    expect(s.server.admitted).toHaveLength(100);
    expectWithin(s.server.admitted, 10, 1);
    expect(s.limitsRequests).toHaveLength(1);
  });

  it("nothing but the seed rules (GET /v1/limits unavailable): at most one 429 per exhausted window", async () => {
    const s = run([{ name: "burst", limit: 10, seconds: 1 }], { xOnly: true }, { rateLimit: { learn: false } });
    await s.clock.run(Promise.all(Array.from({ length: 40 }, (_, i) => s.client.validateOib(String(i)))));
    expect(s.server.admitted).toHaveLength(40);
    // The burst window was exhausted in each second the calls ran.
    const seconds = new Set(s.server.admitted.map((t) => Math.floor((t - s.t0) / 1000))).size;
    expect(s.server.refused()).toBeLessThanOrEqual(seconds);
    expect(s.server.refused()).toBeLessThanOrEqual(1);
  });
});

describe("windows that are not the account's", () => {
  it("per-address windows (ip:…) in the headers are ignored: 10 calls on a burst of 10 go at once", async () => {
    const s = run([{ name: "burst", limit: 10, seconds: 1 }], { shown: [{ name: "ip:burst", limit: 2, seconds: 1, remaining: 0 }] });
    await s.clock.run(s.client.validateOib("first"));
    await s.clock.run(Promise.all(Array.from({ length: 9 }, (_, i) => s.client.validateOib(String(i)))));
    expect(s.server.refused()).toBe(0);
    expect(Math.max(...s.server.admitted) - s.t0).toBeLessThan(100);
    expect(s.client.rateLimit?.windows?.map((w) => w.name)).toEqual(["ip:burst", "burst"]);
  });
});

describe("the day", () => {
  it("an exhausted day window fails the call at once, without sending a request certain to be refused", async () => {
    const s = run([
      { name: "burst", limit: 10, seconds: 1 },
      { name: "day", limit: 5, seconds: 86_400 },
    ]);
    for (let i = 0; i < 5; i++) await s.clock.run(s.client.validateOib(String(i)));
    const err = await s.clock.run(s.client.validateOib("6").catch((e: unknown) => e));
    expect(err).toBeInstanceOf(FiskalError);
    expect(err).toMatchObject({ code: "rate_limit_exceeded", attempts: 0, status: null });
    expect((err as FiskalError).retryAfter).toBeGreaterThan(3_600);
    expect(s.requests).toHaveLength(5);
    expect(s.server.refused()).toBe(0);
  });
});
