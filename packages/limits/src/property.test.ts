/**
 * Property tests of the exact windows: random arrival schedules against small limits, every
 * decision checked against a brute-force count of the recorded admission times.
 *
 * - In-process store on a virtual clock: thousands of decisions over several virtual minutes and a
 *   UTC midnight, compared in full (allowed, remaining, reset, binding, Retry-After).
 * - Real Redis on its own clock (`decidedAt`): bursts at random moments over a few seconds; no span
 *   of W holds more than N admissions, and no refusal happened while a refusing window had room.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { Engine } from "./engine.ts";
import { createRateLimiter } from "./limiter.ts";
import { createMemoryRequester } from "./memory-requester.ts";
import { endpointLimit, type EndpointGroup, type Limits } from "./policy.ts";
import { random } from "./test-random.ts";
import type { Decision } from "./types.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const DAY = 86_400_000;

interface Seen {
  at: number;
  group: EndpointGroup | undefined;
  allowed: boolean;
}

interface Expected {
  allowed: boolean;
  /** per window in decision order: remaining and ms until its quota next increases */
  windows: [number, number][];
  /** refusal: ms until every refusing window admits, and the latest of them */
  retryAfterMs?: number;
}

/** What an exact limiter must answer at `t` given the admissions before it (brute force). */
function oracle(history: Seen[], t: number, limits: Limits, group: EndpointGroup | undefined): Expected {
  const rolling: { w: number; n: number; match: (s: Seen) => boolean }[] = [
    { w: 1_000, n: limits.burst, match: () => true },
    { w: 60_000, n: limits.perMinute, match: () => true },
  ];
  if (group) rolling.push({ w: 60_000, n: endpointLimit(limits, group), match: (s) => s.group === group });
  const state = rolling.map(({ w, n, match }) => {
    const inWindow = history.filter((s) => s.allowed && match(s) && s.at > t - w).map((s) => s.at);
    // with more than n counted (a lowered limit), only the newest n decide
    const counted = inWindow.slice(Math.max(0, inWindow.length - n));
    return { w, n, counted };
  });
  const dayStart = Math.floor(t / DAY) * DAY;
  const dayCount = history.filter((s) => s.allowed && s.at >= dayStart).length;
  const allowed = state.every((s) => s.counted.length < s.n) && dayCount < limits.perDay;
  const windows: [number, number][] = state.map(({ w, n, counted }) => {
    const after = allowed ? [...counted, t] : counted;
    return [n - after.length, after.length > 0 ? after[0]! + w - t : 0];
  });
  windows.push([limits.perDay - dayCount - (allowed ? 1 : 0), dayStart + DAY - t]);
  if (allowed) return { allowed, windows };
  const waits = windows.filter(([remaining]) => remaining <= 0).map(([, wait]) => wait);
  return { allowed, windows, retryAfterMs: Math.max(...waits) };
}

describe("exact windows against a brute-force count (in-process store, virtual clock)", () => {
  const limits: Limits = { burst: 3, perMinute: 7, perDay: 40, endpoints: { kpd: 4, oib: 5 } };
  const groups: (EndpointGroup | undefined)[] = ["kpd", "oib", undefined];

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`seed ${seed}: every decision equals the exact answer`, async () => {
      const rnd = random(seed);
      // start shortly before a UTC midnight, so the day window resets inside the schedule
      let now = Math.floor(Date.UTC(2026, 10, 23) / DAY) * DAY + DAY - 90_000;
      const engine = new Engine(new Redis(createMemoryRequester(() => now)), `p${seed}`);
      const history: Seen[] = [];
      for (let i = 0; i < 600; i++) {
        // clusters of simultaneous requests, short gaps, and now and then a long pause
        const r = rnd();
        now += r < 0.3 ? 0 : r < 0.8 ? Math.floor(rnd() * 300) : r < 0.97 ? Math.floor(rnd() * 3_000) : Math.floor(rnd() * 70_000);
        const group = groups[Math.floor(rnd() * groups.length)];
        const d = await engine.decide({ identity: "acct:p", limits, endpoint: group });
        const want = oracle(history, now, limits, group);
        const got = {
          allowed: d.allowed,
          windows: d.windows.map((w) => [w.remaining, w.resetInMs] as [number, number]),
          ...(d.allowed ? {} : { retryAfterMs: d.binding.resetInMs }),
        };
        const clamp = { ...want, windows: want.windows.map(([r, t]) => [Math.max(0, r), t]) };
        expect(got, `seed ${seed}, decision ${i} at ${now}`).toEqual(clamp);
        if (!d.allowed) expect(d.retryAfterSeconds).toBe(Math.max(1, Math.ceil(want.retryAfterMs! / 1000)));
        history.push({ at: now, group, allowed: d.allowed });
      }
      expect(history.filter((s) => s.allowed).length).toBeGreaterThan(40);
      expect(history.filter((s) => !s.allowed).length).toBeGreaterThan(50);
    });
  }
});

describe("exact windows on the real Redis, by its own clock", () => {
  const prefix = `fiskal-test:property:${randomUUID()}`;
  const rl = createRateLimiter({ store: { kind: "redis", url: REDIS_URL }, prefix, redisTimeoutMs: 1_000 });

  afterAll(async () => {
    await rl.close();
    const redis = new IORedis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  for (const seed of [11, 12]) {
    it(`seed ${seed}: random bursts over 4 s never put more than N in any span of W, and refuse only when full`, async () => {
      const rnd = random(seed);
      const limits: Limits = { burst: 4, perMinute: 15, perDay: 1_000, endpoints: { oib: 9 } };
      const identity = `acct:${randomUUID()}`;
      const pending: Promise<{ d: Decision; group: EndpointGroup | undefined }>[] = [];
      const started = Date.now();
      while (Date.now() - started < 4_000) {
        const n = 1 + Math.floor(rnd() * 6);
        for (let i = 0; i < n; i++) {
          const group = rnd() < 0.5 ? ("oib" as const) : undefined;
          pending.push(rl.decide({ identity, limits, endpoint: group }).then((d) => ({ d, group })));
        }
        await new Promise((r) => setTimeout(r, Math.floor(rnd() * 250)));
      }
      const all = await Promise.all(pending);
      const admitted = all.filter((x) => x.d.allowed);
      const windows = [
        { name: "burst", w: 1_000, n: limits.burst, match: () => true },
        { name: "minute", w: 60_000, n: limits.perMinute, match: () => true },
        { name: "endpoint", w: 60_000, n: 9, match: (g: EndpointGroup | undefined) => g === "oib" },
      ];
      const countAt = (t: number, w: number, match: (g: EndpointGroup | undefined) => boolean) =>
        admitted.filter((x) => match(x.group) && x.d.decidedAt > t - w && x.d.decidedAt <= t).length;
      for (const x of admitted) {
        for (const win of windows) if (win.match(x.group)) expect(countAt(x.d.decidedAt, win.w, win.match)).toBeLessThanOrEqual(win.n);
      }
      for (const x of all.filter((x) => !x.d.allowed)) {
        const win = windows.find((w) => w.name === x.d.binding.name)!;
        expect(x.d.binding.remaining).toBe(0);
        // the refusing window was full at that moment by the admissions recorded
        expect(countAt(x.d.decidedAt, win.w, win.match)).toBeGreaterThanOrEqual(win.n);
      }
      expect(admitted.length).toBeGreaterThan(10);
      expect(all.length - admitted.length).toBeGreaterThan(10);
    });
  }
});
