/**
 * Fail-open: a private redis-server on a free port is killed and restarted (the shared Redis is
 * never touched); decisions keep coming from the local limiter and return to Redis when it is back.
 */
import { once } from "node:events";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "./limiter.ts";
import type { Limits } from "./policy.ts";
import type { LiveInstances } from "./shares.ts";
import { freePort, sleep, startRedis, stopAllRedis, stopRedis as stop, waitFor } from "./test-redis.ts";
import type { Decision, RateLimitEvent } from "./types.ts";

afterAll(stopAllRedis);

const limits: Limits = { burst: 2, perMinute: 100, perDay: 1_000 };
const spanOf = (ds: Decision[]) => Math.max(...ds.map((d) => d.decidedAt)) - Math.min(...ds.map((d) => d.decidedAt));

describe("fallback when Redis fails", () => {
  it("keeps deciding locally (degraded) while Redis is down and returns to Redis when it is back", async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const events: RateLimitEvent[] = [];
    const rl = createRateLimiter({
      store: { kind: "redis", url: `redis://127.0.0.1:${port}` },
      prefix: "fiskal-test:fallback",
      redisTimeoutMs: 100,
      onEvent: (e) => {
        events.push(e);
        if (e.type === "recovered") recoveredAt = Date.now();
      },
    });
    let recoveredAt = 0;
    try {
      const first = await rl.decide({ identity: "acct:a", limits });
      expect(first).toMatchObject({ allowed: true, degraded: false });

      await stop(redis);
      const started = Date.now();
      const during = await rl.decide({ identity: "acct:a", limits });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(during).toMatchObject({ allowed: true, degraded: true });
      expect(rl.fallbackActive()).toBe(true);
      const fallback = events.filter((e) => e.type === "fallback");
      expect(fallback).toHaveLength(1);
      expect(fallback[0]!.reason).toBeTruthy();

      // the local limiter still limits: burst of 2 on a fresh local count
      const local = await Promise.all([1, 2, 3].map(() => rl.decide({ identity: "acct:b", limits })));
      expect(local.map((d) => [d.allowed, d.degraded])).toEqual([
        [true, true],
        [true, true],
        [false, true],
      ]);
      expect(local[2]!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect((await rl.peek({ identity: "acct:b", limits }))[0]!.remaining).toBe(0);

      // the local limiter is the same exact algorithm: 200 at once against a burst of 50 admit 50
      const wide: Limits = { burst: 50, perMinute: 1_000, perDay: 10_000 };
      const storm = await Promise.all(Array.from({ length: 200 }, () => rl.decide({ identity: "acct:storm", limits: wide })));
      expect(storm.every((d) => d.degraded)).toBe(true);
      if (spanOf(storm) < 1_000) expect(storm.filter((d) => d.allowed)).toHaveLength(50);

      redis = await startRedis(port);
      // startRedis resolves once the port accepts; the limiter is back on Redis within 100 ms of that
      const answering = Date.now();
      await waitFor(() => recoveredAt > 0, 5_000, "the recovered event");
      expect(recoveredAt - answering).toBeLessThan(100);
      expect(rl.fallbackActive()).toBe(false);
      const back = await Promise.all(Array.from({ length: 200 }, () => rl.decide({ identity: "acct:storm2", limits: wide })));
      expect(back.every((d) => !d.degraded)).toBe(true);
      expect(back.filter((d) => d.allowed)).toHaveLength(50);
      const after = await rl.decide({ identity: "acct:c", limits });
      expect(after).toMatchObject({ allowed: true, degraded: false });
      // counted in Redis again: the restarted server (no persistence) saw only this request
      expect((await rl.peek({ identity: "acct:c", limits }))[0]!.remaining).toBe(1);
      expect(events.filter((e) => e.type === "fallback")).toHaveLength(1);
    } finally {
      await rl.close();
      await stop(redis);
    }
  });

  it("answers degraded when nothing listens on the Redis port from the start", async () => {
    const port = await freePort();
    const events: RateLimitEvent[] = [];
    const rl = createRateLimiter({
      store: { kind: "redis", url: `redis://127.0.0.1:${port}` },
      prefix: "fiskal-test:fallback",
      redisTimeoutMs: 50,
      onEvent: (e) => events.push(e),
    });
    try {
      const started = Date.now();
      const decisions = await Promise.all([1, 2, 3].map(() => rl.decide({ identity: "acct:x", limits })));
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(decisions.map((d) => [d.allowed, d.degraded])).toEqual([
        [true, true],
        [true, true],
        [false, true],
      ]);
      expect(events.filter((e) => e.type === "fallback")).toHaveLength(1);
      expect(events.filter((e) => e.type === "decision").every((e) => e.degraded)).toBe(true);
    } finally {
      await rl.close();
    }
  });
});

/**
 * Instances registered in one process: what the API keeps in PostgreSQL (one heartbeat row per
 * process, with its pending flag), here as a map, so that several limiters in this test are
 * several instances to each other.
 */
class Registry {
  readonly pending = new Map<string, number | null>();
  live = 0;
  /** the instances one limiter sees: itself among `live` */
  member(name: string): LiveInstances {
    this.pending.set(name, null);
    return {
      count: () => this.live,
      setPending: async (divisor) => {
        this.pending.set(name, divisor);
      },
      othersPending: async () => this.othersOf(name),
      othersPendingSeen: () => this.othersOf(name),
    };
  }
  private othersOf(name: string): number {
    return [...this.pending].filter(([other, d]) => other !== name && d !== null).length;
  }
}

describe("four instances on one Redis that goes away and comes back", () => {
  const INSTANCES = 4;
  const wide = (burst: number, perMinute = 10_000): Limits => ({ burst, perMinute, perDay: 100_000 });
  const prefix = `fiskal-test:share:${Date.now()}`;
  let port: number;
  let registry: Registry;
  let limiters: ReturnType<typeof createRateLimiter>[];
  let recovered: number[];

  const start = () => {
    registry = new Registry();
    registry.live = INSTANCES;
    recovered = [];
    limiters = Array.from({ length: INSTANCES }, (_, i) =>
      createRateLimiter({
        store: { kind: "redis", url: `redis://127.0.0.1:${port}` },
        prefix,
        redisTimeoutMs: 100,
        liveInstances: registry.member(`i${i}`),
        onEvent: (e) => {
          if (e.type === "recovered") recovered.push(Date.now());
        },
      }),
    );
  };
  /** `n` simultaneous decisions, round-robin over the instances */
  const burst = (n: number, identity: string, limits: Limits) =>
    Promise.all(Array.from({ length: n }, (_, i) => limiters[i % INSTANCES]!.decide({ identity, limits })));
  const admitted = (ds: Decision[]) => ds.filter((d) => d.allowed).length;

  it("admit at most the limit together while it is down: each its share, floor(limit ÷ 4)", async () => {
    port = await freePort();
    const redis = await startRedis(port);
    start();
    try {
      await burst(4, "acct:warm", wide(1_000));
      await stop(redis);
      // 200 at once on a burst of 50: each instance admits 12
      const down = await burst(200, "acct:down", wide(50));
      expect(down.every((d) => d.degraded)).toBe(true);
      if (spanOf(down) < 1_000) expect(admitted(down)).toBe(48);
      // a limit below the instance count leaves every share at 0: refused, never admitted
      const tiny = await burst(8, "acct:tiny", wide(3));
      expect(admitted(tiny)).toBe(0);
      expect(tiny[0]!.binding).toMatchObject({ name: "burst", limit: 0, remaining: 0 });
      expect(tiny[0]!.retryAfterSeconds).toBe(1);
      // each instance published that it holds admissions the store has not counted
      expect([...registry.pending.values()]).toEqual([4, 4, 4, 4]);
    } finally {
      await Promise.all(limiters.map((l) => l.close()));
    }
  });

  it("admit at most the limit in the second Redis answers again, and write their local admissions back before deciding on it alone", async () => {
    port = await freePort();
    let redis = await startRedis(port);
    start();
    try {
      await burst(4, "acct:warm", wide(1_000));
      await stop(redis);
      // the minute is spent during the outage: 25 per instance
      const perMinute = 100;
      const during = await burst(400, "acct:spent", wide(1_000, perMinute));
      expect(admitted(during)).toBe(perMinute);

      redis = await startRedis(port);
      const answering = Date.now();
      // 200 at once on a burst of 50, sent the moment Redis accepts connections again
      const atReturn = await burst(200, "acct:return", wide(50));
      if (spanOf(atReturn) < 1_000) expect(admitted(atReturn)).toBeLessThanOrEqual(50);

      // every instance back on Redis alone, within 100 ms of it answering
      await waitFor(() => recovered.length === INSTANCES, 5_000, "every instance to recover");
      expect(Math.max(...recovered) - answering).toBeLessThan(100);
      expect(limiters.every((l) => !l.fallbackActive())).toBe(true);
      expect([...registry.pending.values()]).toEqual([null, null, null, null]);

      // the restarted Redis (no persistence) knows the outage's 100 admissions: nothing more this minute
      const after = await burst(40, "acct:spent", wide(1_000, perMinute));
      expect(after.every((d) => !d.degraded)).toBe(true);
      expect(admitted(after)).toBe(0);
      expect(after[0]!.binding).toMatchObject({ name: "minute", remaining: 0 });
      // and exact again: 200 at once on a fresh burst of 50 admit exactly 50
      const exact = await burst(200, "acct:exact", wide(50));
      expect(exact.every((d) => !d.degraded)).toBe(true);
      if (spanOf(exact) < 1_000) expect(admitted(exact)).toBe(50);
    } finally {
      await Promise.all(limiters.map((l) => l.close()));
      await stop(redis);
    }
  });
});

describe("the shares and the return, instance by instance", () => {
  const prefix = `fiskal-test:order:${Date.now()}`;
  const limits: Limits = { burst: 1_000, perMinute: 60, perDay: 100_000 };
  const admitted = (ds: Decision[]) => ds.filter((d) => d.allowed).length;

  it("counts the instances at every degraded decision: more instances shrink the share at once, fewer never grow it during the outage", async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const registry = new Registry();
    registry.live = 2;
    const rl = createRateLimiter({ store: { kind: "redis", url: `redis://127.0.0.1:${port}` }, prefix, redisTimeoutMs: 100, liveInstances: registry.member("me") });
    const decide = (identity: string, n: number) => Promise.all(Array.from({ length: n }, () => rl.decide({ identity, limits })));
    try {
      await decide("acct:warm", 1);
      await stop(redis);
      // 2 live: 30 of the minute's 60
      expect(admitted(await decide("acct:a", 40))).toBe(30);
      // a third instance starts: 20 each, and this one has already used 30
      registry.live = 3;
      expect(admitted(await decide("acct:a", 10))).toBe(0);
      expect(admitted(await decide("acct:b", 40))).toBe(20);
      // two stop: their admissions may still count in the window, so the share stays at 60 ÷ 3
      registry.live = 1;
      expect(admitted(await decide("acct:c", 40))).toBe(20);
      const [window] = (await rl.peek({ identity: "acct:c", limits })).filter((w) => w.name === "minute");
      expect(window).toMatchObject({ limit: 20, remaining: 0 });
    } finally {
      await rl.close();
    }
  });

  it("does not decide on Redis alone while another instance still holds local admissions; its share and Redis must both admit until then", async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const registry = new Registry();
    registry.live = 2;
    let recovered = 0;
    const rl = createRateLimiter({
      store: { kind: "redis", url: `redis://127.0.0.1:${port}` },
      prefix,
      redisTimeoutMs: 100,
      liveInstances: registry.member("me"),
      onEvent: (e) => {
        if (e.type === "recovered") recovered = Date.now();
      },
    });
    const decide = (identity: string, n: number) => Promise.all(Array.from({ length: n }, () => rl.decide({ identity, limits })));
    try {
      await decide("acct:warm", 1);
      await stop(redis);
      // the other instance lost Redis too: its pending flag is what it published, and it has not written back yet
      registry.pending.set("other", 2);
      expect(admitted(await decide("acct:x", 10))).toBe(10);
      expect(registry.pending.get("me")).toBe(2);
      redis = await startRedis(port);
      // written back and cleared, but the other instance still holds its admissions
      await waitFor(() => registry.pending.get("me") === null, 5_000, "this instance's write-back");
      await sleep(100);
      expect(rl.fallbackActive()).toBe(true);
      expect(recovered).toBe(0);
      // acct:x: 10 of its share of 30 used locally, written back to Redis: 20 more, by the share
      const gated = await decide("acct:x", 40);
      expect(admitted(gated)).toBe(20);
      expect(gated.filter((d) => d.allowed).every((d) => !d.degraded)).toBe(true);
      // Redis counted all 30 (10 written back, 20 decided on it)
      const minute = (await rl.peek({ identity: "acct:x", limits })).find((w) => w.name === "minute")!;
      expect(minute).toMatchObject({ limit: 60, remaining: 30 });
      // a fresh account: at most the share, although Redis alone would admit 60
      expect(admitted(await decide("acct:y", 60))).toBe(30);

      // the other instance writes back: this one decides on Redis alone within a few milliseconds
      const cleared = Date.now();
      registry.pending.set("other", null);
      await waitFor(() => recovered > 0, 5_000, "the recovered event");
      expect(recovered - cleared).toBeLessThan(100);
      expect(rl.fallbackActive()).toBe(false);
      expect(admitted(await decide("acct:y", 60))).toBe(30);
      expect(admitted(await decide("acct:z", 80))).toBe(60);
    } finally {
      await rl.close();
      await stop(redis);
    }
  });

  it("takes what the store last counted off the share: an account at its limit stays refused while Redis is away", async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const registry = new Registry();
    registry.live = 2;
    const rl = createRateLimiter({ store: { kind: "redis", url: `redis://127.0.0.1:${port}` }, prefix, redisTimeoutMs: 100, liveInstances: registry.member("me") });
    const decide = (identity: string, n: number, l = limits) => Promise.all(Array.from({ length: n }, () => rl.decide({ identity, limits: l })));
    try {
      // full on Redis; 20 of 60 used by another; fresh
      expect(admitted(await decide("acct:full", 70))).toBe(60);
      expect(admitted(await decide("acct:part", 20))).toBe(20);
      const day: Limits = { burst: 1_000, perMinute: 1_000, perDay: 100 };
      expect(admitted(await decide("acct:day", 90, day))).toBe(90);
      await stop(redis);
      const full = await decide("acct:full", 20);
      expect(full.every((d) => d.degraded)).toBe(true);
      expect(admitted(full)).toBe(0);
      expect(full[0]!.binding).toMatchObject({ name: "minute", limit: 0, remaining: 0 });
      // 60 ÷ 2 = 30, less this instance's part of the 20 already counted, 20 ÷ 2
      expect(admitted(await decide("acct:part", 40))).toBe(20);
      expect(admitted(await decide("acct:fresh", 40))).toBe(30);
      // the day keeps what it counted until midnight: a day of 100 with 90 used leaves 50 - 45 = 5 here
      expect(admitted(await decide("acct:day", 10, day))).toBe(5);
    } finally {
      await rl.close();
    }
  });

  it("refuses locally while it cannot tell the others that it holds admissions the store has not counted", async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    let reachable = true;
    const rl = createRateLimiter({
      store: { kind: "redis", url: `redis://127.0.0.1:${port}` },
      prefix,
      redisTimeoutMs: 100,
      liveInstances: {
        count: () => 1,
        setPending: async () => {
          if (!reachable) throw new Error("the instance registry is unreachable");
        },
        othersPending: async () => 0,
        othersPendingSeen: () => 0,
      },
    });
    try {
      await rl.decide({ identity: "acct:warm", limits });
      await stop(redis);
      reachable = false;
      const refused = await rl.decide({ identity: "acct:r", limits });
      expect(refused).toMatchObject({ allowed: false, degraded: true, retryAfterSeconds: 1 });
      reachable = true;
      expect(await rl.decide({ identity: "acct:r", limits })).toMatchObject({ allowed: true, degraded: true });
    } finally {
      await rl.close();
    }
  });
});

/** A TCP proxy in front of Redis that this test can cut (every connection reset, new ones refused) and restore. */
async function redisProxy(target: number): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const port = await freePort();
  const listen = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(target, "127.0.0.1");
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("error", () => {});
        s.once("close", () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
      client.once("close", () => upstream.destroy());
      upstream.once("close", () => client.destroy());
    });
    server.listen(port, "127.0.0.1");
    await once(server, "listening");
  };
  const cut = async () => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.resetAndDestroy();
    if (s) await new Promise((r) => s.close(r));
  };
  await listen();
  return { port, cut, restore: listen, close: cut };
}

describe("one instance cut off from Redis while the others reach it", () => {
  it("the others decide behind their shares until it has written its local admissions back: never over the limit", async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const proxy = await redisProxy(port);
    const registry = new Registry();
    registry.live = 2;
    const prefix = `fiskal-test:partition:${Date.now()}`;
    const limits: Limits = { burst: 1_000, perMinute: 60, perDay: 100_000 };
    const cutOff = createRateLimiter({ store: { kind: "redis", url: `redis://127.0.0.1:${proxy.port}` }, prefix, redisTimeoutMs: 100, liveInstances: registry.member("cut") });
    const other = createRateLimiter({ store: { kind: "redis", url: `redis://127.0.0.1:${port}` }, prefix, redisTimeoutMs: 100, liveInstances: registry.member("other") });
    const decide = (rl: typeof other, n: number) => Promise.all(Array.from({ length: n }, () => rl.decide({ identity: "acct:p", limits })));
    const admitted = (ds: Decision[]) => ds.filter((d) => d.allowed).length;
    try {
      await cutOff.decide({ identity: "acct:warm", limits });
      await proxy.cut();
      const local = await decide(cutOff, 40);
      expect(local.every((d) => d.degraded)).toBe(true);
      expect(admitted(local)).toBe(30);
      // Redis answers the other instance, which would admit all 60: it keeps to its share
      const onRedis = await decide(other, 80);
      expect(admitted(onRedis)).toBe(30);
      expect(other.fallbackActive()).toBe(true);

      await proxy.restore();
      await waitFor(() => !cutOff.fallbackActive() && !other.fallbackActive(), 5_000, "both instances to be exact again");
      // Redis has all 60 (30 written back): nothing more this minute, from either
      expect(admitted(await decide(other, 20))).toBe(0);
      expect(admitted(await decide(cutOff, 20))).toBe(0);
      expect((await other.peek({ identity: "acct:p", limits })).find((w) => w.name === "minute")!.remaining).toBe(0);
    } finally {
      await cutOff.close();
      await other.close();
      await proxy.close();
      await stop(redis);
    }
  });
});
