// The meter on the embedded database (PGlite served over the wire protocol, what `pnpm start` uses
// without DATABASE_URL), where COPY FROM STDIN is unavailable: its log rows go in with INSERT, and the
// server keeps serving other connections; the log's daily partitions work there as well.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAccount, createApiKey } from "@fiskal/accounts";
import { createDb, migrate, startEmbeddedPostgres, type Db, type EmbeddedPostgres } from "@fiskal/db";
import { createMeter, type UsageRecord } from "./meter.ts";
import { recentRequests } from "./recent.ts";
import { maintainRequestLog, requestLogDays } from "./retention.ts";
import { parseHeaderLines } from "./writer.ts";

let dir: string;
let embedded: EmbeddedPostgres;
let db: Db;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "fiskal-usage-pglite-"));
  embedded = await startEmbeddedPostgres({ dataDir: path.join(dir, "data") });
  await migrate(embedded.url);
  db = createDb(embedded.url, { max: 2 });
});

afterAll(async () => {
  await db?.$disconnect();
  await embedded?.close();
  await rm(dir, { recursive: true, force: true });
});

it("writes the request log and the hourly counts, and the server keeps accepting connections", async () => {
  const account = await createAccount(db, { name: "Embedded d.o.o." });
  const key = await createApiKey(db, account.id, "k");
  const errors: unknown[] = [];
  const meter = createMeter(db, { flushIntervalMs: 60_000, maxBatch: 120, onError: (e) => errors.push(e) });
  const texts = ["plain", 'a"b,{c}\\ NULL', "tab\there", "line\nbreak", "\\N"];
  const record = (i: number, at: string): UsageRecord => ({
    accountId: account.id,
    apiKeyId: key.id,
    requestId: texts[i % texts.length]!,
    method: "POST",
    endpoint: "POST /v1/validate/oib",
    status: i % 10 === 0 ? 429 : i % 7 === 0 ? 500 : 200,
    durationMs: 1.5,
    refused: i % 10 === 0,
    at: new Date(at),
    rate: i % 10 === 0 ? { window: "minute", limit: 60, remaining: 0, retryAfter: 7, headers: { "Retry-After": "7", RateLimit: '"minute";r=0;t=7' } } : null,
  });
  // 300 rows: three INSERT statements of at most maxBatch rows, in one transaction.
  for (let i = 0; i < 200; i++) meter.record(record(i, "2026-07-01T09:59:59.999Z"));
  for (let i = 200; i < 300; i++) meter.record(record(i, "2026-07-01T10:00:00.000Z"));
  await meter.flush();
  for (let i = 300; i < 310; i++) meter.record(record(i, "2026-07-01T10:30:00.000Z"));
  await meter.close();
  expect(errors).toEqual([]);
  expect(meter.written).toBe(310);

  expect(await db.usageEvent.count({ where: { accountId: account.id } })).toBe(310);
  const stored = await db.usageEvent.groupBy({ by: ["requestId"], where: { accountId: account.id }, _count: true });
  expect(stored.map((s) => s.requestId).sort()).toEqual([...texts].sort());
  const hours = await db.usageHour.findMany({ where: { accountId: account.id }, orderBy: { hour: "asc" } });
  const expectedFor = (from: number, to: number) => {
    let refused = 0;
    let ok = 0;
    let errs = 0;
    for (let i = from; i < to; i++) {
      if (i % 10 === 0) refused++;
      else if (i % 7 === 0) errs++;
      else ok++;
    }
    return { requests: BigInt(to - from), refused: BigInt(refused), ok: BigInt(ok), errors: BigInt(errs), totalMs: (to - from) * 1.5 };
  };
  expect(hours.map(({ hour, requests, refused, ok, errors, totalMs }) => ({ hour: hour.toISOString(), requests, refused, ok, errors, totalMs }))).toEqual([
    { hour: "2026-07-01T09:00:00.000Z", ...expectedFor(0, 200) },
    { hour: "2026-07-01T10:00:00.000Z", ...expectedFor(200, 310) },
  ]);
  expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt?.toISOString()).toBe("2026-07-01T10:30:00.000Z");

  // The decision and headers go through INSERT … unnest() (from array literals) intact.
  const refusedRow = await db.usageEvent.findFirstOrThrow({ where: { accountId: account.id, status: 429 } });
  expect(refusedRow).toMatchObject({ rateWindow: "minute", rateLimit: 60, rateRemaining: 0, retryAfter: 7 });
  expect(parseHeaderLines(refusedRow.headers!)).toEqual({ "Retry-After": "7", RateLimit: '"minute";r=0;t=7' });
  const admittedRow = await db.usageEvent.findFirstOrThrow({ where: { accountId: account.id, status: 200 } });
  expect(admittedRow).toMatchObject({ rateWindow: null, headers: null });

  // COPY through this server would have left it refusing new connections.
  const fresh = new pg.Client({ connectionString: embedded.url, connectionTimeoutMillis: 5_000 });
  await fresh.connect();
  try {
    expect((await fresh.query<{ n: number }>(`SELECT count(*)::int AS n FROM "UsageEvent"`)).rows[0]!.n).toBe(310);
  } finally {
    await fresh.end();
  }
});

it("keeps the log in daily partitions there too: made on demand and ahead, expired whole", async () => {
  const account = await createAccount(db, { name: "Partitions d.o.o." });
  const meter = createMeter(db, { flushIntervalMs: 60_000 });
  const at = ["2031-01-09T23:59:59.999Z", "2031-01-10T00:00:00.000Z", "2031-02-20T12:00:00.000Z"];
  at.forEach((t, i) =>
    meter.record({ accountId: account.id, apiKeyId: null, requestId: `p${i}`, method: "GET", endpoint: "GET /v1/limits", status: 200, durationMs: 1, refused: false, at: new Date(t) }),
  );
  await meter.close();
  expect(meter.written).toBe(3);
  const placed = await db.$queryRaw<{ part: string; id: string }[]>`
    SELECT tableoid::regclass::text AS part, "requestId" AS id FROM "UsageEvent" WHERE "accountId" = ${account.id}::uuid ORDER BY 2`;
  expect(placed.map((p) => [p.id, p.part.replace(/"/g, "")])).toEqual([
    ["p0", "UsageEvent_p20310109"],
    ["p1", "UsageEvent_p20310110"],
    ["p2", "UsageEvent_p20310220"],
  ]);
  const result = await maintainRequestLog(db, { retentionDays: 30, now: new Date("2031-02-20T13:00:00.000Z") });
  expect(result.created).toEqual(["2031-02-21", "2031-02-22"]);
  expect(result.dropped).toEqual(expect.arrayContaining(["2031-01-09", "2031-01-10"]));
  expect(await requestLogDays(db)).toEqual(expect.arrayContaining(["2031-02-20", "2031-02-21", "2031-02-22"]));
  expect((await recentRequests(db, account.id)).map((r) => r.requestId)).toEqual(["p2"]);
});
