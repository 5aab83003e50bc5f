/**
 * Fail-open: a private redis-server on a free port is killed and restarted (the shared Redis is
 * never touched); decisions keep coming from the local limiter and return to Redis when it is back.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "./limiter.ts";
import type { Limits } from "./policy.ts";
import { freePort, startRedis, stopAllRedis, stopRedis as stop, waitFor } from "./test-redis.ts";
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
