// Several API instances (one meter and one connection pool each) flushing usage of the same accounts
// into the same "UsageHour" rows at the same time: no deadlock, no lost count, no count written twice,
// also when flushes fail and are retried; and the portal's summary agrees with the request log.
import { setImmediate as tick } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAccount, createApiKey } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { createMeter, type Meter, type UsageRecord } from "./meter.ts";
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
const HOUR = 3_600_000;

interface Totals {
  requests: number;
  refused: number;
  ok: number;
  errors: number;
  totalMs: number;
}

/** Key → totals, from "UsageHour" or from "UsageEvent" (hours truncated in UTC by PostgreSQL). */
async function table(sql: "hour" | "log", accountIds: string[]): Promise<Map<string, Totals>> {
  const rows =
    sql === "hour"
      ? await testDb.db.$queryRaw<({ k: string } & Totals)[]>`
          SELECT "accountId" || ' ' || (extract(epoch FROM hour) * 1000)::int8 || ' ' || endpoint AS k,
                 requests::int AS requests, refused::int AS refused, ok::int AS ok, errors::int AS errors, "totalMs"
            FROM "UsageHour" WHERE "accountId" = ANY(${accountIds}::uuid[])`
      : await testDb.db.$queryRaw<({ k: string } & Totals)[]>`
          SELECT "accountId" || ' ' || (extract(epoch FROM date_trunc('hour', "createdAt", 'UTC')) * 1000)::int8 || ' ' || endpoint AS k,
                 count(*)::int AS requests, (count(*) FILTER (WHERE refused))::int AS refused,
                 (count(*) FILTER (WHERE status BETWEEN 200 AND 299))::int AS ok,
                 (count(*) FILTER (WHERE status >= 400 AND status <> 429))::int AS errors, sum("durationMs") AS "totalMs"
            FROM "UsageEvent" WHERE "accountId" = ANY(${accountIds}::uuid[]) GROUP BY 1`;
  return new Map(rows.map(({ k, ...t }) => [k, t]));
}

function expectSameTotals(actual: Map<string, Totals>, expected: Map<string, Totals>): void {
  const counts = (m: Map<string, Totals>) =>
    [...m].map(([k, t]) => [k, t.requests, t.refused, t.ok, t.errors] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  expect(counts(actual)).toEqual(counts(expected));
  for (const [k, t] of expected) expect(actual.get(k)!.totalMs).toBeCloseTo(t.totalMs, 6);
}

interface Run {
  accounts: string[];
  expected: Map<string, Totals>;
  total: number;
}

/**
 * Every instance records PER_INSTANCE requests over the same 2 accounts × 12 endpoints × 16 hours,
 * each walking them in its own order (forwards, backwards, strided), in slices between which the
 * meters' timers flush: concurrent flushes upsert overlapping rows in different record orders.
 */
async function run(meters: Meter[], perInstance: number, between?: (slice: number) => Promise<void>): Promise<Run> {
  const accounts = [(await createAccount(testDb.db, { name: "A" })).id, (await createAccount(testDb.db, { name: "B" })).id];
  const keys = await Promise.all(accounts.map((a) => createApiKey(testDb.db, a, "k")));
  const now = Date.now();
  const combos = accounts.flatMap((a, ai) => ENDPOINTS.flatMap((endpoint) => Array.from({ length: HOURS }, (_, h) => ({ a, ai, endpoint, h }))));
  const expected = new Map<string, Totals>();
  const SLICE = 500;
  for (let from = 0, slice = 0; from < perInstance; from += SLICE, slice++) {
    meters.forEach((meter, m) => {
      for (let i = from; i < Math.min(from + SLICE, perInstance); i++) {
        const k = m === 1 ? combos.length - 1 - (i % combos.length) : (i * [1, 1, 7, 13][m]! + m * 31) % combos.length;
        const c = combos[k]!;
        const e: UsageRecord = {
          accountId: c.a,
          apiKeyId: keys[c.ai]!.id,
          requestId: `m${m}-${i}`,
          method: "GET",
          endpoint: c.endpoint,
          status: i % 13 === 0 ? 429 : i % 17 === 0 ? 500 : i % 19 === 0 ? 404 : 200,
          refused: i % 13 === 0,
          durationMs: (i % 5) + 0.25,
          at: new Date(now - c.h * HOUR),
        };
        meter.record(e);
        const at = e.at.getTime();
        const key = `${e.accountId} ${at - (at % HOUR)} ${e.endpoint}`;
        const t = expected.get(key) ?? { requests: 0, refused: 0, ok: 0, errors: 0, totalMs: 0 };
        t.requests++;
        if (e.refused) t.refused++;
        if (e.status >= 200 && e.status <= 299) t.ok++;
        else if (e.status >= 400 && e.status !== 429) t.errors++;
        t.totalMs += e.durationMs;
        expected.set(key, t);
      }
    });
    await between?.(slice);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  return { accounts, expected, total: meters.length * perInstance };
}

async function check({ accounts, expected, total }: Run): Promise<void> {
  expect(expected.size).toBe(2 * ENDPOINTS.length * HOURS);
  const hours = await table("hour", accounts);
  expectSameTotals(hours, expected);
  expectSameTotals(await table("log", accounts), expected);
  const [{ n }] = await testDb.db.$queryRaw<[{ n: number }]>`SELECT count(*)::int AS n FROM "UsageEvent" WHERE "accountId" = ANY(${accounts}::uuid[])`;
  expect(n).toBe(total);
  // The per-key hours equal the log's, also where flushes were retried.
  const keyHours = (sql: "rollup" | "log") =>
    sql === "rollup"
      ? testDb.db.$queryRaw<unknown[]>`SELECT "apiKeyId"::text AS k, hour, requests::int AS n, refused::int AS r, errors::int AS x, "lastAt" AS l
          FROM "UsageKeyHour" WHERE "accountId" = ANY(${accounts}::uuid[]) ORDER BY 1, 2`
      : testDb.db.$queryRaw<unknown[]>`SELECT "apiKeyId"::text AS k, date_trunc('hour', "createdAt", 'UTC') AS hour, count(*)::int AS n,
          count(*) FILTER (WHERE status = 429)::int AS r, count(*) FILTER (WHERE status >= 400 AND status <> 429)::int AS x, max("createdAt") AS l
          FROM "UsageEvent" WHERE "accountId" = ANY(${accounts}::uuid[]) GROUP BY 1, 2 ORDER BY 1, 2`;
  const perKey = await keyHours("rollup");
  expect(perKey).toHaveLength(2 * HOURS);
  expect(perKey).toEqual(await keyHours("log"));

  const now = new Date();
  const todayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
  for (const accountId of accounts) {
    const [today] = await testDb.db.$queryRaw<{ n: bigint; admitted: bigint }[]>`
      SELECT count(*) AS n, count(*) FILTER (WHERE NOT refused) AS admitted
        FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid AND "createdAt" >= ${todayStart}::timestamptz`;
    const summary = await usageSummary(testDb.db, accountId, now);
    expect(summary.today.requests).toBe(Number(today!.n));
    expect(summary.hourly.reduce((s, h) => s + h.requests, 0)).toBe(Number(today!.n));
    expect(await requestsToday(testDb.db, accountId, now)).toBe(Number(today!.admitted));
  }
}

it("four instances flushing on their timers over the same hourly rows: no deadlock, every count exactly once", async () => {
  const errors: unknown[] = [];
  const meters = instances.map((db) => createMeter(db, { flushIntervalMs: 5, maxBatch: 300, onError: (e) => errors.push(e) }));
  const result = await run(meters, 6_000);
  await Promise.all(meters.map((m) => m.close()));
  // A deadlock would have failed a flush (PostgreSQL aborts one of the transactions) and shown here.
  expect(errors).toEqual([]);
  expect(meters.map((m) => m.written)).toEqual([6_000, 6_000, 6_000, 6_000]);
  await check(result);
});

it("connections killed again and again while the instances flush: retried, nothing lost, nothing counted twice", async () => {
  const errors: unknown[] = [];
  const meters = instances.map((db) => createMeter(db, { flushIntervalMs: 5, maxBatch: 300, onError: (e) => errors.push(e) }));
  let killed = 0;
  const result = await run(meters, 4_000, async (slice) => {
    if (slice % 2 === 1) return;
    // Let the timers start their flushes, then cut whatever connections the meters hold.
    await tick();
    killed += await testDb.killMeterConnections();
  });
  await Promise.all(meters.map((m) => m.close()));
  expect(killed).toBeGreaterThan(0);
  expect(errors.length).toBeGreaterThan(0);
  expect(meters.map((m) => ({ written: m.written, buffered: m.buffered, dropped: m.dropped }))).toEqual(
    Array.from({ length: 4 }, () => ({ written: 4_000, buffered: 0, dropped: 0 })),
  );
  await check(result);
});
