/**
 * One decision suite, run against the real Redis (unique key prefix) and the in-memory store.
 * Counting assertions are never retried; a test that needs its requests inside one short span
 * checks that precondition from the store's own clock and says so when it fails.
 */
import { randomUUID } from "node:crypto";
import { Redis as IORedis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "./limiter.ts";
import { startUpstashBridge, type UpstashBridge } from "./test-upstash.ts";
import { InvalidLimitsError, type Limits } from "./policy.ts";
import type { Decision, RateLimitEvent, RateLimiter, StoreConfig, WindowState } from "./types.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** setTimeout may fire a millisecond early by the wall clock: finish the wait exactly. */
async function sleepUntil(at: number) {
  await sleep(Math.max(0, at - Date.now()));
  while (Date.now() < at) await sleep(1);
}

const byName = (windows: WindowState[], name: WindowState["name"]) => windows.find((w) => w.name === name)!;
const nextUtcMidnight = (t: number) => (Math.floor(t / 86_400_000) + 1) * 86_400_000;
/** The span of store time the decisions were taken in. */
const spanOf = (ds: Decision[]) => Math.max(...ds.map((d) => d.decidedAt)) - Math.min(...ds.map((d) => d.decidedAt));

// "upstash" is the official REST client of @upstash/redis through an Upstash-protocol bridge onto the local Redis
describe.each(["redis", "upstash", "memory"] as const)("decisions on the %s store", (kind) => {
  const prefix = `fiskal-test:limits:${randomUUID()}`;
  const events: RateLimitEvent[] = [];
  let rl: RateLimiter;
  let store: StoreConfig;
  let bridge: UpstashBridge | undefined;
  const id = () => `acct:${randomUUID()}`;

  beforeAll(async () => {
    if (kind === "upstash") bridge = await startUpstashBridge(REDIS_URL);
    store = kind === "memory" ? { kind } : kind === "redis" ? { kind, url: REDIS_URL } : { kind, url: bridge!.url, token: bridge!.token };
    // over HTTP, 200 simultaneous calls queue for the bridge's sockets: give them time instead of failing over
    rl = createRateLimiter({ store, prefix, onEvent: (e) => events.push(e), redisTimeoutMs: kind === "upstash" ? 5_000 : 500 });
    await rl.decide({ identity: id(), limits: { burst: 1, perMinute: 1, perDay: 1 } }); // loads the script
  });

  afterAll(async () => {
    await rl.close();
    await bridge?.close();
    if (store.kind === "memory") return;
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
    const decisions = await Promise.all(Array.from({ length: 200 }, () => rl.decide({ identity, limits })));
    // within one second of the first decision, so the burst window never had room for more than 50
    expect(spanOf(decisions)).toBeLessThan(1_000);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(50);
    for (const d of decisions.filter((d) => !d.allowed)) {
      expect(d.binding).toMatchObject({ name: "burst", remaining: 0 });
      expect(d.retryAfterSeconds).toBe(1);
      expect(d.degraded).toBe(false);
    }
    const after = await rl.peek({ identity, limits });
    expect(byName(after, "minute").remaining).toBe(250);
    expect(byName(after, "day").remaining).toBe(9_950);
  });

  it("names the window that refused: 40 at once on burst 10 and day 25 are refused by the burst, not the day", async () => {
    const identity = id();
    const limits: Limits = { burst: 10, perMinute: 60, perDay: 25 };
    const decisions = await Promise.all(Array.from({ length: 40 }, () => rl.decide({ identity, limits })));
    expect(spanOf(decisions)).toBeLessThan(1_000);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    for (const d of decisions.filter((d) => !d.allowed)) {
      expect(d.binding).toMatchObject({ name: "burst", limit: 10, remaining: 0 });
      expect(d.retryAfterSeconds).toBe(1);
      // no 429 names a window with room, and it reports the day as it stands: 15 left
      expect(byName(d.windows, "day").remaining).toBe(15);
    }
  });

  it("a refused request writes nothing: the stored windows are byte for byte the same", async () => {
    if (store.kind === "memory") return;
    const identity = id();
    const limits: Limits = { burst: 5, perMinute: 3, perDay: 100 };
    for (let i = 0; i < 3; i++) expect((await rl.decide({ identity, limits, endpoint: "oib" })).allowed).toBe(true);
    const redis = new IORedis(REDIS_URL);
    const keys = ["burst", "minute", "endpoint:oib", "day"].map((p) => `${prefix}:{${identity}}:${p}`);
    const before = await Promise.all(keys.map((k) => redis.getBuffer(k)));
    const refused = await Promise.all(Array.from({ length: 20 }, () => rl.decide({ identity, limits, endpoint: "oib" })));
    expect(refused.every((d) => !d.allowed && d.binding.name === "minute")).toBe(true);
    const after = await Promise.all(keys.map((k) => redis.getBuffer(k)));
    await redis.quit();
    expect(after.map((b) => b?.toString("hex"))).toEqual(before.map((b) => b?.toString("hex")));
  });

  it("refused requests on one endpoint take nothing: every request that fits elsewhere is admitted", async () => {
    const identity = id();
    const limits: Limits = { burst: 100, perMinute: 1_000, perDay: 25, endpoints: { kpd: 5 } };
    for (let i = 0; i < 15; i++) expect((await rl.decide({ identity, limits, endpoint: "oib" })).allowed).toBe(true);
    // 5 KPD fit, 20 more are refused by their endpoint limit, while 5 OIB requests run beside them
    const [kpd, oib] = await Promise.all([
      Promise.all(Array.from({ length: 25 }, () => rl.decide({ identity, limits, endpoint: "kpd" }))),
      Promise.all(Array.from({ length: 5 }, () => rl.decide({ identity, limits, endpoint: "oib" }))),
    ]);
    expect(oib.every((d) => d.allowed)).toBe(true);
    expect(kpd.filter((d) => d.allowed)).toHaveLength(5);
    for (const d of kpd.filter((d) => !d.allowed)) {
      // whichever window refused has no room; the day may be the one if it filled first
      expect(d.binding.remaining).toBe(0);
      expect(["endpoint:kpd", "day"]).toContain(d.binding.policy);
    }
    const after = await rl.peek({ identity, limits });
    expect(byName(after, "day").remaining).toBe(0);
    expect(byName(after, "minute").remaining).toBe(1_000 - 25);
  });

  it("hammering the minute limit leaves the day count untouched", async () => {
    const identity = id();
    const limits: Limits = { burst: 200, perMinute: 20, perDay: 1_000 };
    const decisions = await Promise.all(Array.from({ length: 100 }, () => rl.decide({ identity, limits })));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
    const refused = decisions.filter((d) => !d.allowed);
    const firstAdmitted = Math.min(...decisions.filter((d) => d.allowed).map((d) => d.decidedAt));
    for (const d of refused) {
      expect(d.binding).toMatchObject({ name: "minute", remaining: 0 });
      // the minute admits again exactly when its oldest request is 60 s old
      expect(d.decidedAt + d.binding.resetInMs).toBe(firstAdmitted + 60_000);
      expect(d.retryAfterSeconds).toBe(Math.ceil(d.binding.resetInMs / 1000));
    }
    const after = await rl.peek({ identity, limits });
    expect(byName(after, "day").remaining).toBe(980);
    expect(byName(after, "minute").remaining).toBe(0);
  });

  it("the burst is a rolling second: 10 late in one second and 10 early in the next admit 10, not 14", async () => {
    const identity = id();
    const limits: Limits = { burst: 10, perMinute: 600, perDay: 10_000 };
    await sleepUntil(Math.ceil(Date.now() / 1_000) * 1_000 + 700);
    const first = await Promise.all(Array.from({ length: 10 }, () => rl.decide({ identity, limits })));
    expect(first.every((d) => d.allowed)).toBe(true);
    await sleepUntil(Date.now() + 600);
    const second = await Promise.all(Array.from({ length: 10 }, () => rl.decide({ identity, limits })));
    const start = Math.min(...first.map((d) => d.decidedAt));
    // precondition: the second group ran within one second of the first
    expect(Math.max(...second.map((d) => d.decidedAt)) - start).toBeLessThan(1_000);
    expect(second.filter((d) => d.allowed)).toHaveLength(0);
    for (const d of second) expect(d.decidedAt + d.binding.resetInMs).toBe(start + 1_000);
  });

  it("all endpoints of a group share one limit; other groups are unaffected", async () => {
    const identity = id();
    const limits: Limits = { burst: 1_000, perMinute: 1_000, perDay: 10_000 };
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

  it("the day window counts exactly and resets at the next 00:00 UTC", async () => {
    const identity = id();
    const limits: Limits = { burst: 10, perMinute: 60, perDay: 3 };
    const admitted = [];
    for (let i = 0; i < 3; i++) admitted.push(await rl.decide({ identity, limits }));
    expect(admitted.every((d) => d.allowed)).toBe(true);
    expect(byName(admitted[2]!.windows, "day")).toMatchObject({ remaining: 0, windowSeconds: 86_400 });
    expect(admitted[2]!.binding.name).toBe("day");
    const d0 = admitted[0]!;
    expect(d0.decidedAt + byName(d0.windows, "day").resetInMs).toBe(nextUtcMidnight(d0.decidedAt));
    // the absolute reset is on the store's clock too: exactly 00:00 UTC, whatever this process's clock says
    for (const d of admitted) expect(byName(d.windows, "day").reset).toBe(nextUtcMidnight(d.decidedAt));

    const refused = await rl.decide({ identity, limits });
    expect(refused.allowed).toBe(false);
    expect(refused.binding.name).toBe("day");
    expect(refused.decidedAt + refused.binding.resetInMs).toBe(nextUtcMidnight(refused.decidedAt));
    expect(refused.retryAfterSeconds).toBe(Math.ceil((nextUtcMidnight(refused.decidedAt) - refused.decidedAt) / 1000));
    // refused by the day: the rolling windows took nothing
    expect(byName(refused.windows, "burst").remaining).toBe(7);
    expect(byName(refused.windows, "minute").remaining).toBe(57);
  });

  it("Retry-After and t are exact: the window is full until then, and waiting exactly that long is admitted", async () => {
    const identity = id();
    const limits: Limits = { burst: 3, perMinute: 100, perDay: 1_000 };
    for (let i = 0; i < 3; i++) expect((await rl.decide({ identity, limits })).allowed).toBe(true);
    const refused = await rl.decide({ identity, limits });
    const answeredAt = Date.now();
    expect(refused.allowed).toBe(false);
    expect(refused.binding.name).toBe("burst");
    expect(refused.retryAfterSeconds).toBe(1);
    expect(refused.binding.resetInMs).toBeLessThanOrEqual(1_000);

    // a little before the window admits it is still full
    await sleepUntil(answeredAt + refused.binding.resetInMs - 100);
    const early = await rl.decide({ identity, limits });
    if (early.decidedAt < refused.decidedAt + refused.binding.resetInMs) expect(early.allowed).toBe(false);

    await sleepUntil(answeredAt + refused.retryAfterSeconds! * 1000);
    expect((await rl.decide({ identity, limits })).allowed).toBe(true);
  });

  it("t is when the quota next increases: the oldest counted request leaving the window", async () => {
    const identity = id();
    const limits: Limits = { burst: 10, perMinute: 60, perDay: 1_000 };
    const a = await rl.decide({ identity, limits });
    await sleep(300);
    const b = await rl.decide({ identity, limits });
    // the minute's quota grows back when the first request is 60 s old, not 60 s after the second
    expect(b.decidedAt + byName(b.windows, "minute").resetInMs).toBe(a.decidedAt + 60_000);
    expect(b.decidedAt + byName(b.windows, "burst").resetInMs).toBe(a.decidedAt + 1_000);
    const unused = (await rl.peek({ identity: id(), limits })).map((w) => [w.name, w.resetInMs]);
    expect(unused.filter(([n]) => n !== "day")).toEqual([
      ["burst", 0],
      ["minute", 0],
    ]);
  });

  it("new limits apply to the very next call, against the same history", async () => {
    const identity = id();
    const sandbox: Limits = { burst: 10, perMinute: 5, perDay: 100 };
    for (let i = 0; i < 5; i++) expect((await rl.decide({ identity, limits: sandbox })).allowed).toBe(true);
    expect((await rl.decide({ identity, limits: sandbox })).allowed).toBe(false);
    const upgraded = await rl.decide({ identity, limits: { burst: 20, perMinute: 10, perDay: 100 } });
    expect(upgraded.allowed).toBe(true);
    expect(byName(upgraded.windows, "minute")).toMatchObject({ limit: 10, remaining: 4 });
    const downgraded = await rl.decide({ identity, limits: { burst: 20, perMinute: 3, perDay: 100 } });
    expect(downgraded.allowed).toBe(false);
    expect(downgraded.binding).toMatchObject({ name: "minute", limit: 3, remaining: 0 });
    // and back up: the six requests admitted so far are all still counted
    const again = await rl.decide({ identity, limits: { burst: 20, perMinute: 10, perDay: 100 } });
    expect(byName(again.windows, "minute")).toMatchObject({ limit: 10, remaining: 3 });
  });

  it("a limit lowered mid-window keeps the newest requests: the window admits again when they age out", async () => {
    const identity = id();
    const wide: Limits = { burst: 10, perMinute: 100, perDay: 1_000 };
    const first = await rl.decide({ identity, limits: wide });
    await sleep(400);
    const rest = [];
    for (let i = 0; i < 4; i++) rest.push(await rl.decide({ identity, limits: wide }));
    const narrow: Limits = { burst: 2, perMinute: 100, perDay: 1_000 };
    const refused = await rl.decide({ identity, limits: narrow });
    expect(refused.allowed).toBe(false);
    // of the five in the last second, the newest two decide: free again when the 4th is 1 s old
    expect(refused.decidedAt + refused.binding.resetInMs).toBe(rest[2]!.decidedAt + 1_000);
    expect(first.allowed).toBe(true);
  });

  it("a Limits object changed in place is judged by its new values", async () => {
    const identity = id();
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

  it("peek reads without consuming, every endpoint group at once", async () => {
    const identity = id();
    const limits: Limits = { burst: 10, perMinute: 60, perDay: 10_000 };
    for (let i = 0; i < 3; i++) {
      const windows = await rl.peek({ identity, limits, endpoints: ["einvoice", "kpd"] });
      expect(windows.map((w) => [w.policy, w.remaining, w.windowSeconds])).toEqual([
        ["burst", 10, 1],
        ["minute", 60, 60],
        ["endpoint:einvoice", 60, 60],
        ["endpoint:kpd", 300, 60],
        ["day", 10_000, 86_400],
      ]);
    }
    const d = await rl.decide({ identity, limits, endpoint: "einvoice" });
    expect(d.windows.map((w) => w.remaining)).toEqual([9, 59, 59, 9_999]);
    expect((await rl.peek({ identity, limits, endpoints: ["einvoice"] })).map((w) => w.remaining)).toEqual([9, 59, 59, 9_999]);
  });

  it("a scoped decision counts its own windows and reports the observed ones in the same execution", async () => {
    const identity = id();
    const account: Limits = { burst: 10, perMinute: 60, perDay: 10_000 };
    await rl.decide({ identity, limits: account, endpoint: "oib" });
    const allowance: Limits = { burst: 2, perMinute: 5, perDay: 100 };
    const status = () => rl.decide({ identity, limits: allowance, scope: "status", observe: { limits: account, endpoints: ["oib", "kpd"] } });
    const [s1, s2, s3] = [await status(), await status(), await status()];
    expect([s1.allowed, s2.allowed]).toEqual([true, true]);
    expect(s1.windows.map((w) => w.policy)).toEqual(["status:burst", "status:minute", "status:day"]);
    expect(s1.observed!.map((w) => [w.policy, w.remaining])).toEqual([
      ["burst", 9],
      ["minute", 59],
      ["endpoint:oib", 299],
      ["endpoint:kpd", 300],
      ["day", 9_999],
    ]);
    if (s3.decidedAt - s1.decidedAt < 1_000) expect(s3.allowed).toBe(false);
    // the account's own windows were never counted by the status calls
    expect((await rl.peek({ identity, limits: account })).map((w) => w.remaining)).toEqual([9, 59, 9_999]);
  });

  it("binds the admitted request to the window with the fewest remaining", async () => {
    const identity = id();
    const d = await rl.decide({ identity, limits: { burst: 10, perMinute: 3, perDay: 100 } });
    expect(d.allowed).toBe(true);
    expect(d.binding).toMatchObject({ name: "minute", remaining: 2, resetInMs: 60_000 });
    expect(d.retryAfterSeconds).toBeUndefined();
  });

  it("admits and refuses in one round trip each", async () => {
    const identity = id();
    const limits: Limits = { burst: 1, perMinute: 10, perDay: 100 };
    events.length = 0;
    await rl.decide({ identity, limits });
    await rl.decide({ identity, limits });
    const [admit, refuse] = events;
    if (refuse!.allowed === false) {
      expect([admit, refuse].map((e) => [e!.type, e!.allowed, e!.roundTrips, e!.window])).toEqual([
        ["decision", true, 1, "burst"],
        ["decision", false, 1, "burst"],
      ]);
    }
    expect(admit!.durationMs).toBeGreaterThan(0);
  });

  it("keys by identity: one account's usage does not touch another's", async () => {
    const [a, b] = [id(), id()];
    const limits: Limits = { burst: 1, perMinute: 1, perDay: 100 };
    expect((await rl.decide({ identity: a, limits })).allowed).toBe(true);
    expect((await rl.decide({ identity: a, limits })).allowed).toBe(false);
    expect((await rl.decide({ identity: b, limits })).allowed).toBe(true);
  });

  it("rejects bad input with a clear error and counts nothing", async () => {
    const identity = id();
    const limits: Limits = { burst: 10, perMinute: 60, perDay: 100 };
    await expect(rl.decide({ identity, limits: { ...limits, burst: 0 } })).rejects.toThrow(InvalidLimitsError);
    await expect(rl.decide({ identity, limits: { ...limits, perDay: 1.5 } })).rejects.toThrow(/perDay/);
    await expect(rl.decide({ identity, limits: { ...limits, perMinute: 10_000_001 } })).rejects.toThrow(/perMinute must be an integer from 1 to 10000000/);
    await expect(rl.decide({ identity: "", limits })).rejects.toThrow(/identity/);
    await expect(rl.decide({ identity: "acct:{x}", limits })).rejects.toThrow(/identity must not contain/);
    await expect(rl.decide({ identity, limits, endpoint: "admin" as never })).rejects.toThrow(/unknown endpoint group admin/);
    await expect(rl.decide({ identity, limits, scope: "Bad Scope" })).rejects.toThrow(/scope/);
    expect((await rl.peek({ identity, limits })).map((w) => w.remaining)).toEqual([10, 60, 100]);
  });

  it("reports its store and no fallback", () => {
    expect(rl.store).toBe(store.kind);
    expect(rl.fallbackActive()).toBe(false);
    expect(events.every((e) => e.type === "decision" && e.degraded === false)).toBe(true);
    // over REST every decision really went through the bridge to Redis
    if (bridge) expect(bridge.commands).toBeGreaterThan(500);
  });
});
