/**
 * The script itself, called with the arguments a limit above RING_LIMIT would produce but with
 * small limits, so that sub-bucketed windows and the conversions between the two representations
 * can be filled and checked quickly. Run on the real Redis (Lua) and the in-process store (its twin).
 */
import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWindowScript } from "./algorithm.ts";
import { Engine } from "./engine.ts";
import { createMemoryRequester } from "./memory-requester.ts";
import { InvalidLimitsError, type Limits } from "./policy.ts";
import { createRedisRequester, type RedisRequester } from "./redis-requester.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One rolling window of kind `kind` ("r" log | "b" sub-buckets) and limit `n` over `w` ms, in slot 0, by the store's clock. */
const args = (kind: "r" | "b", n: number, w = 60_000) => ["", "0", `${kind}c0`, String(n), String(w)];

interface Answer {
  allowed: boolean;
  remaining: number;
  waitMs: number;
  at: number;
}
const answer = (reply: number[]): Answer => ({ allowed: reply[0] === 1, at: reply[1]!, remaining: reply[2]!, waitMs: reply[3]! });

/** After a store's tests: its requester closed and, on the real Redis, the keys under `prefix` deleted. */
async function closeStore(kind: "redis" | "memory", requester: RedisRequester | undefined, prefix: string): Promise<void> {
  await requester?.close();
  if (kind !== "redis") return;
  const io = new IORedis(REDIS_URL);
  const keys = await io.keys(`${prefix}:*`);
  if (keys.length) await io.del(...keys);
  await io.quit();
}

describe.each(["redis", "memory"] as const)("the script on the %s store", (kind) => {
  const prefix = `fiskal-test:script:${randomUUID()}`;
  let requester: RedisRequester | undefined;
  let redis: Redis;
  beforeAll(async () => {
    if (kind === "redis") {
      requester = createRedisRequester(REDIS_URL, 1_000);
      await requester.ready(2_000);
      redis = new Redis(requester);
    } else redis = new Redis(createMemoryRequester());
  });
  afterAll(() => closeStore(kind, requester, prefix));
  /** the header key twice, the window's key */
  const keysOf = () => {
    const base = `${prefix}:{${randomUUID()}}`;
    return [`${base}:windows`, `${base}:windows`, `${base}:minute`];
  };
  const run = async (keys: string[], a: string[]) => answer(await runWindowScript(redis, keys, a));

  it("a sub-bucketed window admits exactly its limit and says when its oldest sub-bucket leaves", async () => {
    const keys = keysOf();
    const results = await Promise.all(Array.from({ length: 12 }, () => run(keys, args("b", 7))));
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
    for (const r of results.filter((r) => !r.allowed)) {
      expect(r.remaining).toBe(0);
      // every admission sits in the sub-bucket of the first: the window admits when that one leaves
      const first = Math.min(...results.filter((x) => x.allowed).map((x) => x.at));
      const g = 600;
      expect(r.at + r.waitMs).toBe((Math.floor(first / g) + 101) * g);
    }
  });

  it("a log that grows past the ring limit keeps its history as counts per sub-bucket", async () => {
    const keys = keysOf();
    for (let i = 0; i < 5; i++) expect((await run(keys, args("r", 5))).allowed).toBe(true);
    expect((await run(keys, args("r", 5))).allowed).toBe(false);
    // the same window, now sub-bucketed with a limit of 8: five already counted, three fit
    const after = [];
    for (let i = 0; i < 4; i++) after.push(await run(keys, args("b", 8)));
    expect(after.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(after[2]!.remaining).toBe(0);
    if (kind === "redis") {
      const io = new IORedis(REDIS_URL);
      // the window's key became a hash of counts, and its slot says it holds no log
      expect(await io.type(keys[2]!)).toBe("hash");
      await io.quit();
    }
  });

  it("sub-bucket counts that shrink back under the ring limit become log entries, the newest that fit", async () => {
    const keys = keysOf();
    for (let i = 0; i < 8; i++) expect((await run(keys, args("b", 8))).allowed).toBe(true);
    // a limit of 6 as a log: the newest 6 of the 8 count, so it refuses; nothing was lost or invented
    const refused = await run(keys, args("r", 6));
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    // the entries stand at the end of their sub-bucket: never earlier than the requests were admitted
    expect(refused.waitMs).toBeGreaterThan(60_000 - 1_000);
    expect(refused.waitMs).toBeLessThanOrEqual(60_000 + 600);
    const raised = await run(keys, args("r", 10));
    expect(raised).toMatchObject({ allowed: true, remaining: 10 - 8 - 1 });
  });

  it("a window key left as a string by the earlier layout is replaced, never an error", async () => {
    if (kind !== "redis") return;
    const io = new IORedis(REDIS_URL);
    for (const k of ["r", "b"] as const) {
      const keys = keysOf();
      // "<cap><k>…" decimal header and 13-digit entries, as the earlier script wrote them
      await io.set(keys[2]!, "0000000500000001".padEnd(71, "0") + "1764000000000", "PX", 60_000);
      const first = await run(keys, args(k, 3));
      expect(first).toMatchObject({ allowed: true, remaining: 2 });
      expect(await io.type(keys[2]!)).toBe(k === "r" ? "string" : "hash");
      expect((await run(keys, args(k, 3))).remaining).toBe(1);
    }
    await io.quit();
  });

  it("a long log, read entry by entry, is exact under bursts that wrap it several times", async () => {
    const keys = keysOf();
    const n = 600;
    const w = 500;
    const all: Answer[] = [];
    const started = Date.now();
    let round = 0;
    while (Date.now() - started < 2_500) {
      // bursts of 300–900 at once, with pauses that let part of the log age out
      const size = 300 + ((round * 277) % 600);
      all.push(...(await Promise.all(Array.from({ length: size }, () => run(keys, args("r", n, w))))));
      await sleep(60 + ((round * 97) % 300));
      round++;
    }
    const admitted = all.filter((r) => r.allowed).map((r) => r.at).sort((x, y) => x - y);
    const inSpan = (t: number) => {
      let c = 0;
      for (const a of admitted) if (a > t - w && a <= t) c++;
      return c;
    };
    for (const r of all) {
      if (r.allowed) expect(inSpan(r.at)).toBeLessThanOrEqual(n);
      else {
        expect(r.remaining).toBe(0);
        expect(inSpan(r.at)).toBeGreaterThanOrEqual(n);
      }
    }
    expect(admitted.length).toBeGreaterThan(2 * n);
    expect(all.length - admitted.length).toBeGreaterThan(n);
  });

  it("a full log refuses until its oldest entry is W old, to the millisecond", async () => {
    const keys = keysOf();
    const w = 400;
    const admitted = [];
    for (let i = 0; i < 3; i++) admitted.push(await run(keys, args("r", 3, w)));
    const refused = await run(keys, args("r", 3, w));
    expect(refused.allowed).toBe(false);
    expect(refused.at + refused.waitMs).toBe(admitted[0]!.at + w);
    await sleep(refused.waitMs + 5);
    expect((await run(keys, args("r", 3, w))).allowed).toBe(true);
  });
});

describe("a sub-bucketed window on a virtual clock", () => {
  it("never admits more than N in any span of W, and refuses only when N were admitted within W plus one sub-bucket", async () => {
    let now = 1_800_000_000_000;
    const redis = new Redis(createMemoryRequester(() => now));
    const keys = ["v:{x}:windows", "v:{x}:windows", "v:{x}:burst"];
    const n = 6;
    const w = 1_000;
    const g = w / 100;
    let seed = 7;
    const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const admitted: number[] = [];
    let refusals = 0;
    for (let i = 0; i < 3_000; i++) {
      now += rnd() < 0.4 ? 0 : Math.floor(rnd() * (rnd() < 0.9 ? 120 : 1_500));
      const r = answer(await runWindowScript(redis, keys, args("b", n, w)));
      const inSpan = (span: number) => admitted.filter((t) => t > now - span).length;
      if (r.allowed) {
        admitted.push(now);
        expect(inSpan(w)).toBeLessThanOrEqual(n);
      } else {
        refusals++;
        expect(inSpan(w + g)).toBeGreaterThanOrEqual(n);
        if (rnd() < 0.3) {
          // it admits again at the moment it names, and not a millisecond before
          const back = now + r.waitMs;
          now = back - 1;
          expect(answer(await runWindowScript(redis, keys, args("b", n, w))).allowed).toBe(false);
          now = back;
          expect(answer(await runWindowScript(redis, keys, args("b", n, w))).allowed).toBe(true);
          admitted.push(now);
        }
      }
    }
    expect(admitted.length).toBeGreaterThan(500);
    expect(refusals).toBeGreaterThan(200);
  });
});

describe.each(["redis", "memory"] as const)("charge() on the %s store", (kind) => {
  const prefix = `fiskal-test:charge:${randomUUID()}`;
  let requester: RedisRequester | undefined;
  let engine: Engine;
  beforeAll(async () => {
    let redis: Redis;
    if (kind === "redis") {
      requester = createRedisRequester(REDIS_URL, 1_000);
      await requester.ready(2_000);
      redis = new Redis(requester);
    } else redis = new Redis(createMemoryRequester());
    engine = new Engine(redis, prefix);
  });
  afterAll(() => closeStore(kind, requester, prefix));
  const limits: Limits = { burst: 5, perMinute: 8, perDay: 20, endpoints: { oib: 6 } };
  const state = (windows: { policy: string; remaining: number }[]) => Object.fromEntries(windows.map((w) => [w.policy, w.remaining]));

  it("records the admissions in every window decide() counts, and decide() counts on from there", async () => {
    const input = { identity: `acct:${randomUUID()}`, limits, endpoint: "oib" as const };
    await engine.charge(input, 3);
    const d = await engine.decide(input);
    expect(d.allowed).toBe(true);
    expect(state(d.windows)).toEqual({ burst: 1, minute: 4, "endpoint:oib": 2, day: 16 });
    // another endpoint group shares the account's windows, not the oib window
    const other = await engine.peek({ identity: input.identity, limits, endpoints: ["kpd", "oib"] });
    expect(state(other)).toEqual({ burst: 1, minute: 4, "endpoint:kpd": 300, "endpoint:oib": 2, day: 16 });
  });

  it("past the limit: the newest entries are kept, and the windows refuse until they leave", async () => {
    const input = { identity: `acct:${randomUUID()}`, limits, endpoint: "oib" as const };
    await engine.charge(input, 3);
    await engine.charge(input, 12);
    const d = await engine.decide(input);
    expect(d.allowed).toBe(false);
    expect(state(d.windows)).toEqual({ burst: 0, minute: 0, "endpoint:oib": 0, day: 5 });
    // every kept entry is from the last charge: the burst admits again one second after it
    expect(d.binding.name).toBe("minute");
    const burst = d.windows.find((w) => w.name === "burst")!;
    expect(burst.resetInMs).toBeGreaterThan(0);
    expect(burst.resetInMs).toBeLessThanOrEqual(1_000);
    expect(d.binding.resetInMs).toBeGreaterThan(59_000);
    expect(d.binding.resetInMs).toBeLessThanOrEqual(60_000);
    // the day is a counter: 15 counted, past its limit too after 6 more
    await engine.charge(input, 6);
    const day = (await engine.peek({ identity: input.identity, limits })).find((w) => w.name === "day")!;
    expect(day.remaining).toBe(0);
  });

  it("a charge of millions costs no more than the limit's worth of entries", async () => {
    const input = { identity: `acct:${randomUUID()}`, limits, endpoint: "oib" as const };
    const started = performance.now();
    await engine.charge(input, 50_000_000);
    expect(performance.now() - started).toBeLessThan(2_000);
    const d = await engine.decide(input);
    expect(d.allowed).toBe(false);
    expect(state(d.windows)).toEqual({ burst: 0, minute: 0, "endpoint:oib": 0, day: 0 });
  });

  it("a scope's windows are charged apart from the account's", async () => {
    const identity = `acct:${randomUUID()}`;
    await engine.charge({ identity, limits, scope: "status" }, 2);
    const account = await engine.peek({ identity, limits });
    expect(state(account)).toEqual({ burst: 5, minute: 8, day: 20 });
    const status = await engine.decide({ identity, limits, scope: "status" });
    expect(state(status.windows)).toEqual({ "status:burst": 2, "status:minute": 5, "status:day": 17 });
  });

  it("refuses a count that is not a positive integer, and writes nothing", async () => {
    const input = { identity: `acct:${randomUUID()}`, limits };
    for (const bad of [0, -1, 1.5, Number.NaN]) await expect(engine.charge(input, bad)).rejects.toThrow(InvalidLimitsError);
    expect(state(await engine.peek({ identity: input.identity, limits }))).toEqual({ burst: 5, minute: 8, day: 20 });
  });
});
