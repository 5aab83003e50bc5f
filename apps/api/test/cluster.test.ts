// The API on a real 3-master Redis Cluster: every key of an account shares one hash tag, so the
// one-script decision runs on the master owning that slot, exact as on a single Redis.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPlan } from "@fiskal/accounts";
import { startCluster, stopAllRedis, type TestCluster } from "../../../packages/limits/src/test-redis.ts";
import { call, startHarness, timely, VALID_OIB, type Harness } from "./harness.ts";

const oib = (h: Harness, key: string) => call(h.url, "POST", "/v1/validate/oib", { key, body: { oib: VALID_OIB } });

describe("rate limits on a Redis Cluster", () => {
  let cluster: TestCluster;
  let h: Harness;
  beforeAll(async () => {
    cluster = await startCluster(3);
    h = await startHarness({ config: { store: { kind: "cluster", url: cluster.url } } });
  });
  afterAll(async () => {
    await h?.close();
    await stopAllRedis();
  });

  it("admits exactly the burst out of 200 simultaneous requests, for accounts on every master", async () => {
    for (let i = 0; i < 6; i++) {
      const statuses = await timely(async () => {
        const a = await h.account({ plan: "ENTERPRISE", custom: { burst: 50, perMinute: 10_000, perDay: 100_000 } });
        await call(h.url, "GET", "/v1/limits", { key: a.key });
        const started = performance.now();
        const result = (await Promise.all(Array.from({ length: 200 }, () => oib(h, a.key)))).map((r) => r.status);
        return { spanMs: performance.now() - started, result };
      }, 1_000);
      expect(statuses.filter((s) => s === 200)).toHaveLength(50);
      expect(statuses.filter((s) => s === 429)).toHaveLength(150);
    }
    expect(h.api.services.limiter.fallbackActive()).toBe(false);
    // six accounts spread their hash tags over the masters: each master ran some of the scripts
    const { execFileSync } = await import("node:child_process");
    const perMaster = cluster.ports.map((port) =>
      Number(/cmdstat_evalsha:calls=(\d+)/.exec(execFileSync("redis-cli", ["-p", String(port), "info", "commandstats"]).toString())?.[1] ?? 0),
    );
    expect(perMaster.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
  });

  it("judges the next request by a plan changed mid-window, against the same history", async () => {
    const a = await h.account({ plan: "SANDBOX" });
    const first = await oib(h, a.key);
    expect(first.headers.get("ratelimit")).toMatch(/"minute";r=59;t=60/);
    await setPlan(h.api.services.db, a.id, "BUSINESS");
    let policy = "";
    let last = first;
    const changedAt = Date.now();
    while (Date.now() - changedAt < 500) {
      last = await oib(h, a.key);
      policy = last.headers.get("ratelimit-policy") ?? "";
      if (policy.includes('"minute";q=300;w=60')) break;
    }
    expect(policy).toContain('"minute";q=300;w=60');
    // every request so far is still counted under the new limit
    const limits = await call(h.url, "GET", "/v1/limits", { key: a.key });
    const minute = limits.body.windows.find((w: { name: string }) => w.name === "minute");
    const sent = Number(/"minute";r=(\d+)/.exec(last.headers.get("ratelimit")!)![1]);
    expect(minute.remaining).toBe(sent);
    expect(minute.limit).toBe(300);
  });
});
