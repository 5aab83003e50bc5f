// The limiter has no defaults of its own for the key prefix and the store timeout: each app's env.ts holds them.
import { randomUUID } from "node:crypto";
import { Redis as IORedis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./limiter.ts";
import { InvalidLimitsError } from "./policy.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

describe("createRateLimiter options", () => {
  it("requires a prefix and a store timeout", () => {
    expect(() => createRateLimiter({ store: { kind: "memory" }, redisTimeoutMs: 1_000 } as never)).toThrow(InvalidLimitsError);
    expect(() => createRateLimiter({ store: { kind: "memory" }, prefix: "", redisTimeoutMs: 1_000 })).toThrow(/prefix/);
    expect(() => createRateLimiter({ store: { kind: "memory" }, prefix: "t" } as never)).toThrow(/redisTimeoutMs/);
    expect(() => createRateLimiter({ store: { kind: "memory" }, prefix: "t", redisTimeoutMs: 0 })).toThrow(/redisTimeoutMs/);
  });

  it("writes every key of a decision under the prefix it is given", async () => {
    const prefix = `fiskal-opts-${randomUUID()}`;
    const rl = createRateLimiter({ store: { kind: "redis", url: REDIS_URL }, prefix, redisTimeoutMs: 1_000 });
    const redis = new IORedis(REDIS_URL);
    try {
      expect((await rl.decide({ identity: "acct:a", limits: { burst: 1, perMinute: 2, perDay: 3 }, endpoint: "oib" })).allowed).toBe(true);
      const keys = await redis.keys(`*{acct:a}*`);
      const ours = keys.filter((k) => k.startsWith(`${prefix}:`));
      expect(ours.length).toBeGreaterThanOrEqual(4);
      expect(keys.filter((k) => k.includes(prefix) && !k.startsWith(`${prefix}:`))).toEqual([]);
      await redis.del(...ours);
    } finally {
      redis.disconnect();
      await rl.close();
    }
  });
});
