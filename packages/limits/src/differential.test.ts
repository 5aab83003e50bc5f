/**
 * The Lua script (multi-window.lua, on the real Redis) and its JavaScript twin (runScript, the
 * in-process store) on the same random schedules: windows of every kind and role, limits changed
 * mid-schedule (across the log ↔ sub-bucket line too), charges, simultaneous requests, pauses and
 * a UTC midnight, on a test clock passed to both in ARGV. Every reply must be identical, and so
 * must the header key's stored bytes whenever the twin still holds it.
 *
 * Also the test clock itself: honoured only when the engine is built with one, refused under
 * NODE_ENV=production.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWindowScript } from "./algorithm.ts";
import { Engine } from "./engine.ts";
import { createMemoryRequester, type MemoryRequester } from "./memory-requester.ts";
import { InvalidLimitsError, type Limits } from "./policy.ts";
import { createRedisRequester, type RedisRequester } from "./redis-requester.ts";
import { random } from "./test-random.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const DAY = 86_400_000;

interface Window {
  kind: "r" | "b" | "d";
  limit: number;
  width: number;
  counts: boolean;
  slot: number;
}

const prefix = `fiskal-test:differential:${randomUUID()}`;
let requester: RedisRequester;
let redis: Redis;
let io: IORedis;

beforeAll(async () => {
  requester = createRedisRequester(REDIS_URL, 2_000);
  await requester.ready(2_000);
  redis = new Redis(requester);
  io = new IORedis(REDIS_URL);
});

afterAll(async () => {
  await requester.close();
  const keys = await io.keys(`${prefix}:*`);
  if (keys.length > 0) await io.del(...keys);
  await io.quit();
});

describe("the Lua script and its JavaScript twin", () => {
  for (const seed of Array.from({ length: 24 }, (_, i) => i + 1)) {
    it(`seed ${seed}: identical replies and stored headers over a random schedule`, async () => {
      const rnd = random(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
      const memory: MemoryRequester = createMemoryRequester(() => 0);
      const twin = new Redis(memory);
      const base = `${prefix}:{s${seed}}`;
      const countHeader = `${base}:windows`;
      const observeHeader = rnd() < 0.5 ? countHeader : `${base}:other:windows`;
      const windows: Window[] = [];
      const n = 1 + Math.floor(rnd() * 4);
      for (let slot = 0; slot < n; slot++) {
        const kind = slot === n - 1 && rnd() < 0.6 ? "d" : pick(["r", "r", "r", "b"] as const);
        windows.push({ kind, limit: 1 + Math.floor(rnd() * 8), width: pick([1_000, 2_000, 60_000]), counts: rnd() < 0.8, slot });
      }
      // a window's key is under its header's scope, as the engine names them ("status:burst" beside "burst")
      const keysNow = () => [
        countHeader,
        observeHeader,
        ...windows.filter((w) => w.kind !== "d").map((w) => `${base}:${w.counts || observeHeader === countHeader ? "" : "other:"}w${w.slot}`),
      ];
      // shortly before a UTC midnight, so that day windows reset inside the schedule
      let now = Math.floor(Date.UTC(2026, 10, 26) / DAY) * DAY + DAY - 20_000 + Math.floor(rnd() * 10_000);
      let admitted = 0;
      let refused = 0;
      // Redis expires keys by its real clock, the twin by the test clock: the test clock never runs
      // slower than real time, so that no key is gone from Redis that the twin still holds (on a
      // loaded host only; otherwise the schedule is the seed's alone)
      const virtualStart = now;
      const realStart = Date.now();
      for (let step = 0; step < 160; step++) {
        const r = rnd();
        now += r < 0.35 ? 0 : r < 0.8 ? Math.floor(rnd() * 400) : r < 0.97 ? Math.floor(rnd() * 3_000) : Math.floor(rnd() * 70_000);
        now = Math.max(now, virtualStart + (Date.now() - realStart));
        if (rnd() < 0.06) {
          // a changed limit (crossing between log and sub-buckets), or a window that starts or stops counting
          const w = pick(windows);
          if (rnd() < 0.7) w.limit = 1 + Math.floor(rnd() * 10);
          else w.counts = !w.counts;
          if (w.kind !== "d" && rnd() < 0.5) w.kind = w.kind === "r" ? "b" : "r";
        }
        const charge = rnd() < 0.1 ? 1 + Math.floor(rnd() * 12) : 0;
        const args = [String(now), String(charge)];
        for (const w of windows) {
          args.push(`${w.kind}${w.counts ? "c" : "o"}${w.slot}`, String(w.limit));
          if (w.kind !== "d") args.push(String(w.width));
        }
        // a few at the same moment, as simultaneous requests are
        const burst = rnd() < 0.2 ? 2 + Math.floor(rnd() * 4) : 1;
        const keys = keysNow();
        for (let b = 0; b < burst; b++) {
          const [fromRedis, fromTwin] = await Promise.all([runWindowScript(redis, keys, args), runWindowScript(twin, keys, args)]);
          expect(JSON.stringify(fromRedis), `seed ${seed}, step ${step}.${b}, ${JSON.stringify(args)}`).toBe(JSON.stringify(fromTwin));
          if (fromRedis[0] === 1) admitted++;
          else refused++;
        }
        const twinHeader = (await memory.request<string | null>({ body: ["get", countHeader] })).result;
        if (twinHeader !== null && twinHeader !== undefined) {
          const stored = await io.getBuffer(countHeader);
          expect(stored?.toString("hex"), `header after step ${step}`).toBe(Buffer.from(twinHeader, "latin1").toString("hex"));
        }
      }
      expect(admitted).toBeGreaterThan(10);
      if (windows.some((w) => w.counts && w.kind !== "d")) expect(refused).toBeGreaterThan(0);
    });
  }
});

describe("the test clock", () => {
  const limits: Limits = { burst: 3, perMinute: 100, perDay: 1_000 };

  it("decides at the clock's time on the real Redis: a full second admits again exactly 1,000 ms after its oldest", async () => {
    let now = 1_900_000_000_000;
    const engine = new Engine(redis, `${prefix}:clock`, { testClock: () => now });
    const input = { identity: `acct:${randomUUID()}`, limits };
    for (let i = 0; i < 3; i++) expect((await engine.decide(input)).decidedAt).toBe(now);
    now += 999;
    const refused = await engine.decide(input);
    expect(refused).toMatchObject({ allowed: false, decidedAt: now, retryAfterSeconds: 1 });
    expect(refused.binding).toMatchObject({ name: "burst", resetInMs: 1 });
    now += 1;
    expect((await engine.decide(input)).allowed).toBe(true);
    expect((await engine.peek({ identity: input.identity, limits }))[0]).toMatchObject({ remaining: 2, reset: now + 1_000 });
  });

  it("is not used unless the engine is built with one: the store's clock decides", async () => {
    const engine = new Engine(redis, `${prefix}:clock`);
    const d = await engine.decide({ identity: `acct:${randomUUID()}`, limits });
    expect(Math.abs(d.decidedAt - Date.now())).toBeLessThan(5_000);
  });

  it("is refused under NODE_ENV=production", () => {
    const was = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      expect(() => new Engine(redis, `${prefix}:clock`, { testClock: () => 0 })).toThrow(InvalidLimitsError);
      expect(() => new Engine(redis, `${prefix}:clock`, { testClock: () => 0 })).toThrow(/production/);
      // without one, production builds engines as before
      expect(new Engine(redis, `${prefix}:clock`)).toBeInstanceOf(Engine);
    } finally {
      process.env.NODE_ENV = was;
    }
  });
});
