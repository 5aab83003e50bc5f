// The request log at 1 M, 10 M and 50 M rows: does its cost stay flat as it grows? The log is
// filled with generate_series straight into its daily partitions (30 days up to now, 2,000 accounts,
// one of them with a tenth of all requests), then at each size it measures:
//   - the insert cost of a request: the meter's flushes of 10,000 rows (its batch) into today's
//     partition, PostgreSQL CPU of this database's backends per row (from /proc) and wall time;
//   - the portal's request-log page (recentRequests): the heavy account's first page, its next page
//     (cursor), a filtered page (5xx), one filtered by endpoint and the last 24 h, a small account's;
//   - the dashboard's queries (usageRange over 30 days + requestsToday + accountEndpoints, as the
//     portal's overview loads them; usageSummary) and the keys page's per-key counts (usageByKey);
// each query's p50 over RUNS runs. Prints a Markdown table and writes
// bench/results/request-log-scale.json.
//
//   node --import tsx bench/request-log-scale.ts [--sizes 1e6,1e7,5e7] [--keep]
//
// Resumable: the database (fiskal_bench_request_log) keeps how many rows it holds; an interrupted
// fill goes on from there (each chunk is one transaction). Sizes below what it holds are skipped.
// The database is dropped at the end unless --keep is given. Run it under flock: 50 M rows take a
// while on two cores (see bench/README.md).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { createApiKey } from "@fiskal/accounts";
import { createDb, migrate, type Db } from "@fiskal/db";
import { accountEndpoints, createMeter, headerLines, recentRequests, requestsToday, usageByKey, usageRange, usageSummary, type UsageRecord } from "@fiskal/usage";

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = "fiskal_bench_request_log";
const ACCOUNTS = 2_000;
const DAYS = 30;
const DAY_MS = 86_400_000;
const CHUNK = 500_000;
const BATCH = 10_000;
const BATCHES = 12;
const RUNS = 15;
const ENDPOINTS = ["POST /v1/validate/oib", "GET /v1/kpd/{code}", "POST /v1/fiscalize", "POST /v1/einvoices"];

const args = process.argv.slice(2);
const sizesArg = args.includes("--sizes") ? args[args.indexOf("--sizes") + 1] : "1e6,1e7,5e7";
const sizes = (sizesArg ?? "")
  .split(",")
  .map((s) => Number(s))
  .sort((a, b) => a - b);
if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1e5 || n > 1e9)) {
  console.error("usage: request-log-scale.ts [--sizes 1e6,1e7,5e7] [--keep]  (each size an integer from 1e5 to 1e9)");
  process.exit(2);
}
const keep = args.includes("--keep");

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

async function admin(sql: string): Promise<void> {
  const db = createDb(ADMIN_URL, { max: 1 });
  try {
    await db.$executeRawUnsafe(sql);
  } finally {
    await db.$disconnect();
  }
}

/** The same account ids in every run: md5('acct' || k)::uuid, k = 0 the heavy one. */
const accountSql = (k: string) => `md5('acct' || (${k}))::uuid`;

interface State {
  rows: number;
  /** Epoch ms: the fill spreads the rows over [start, end). */
  start: number;
  end: number;
  heavy: string;
  heavyKeys: string[];
  small: string;
}

async function setUp(): Promise<{ db: Db; state: State }> {
  const url = withDatabase(ADMIN_URL, DB_NAME);
  const probe = createDb(ADMIN_URL, { max: 1 });
  const exists = (await probe.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_database WHERE datname = ${DB_NAME}`)[0]!.n > 0;
  await probe.$disconnect();
  if (!exists) await admin(`CREATE DATABASE "${DB_NAME}"`);
  await migrate(url);
  const db = createDb(url, { max: 4 });
  await db.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS bench_state (id int PRIMARY KEY, rows bigint NOT NULL, state jsonb NOT NULL)`);
  const [row] = await db.$queryRaw<{ rows: bigint; state: Omit<State, "rows"> }[]>`SELECT rows, state FROM bench_state WHERE id = 1`;
  if (row) return { db, state: { ...row.state, rows: Number(row.rows) } };

  await db.$executeRawUnsafe(
    `INSERT INTO "Account" (id, name, plan, "updatedAt")
     SELECT ${accountSql("k")}, 'Bench ' || k, CASE WHEN k = 0 THEN 'BUSINESS' ELSE 'STARTER' END::"Plan", now()
       FROM generate_series(0, ${ACCOUNTS - 1}) AS k ON CONFLICT DO NOTHING`,
  );
  const [{ heavy, small }] = await db.$queryRawUnsafe<{ heavy: string; small: string }[]>(`SELECT ${accountSql("0")}::text AS heavy, ${accountSql("1")}::text AS small`);
  const heavyKeys: string[] = [];
  for (const name of ["production", "staging", "batch"]) heavyKeys.push((await createApiKey(db, heavy!, name)).id);
  const end = Date.now();
  const start = Math.floor(end / DAY_MS) * DAY_MS - (DAYS - 1) * DAY_MS;
  const state: State = { rows: 0, start, end, heavy: heavy!, heavyKeys, small: small! };
  const { rows: _rows, ...rest } = state;
  await db.$executeRaw`INSERT INTO bench_state (id, rows, state) VALUES (1, 0, ${JSON.stringify(rest)}::jsonb)`;
  return { db, state };
}

/** What the API records for an admitted request: the decision and the rate-limit headers. */
function sampleHeaders(): string {
  return headerLines({
    "X-RateLimit-Limit": "100000",
    "X-RateLimit-Remaining": "99123",
    "X-RateLimit-Reset": "1795000000",
    "RateLimit-Policy": '"burst";q=100;w=1, "minute";q=5000;w=60, "endpoint:oib";q=3000;w=60, "day";q=100000;w=86400',
    RateLimit: '"burst";r=99;t=1, "minute";r=4987;t=60, "endpoint:oib";r=2990;t=60, "day";r=99123;t=3600',
  });
}

/**
 * Rows [from, to) of the log, one statement (one transaction) with their hourly counts and the new
 * row count. Row g: a tenth go to the heavy account, the rest spread over the others; its time is
 * a hash of g spread over [start, end); its status (96% 2xx, 3% 429, 0.8% 4xx, 0.2% 5xx) and endpoint
 * come from other bits of that hash, so that every account gets each of them.
 */
async function fillChunk(db: Db, state: State, from: number, to: number): Promise<void> {
  const h = `((g * 2654435761::int8) % 4294967296)`;
  await db.$executeRawUnsafe(
    `WITH ins AS (
       INSERT INTO "UsageEvent" ("accountId", "apiKeyId", "requestId", method, endpoint, status, "durationMs", refused, "createdAt",
                                 "rateWindow", "rateLimit", "rateRemaining", "retryAfter", headers)
       SELECT a, CASE WHEN g % 10 = 0 THEN ($1::uuid[])[1 + (g / 10) % 3] ELSE md5('key' || (g % ${ACCOUNTS}))::uuid END,
              md5(g::text), split_part(e, ' ', 1), e, s, (g % 400) / 10.0, s = 429,
              to_timestamp(($2::float8 + ($3::float8 - $2::float8) * (${h}::float8 / 4294967296)) / 1000),
              CASE WHEN s = 429 THEN 'minute' ELSE 'day' END, CASE WHEN s = 429 THEN 5000 ELSE 100000 END,
              CASE WHEN s = 429 THEN 0 ELSE 99123 END, CASE WHEN s = 429 THEN 12 END, $4
         FROM (SELECT g,
                      CASE WHEN g % 10 = 0 THEN ${accountSql("0")} ELSE ${accountSql(`1 + (${h} % ${ACCOUNTS - 1})`)} END AS a,
                      (ARRAY['${ENDPOINTS.join("','")}'])[CASE WHEN (${h} / 7) % 20 < 14 THEN 1 WHEN (${h} / 7) % 20 < 17 THEN 2 WHEN (${h} / 7) % 20 < 19 THEN 3 ELSE 4 END] AS e,
                      CASE WHEN (${h} / 131) % 1000 < 30 THEN 429 WHEN (${h} / 131) % 1000 < 38 THEN 404 WHEN (${h} / 131) % 1000 < 40 THEN 500 ELSE 200 END AS s
                 FROM generate_series($5::int8, $6::int8 - 1) AS g) r
       RETURNING "accountId", "apiKeyId", "createdAt", endpoint, status, "durationMs", refused
     ), keys AS (
       INSERT INTO "UsageKeyHour" ("accountId", hour, "apiKeyId", requests, refused, errors, "lastAt")
       SELECT "accountId", date_trunc('hour', "createdAt", 'UTC'), "apiKeyId", count(*), count(*) FILTER (WHERE status = 429),
              count(*) FILTER (WHERE status >= 400 AND status <> 429), max("createdAt")
         FROM ins WHERE "apiKeyId" IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
       ON CONFLICT ("accountId", hour, "apiKeyId") DO UPDATE
          SET requests = "UsageKeyHour".requests + EXCLUDED.requests, refused = "UsageKeyHour".refused + EXCLUDED.refused,
              errors = "UsageKeyHour".errors + EXCLUDED.errors, "lastAt" = GREATEST("UsageKeyHour"."lastAt", EXCLUDED."lastAt")
     ), hours AS (
       INSERT INTO "UsageHour" ("accountId", hour, endpoint, requests, refused, ok, errors, "totalMs")
       SELECT "accountId", date_trunc('hour', "createdAt", 'UTC'), endpoint, count(*), count(*) FILTER (WHERE refused),
              count(*) FILTER (WHERE status BETWEEN 200 AND 299), count(*) FILTER (WHERE status >= 400 AND status <> 429), sum("durationMs")
         FROM ins GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
       ON CONFLICT ("accountId", hour, endpoint) DO UPDATE
          SET requests = "UsageHour".requests + EXCLUDED.requests, refused = "UsageHour".refused + EXCLUDED.refused,
              ok = "UsageHour".ok + EXCLUDED.ok, errors = "UsageHour".errors + EXCLUDED.errors, "totalMs" = "UsageHour"."totalMs" + EXCLUDED."totalMs"
     )
     UPDATE bench_state SET rows = $6::int8 WHERE id = 1 AND rows = $5::int8`,
    `{${state.heavyKeys.join(",")}}`,
    state.start,
    state.end,
    sampleHeaders(),
    from,
    to,
  );
}

/** The account indexes as the migrations create them (same definitions and order, so the same names). */
async function buildIndexes(db: Db): Promise<void> {
  // Each statement alone (a Prisma transaction would time out after 5 s); the memory setting in the
  // statement's own session, by a DO block.
  await db.$executeRawUnsafe(
    `DO $$ BEGIN
       SET LOCAL maintenance_work_mem = '512MB';
       CREATE INDEX IF NOT EXISTS "UsageEvent_accountId_createdAt_idx" ON "UsageEvent"("accountId", "createdAt");
       CREATE INDEX IF NOT EXISTS "UsageEvent_accountId_createdAt_unsuccessful_idx" ON "UsageEvent"("accountId", "createdAt") WHERE "status" >= 300;
     END $$`,
  );
}

async function fillTo(db: Db, state: State, target: number): Promise<number> {
  if (state.rows >= target) {
    // An earlier run filled it and stopped before the indexes were back.
    await buildIndexes(db);
    await db.$executeRawUnsafe(`ANALYZE "UsageEvent"`);
    return 0;
  }
  // Every day of the spread has its partition before the fill routes rows into it.
  await db.$executeRawUnsafe(
    `SELECT "usage_event_partition"(d::date) FROM generate_series(to_timestamp(${state.start / 1000}) AT TIME ZONE 'UTC', to_timestamp(${state.end / 1000}) AT TIME ZONE 'UTC', interval '1 day') AS d`,
  );
  const t0 = performance.now();
  // The account indexes are built once after the fill (a sort) rather than row by row: the same
  // indexes, in minutes instead of hours at 50 M rows. The primary key stays (ids only grow).
  await db.$executeRawUnsafe(`DROP INDEX IF EXISTS "UsageEvent_accountId_createdAt_idx"`);
  await db.$executeRawUnsafe(`DROP INDEX IF EXISTS "UsageEvent_accountId_createdAt_unsuccessful_idx"`);
  const first = state.rows;
  for (let from = state.rows; from < target; from += CHUNK) {
    const to = Math.min(from + CHUNK, target);
    await fillChunk(db, state, from, to);
    state.rows = to;
    process.stderr.write(`\rfilled ${to.toLocaleString("en")} rows (${Math.round(((to - first) / (performance.now() - t0)) * 1000).toLocaleString("en")}/s)   `);
  }
  process.stderr.write("\n");
  await buildIndexes(db);
  await db.$executeRawUnsafe(`ANALYZE "UsageEvent"`);
  await db.$executeRawUnsafe(`ANALYZE "UsageHour"`);
  await db.$executeRawUnsafe(`ANALYZE "UsageKeyHour"`);
  return (performance.now() - t0) / 1000;
}

/** CPU seconds of the backends connected to this database (from /proc). */
async function backendCpu(db: Db): Promise<number> {
  const pids = await db.$queryRaw<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`;
  let ticks = 0;
  for (const { pid } of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}

/** The meter's flushes of BATCH rows each, into today's partition, as the API writes them. */
async function insertCost(db: Db, state: State): Promise<{ cpuUsPerRow: number; wallUsPerRow: number }> {
  const headers = {
    "X-RateLimit-Limit": "100000",
    "X-RateLimit-Remaining": "99123",
    "X-RateLimit-Reset": "1795000000",
    "RateLimit-Policy": '"burst";q=100;w=1, "minute";q=5000;w=60, "endpoint:oib";q=3000;w=60, "day";q=100000;w=86400',
    RateLimit: '"burst";r=99;t=1, "minute";r=4987;t=60, "endpoint:oib";r=2990;t=60, "day";r=99123;t=3600',
  };
  const [{ ids }] = await db.$queryRawUnsafe<{ ids: string[] }[]>(`SELECT array_agg(${accountSql("k")}::text) AS ids FROM generate_series(0, 199) AS k`);
  const record = (i: number): UsageRecord => ({
    accountId: i % 10 === 0 ? state.heavy : ids![i % 200]!,
    apiKeyId: i % 10 === 0 ? state.heavyKeys[i % 3]! : null,
    requestId: randomUUID(),
    method: "POST",
    endpoint: ENDPOINTS[0]!,
    status: 200,
    durationMs: (i % 97) / 7,
    refused: false,
    at: new Date(),
    rate: { window: "day", limit: 100_000, remaining: 99_000, retryAfter: null, headers },
  });
  const errors: unknown[] = [];
  const meter = createMeter(db, { flushIntervalMs: 3_600_000, maxBatch: BATCH, maxBuffer: BATCH * 2, onError: (e) => errors.push(e) });
  // One warm-up flush (connection, plans, today's partition), then the measured ones.
  for (let i = 0; i < BATCH; i++) meter.record(record(i));
  await meter.flush();
  let cpu = 0;
  let wall = 0;
  for (let b = 0; b < BATCHES; b++) {
    for (let i = 0; i < BATCH; i++) meter.record(record(i));
    const c0 = await backendCpu(db);
    const t0 = performance.now();
    await meter.flush();
    wall += performance.now() - t0;
    cpu += (await backendCpu(db)) - c0;
  }
  await meter.close();
  if (errors.length > 0 || meter.written !== BATCH * (BATCHES + 1)) throw new Error(`meter wrote ${meter.written} rows`, { cause: errors[0] });
  const rows = BATCH * BATCHES;
  return { cpuUsPerRow: Math.round((cpu * 1e6 * 100) / rows) / 100, wallUsPerRow: Math.round((wall * 1e3 * 100) / rows) / 100 };
}

async function p50(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(RUNS / 2)]! * 100) / 100;
}

async function queries(db: Db, state: State) {
  const now = new Date();
  const first = await recentRequests(db, state.heavy, { limit: 50 });
  const cursor = first.at(-1)!.id;
  const from = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (DAYS - 1) * DAY_MS);
  return {
    logFirstPageMs: await p50(() => recentRequests(db, state.heavy, { limit: 50 })),
    logNextPageMs: await p50(() => recentRequests(db, state.heavy, { limit: 50, before: cursor })),
    log5xxPageMs: await p50(() => recentRequests(db, state.heavy, { limit: 50, filter: { status: "5xx" } })),
    logEndpointDayPageMs: await p50(() => recentRequests(db, state.heavy, { limit: 50, filter: { endpoint: "POST /v1/fiscalize", from: new Date(now.getTime() - DAY_MS) } })),
    logSmallAccountMs: await p50(() => recentRequests(db, state.small, { limit: 50 })),
    overviewMs: await p50(() =>
      Promise.all([
        usageRange(db, state.heavy, { from, to: now, bucket: "day", timeZone: "Europe/Zagreb" }),
        requestsToday(db, state.heavy, now),
        accountEndpoints(db, state.heavy),
      ]),
    ),
    summaryMs: await p50(() => usageSummary(db, state.heavy, now)),
    keyUsageMs: await p50(() => usageByKey(db, state.heavy, new Date(now.getTime() - DAYS * DAY_MS))),
  };
}

const { db, state } = await setUp();
const results: Record<string, unknown>[] = [];
try {
  for (const size of sizes) {
    if (state.rows > size) {
      console.error(`skipping ${size.toLocaleString("en")}: the log already holds ${state.rows.toLocaleString("en")} rows`);
      continue;
    }
    const fillSeconds = await fillTo(db, state, size);
    const [stats] = await db.$queryRaw<{ heap: bigint; indexes: bigint; partitions: number; heavy: bigint }[]>`
      SELECT sum(pg_table_size(relid))::int8 AS heap, sum(pg_indexes_size(relid))::int8 AS indexes, count(*)::int AS partitions,
             (SELECT sum(requests)::int8 FROM "UsageHour" WHERE "accountId" = ${state.heavy}::uuid) AS heavy
        FROM pg_partition_tree('"UsageEvent"') WHERE isleaf`;
    const insert = await insertCost(db, state);
    const q = await queries(db, state);
    const result = {
      rows: size,
      partitions: stats!.partitions,
      heavyAccountRows: Number(stats!.heavy),
      heapMB: Math.round(Number(stats!.heap) / 1048576),
      indexMB: Math.round(Number(stats!.indexes) / 1048576),
      fillSeconds: Math.round(fillSeconds),
      insertCpuUsPerRow: insert.cpuUsPerRow,
      insertWallUsPerRow: insert.wallUsPerRow,
      ...q,
    };
    results.push(result);
    console.error(JSON.stringify(result));
  }
} finally {
  await db.$disconnect();
}

if (results.length > 0) {
  const dir = new URL("./results/", import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL("request-log-scale.json", dir);
  let previous: Record<string, unknown>[] = [];
  try {
    if (readdirSync(dir).includes("request-log-scale.json")) previous = (JSON.parse(readFileSync(file, "utf8")) as { results: Record<string, unknown>[] }).results;
  } catch {
    previous = [];
  }
  const merged = new Map<number, Record<string, unknown>>();
  for (const r of [...previous, ...results]) merged.set(r.rows as number, r);
  const all = [...merged.values()].sort((a, b) => (a.rows as number) - (b.rows as number));
  writeFileSync(file, JSON.stringify({ bench: "request-log-scale", measuredAt: new Date().toISOString(), results: all }, null, 2) + "\n");

  const cols: [string, string][] = [
    ["rows", "rows in the log"],
    ["heapMB", "heap MB"],
    ["indexMB", "index MB"],
    ["insertCpuUsPerRow", "insert, PostgreSQL CPU µs/row"],
    ["insertWallUsPerRow", "insert, wall µs/row"],
    ["logFirstPageMs", "log page 1"],
    ["logNextPageMs", "log page 2 (cursor)"],
    ["log5xxPageMs", "log, 5xx filter"],
    ["logEndpointDayPageMs", "log, endpoint + 24 h"],
    ["logSmallAccountMs", "log, small account"],
    ["overviewMs", "dashboard overview"],
    ["summaryMs", "usageSummary"],
    ["keyUsageMs", "per-key counts (30 d)"],
  ];
  console.log(`| ${cols.map((c) => c[1]).join(" | ")} |`);
  console.log(`|${cols.map(() => "---").join("|")}|`);
  for (const r of all) console.log(`| ${cols.map(([k]) => (k === "rows" ? `${(r.rows as number) / 1e6} M` : String(r[k]))).join(" | ")} |`);
}

if (!keep) {
  await admin(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  console.error(`dropped ${DB_NAME}`);
}
