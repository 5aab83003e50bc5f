import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount, createApiKey } from "@fiskal/accounts";
import type { Db } from "@fiskal/db";
import { createMeter, METER_APPLICATION_NAME, MeterError, replaySpools, type UsageRecord } from "./meter.ts";
import { openTestDatabase, recordUsage, type TestDatabase } from "./testing.ts";
import { readSegment } from "./spool.ts";

let testDb: TestDatabase;
let db: Db;

beforeAll(async () => {
  testDb = await openTestDatabase();
  db = testDb.db;
});

afterAll(async () => {
  await testDb?.close();
});

function event(accountId: string, over: Partial<UsageRecord> = {}): UsageRecord {
  return {
    accountId,
    apiKeyId: null,
    requestId: randomUUID(),
    method: "POST",
    endpoint: "POST /v1/validate/oib",
    status: 200,
    durationMs: 3.5,
    refused: false,
    at: new Date(),
    ...over,
  };
}

async function newAccount(): Promise<string> {
  return (await createAccount(db, { name: `acct-${randomUUID()}` })).id;
}

const outage = () => testDb.outage();
const recover = () => testDb.recover();

interface HourRow {
  hour: string;
  endpoint: string;
  requests: number;
  refused: number;
  ok: number;
  errors: number;
  totalMs: number;
}

/** The account's "UsageHour" rows, as the meter wrote them. */
function rollup(accountId: string): Promise<HourRow[]> {
  return db.$queryRaw<HourRow[]>`
    SELECT to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24') AS hour, endpoint, requests::int AS requests,
           refused::int AS refused, ok::int AS ok, errors::int AS errors, "totalMs"
      FROM "UsageHour" WHERE "accountId" = ${accountId}::uuid ORDER BY 1, 2`;
}

/** The same rows computed from the account's request log. */
function rollupOfLog(accountId: string): Promise<HourRow[]> {
  return db.$queryRaw<HourRow[]>`
    SELECT to_char(date_trunc('hour', "createdAt", 'UTC') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24') AS hour, endpoint,
           count(*)::int AS requests, (count(*) FILTER (WHERE refused))::int AS refused,
           (count(*) FILTER (WHERE status BETWEEN 200 AND 299))::int AS ok,
           (count(*) FILTER (WHERE status >= 400 AND status <> 429))::int AS errors, sum("durationMs") AS "totalMs"
      FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid GROUP BY 1, 2 ORDER BY 1, 2`;
}

/** Counts equal, milliseconds equal up to floating-point summation order. */
function expectSameRollup(actual: HourRow[], expected: HourRow[]): void {
  expect(actual.map((r) => ({ ...r, totalMs: 0 }))).toEqual(expected.map((r) => ({ ...r, totalMs: 0 })));
  actual.forEach((r, i) => expect(r.totalMs).toBeCloseTo(expected[i]!.totalMs, 6));
}

async function totalRequests(accountId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number | null }[]>`
    SELECT sum(requests)::int AS n FROM "UsageHour" WHERE "accountId" = ${accountId}::uuid`;
  return row?.n ?? 0;
}

describe("createMeter", () => {
  it("writes 10,000 events: every request-log row, and hourly counts that match them", async () => {
    const accountId = await newAccount();
    const apiKey = await createApiKey(db, accountId, "main");
    const meter = createMeter(db, { flushIntervalMs: 60_000, maxBatch: 50_000 });
    const endpoints = ["POST /v1/validate/oib", "GET /v1/kpd/{code}", "POST /v1/fiscalize"];
    for (let i = 0; i < 10_000; i++) {
      meter.record(
        event(accountId, {
          apiKeyId: i % 2 === 0 ? apiKey.id : null,
          requestId: `req-${i}`,
          endpoint: endpoints[i % 3]!,
          status: i % 10 === 0 ? 429 : i % 33 === 0 ? 500 : 200,
          refused: i % 10 === 0,
          durationMs: i % 7,
        }),
      );
    }
    expect(meter.buffered).toBe(10_000);
    await meter.flush();
    expect({ buffered: meter.buffered, written: meter.written, dropped: meter.dropped }).toEqual({
      buffered: 0,
      written: 10_000,
      dropped: 0,
    });

    const [agg] = await db.$queryRaw<{ n: bigint; refused: bigint; keyed: bigint; distinct: bigint; ms: number }[]>`
      SELECT count(*) AS n, count(*) FILTER (WHERE refused) AS refused,
             count(*) FILTER (WHERE "apiKeyId" IS NOT NULL) AS keyed,
             count(DISTINCT "requestId") AS distinct, sum("durationMs")::float8 AS ms
        FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid`;
    let ms = 0;
    for (let i = 0; i < 10_000; i++) ms += i % 7;
    expect(agg).toEqual({ n: 10_000n, refused: 1_000n, keyed: 5_000n, distinct: 10_000n, ms });
    const one = await db.usageEvent.findFirst({ where: { accountId, requestId: "req-7" } });
    expect(one).toMatchObject({ method: "POST", endpoint: "GET /v1/kpd/{code}", status: 200, durationMs: 0, apiKeyId: null });

    const rows = await rollup(accountId);
    expectSameRollup(rows, await rollupOfLog(accountId));
    expect(rows.reduce((s, r) => s + r.requests, 0)).toBe(10_000);
    expect(rows.reduce((s, r) => s + r.refused, 0)).toBe(1_000);
    await meter.close();
  });

  it("counts status classes: 2xx ok, 429 refused, other 4xx and 5xx errors", async () => {
    const accountId = await newAccount();
    const meter = createMeter(db, { flushIntervalMs: 60_000 });
    const at = new Date("2026-04-02T08:15:00.000Z");
    const statuses = [200, 201, 204, 299, 301, 304, 400, 401, 404, 429, 429, 499, 500, 503];
    statuses.forEach((status, i) => meter.record(event(accountId, { status, refused: status === 429, durationMs: i + 0.5, at })));
    await meter.close();
    expect(await rollup(accountId)).toEqual([
      { hour: "2026-04-02T08", endpoint: "POST /v1/validate/oib", requests: 14, refused: 2, ok: 4, errors: 6, totalMs: 98 },
    ]);
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(14);
  });

  it("buckets by UTC hour whatever the process's time zone", async () => {
    const accountId = await newAccount();
    const savedTz = process.env.TZ;
    // A half-hour zone: local hours would split every bucket below differently.
    process.env.TZ = "Asia/Kolkata";
    try {
      const meter = createMeter(db, { flushIntervalMs: 60_000 });
      const instants = [
        "2026-03-01T09:59:59.999Z",
        "2026-03-01T10:00:00.000Z",
        "2026-03-01T10:30:00.000Z",
        "2026-03-01T10:59:59.999Z",
        "2026-03-01T23:59:59.999Z",
        "2026-03-02T00:00:00.000Z",
      ];
      for (const at of instants) meter.record(event(accountId, { at: new Date(at), durationMs: 1 }));
      await meter.close();
    } finally {
      if (savedTz === undefined) delete process.env.TZ;
      else process.env.TZ = savedTz;
    }
    const rows = await rollup(accountId);
    expect(rows.map((r) => [r.hour, r.requests])).toEqual([
      ["2026-03-01T09", 1],
      ["2026-03-01T10", 3],
      ["2026-03-01T23", 1],
      ["2026-03-02T00", 1],
    ]);
    expectSameRollup(rows, await rollupOfLog(accountId));
  });

  it("adds to the hourly rows earlier flushes wrote", async () => {
    const accountId = await newAccount();
    const meter = createMeter(db, { flushIntervalMs: 60_000 });
    const at = new Date("2026-05-05T05:05:05.000Z");
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 10; i++) meter.record(event(accountId, { at, status: i === 0 ? 500 : 200, durationMs: 2 }));
      await meter.flush();
    }
    await meter.close();
    expect(await rollup(accountId)).toEqual([
      { hour: "2026-05-05T05", endpoint: "POST /v1/validate/oib", requests: 30, refused: 0, ok: 27, errors: 3, totalMs: 60 },
    ]);
  });

  it("record() is synchronous and never touches the database", async () => {
    const accountId = await newAccount();
    const connect = vi.spyOn(pg.Pool.prototype, "connect");
    try {
      const meter = createMeter(db, { flushIntervalMs: 60_000, maxBatch: 100 });
      const results: unknown[] = [];
      // Well past maxBatch: the early flush it triggers must be deferred, not run inside record().
      for (let i = 0; i < 1_000; i++) results.push(meter.record(event(accountId)));
      expect(results.every((r) => r === undefined)).toBe(true);
      expect(connect).not.toHaveBeenCalled();
      expect(meter.buffered).toBe(1_000);

      await vi.waitFor(() => expect(meter.written).toBe(1_000));
      expect(connect).toHaveBeenCalled();
      expect(await db.usageEvent.count({ where: { accountId } })).toBe(1_000);
      expect(await totalRequests(accountId)).toBe(1_000);
      await meter.close();
    } finally {
      connect.mockRestore();
    }
  });

  it("flushes on its own every flushIntervalMs", async () => {
    const accountId = await newAccount();
    const meter = createMeter(db, { flushIntervalMs: 50 });
    for (let i = 0; i < 20; i++) meter.record(event(accountId));
    await vi.waitFor(() => expect(meter.written).toBe(20), { timeout: 2_000 });
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(20);
    expect(await totalRequests(accountId)).toBe(20);
    await meter.close();
  });

  it("keeps log rows and counts through a database outage and writes them once it is back", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, onError: (e) => errors.push(e) });
    let seq = 0;
    const recordMany = (n: number) => {
      for (let i = 0; i < n; i++) meter.record(event(accountId, { requestId: `o-${seq++}`, status: seq % 4 === 0 ? 404 : 200 }));
    };

    recordMany(100);
    await meter.flush();
    expect(meter.written).toBe(100);

    await outage();
    try {
      recordMany(50);
      await meter.flush();
      expect(meter.buffered).toBe(50);
      recordMany(25);
      await meter.flush();
      expect({ buffered: meter.buffered, written: meter.written, dropped: meter.dropped }).toEqual({
        buffered: 75,
        written: 100,
        dropped: 0,
      });
      expect(errors).toHaveLength(2);
      expect(errors[1]).toBeInstanceOf(MeterError);
      expect((errors[1] as MeterError).events).toBe(75);
      expect(String((errors[1] as MeterError).cause)).toMatch(/not currently accepting connections|terminat/);
    } finally {
      await recover();
    }

    await meter.flush();
    expect({ buffered: meter.buffered, written: meter.written, dropped: meter.dropped }).toEqual({
      buffered: 0,
      written: 175,
      dropped: 0,
    });
    const ids = await db.usageEvent.findMany({ where: { accountId }, select: { requestId: true } });
    expect(ids.map((r) => r.requestId).sort()).toEqual(Array.from({ length: 175 }, (_, i) => `o-${i}`).sort());
    expect(await totalRequests(accountId)).toBe(175);
    expectSameRollup(await rollup(accountId), await rollupOfLog(accountId));
    await meter.close();
  });

  it("retries on its timer after an outage without an explicit flush", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 40, onError: (e) => errors.push(e) });
    await outage();
    try {
      for (let i = 0; i < 30; i++) meter.record(event(accountId));
      await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(2), { timeout: 3_000 });
      expect(meter.buffered).toBe(30);
    } finally {
      await recover();
    }
    await vi.waitFor(() => expect(meter.written).toBe(30), { timeout: 3_000 });
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(30);
    expect(await totalRequests(accountId)).toBe(30);
    await meter.close();
  });

  it("a flush whose connection is killed mid-transaction leaves nothing behind; its retry counts everything once", async () => {
    const accountId = await newAccount();
    const key = await createApiKey(db, accountId, "k");
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, onError: (e) => errors.push(e) });
    for (let i = 0; i < 500; i++) meter.record(event(accountId, { apiKeyId: key.id, status: i % 5 === 0 ? 429 : 200, refused: i % 5 === 0 }));

    // Another session holds the key's row: the flush has copied its log rows and upserted its counts
    // when it waits for that lock, the last step before COMMIT.
    const holder = new pg.Client({ connectionString: testDb.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM "ApiKey" WHERE id = $1 FOR UPDATE`, [key.id]);
      const flushing = meter.flush();
      // Watched from another session: the holder's transaction would see one snapshot of pg_stat_activity.
      await vi.waitFor(
        async () => {
          const [row] = await db.$queryRaw<{ n: number }[]>`
            SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE application_name = ${METER_APPLICATION_NAME} AND datname = current_database() AND wait_event_type = 'Lock'`;
          expect(row!.n).toBe(1);
        },
        { timeout: 5_000 },
      );
      // Nothing of it is visible before it commits.
      expect(await db.usageEvent.count({ where: { accountId } })).toBe(0);
      expect(await testDb.killMeterConnections()).toBe(1);
      await flushing;
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      await holder.end();
    }
    expect(errors).toHaveLength(1);
    expect({ buffered: meter.buffered, written: meter.written }).toEqual({ buffered: 500, written: 0 });
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(0);
    expect(await totalRequests(accountId)).toBe(0);

    await meter.flush();
    expect({ buffered: meter.buffered, written: meter.written, dropped: meter.dropped }).toEqual({ buffered: 0, written: 500, dropped: 0 });
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(500);
    const rows = await rollup(accountId);
    expect(rows.map((r) => [r.requests, r.refused, r.ok])).toEqual([[500, 100, 400]]);
    expectSameRollup(rows, await rollupOfLog(accountId));
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).not.toBeNull();
    await meter.close();
  });

  it("a flush stuck longer than flushTimeoutMs is abandoned and rolled back, then retried", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, flushTimeoutMs: 300, onError: (e) => errors.push(e) });
    const at = new Date("2026-08-08T08:08:08.000Z");
    for (let i = 0; i < 50; i++) meter.record(event(accountId, { at }));
    // Another session holds the hourly row the flush must update.
    await recordUsage(db, [event(accountId, { at })]);
    const holder = new pg.Client({ connectionString: testDb.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM "UsageHour" WHERE "accountId" = $1 FOR UPDATE`, [accountId]);
      const started = Date.now();
      await meter.flush();
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(errors).toHaveLength(1);
      expect(String((errors[0] as MeterError).cause)).toMatch(/timed out after 300 ms/);
      expect(meter.buffered).toBe(50);
      expect(await db.usageEvent.count({ where: { accountId } })).toBe(1);
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      await holder.end();
    }
    await meter.flush();
    expect({ buffered: meter.buffered, written: meter.written }).toEqual({ buffered: 0, written: 50 });
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(51);
    expect(await totalRequests(accountId)).toBe(51);
    await meter.close();
  });

  it("beyond maxBuffer drops the oldest request-log rows, counted, and still counts their requests", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, maxBuffer: 100, onError: (e) => errors.push(e) });
    await outage();
    try {
      for (let i = 0; i < 80; i++) meter.record(event(accountId, { requestId: `m-${i}` }));
      await meter.flush();
      expect(meter.buffered).toBe(80);
      for (let i = 80; i < 150; i++) meter.record(event(accountId, { requestId: `m-${i}`, status: i % 2 ? 200 : 503 }));
      expect({ buffered: meter.buffered, dropped: meter.dropped, uncounted: meter.uncounted }).toEqual({
        buffered: 150,
        dropped: 50,
        uncounted: 0,
      });
      await meter.flush();
      expect({ buffered: meter.buffered, dropped: meter.dropped }).toEqual({ buffered: 150, dropped: 50 });
    } finally {
      await recover();
    }
    await meter.close();
    expect({ buffered: meter.buffered, written: meter.written, dropped: meter.dropped, uncounted: meter.uncounted }).toEqual({
      buffered: 0,
      written: 150,
      dropped: 50,
      uncounted: 0,
    });
    const rows = await db.usageEvent.findMany({ where: { accountId }, select: { requestId: true } });
    const kept = rows.map((r) => Number(r.requestId.slice(2))).sort((a, b) => a - b);
    expect(kept).toEqual(Array.from({ length: 100 }, (_, i) => 50 + i));
    const hours = await rollup(accountId);
    expect(hours.map((h) => [h.requests, h.ok, h.errors])).toEqual([[150, 115, 35]]);
    expect(errors.some((e) => e instanceof MeterError && /buffer full/.test(e.message))).toBe(true);
  });

  it("updates ApiKey.lastUsedAt to the latest event per key, never backwards", async () => {
    const accountId = await newAccount();
    const k1 = await createApiKey(db, accountId, "k1");
    const k2 = await createApiKey(db, accountId, "k2");
    await createApiKey(db, accountId, "idle");
    const t = (s: string) => new Date(`2026-05-10T12:00:${s}Z`);
    const meter = createMeter(db, { flushIntervalMs: 60_000 });
    meter.record(event(accountId, { apiKeyId: k1.id, at: t("01.000") }));
    meter.record(event(accountId, { apiKeyId: k1.id, at: t("03.250") }));
    meter.record(event(accountId, { apiKeyId: k1.id, at: t("02.000") }));
    meter.record(event(accountId, { apiKeyId: k2.id, at: t("02.500") }));
    meter.record(event(accountId, { apiKeyId: null, at: t("09.000") }));
    await meter.flush();
    const lastUsed = async () =>
      Object.fromEntries(
        (await db.apiKey.findMany({ where: { accountId }, select: { name: true, lastUsedAt: true } })).map((k) => [
          k.name,
          k.lastUsedAt?.toISOString() ?? null,
        ]),
      );
    expect(await lastUsed()).toEqual({ k1: t("03.250").toISOString(), k2: t("02.500").toISOString(), idle: null });

    // An older event flushed later (another instance, a retried batch) must not move it back; the
    // same key spelled in capitals is the same key.
    meter.record(event(accountId, { apiKeyId: k1.id, at: t("00.000") }));
    meter.record(event(accountId, { apiKeyId: k2.id, at: t("04.000") }));
    meter.record(event(accountId, { apiKeyId: k2.id.toUpperCase(), at: t("05.000") }));
    await meter.flush();
    expect(await lastUsed()).toEqual({ k1: t("03.250").toISOString(), k2: t("05.000").toISOString(), idle: null });
    await meter.close();
  });

  it("an account id spelled in capitals adds to the same hourly row", async () => {
    const accountId = await newAccount();
    const meter = createMeter(db, { flushIntervalMs: 60_000 });
    const at = new Date("2026-06-01T12:00:00.000Z");
    meter.record(event(accountId, { at }));
    meter.record(event(accountId.toUpperCase(), { at }));
    await meter.close();
    expect(meter.written).toBe(2);
    expect((await rollup(accountId)).map((r) => r.requests)).toEqual([2]);
  });

  it("rejects invalid records without throwing, and counts them", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, onError: (e) => errors.push(e) });
    const bad: unknown[] = [
      event("not-a-uuid"),
      event(accountId, { apiKeyId: "nope" }),
      event(accountId, { status: 200.5 }),
      event(accountId, { durationMs: Number.NaN }),
      event(accountId, { at: new Date("invalid") }),
      event(accountId, { at: new Date(-8.64e15) }),
      null,
    ];
    for (const b of bad) expect(() => meter.record(b as UsageRecord)).not.toThrow();
    meter.record(event(accountId));
    expect({ buffered: meter.buffered, dropped: meter.dropped, uncounted: meter.uncounted }).toEqual({ buffered: 1, dropped: 7, uncounted: 7 });
    expect(errors).toHaveLength(7);
    expect(String((errors[0] as Error).message)).toMatch(/accountId is not a UUID/);
    expect(String((errors[5] as Error).message)).toMatch(/at is out of range/);
    await meter.close();
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(1);
    expect(await totalRequests(accountId)).toBe(1);
  });

  it("stores text exactly, whatever characters it holds (NUL, which PostgreSQL text cannot hold, is removed)", async () => {
    const accountId = await newAccount();
    const meter = createMeter(db, { flushIntervalMs: 60_000 });
    const nasty = ['a"b,{c}\\ NULL', "NULL", "\\N", "", "čćžšđ ' \t x", "line\nbreak\r\n", "\\.", "tab\tend\\"];
    for (const s of nasty) meter.record(event(accountId, { requestId: s, method: s, endpoint: s }));
    meter.record(event(accountId, { requestId: "nul\0here", method: "GET", endpoint: "GET /x\0" }));
    await meter.close();
    const rows = await db.usageEvent.findMany({ where: { accountId }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.requestId, r.method, r.endpoint])).toEqual([...nasty.map((s) => [s, s, s]), ["nulhere", "GET", "GET /x"]]);
    expect((await rollup(accountId)).map((r) => r.endpoint).sort()).toEqual([...new Set([...nasty, "GET /x"])].sort());
  });

  it("a caller mutating its record afterwards does not change the buffered event", async () => {
    const accountId = await newAccount();
    const meter = createMeter(db, { flushIntervalMs: 60_000 });
    const e = event(accountId, { requestId: "original", status: 201 });
    meter.record(e);
    e.requestId = "changed";
    e.status = 500;
    e.at.setUTCFullYear(2000);
    await meter.close();
    const row = await db.usageEvent.findFirstOrThrow({ where: { accountId } });
    expect(row.requestId).toBe("original");
    expect(row.status).toBe(201);
    expect(row.createdAt.getUTCFullYear()).not.toBe(2000);
    expect((await rollup(accountId)).map((r) => [r.ok, r.errors])).toEqual([[1, 0]]);
  });

  it("drops the events of an account deleted before the flush and writes the rest", async () => {
    const keep = await newAccount();
    const gone = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, onError: (e) => errors.push(e) });
    for (let i = 0; i < 10; i++) meter.record(event(i % 2 === 0 ? keep : gone));
    await db.account.delete({ where: { id: gone } });
    await meter.flush();
    expect({ buffered: meter.buffered, written: meter.written, dropped: meter.dropped, uncounted: meter.uncounted }).toEqual({
      buffered: 0,
      written: 5,
      dropped: 5,
      uncounted: 5,
    });
    expect(await db.usageEvent.count({ where: { accountId: keep } })).toBe(5);
    expect(await totalRequests(keep)).toBe(5);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toMatch(/account no longer exists/);
    await meter.close();
  });

  it("close() writes everything recorded; later records are dropped and counted", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, onError: (e) => errors.push(e) });
    for (let i = 0; i < 7; i++) meter.record(event(accountId));
    await meter.close();
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(7);
    expect(await totalRequests(accountId)).toBe(7);
    meter.record(event(accountId));
    expect({ buffered: meter.buffered, written: meter.written, dropped: meter.dropped }).toEqual({
      buffered: 0,
      written: 7,
      dropped: 1,
    });
    expect(errors).toHaveLength(1);
    await meter.close();
  });

  it("close() loses nothing when the database fails its first attempt: it tries again", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, onError: (e) => errors.push(e) });
    for (let i = 0; i < 40; i++) meter.record(event(accountId));
    await meter.flush();
    for (let i = 0; i < 60; i++) meter.record(event(accountId, { status: 500 }));
    await outage();
    let closing: Promise<void>;
    try {
      closing = meter.close();
      await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 5_000 });
      expect(meter.buffered).toBe(60);
    } finally {
      await recover();
    }
    await closing;
    expect({ buffered: meter.buffered, written: meter.written, dropped: meter.dropped }).toEqual({ buffered: 0, written: 100, dropped: 0 });
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(100);
    expect((await rollup(accountId)).map((r) => [r.requests, r.ok, r.errors])).toEqual([[100, 40, 60]]);
  });

  it("refuses nonsensical options and clients it cannot connect like", () => {
    expect(() => createMeter(db, { maxBatch: 0 })).toThrow(RangeError);
    expect(() => createMeter(db, { flushIntervalMs: -5 })).toThrow(/flushIntervalMs/);
    expect(() => createMeter(db, { flushTimeoutMs: 0 })).toThrow(/flushTimeoutMs/);
    expect(() => createMeter({} as Db)).toThrow(/createDb/);
  });
});

describe("values PostgreSQL would refuse", () => {
  it("are rejected by record(), and the flush writes every other record", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 3_600_000, onError: (e) => errors.push(e) });
    const rate = { window: "minute", limit: 2 ** 31, remaining: 0, retryAfter: null, headers: {} };
    meter.record(event(accountId, { requestId: "fits-1" }));
    meter.record(event(accountId, { requestId: "too-large", rate }));
    meter.record(event(accountId, { requestId: "fits-2" }));
    expect(meter.dropped).toBe(1);
    expect(meter.uncounted).toBe(1);
    expect(String(errors[0])).toMatch(/usage event rejected: value out of range for type integer/);
    await meter.close();
    expect(meter.written).toBe(2);
    expect(await logCount(accountId)).toEqual({ rows: 2, distinct: 2 });
    expect(await totalRequests(accountId)).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------
// The spool: a killed process or a stop while the database is unreachable loses no usage.

const MODULE = fileURLToPath(new URL("./meter.ts", import.meta.url));

/**
 * A meter in a process of its own that records `before` events, flushes them, records `after` more
 * and then waits to be killed (it prints "recorded" once its records are appended to the spool).
 */
function meterProcess(opts: { spoolDir: string; database: string; accountId: string; before: number; after: number; prefix: string }): Promise<ChildProcess> {
  const script = `
    import { createDb } from "@fiskal/db";
    const { createMeter } = await import(${JSON.stringify(MODULE)});
    const o = JSON.parse(process.env.METER_OPTS);
    const db = createDb(process.env.DATABASE_URL);
    const meter = createMeter(db, { flushIntervalMs: 3_600_000, spool: { dir: o.spoolDir, database: o.database }, onError: (e) => console.error(String(e)) });
    const ev = (i) => ({ accountId: o.accountId, apiKeyId: null, requestId: o.prefix + i, method: "POST", endpoint: "POST /v1/validate/oib",
      status: i % 5 === 0 ? 429 : 200, durationMs: 1.5, refused: i % 5 === 0, at: new Date() });
    for (let i = 0; i < o.before; i++) meter.record(ev(i));
    await meter.flush();
    if (meter.written !== o.before) throw new Error("flush wrote " + meter.written);
    for (let i = o.before; i < o.before + o.after; i++) meter.record(ev(i));
    setTimeout(() => console.log("recorded " + meter.spoolDir), 100);
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: path.dirname(MODULE),
    env: { ...process.env, DATABASE_URL: testDb.url, METER_OPTS: JSON.stringify(opts) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("recorded ")) resolve(child);
    });
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.once("exit", (code) => reject(new Error(`the meter process exited (${code}) before recording:\n${out}`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

async function logCount(accountId: string): Promise<{ rows: number; distinct: number }> {
  const [r] = await db.$queryRaw<{ rows: number; distinct: number }[]>`
    SELECT count(*)::int AS rows, count(DISTINCT "requestId")::int AS distinct FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid`;
  return r!;
}

describe("spool", () => {
  const database = () => `${testDb.name}#spool-test`;
  let spoolDir: string;
  beforeAll(async () => {
    spoolDir = await mkdtemp(path.join(tmpdir(), "fiskal-spool-"));
  });
  afterAll(async () => {
    await rm(spoolDir, { recursive: true, force: true });
  });

  it("appends every record to the spool within milliseconds, before any flush", async () => {
    const accountId = await newAccount();
    const meter = createMeter(db, { flushIntervalMs: 3_600_000, spool: { dir: spoolDir, database: database() } });
    for (let i = 0; i < 25; i++) meter.record(event(accountId, { requestId: `s-${i}` }));
    await new Promise((r) => setTimeout(r, 50));
    const files = await readdir(meter.spoolDir!);
    const { records, unreadable } = readSegment(path.join(meter.spoolDir!, files[0]!), database(), 0);
    expect(unreadable).toBe(0);
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(records[24]!.row.requestId).toBe("s-24");
    expect(records[24]!.row.accountId).toBe(accountId.toLowerCase());
    await meter.close();
    expect(meter.written).toBe(25);
    // Everything counted: the folder is gone, and nothing is left to replay.
    await expect(readdir(meter.spoolDir!)).rejects.toThrow(/ENOENT/);
    expect(await replaySpools(db, { dir: spoolDir, database: database() })).toEqual({ spools: 0, counted: 0, skipped: 0 });
    expect(await logCount(accountId)).toEqual({ rows: 25, distinct: 25 });
  });

  it("kill -9: the next start counts what was not flushed, and not again what was flushed just before", async () => {
    const accountId = await newAccount();
    const child = await meterProcess({ spoolDir, database: database(), accountId, before: 300, after: 120, prefix: "k-" });
    await killed(child);
    // The flushed 300 are counted; the 120 recorded after the flush only in the dead process's spool.
    expect(await totalRequests(accountId)).toBe(300);

    const replayed = await replaySpools(db, { dir: spoolDir, database: database() });
    expect(replayed).toEqual({ spools: 1, counted: 120, skipped: 0 });
    expect(await totalRequests(accountId)).toBe(420);
    expect(await logCount(accountId)).toEqual({ rows: 420, distinct: 420 });
    expectSameRollup(await rollup(accountId), await rollupOfLog(accountId));
    // Replayed once: a second start finds nothing.
    expect(await replaySpools(db, { dir: spoolDir, database: database() })).toEqual({ spools: 0, counted: 0, skipped: 0 });
    expect(await db.$queryRaw<unknown[]>`SELECT 1 FROM "UsageSpool"`).toEqual([]);
  });

  it("kill -9 right after a flush that wrote everything: the replay counts nothing twice", async () => {
    const accountId = await newAccount();
    const child = await meterProcess({ spoolDir, database: database(), accountId, before: 200, after: 0, prefix: "f-" });
    await killed(child);
    expect(await replaySpools(db, { dir: spoolDir, database: database() })).toEqual({ spools: 1, counted: 0, skipped: 0 });
    expect(await totalRequests(accountId)).toBe(200);
    expect(await logCount(accountId)).toEqual({ rows: 200, distinct: 200 });
  });

  it("a replay interrupted after part of a spool, run again, counts each record once", async () => {
    const accountId = await newAccount();
    const child = await meterProcess({ spoolDir, database: database(), accountId, before: 10, after: 95, prefix: "p-" });
    await killed(child);
    // The first replay fails after its first transaction of 40: the database refuses the second.
    await db.$executeRawUnsafe(`CREATE FUNCTION refuse_spool_mark() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.seq > 50 THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
    await db.$executeRawUnsafe(`CREATE TRIGGER refuse_spool_mark BEFORE INSERT OR UPDATE ON "UsageSpool" FOR EACH ROW EXECUTE FUNCTION refuse_spool_mark()`);
    try {
      await expect(replaySpools(db, { dir: spoolDir, database: database(), maxBatch: 40 })).rejects.toThrow(/refused for the test/);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER refuse_spool_mark ON "UsageSpool"`);
      await db.$executeRawUnsafe(`DROP FUNCTION refuse_spool_mark()`);
    }
    expect(await totalRequests(accountId)).toBe(50);
    // Run again (the next start): the first 40 are not counted again.
    expect(await replaySpools(db, { dir: spoolDir, database: database(), maxBatch: 40 })).toEqual({ spools: 1, counted: 55, skipped: 0 });
    expect(await logCount(accountId)).toEqual({ rows: 105, distinct: 105 });
    expect(await totalRequests(accountId)).toBe(105);
  });

  it("SIGTERM while the database is unreachable: close() keeps the records in the spool, the next start counts them", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 3_600_000, spool: { dir: spoolDir, database: database() }, onError: (e) => errors.push(e) });
    for (let i = 0; i < 40; i++) meter.record(event(accountId, { requestId: `o-${i}` }));
    await meter.flush();
    for (let i = 40; i < 99; i++) meter.record(event(accountId, { requestId: `o-${i}` }));
    await outage();
    try {
      await meter.close();
    } finally {
      await recover();
    }
    expect(meter.written).toBe(40);
    expect(String(errors.at(-1))).toMatch(/59 usage events not written; kept in .*counted at the next start/);
    expect(await totalRequests(accountId)).toBe(40);
    expect(await replaySpools(db, { dir: spoolDir, database: database() })).toEqual({ spools: 1, counted: 59, skipped: 0 });
    expect(await totalRequests(accountId)).toBe(99);
    expect(await logCount(accountId)).toEqual({ rows: 99, distinct: 99 });
  });

  it("a record written twice (a stop during a write) is counted once; a damaged one is skipped and the next read", async () => {
    const accountId = await newAccount();
    const child = await meterProcess({ spoolDir, database: database(), accountId, before: 10, after: 30, prefix: "d-" });
    await killed(child);
    const base = path.join(spoolDir, createHash("sha256").update(database()).digest("hex").slice(0, 16));
    const folder = (await readdir(base)).find((d) => d.split(".").at(-2) === String(child.pid));
    const dir = path.join(base, folder!);
    const [file] = (await readdir(dir)).filter((f) => f.endsWith(".rows"));
    const data = await readFile(path.join(dir, file!));
    const body = data.subarray(data.indexOf(10) + 1);
    // The records again, after a cut record: what a stop during a write may leave.
    await writeFile(path.join(dir, file!), Buffer.concat([data, body.subarray(0, 25), body]));
    expect(await replaySpools(db, { dir: spoolDir, database: database() })).toEqual({ spools: 1, counted: 30, skipped: 1 });
    expect(await totalRequests(accountId)).toBe(40);
    expect(await logCount(accountId)).toEqual({ rows: 40, distinct: 40 });
  });

  it("segments of the earlier JSON-lines format are still counted", async () => {
    const accountId = await newAccount();
    // A spool folder as the earlier version left it, of a process that is gone.
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => gone.once("exit", r));
    const base = path.join(spoolDir, createHash("sha256").update(database()).digest("hex").slice(0, 16));
    const id = randomUUID();
    const dir = path.join(base, `${hostname().replace(/[^A-Za-z0-9-]/g, "_") || "host"}.${gone.pid}.${id}`);
    await mkdir(dir, { recursive: true });
    const at = Date.now();
    const rate = { window: "minute", limit: 300, remaining: 299, retryAfter: null, headers: { "X-RateLimit-Limit": "300" } };
    const lines = [JSON.stringify({ spool: id, database: database(), segment: 1 })];
    for (let i = 1; i <= 12; i++) lines.push(JSON.stringify([i, accountId, null, `j-${i}`, "POST", "POST /v1/validate/oib", 200, 1.5, false, at, rate]));
    await writeFile(path.join(dir, "000001.jsonl"), lines.join("\n") + "\n");
    expect(await replaySpools(db, { dir: spoolDir, database: database() })).toEqual({ spools: 1, counted: 12, skipped: 0 });
    expect(await logCount(accountId)).toEqual({ rows: 12, distinct: 12 });
    const [row] = await db.$queryRaw<{ rateLimit: number }[]>`SELECT "rateLimit" FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid LIMIT 1`;
    expect(row!.rateLimit).toBe(300);
  });

  it("leaves alone the spools of live processes and of other databases", async () => {
    const accountId = await newAccount();
    const live = createMeter(db, { flushIntervalMs: 3_600_000, spool: { dir: spoolDir, database: database() } });
    const other = createMeter(db, { flushIntervalMs: 3_600_000, spool: { dir: spoolDir, database: "another#1" } });
    live.record(event(accountId));
    other.record(event(accountId));
    await new Promise((r) => setTimeout(r, 30));
    expect(await replaySpools(db, { dir: spoolDir, database: database() })).toEqual({ spools: 0, counted: 0, skipped: 0 });
    await live.close();
    await other.close();
    expect(await totalRequests(accountId)).toBe(2);
  });
});
