// DESIGN §4 "never over the limit" while the store fails, across four production processes (the
// `start` script's bundle) on one PostgreSQL database and a Redis of this test's own, which the
// test kills and restarts. Each process counts the others by its heartbeat in the database, admits
// only its share while Redis is away, and writes its local admissions back when Redis returns.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { freePort, startRedis, stopRedis } from "../../../packages/limits/src/test-redis.ts";
import { buildApi, killAll, startApiProcess, stopProcess, waitState, type ApiProcess } from "./api-process.ts";
import { call, PORTAL, VALID_OIB, type CallResult } from "./harness.ts";

const INSTANCES = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`the limit across ${INSTANCES} API processes while their Redis goes away and comes back`, () => {
  const processes: ApiProcess[] = [];
  let db: Db;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let redisPort: number;
  let redis: ChildProcess;
  const stopAll = () => killAll(processes);

  const account = async (burst: number, perMinute = 10_000) => {
    const a = await createAccount(db, { name: "Kvar d.o.o.", plan: "ENTERPRISE", custom: { burst, perMinute, perDay: 100_000 } });
    const key = (await createApiKey(db, a.id, "faults")).key;
    // every process looks the key up once (a free call), so the counted requests find it cached
    await Promise.all(processes.map((p) => call(p.url, "GET", "/v1/limits", { key })));
    return key;
  };
  const oib = (i: number, key: string): Promise<CallResult> => call(processes[i % INSTANCES]!.url, "POST", "/v1/validate/oib", { key, body: { oib: VALID_OIB } });
  const burst = (n: number, key: string) => Promise.all(Array.from({ length: n }, (_, i) => oib(i, key)));
  const ok = (rs: CallResult[]) => rs.filter((r) => r.status === 200).length;
  const openConnections = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => call(processes[i % INSTANCES]!.url, "GET", "/healthz")));

  /** Kills Redis, and waits until every process decides locally (a decision notices the failure). */
  const takeRedisAway = async (): Promise<void> => {
    await stopRedis(redis);
    const key = await account(1_000);
    await burst(INSTANCES, key);
    for (const p of processes) await waitState(p, "degraded (local fallback)", 5_000);
  };

  beforeAll(async () => {
    process.once("exit", stopAll);
    buildApi();
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    database = await createTestDatabase();
    db = createDb(database.url, { max: 4 });
    const prefix = `t-faults-${randomBytes(6).toString("hex")}`;
    for (let i = 0; i < INSTANCES; i++) {
      processes.push(
        startApiProcess({
          DATABASE_URL: database.url,
          REDIS_URL: `redis://127.0.0.1:${redisPort}`,
          RATE_LIMIT_PREFIX: prefix,
          RATE_LIMIT_STORE_TIMEOUT_MS: "250",
          HOST: "127.0.0.1",
          PORTAL_URL: PORTAL,
          LOG_LEVEL: "warn", // the return to Redis is read from its log line
          NODE_ENV: "production",
          LATE_DELIVERY_INTERVAL_MS: "0",
        }),
      );
    }
    await Promise.all(processes.map((p) => waitState(p, "ok (redis)", 45_000)));
    // every process has written its heartbeat; after one more beat (1 s) each has read all four
    const live = await db.limiterInstance.count({ where: { heartbeatAt: { gt: new Date(Date.now() - 5_000) } } });
    expect(live).toBe(INSTANCES);
    await sleep(1_500);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map(stopProcess));
    process.removeListener("exit", stopAll);
    await stopRedis(redis);
    await db?.$disconnect();
    await database?.drop();
  }, 30_000);

  it("while Redis is away, 200 at once on a burst of 50 admit 48: each process its share, 50 ÷ 4", async () => {
    await takeRedisAway();
    try {
      const key = await account(50);
      await openConnections(200);
      const started = performance.now();
      const rs = await burst(200, key);
      const spanMs = performance.now() - started;
      expect(rs.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
      // the precondition: all in one rolling second (the shares allow 48 in any second)
      if (spanMs < 1_000) expect(ok(rs)).toBe(48);
      else expect(ok(rs)).toBeLessThanOrEqual(96);
    } finally {
      redis = await startRedis(redisPort);
      for (const p of processes) await waitState(p, "ok (redis)", 5_000);
    }
  });

  it("200 at once on a burst of 50, sent the moment Redis answers again: at most 50; the outage's admissions still count on the restarted Redis", async () => {
    const minuteKey = await account(1_000, 100);
    const key = await account(50);
    await takeRedisAway();
    // the minute is spent during the outage: 25 per process
    expect(ok(await burst(400, minuteKey))).toBe(100);
    await openConnections(200);

    redis = await startRedis(redisPort);
    const answering = performance.now();
    const rs = await burst(200, key);
    const spanMs = performance.now() - answering;
    expect(rs.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
    expect(spanMs).toBeLessThan(1_000);
    expect(ok(rs)).toBeLessThanOrEqual(50);

    // each process reports Redis alone again; and none decides there before the others' local
    // admissions are written back: the restarted Redis (no persistence) knows the outage's 100
    for (const p of processes) await waitState(p, "ok (redis)", 5_000);
    const spent = await burst(40, minuteKey);
    expect(ok(spent)).toBe(0);
    const refused = spent.find((r) => r.status === 429)!;
    expect(refused.headers.get("x-ratelimit-limit")).toBe("100");
    // and exact again
    const exact = await burst(200, await account(50));
    expect(ok(exact)).toBe(50);
  });

  it("every process is back on Redis alone within 100 ms of Redis answering again", async () => {
    await takeRedisAway();
    // a few local admissions in every process, to be written back on the return
    await burst(40, await account(1_000));
    redis = await startRedis(redisPort);
    // when this process saw Redis answer: Redis answered at this moment or before it
    const answering = Date.now();
    await Promise.all(processes.map((p) => waitState(p, "ok (redis)", 5_000)));
    // Each process logs the moment it is back ("back to shared limits", pino's `time`, the same clock):
    // measured there, not by when a /readyz poll of a loaded machine gets its answer.
    const back = processes.map((p) => {
      const times = p.output
        .join("")
        .split("\n")
        .filter((line) => line.includes("back to shared limits"))
        .map((line) => (JSON.parse(line) as { time: number }).time);
      expect(times.length, `${p.url} logged no return to Redis:\n${p.output.join("")}`).toBeGreaterThan(0);
      return Math.max(...times) - answering;
    });
    console.info(`ms from Redis answering to each process back on it: ${back.join(", ")}`);
    expect(Math.max(...back), `ms from Redis answering to each process back on it: ${back.join(", ")}`).toBeLessThan(100);
  });
});
