/**
 * One decision suite, run against the real Redis (unique key prefix) and the in-memory store.
 */
import { randomUUID } from "node:crypto";
import { Redis as IORedis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "./limiter.ts";
import { InvalidLimitsError, type Limits } from "./policy.ts";
import type { RateLimitEvent, RateLimiter, StoreConfig, WindowState } from "./types.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** setTimeout may fire a millisecond early by the wall clock (libuv's cached loop time): finish the wait exactly. */
async function sleepUntil(at: number) {
  await sleep(Math.max(0, at - Date.now()));
  while (Date.now() < at) await sleep(1);
}

/** Waits until `marginMs` are left before the end of the current bucket of `windowMs`, so a short test stays in one bucket. */
async function awayFromBucketEnd(windowMs: number, marginMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await sleep(left + 5);
}

const byName = (windows: WindowState[], name: WindowState["name"]) => windows.find((w) => w.name === name)!;
const nextUtcMidnight = (t: number) => (Math.floor(t / 86_400_000) + 1) * 86_400_000;

const stores: [string, StoreConfig][] = [
  ["redis", { kind: "redis", url: REDIS_URL }],
  ["memory", { kind: "memory" }],
];

describe.each(stores)("decisions on the %s store", (_, store) => {
  const prefix = `fiskal-test:limits:${randomUUID()}`;
  const events: RateLimitEvent[] = [];
  let rl: RateLimiter;
  const id = () => `acct:${randomUUID()}`;

  beforeAll(() => {
    rl = createRateLimiter({ store, prefix, onEvent: (e) => events.push(e), redisTimeoutMs: 500 });
  });

  afterAll(async () => {
    await rl.close();
    if (store.kind !== "redis") return;
    const redis = new IORedis(REDIS_URL);
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
    await redis.quit();
  });

  it("admits exactly the burst under 200 simultaneous calls, and the refused ones consume nothing", async () => {
    const identity = id();
    const limits: Limits = { burst: 50, perMinute: 300, perDay: 10_000 };
    await rl.decide({ identity: id(), limits }); // loads the scripts, so the calls below are one round trip
    await awayFromBucketEnd(1_000, 600);
    const decisions = await Promise.all(Array.from({ length: 200 }, () => rl.decide({ identity, limits })));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(50);
    for (const d of decisions.filter((d) => !d.allowed)) {
      expect(d.binding.name).toBe("burst");
      expect(d.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(d.degraded).toBe(false);
    }
    const after = await rl.peek({ identity, limits });
    expect(byName(after, "minute").remaining).toBe(250);
    expect(byName(after, "day").remaining).toBe(9_950);
  });

  it("a refusal by the endpoint window leaves the minute and day counts intact", async () => {
    const identity = id();
    const limits: Limits = { burst: 100, perMinute: 1_000, perDay: 5_000 };
    await awayFromBucketEnd(60_000, 3_000);
    const decisions = await Promise.all(
      Array.from({ length: 40 }, () => rl.decide({ identity, limits, endpoint: "fiscalize" })),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
    const refused = decisions.find((d) => !d.allowed)!;
    expect(refused.binding).toMatchObject({ name: "endpoint", policy: "endpoint:fiscalize", limit: 30, remaining: 0 });
    expect(refused.windows.map((w) => w.policy)).toEqual(["burst", "minute", "endpoint:fiscalize", "day"]);
    const after = await rl.peek({ identity, limits, endpoint: "fiscalize" });
    expect(byName(after, "minute").remaining).toBe(970);
    expect(byName(after, "endpoint").remaining).toBe(0);
    expect(byName(after, "day").remaining).toBe(4_970);
  });

  it("hammering the minute limit leaves the day count untouched", async () => {
    const identity = id();
    const limits: Limits = { burst: 200, perMinute: 20, perDay: 1_000 };
    await awayFromBucketEnd(60_000, 3_000);
    const decisions = await Promise.all(Array.from({ length: 100 }, () => rl.decide({ identity, limits })));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
    const refused = decisions.find((d) => !d.allowed)!;
    expect(refused.binding.name).toBe("minute");
    // 20 in the current bucket and none before: the window admits again 1 ms into the next bucket
    const nextBucket = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
    expect(refused.binding.reset).toBe(nextBucket + 1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(61);
    const after = await rl.peek({ identity, limits });
    expect(byName(after, "day").remaining).toBe(980);
    expect(byName(after, "minute").remaining).toBe(0);
  });

  it("all endpoints of a group share one limit; other groups are unaffected", async () => {
    const identity = id();
    const limits: Limits = { burst: 1_000, perMinute: 1_000, perDay: 10_000 };
    await awayFromBucketEnd(60_000, 3_000);
    // lookups, searches and batches of /v1/kpd/* all decide with endpoint "kpd"
    const decisions = await Promise.all(Array.from({ length: 300 }, () => rl.decide({ identity, limits, endpoint: "kpd" })));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    const over = await rl.decide({ identity, limits, endpoint: "kpd" });
    expect(over.allowed).toBe(false);
    expect(over.binding.policy).toBe("endpoint:kpd");
    expect((await rl.decide({ identity, limits, endpoint: "oib" })).allowed).toBe(true);
    expect((await rl.decide({ identity, limits })).allowed).toBe(true);
  });

  it("a custom endpoint limit replaces the standard one for that group only", async () => {
    const identity = id();
    const custom: Limits = { burst: 1_000, perMinute: 10_000, perDay: 100_000, endpoints: { fiscalize: 3 } };
    const decisions = await Promise.all(Array.from({ length: 5 }, () => rl.decide({ identity, limits: custom, endpoint: "fiscalize" })));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3);
    const refused = decisions.find((d) => !d.allowed)!;
    expect(refused.binding).toMatchObject({ policy: "endpoint:fiscalize", limit: 3 });
    const other = await rl.decide({ identity, limits: custom, endpoint: "einvoice" });
    expect(other.windows.find((w) => w.name === "endpoint")!.limit).toBe(60);
  });

  it("the day window resets at the next 00:00 UTC", async () => {
    const identity = id();
    const limits: Limits = { burst: 10, perMinute: 60, perDay: 3 };
    await awayFromBucketEnd(1_000, 300);
    const admitted = [];
    for (let i = 0; i < 3; i++) admitted.push(await rl.decide({ identity, limits }));
    expect(admitted.every((d) => d.allowed)).toBe(true);
    expect(byName(admitted[2]!.windows, "day")).toMatchObject({ remaining: 0, windowSeconds: 86_400 });
    expect(admitted[2]!.binding.name).toBe("day");
    const now = Date.now();
    expect(byName(admitted[0]!.windows, "day").reset).toBe(nextUtcMidnight(now));

    const refused = await rl.decide({ identity, limits });
    expect(refused.allowed).toBe(false);
    expect(refused.binding.name).toBe("day");
    expect(refused.binding.reset).toBe(nextUtcMidnight(now));
    const expected = Math.ceil((nextUtcMidnight(now) - now) / 1000);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(expected - 1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(expected);
    // refused by the day: the sliding windows got their token back
    expect(byName(refused.windows, "burst").remaining).toBe(7);
    expect(byName(refused.windows, "day").remaining).toBe(0);
  });

  it("Retry-After is never too early: waiting exactly that long is admitted, and the window is full until its reset", async () => {
    const identity = id();
    const limits: Limits = { burst: 3, perMinute: 100, perDay: 1_000 };
    await awayFromBucketEnd(60_000, 5_000);
    await awayFromBucketEnd(1_000, 600);
    for (let i = 0; i < 3; i++) expect((await rl.decide({ identity, limits })).allowed).toBe(true);
    const refused = await rl.decide({ identity, limits });
    const answeredAt = Date.now();
    expect(refused.allowed).toBe(false);
    expect(refused.binding.name).toBe("burst");
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(2);
    expect(refused.binding.reset).toBeLessThanOrEqual(answeredAt + refused.retryAfterSeconds! * 1000);

    // just before the computed reset the window is still full, from then on it admits
    const before = refused.binding.reset - 60;
    if (before > Date.now()) {
      await sleep(before - Date.now());
      const windows = await rl.peek({ identity, limits });
      if (Date.now() < refused.binding.reset) expect(byName(windows, "burst").remaining).toBe(0);
    }
    await sleepUntil(refused.binding.reset);
    expect(byName(await rl.peek({ identity, limits }), "burst").remaining).toBeGreaterThanOrEqual(1);

    await sleepUntil(answeredAt + refused.retryAfterSeconds! * 1000);
    const retried = await rl.decide({ identity, limits });
    expect(retried.allowed).toBe(true);
  });

  it("Retry-After accounts for the weighted previous bucket", async () => {
    const identity = id();
    const limits: Limits = { burst: 2, perMinute: 100, perDay: 1_000 };
    await awayFromBucketEnd(60_000, 5_000);
    await awayFromBucketEnd(1_000, 900); // start early in a second
    for (let i = 0; i < 2; i++) expect((await rl.decide({ identity, limits })).allowed).toBe(true);
    // 50 ms into the next second: floor(0.95 × 2) = 1 counted from before, one request fits
    await sleep(1_000 - (Date.now() % 1_000) + 50);
    expect((await rl.decide({ identity, limits })).allowed).toBe(true);
    const refused = await rl.decide({ identity, limits });
    expect(refused.allowed).toBe(false);
    // floor((1 - m/1000) × 2) + 1 < 2  ⇔  m > 500: admits 501 ms into this second, not at its end
    const bucketStart = Math.floor(Date.now() / 1_000) * 1_000;
    expect(refused.binding.reset).toBe(bucketStart + 501);
    await sleep(refused.binding.reset - Date.now());
    expect((await rl.decide({ identity, limits })).allowed).toBe(true);
  });

  it("new limits apply to the very next call, against the same count", async () => {
    const identity = id();
    await awayFromBucketEnd(60_000, 3_000);
    const sandbox: Limits = { burst: 10, perMinute: 5, perDay: 100 };
    for (let i = 0; i < 5; i++) expect((await rl.decide({ identity, limits: sandbox })).allowed).toBe(true);
    expect((await rl.decide({ identity, limits: sandbox })).allowed).toBe(false);
    const upgraded = await rl.decide({ identity, limits: { burst: 20, perMinute: 10, perDay: 100 } });
    expect(upgraded.allowed).toBe(true);
    expect(byName(upgraded.windows, "minute")).toMatchObject({ limit: 10, remaining: 4 });
    const downgraded = await rl.decide({ identity, limits: { burst: 20, perMinute: 3, perDay: 100 } });
    expect(downgraded.allowed).toBe(false);
    expect(downgraded.binding).toMatchObject({ name: "minute", limit: 3, remaining: 0 });
  });

  it("a Limits object changed in place is judged by its new values (windows are cached per object)", async () => {
    const identity = id();
    await awayFromBucketEnd(60_000, 3_000);
    const limits: Limits = { burst: 10, perMinute: 2, perDay: 100, endpoints: { kpd: 50 } };
    expect((await rl.decide({ identity, limits, endpoint: "kpd" })).allowed).toBe(true);
    expect((await rl.decide({ identity, limits, endpoint: "kpd" })).allowed).toBe(true);
    expect((await rl.decide({ identity, limits, endpoint: "kpd" })).allowed).toBe(false);
    limits.perMinute = 5;
    limits.endpoints = { kpd: 3 };
    const d = await rl.decide({ identity, limits, endpoint: "kpd" });
    expect(d.allowed).toBe(true);
    expect(byName(d.windows, "minute")).toMatchObject({ limit: 5, remaining: 2 });
    expect(byName(d.windows, "endpoint")).toMatchObject({ limit: 3, remaining: 0 });
    expect((await rl.decide({ identity, limits, endpoint: "kpd" })).binding).toMatchObject({ name: "endpoint", limit: 3 });
  });

  it("peek reads without consuming", async () => {
    const identity = id();
    const limits: Limits = { burst: 10, perMinute: 60, perDay: 10_000 };
    await awayFromBucketEnd(60_000, 3_000);
    for (let i = 0; i < 3; i++) {
      const windows = await rl.peek({ identity, limits, endpoint: "einvoice" });
      expect(windows.map((w) => [w.policy, w.remaining, w.windowSeconds])).toEqual([
        ["burst", 10, 1],
        ["minute", 60, 60],
        ["endpoint:einvoice", 60, 60],
        ["day", 10_000, 86_400],
      ]);
    }
    const d = await rl.decide({ identity, limits, endpoint: "einvoice" });
    expect(d.windows.map((w) => w.remaining)).toEqual([9, 59, 59, 9_999]);
    expect((await rl.peek({ identity, limits, endpoint: "einvoice" })).map((w) => w.remaining)).toEqual([9, 59, 59, 9_999]);
  });

  it("binds the admitted request to the window with the fewest remaining", async () => {
    const identity = id();
    const d = await rl.decide({ identity, limits: { burst: 10, perMinute: 3, perDay: 100 } });
    expect(d.allowed).toBe(true);
    expect(d.binding).toMatchObject({ name: "minute", remaining: 2 });
    expect(d.retryAfterSeconds).toBeUndefined();
    expect(byName(d.windows, "minute").reset).toBeGreaterThan(Date.now());
  });

  it("admits in one round trip and refuses in two", async () => {
    const identity = id();
    const limits: Limits = { burst: 1, perMinute: 10, perDay: 100 };
    await awayFromBucketEnd(1_000, 300);
    events.length = 0;
    await rl.decide({ identity, limits });
    await rl.decide({ identity, limits });
    expect(events.map((e) => [e.type, e.allowed, e.roundTrips, e.window])).toEqual([
      ["decision", true, 1, "burst"],
      ["decision", false, 2, "burst"],
    ]);
    expect(events[0]!.durationMs).toBeGreaterThan(0);
  });

  it("keys by identity: one account's usage does not touch another's", async () => {
    const [a, b] = [id(), id()];
    const limits: Limits = { burst: 1, perMinute: 10, perDay: 100 };
    await awayFromBucketEnd(1_000, 300);
    expect((await rl.decide({ identity: a, limits })).allowed).toBe(true);
    expect((await rl.decide({ identity: a, limits })).allowed).toBe(false);
    expect((await rl.decide({ identity: b, limits })).allowed).toBe(true);
  });

  it("rejects bad input with a clear error and counts nothing", async () => {
    const identity = id();
    const limits: Limits = { burst: 10, perMinute: 60, perDay: 100 };
    await expect(rl.decide({ identity, limits: { ...limits, burst: 0 } })).rejects.toThrow(InvalidLimitsError);
    await expect(rl.decide({ identity, limits: { ...limits, perDay: 1.5 } })).rejects.toThrow(/perDay/);
    await expect(rl.decide({ identity: "", limits })).rejects.toThrow(/identity/);
    await expect(rl.decide({ identity, limits, endpoint: "admin" as never })).rejects.toThrow(/unknown endpoint group admin/);
    expect((await rl.peek({ identity, limits })).map((w) => w.remaining)).toEqual([10, 60, 100]);
  });

  it("reports its store and no fallback", () => {
    expect(rl.store).toBe(store.kind);
    expect(rl.fallbackActive()).toBe(false);
    expect(events.every((e) => e.type === "decision" && e.degraded === false)).toBe(true);
  });
});
