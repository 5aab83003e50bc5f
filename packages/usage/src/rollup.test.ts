// Several API instances flushing usage of the same accounts at the same time: the UsageHour rollup
// (kept by a trigger on UsageEvent) must neither deadlock nor lose a count, and the portal's summary
// must agree with the events themselves.
import { randomUUID } from "node:crypto";
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

const ENDPOINTS = ["POST /v1/validate/oib", "GET /v1/kpd/{code}", "POST /v1/fiscalize"];

it("four instances flushing the same accounts, endpoints and hours at once: every count arrives", async () => {
  const accounts = [
    (await createAccount(testDb.db, { name: `a-${randomUUID()}` })).id,
    (await createAccount(testDb.db, { name: `b-${randomUUID()}` })).id,
  ];
  const keys = await Promise.all(accounts.map((a) => createApiKey(testDb.db, a, "k")));
  const now = new Date();
  const hourMs = 3_600_000;
  const errors: unknown[] = [];
  const meters = instances.map((db) => createMeter(db, { flushIntervalMs: 60_000, maxBatch: 500, onError: (e) => errors.push(e) }));
  const PER_INSTANCE = 6_000;
  // Every instance covers every (account, endpoint, hour) combination, in a different order, so
  // that their batches upsert the same UsageHour rows concurrently.
  meters.forEach((meter, m) => {
    for (let i = 0; i < PER_INSTANCE; i++) {
      const j = (i * (m + 1) + m) % 18;
      const a = j % 2;
      const e: UsageRecord = {
        accountId: accounts[a]!,
        apiKeyId: keys[a]!.id,
        requestId: `m${m}-${i}`,
        method: "GET",
        endpoint: ENDPOINTS[j % 3]!,
        status: i % 13 === 0 ? 429 : i % 17 === 0 ? 500 : 200,
        refused: i % 13 === 0,
        durationMs: (i % 5) + 0.25,
        // today's hour, and up to two hours before (clamped to today)
        at: new Date(Math.max(now.getTime() - (j % 3) * hourMs, Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))),
      };
      meter.record(e);
    }
  });
  await Promise.all(meters.map((m) => m.flush()));
  expect(errors).toEqual([]);
  expect(meters.map((m) => m.written)).toEqual([PER_INSTANCE, PER_INSTANCE, PER_INSTANCE, PER_INSTANCE]);

  for (const accountId of accounts) {
    const [fromEvents] = await testDb.db.$queryRaw<{ n: bigint; refused: bigint; ok: bigint; ms: number; admitted: bigint }[]>`
      SELECT count(*) AS n, count(*) FILTER (WHERE refused) AS refused, count(*) FILTER (WHERE status BETWEEN 200 AND 299) AS ok,
             sum("durationMs")::float8 AS ms, count(*) FILTER (WHERE NOT refused) AS admitted
        FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid`;
    const summary = await usageSummary(testDb.db, accountId);
    expect(summary.today.requests).toBe(Number(fromEvents!.n));
    expect(summary.today.refused).toBe(Number(fromEvents!.refused));
    expect(summary.today.successRate).toBeCloseTo(Number(fromEvents!.ok) / Number(fromEvents!.n), 12);
    expect(summary.today.avgMs).toBeCloseTo(fromEvents!.ms / Number(fromEvents!.n), 9);
    expect(summary.endpoints.reduce((s, e) => s + e.requests, 0)).toBe(Number(fromEvents!.n));
    expect(summary.hourly.reduce((s, h) => s + h.requests, 0)).toBe(Number(fromEvents!.n));
    expect(await requestsToday(testDb.db, accountId)).toBe(Number(fromEvents!.admitted));
  }
  expect(await testDb.db.usageEvent.count()).toBe(4 * PER_INSTANCE);
});
