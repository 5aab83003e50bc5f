import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount, createApiKey } from "@fiskal/accounts";
import type { Db } from "@fiskal/db";
import { createMeter, METER_APPLICATION_NAME, MeterError, type UsageRecord } from "./meter.ts";
import { openTestDatabase, recordUsage, type TestDatabase } from "./testing.ts";

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
