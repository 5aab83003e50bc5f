// PostgreSQL's cost per request-log row of the usage meter's flushes: 100 accounts, FLUSHES flushes
// of ROWS rows (a second of the bench's full stack) after a warm-up flush, in a fresh test database;
// the CPU of the meter's backend from /proc (10 ms ticks), of every postgres process of the machine
// (WAL writer, checkpointer; other databases' work included) and the WAL written, per row. Prints
// one JSON line. bench/README.md, "Request log at scale".
//
// The variant changes the table or the load for the measurement, alone or joined with "-" (e.g.
// nopk-noacct):
//   base       as migrated
//   nopk       without the primary key; nopartial, noacct: without that index
//   byaccount  each flush's rows in account order (as if the writer sorted them) instead of interleaved
//   syncoff    synchronous_commit = off for the database
//   noheaders  rows without their rate-limit headers (what any packing of them could save at most)
//
//   node --import tsx bench/request-log-row-cost.ts [variant]
//   PERF=/tmp/row.perf node --import tsx …   also records the backend with `perf record -g` (Linux perf
//     on PATH) over the measured flushes; then `perf report -i /tmp/row.perf --children --sort symbol`
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
import { createMeter, METER_APPLICATION_NAME } from "../packages/usage/src/meter.ts";
const ROWS = Number(process.env.ROWS ?? 4000), FLUSHES = Number(process.env.FLUSHES ?? 15);
const variant = process.argv[2] ?? "base";
const testDb = await createTestDatabase();
const db = createDb(testDb.url);
const accounts: { id: string; key: string }[] = [];
for (let i = 0; i < 100; i++) { const a = await createAccount(db, { name: `b${i}` }); accounts.push({ id: a.id, key: (await createApiKey(db, a.id, "k")).id }); }
if (variant.includes("nopk")) await db.$executeRawUnsafe(`ALTER TABLE "UsageEvent" DROP CONSTRAINT "UsageEvent_pkey"`);
if (variant.includes("nopartial")) await db.$executeRawUnsafe(`DROP INDEX "UsageEvent_accountId_createdAt_unsuccessful_idx"`);
if (variant.includes("noacct")) await db.$executeRawUnsafe(`DROP INDEX "UsageEvent_accountId_createdAt_idx"`);
if (variant.includes("syncoff")) await db.$executeRawUnsafe(`ALTER DATABASE "${new URL(testDb.url).pathname.slice(1)}" SET synchronous_commit = off`);
const meter = createMeter(db, { flushIntervalMs: 3_600_000 });
const byAccount = variant.includes("byaccount");
const noHeaders = variant.includes("noheaders");
// Each flush holds a second of requests, each at its own millisecond as the API records them (rows
// of one account at the same instant would share index entries, which real traffic rarely does).
let second = Date.now();
const ev = (i: number) => { const a = accounts[byAccount ? Math.floor((i * 100) / ROWS) : i % 100]!; return { accountId: a.id, apiKeyId: a.key, requestId: randomUUID(), method: "POST", endpoint: "POST /v1/validate/oib", status: 200, durationMs: 1.2, refused: false, at: new Date(second + Math.floor((i * 1000) / ROWS)),
  rate: { window: "day", limit: 1e9, remaining: 1e9 - i, retryAfter: null, headers: noHeaders ? {} : { "X-RateLimit-Limit": "1000000000", "X-RateLimit-Remaining": String(1e9 - i), "X-RateLimit-Reset": "1785000000",
  "RateLimit-Policy": '"burst";q=100000;w=1, "minute";q=100000;w=60, "endpoint:oib";q=100000;w=60, "day";q=1000000000;w=86400', RateLimit: `"burst";r=99999;t=1, "minute";r=99999;t=60, "endpoint:oib";r=99999;t=60, "day";r=${1e9 - i};t=3600` } } }; };
for (let i = 0; i < ROWS; i++) meter.record(ev(i)); await meter.flush(); second += 1000;
const [{ pid }] = await db.$queryRawUnsafe<{ pid: number }[]>(`SELECT pid FROM pg_stat_activity WHERE application_name = '${METER_APPLICATION_NAME}' AND datname = current_database()`);
const ticks = (p: number | string) => { const f = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" "); return (Number(f[11]) + Number(f[12])) * 10_000; }; // µs (100 Hz)
const allPostgres = () => { let t = 0; for (const e of readdirSync("/proc")) { if (!/^\d+$/.test(e)) continue; try { if (readFileSync(`/proc/${e}/comm`, "utf8").trim() === "postgres") t += ticks(e); } catch { /* ended */ } } return t; };
const [w0] = await db.$queryRawUnsafe<{ x: string }[]>(`SELECT pg_current_wal_lsn()::text AS x`);
const perf = process.env.PERF ? spawn("perf", ["record", "-g", "-F", "2000", "-p", String(pid), "-o", process.env.PERF], { stdio: "ignore" }) : null;
if (perf) await new Promise((resolve) => setTimeout(resolve, 500));
const c0 = ticks(pid); const a0 = allPostgres(); const t0 = performance.now();
for (let f = 0; f < FLUSHES; f++) { for (let i = 0; i < ROWS; i++) meter.record(ev(i)); await meter.flush(); second += 1000; }
const c1 = ticks(pid);
if (perf) { perf.kill("SIGINT"); await new Promise((resolve) => perf.once("exit", resolve)); } const a1 = allPostgres(); const wall = performance.now() - t0;
const [{ b }] = await db.$queryRawUnsafe<{ b: string }[]>(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '${w0!.x}')::text AS b`);
const n = ROWS * FLUSHES;
const [size] = await db.$queryRawUnsafe<{ heap: string; idx: string; rows: string }[]>(`SELECT sum(pg_relation_size(c.oid))::text AS heap, sum(pg_indexes_size(c.oid))::text AS idx, sum(c.reltuples)::text AS rows FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"UsageEvent"'::regclass`);
const stored = Number((await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "UsageEvent"`))[0]!.n);
console.log(JSON.stringify({ variant, rows: ROWS, backendCpuUsPerRow: +((c1 - c0) / n).toFixed(2), allPostgresCpuUsPerRow: +((a1 - a0) / n).toFixed(2), walBytesPerRow: Math.round(Number(b) / n), wallUsPerRow: +((wall * 1000) / n).toFixed(2), heapBytesPerRow: Math.round(Number(size!.heap) / stored), indexBytesPerRow: Math.round(Number(size!.idx) / stored) }));
await meter.close(); await db.$disconnect(); await testDb.drop(); process.exit(0);
