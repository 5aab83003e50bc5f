// Several API instances flushing usage of the same accounts at the same time: the UsageHour rollup
// (kept by a trigger on UsageEvent) must neither deadlock nor lose a count, and the portal's summary
// must agree with the events themselves.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAccount, createApiKey, createDb, type Db } from "@fiskal/db";
import { createMeter, type UsageRecord } from "./meter.ts";
import { requestsToday, usageSummary } from "./summary.ts";
import { openTestDatabase, type TestDatabase } from "./testing.ts";

let testDb: TestDatabase;
const instances: Db[] = [];

beforeAll(async () => {
  testDb = await openTestDatabase();
  for (let i = 0; i < 4; i++) instances.push(createDb(testDb.url, { max: 2 }));
});

afterAll(async () => {
  await Promise.all(instances.map((db) => db.$disconnect()));
  await testDb?.close();
});

const ENDPOINTS = Array.from({ length: 12 }, (_, i) => `GET /v1/e${String(i).padStart(2, "0")}`);
const HOURS = 16;

it("four instances flushing batches over the same rollup rows at once: no deadlock, every count arrives", async () => {
  const accounts = [(await createAccount(testDb.db, { name: "A" })).id, (await createAccount(testDb.db, { name: "B" })).id];
  const keys = await Promise.all(accounts.map((a) => createApiKey(testDb.db, a, "k")));
  const now = new Date();
  const errors: unknown[] = [];
  const meters = instances.map((db) => createMeter(db, { flushIntervalMs: 60_000, maxBatch: 300, onError: (e) => errors.push(e) }));
  // 2 accounts × 12 endpoints × 16 hours = 384 rollup rows. Each instance walks them in its own
  // order (forwards, backwards, strided), so concurrent batches touch overlapping rows in different
  // orders: only the trigger's sorted upsert keeps them from locking each other in a cycle.
  const combos = accounts.flatMap((a, ai) => ENDPOINTS.flatMap((endpoint) => Array.from({ length: HOURS }, (_, h) => ({ a, ai, endpoint, h }))));
  const PER_INSTANCE = 6_000;
  meters.forEach((meter, m) => {
    for (let i = 0; i < PER_INSTANCE; i++) {
      const k = m === 1 ? combos.length - 1 - (i % combos.length) : (i * [1, 1, 7, 13][m]! + m * 31) % combos.length;
      const c = combos[k]!;
      const e: UsageRecord = {
        accountId: c.a,
        apiKeyId: keys[c.ai]!.id,
        requestId: `m${m}-${i}`,
        method: "GET",
        endpoint: c.endpoint,
        status: i % 13 === 0 ? 429 : i % 17 === 0 ? 500 : 200,
        refused: i % 13 === 0,
        durationMs: (i % 5) + 0.25,
        at: new Date(now.getTime() - c.h * 3_600_000),
      };
      meter.record(e);
    }
  });
  await Promise.all(meters.map((m) => m.flush()));
  expect(errors).toEqual([]);
  expect(meters.map((m) => m.written)).toEqual([PER_INSTANCE, PER_INSTANCE, PER_INSTANCE, PER_INSTANCE]);

  const todayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
  for (const accountId of accounts) {
    const [all] = await testDb.db.$queryRaw<{ n: bigint; refused: bigint; ok: bigint; errors: bigint; ms: number }[]>`
      SELECT count(*) AS n, count(*) FILTER (WHERE refused) AS refused, count(*) FILTER (WHERE status BETWEEN 200 AND 299) AS ok,
             count(*) FILTER (WHERE status >= 400 AND status <> 429) AS errors, sum("durationMs")::float8 AS ms
        FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid`;
    const [rolled] = await testDb.db.$queryRaw<{ n: bigint; refused: bigint; ok: bigint; errors: bigint; ms: number }[]>`
      SELECT sum(requests)::int8 AS n, sum(refused)::int8 AS refused, sum(ok)::int8 AS ok, sum(errors)::int8 AS errors, sum("totalMs")::float8 AS ms
        FROM "UsageHour" WHERE "accountId" = ${accountId}::uuid`;
    expect({ ...rolled, ms: undefined }).toEqual({ ...all, ms: undefined });
    expect(rolled!.ms).toBeCloseTo(all!.ms, 6);

    const [today] = await testDb.db.$queryRaw<{ n: bigint; admitted: bigint }[]>`
      SELECT count(*) AS n, count(*) FILTER (WHERE NOT refused) AS admitted
        FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid AND "createdAt" >= ${todayStart}::timestamptz`;
    const summary = await usageSummary(testDb.db, accountId, now);
    expect(summary.today.requests).toBe(Number(today!.n));
    expect(summary.hourly.reduce((s, h) => s + h.requests, 0)).toBe(Number(today!.n));
    expect(await requestsToday(testDb.db, accountId, now)).toBe(Number(today!.admitted));
  }
  expect(await testDb.db.usageEvent.count()).toBe(4 * PER_INSTANCE);
});
