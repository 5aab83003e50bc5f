// The portal dashboard's usage queries (usageSummary + requestsToday) for an account that used its
// whole daily quota every day for 30 days, against the same questions answered by scanning the raw
// events (how the dashboard read usage before UsageHour), measured in the same run on the real
// PostgreSQL. Prints one JSON line; exits 1 over budget.
//
//   BENCH_SUMMARY_PER_DAY (default 200000, the Business daily quota)  BENCH_SUMMARY_DAYS (default 30)
import { createAccount, createTestDatabase } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { requestsToday, usageSummary } from "@fiskal/usage";

const PER_DAY = Number(process.env.BENCH_SUMMARY_PER_DAY ?? 200_000);
const DAYS = Number(process.env.BENCH_SUMMARY_DAYS ?? 30);
const RUNS = 7;
// A dashboard load must feel instant whatever the account's volume.
const BUDGET = { p50Ms: 50 };

/** The same answers from UsageEvent itself: the questions usageSummary and requestsToday ask. */
async function scanEvents(db: Db, accountId: string, now: Date) {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const tomorrow = new Date(today.getTime() + 86_400_000);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const windowStart = new Date(today.getTime() - 29 * 86_400_000);
  const scanStart = (monthStart < windowStart ? monthStart : windowStart).toISOString();
  return Promise.all([
    db.$queryRaw`
      SELECT to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS requests,
             count(*) FILTER (WHERE refused) AS refused, count(*) FILTER (WHERE status >= 400 AND status <> 429) AS errors,
             count(*) FILTER (WHERE status BETWEEN 200 AND 299) AS ok, coalesce(sum("durationMs"), 0)::float8 AS "totalMs"
        FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid
         AND "createdAt" >= ${scanStart}::timestamptz AND "createdAt" < ${tomorrow.toISOString()}::timestamptz
       GROUP BY 1`,
    db.$queryRaw`
      SELECT extract(hour FROM "createdAt" AT TIME ZONE 'UTC')::int AS hour, count(*) AS requests, count(*) FILTER (WHERE refused) AS refused
        FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid
         AND "createdAt" >= ${today.toISOString()}::timestamptz AND "createdAt" < ${tomorrow.toISOString()}::timestamptz
       GROUP BY 1`,
    db.$queryRaw`
      SELECT endpoint, count(*) AS requests, count(*) FILTER (WHERE refused) AS refused, avg("durationMs")::float8 AS "avgMs",
             count(*) FILTER (WHERE status BETWEEN 200 AND 299) AS ok
        FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid
         AND "createdAt" >= ${monthStart.toISOString()}::timestamptz AND "createdAt" < ${tomorrow.toISOString()}::timestamptz
       GROUP BY endpoint`,
    db.$queryRaw`
      SELECT count(*) AS n FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid AND NOT refused
         AND "createdAt" >= ${today.toISOString()}::timestamptz AND "createdAt" < ${tomorrow.toISOString()}::timestamptz`,
  ]);
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(RUNS / 2)]! * 10) / 10;
}

const testDb = await createTestDatabase();
const db = createDb(testDb.url, { max: 4 });
try {
  const account = await createAccount(db, { name: "Bench d.o.o.", plan: "BUSINESS" });
  const now = new Date();
  const seedStart = performance.now();
  // Inserted directly, not through the meter: the days' partitions of the request log first.
  const firstDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (DAYS - 1) * 86_400_000);
  await db.$queryRaw`SELECT "usage_event_partition"((${firstDay.toISOString()}::timestamptz AT TIME ZONE 'UTC')::date + i) FROM generate_series(0, ${DAYS - 1}) AS i`;
  // One statement per day, spread evenly over
  // the day up to now, four endpoints, every 50th refused, every 97th a 500.
  for (let d = DAYS - 1; d >= 0; d--) {
    const dayEnd = d === 0 ? now.getTime() : Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (d - 1) * 86_400_000;
    const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - d * 86_400_000;
    const n = d === 0 ? Math.max(1, Math.round((PER_DAY * (dayEnd - dayStart)) / 86_400_000)) : PER_DAY;
    await db.$executeRawUnsafe(
      `INSERT INTO "UsageEvent" ("accountId", "requestId", method, endpoint, status, "durationMs", refused, "createdAt")
       SELECT $1::uuid, 'r' || g, 'POST', (ARRAY['POST /v1/validate/oib','GET /v1/kpd/{code}','POST /v1/fiscalize','POST /v1/einvoices'])[1 + g % 4],
              CASE WHEN g % 50 = 0 THEN 429 WHEN g % 97 = 0 THEN 500 ELSE 200 END, (g % 40) / 4.0, g % 50 = 0,
              to_timestamp(($2::float8 + ($3::float8 - $2::float8) * g / $4) / 1000)
         FROM generate_series(0, $4 - 1) g`,
      account.id,
      dayStart,
      dayEnd - 1,
      n,
    );
  }
  // the hourly counts the meter keeps beside the log (seeded rows bypass it)
  await db.$executeRawUnsafe(
    `INSERT INTO "UsageHour" ("accountId", "hour", "endpoint", "requests", "refused", "ok", "errors", "totalMs")
     SELECT "accountId", date_trunc('hour', "createdAt", 'UTC'), "endpoint", count(*),
            count(*) FILTER (WHERE "refused"), count(*) FILTER (WHERE "status" BETWEEN 200 AND 299),
            count(*) FILTER (WHERE "status" >= 400 AND "status" <> 429), coalesce(sum("durationMs"), 0)
       FROM "UsageEvent" WHERE "accountId" = $1::uuid GROUP BY 1, 2, 3`,
    account.id,
  );
  await db.$executeRawUnsafe(`ANALYZE "UsageEvent"`);
  await db.$executeRawUnsafe(`ANALYZE "UsageHour"`);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const [{ events }] = await db.$queryRaw<[{ events: bigint }]>`SELECT count(*) AS events FROM "UsageEvent"`;
  const [{ rows }] = await db.$queryRaw<[{ rows: bigint }]>`SELECT count(*) AS rows FROM "UsageHour"`;

  // Warm both (plans, buffers) first, so that neither run pays for loading pages the other also reads.
  await Promise.all([usageSummary(db, account.id, now), requestsToday(db, account.id, now)]);
  await scanEvents(db, account.id, now);
  const rollupMs = await timed(() => Promise.all([usageSummary(db, account.id, now), requestsToday(db, account.id, now)]));
  const scanMs = await timed(() => scanEvents(db, account.id, now));
  const ok = rollupMs < BUDGET.p50Ms;
  console.log(
    JSON.stringify({
      bench: "usage.summary",
      events: Number(events),
      usageHourRows: Number(rows),
      seedSeconds: Math.round(seedSeconds * 10) / 10,
      dashboardP50Ms: rollupMs,
      eventScanP50Ms: scanMs,
      speedup: Math.round((scanMs / rollupMs) * 10) / 10,
      budget: { dashboardP50Ms: BUDGET.p50Ms },
      ok,
    }),
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await db.$disconnect();
  await testDb.drop();
}
