import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount, createApiKey, type Db } from "@fiskal/db";
import { createMeter, MeterError, type UsageRecord } from "./meter.ts";
import { openTestDatabase, type TestDatabase } from "./testing.ts";

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

describe("createMeter", () => {
  it("writes 10,000 events in batches with the right content", async () => {
    const accountId = await newAccount();
    const apiKey = await createApiKey(db, accountId, "main");
    const meter = createMeter(db, { flushIntervalMs: 60_000 });
    for (let i = 0; i < 10_000; i++) {
      meter.record(
        event(accountId, {
          apiKeyId: i % 2 === 0 ? apiKey.id : null,
          requestId: `req-${i}`,
          status: i % 10 === 0 ? 429 : 200,
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
    expect(one).toMatchObject({ method: "POST", endpoint: "POST /v1/validate/oib", status: 200, durationMs: 0 });
    await meter.close();
  });

  it("record() is synchronous and never touches the database", async () => {
    const accountId = await newAccount();
    let accesses = 0;
    const watched = new Proxy(db, {
      get(target, prop) {
        accesses++;
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const meter = createMeter(watched, { flushIntervalMs: 60_000, maxBatch: 100 });
    const results: unknown[] = [];
    // Well past maxBatch: the early flush it triggers must be deferred, not run inside record().
    for (let i = 0; i < 1_000; i++) results.push(meter.record(event(accountId)));
    expect(results.every((r) => r === undefined)).toBe(true);
    expect(accesses).toBe(0);
    expect(meter.buffered).toBe(1_000);

    await vi.waitFor(() => expect(meter.written).toBe(1_000));
    expect(accesses).toBeGreaterThan(0);
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(1_000);
    await meter.close();
  });

  it("flushes on its own every flushIntervalMs", async () => {
    const accountId = await newAccount();
    const meter = createMeter(db, { flushIntervalMs: 50 });
    for (let i = 0; i < 20; i++) meter.record(event(accountId));
    await vi.waitFor(() => expect(meter.written).toBe(20), { timeout: 2_000 });
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(20);
    await meter.close();
  });

  it("keeps events through a database outage and writes them once it is back", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, onError: (e) => errors.push(e) });
    let seq = 0;
    const recordMany = (n: number) => {
      for (let i = 0; i < n; i++) meter.record(event(accountId, { requestId: `o-${seq++}` }));
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
      expect(String((errors[1] as MeterError).cause)).toMatch(/not currently accepting connections/);
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
    await meter.close();
  });

  it("beyond maxBuffer drops the oldest events and counts them", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, maxBuffer: 100, onError: (e) => errors.push(e) });
    await outage();
    try {
      for (let i = 0; i < 80; i++) meter.record(event(accountId, { requestId: `m-${i}` }));
      await meter.flush();
      expect(meter.buffered).toBe(80);
      for (let i = 80; i < 150; i++) meter.record(event(accountId, { requestId: `m-${i}` }));
      expect({ buffered: meter.buffered, dropped: meter.dropped }).toEqual({ buffered: 100, dropped: 50 });
      await meter.flush();
      expect({ buffered: meter.buffered, dropped: meter.dropped }).toEqual({ buffered: 100, dropped: 50 });
    } finally {
      await recover();
    }
    await meter.close();
    expect({ buffered: meter.buffered, written: meter.written, dropped: meter.dropped }).toEqual({
      buffered: 0,
      written: 100,
      dropped: 50,
    });
    const rows = await db.usageEvent.findMany({ where: { accountId }, select: { requestId: true } });
    const kept = rows.map((r) => Number(r.requestId.slice(2))).sort((a, b) => a - b);
    expect(kept).toEqual(Array.from({ length: 100 }, (_, i) => 50 + i));
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

    // An older event flushed later (another instance, a retried batch) must not move it back.
    meter.record(event(accountId, { apiKeyId: k1.id, at: t("00.000") }));
    meter.record(event(accountId, { apiKeyId: k2.id, at: t("05.000") }));
    await meter.flush();
    expect(await lastUsed()).toEqual({ k1: t("03.250").toISOString(), k2: t("05.000").toISOString(), idle: null });
    await meter.close();
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
      null,
    ];
    for (const b of bad) expect(() => meter.record(b as UsageRecord)).not.toThrow();
    meter.record(event(accountId));
    expect({ buffered: meter.buffered, dropped: meter.dropped }).toEqual({ buffered: 1, dropped: 6 });
    expect(errors).toHaveLength(6);
    expect(String((errors[0] as Error).message)).toMatch(/accountId is not a UUID/);
    await meter.close();
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(1);
  });

  it("stores text exactly, whatever characters it holds", async () => {
    const accountId = await newAccount();
    const meter = createMeter(db, { flushIntervalMs: 60_000 });
    const nasty = ['a"b,{c}\\ NULL', "NULL", "", "čćžšđ ' \t x"];
    for (const s of nasty) meter.record(event(accountId, { requestId: s, method: s, endpoint: s }));
    await meter.close();
    const rows = await db.usageEvent.findMany({ where: { accountId }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.requestId, r.method, r.endpoint])).toEqual(nasty.map((s) => [s, s, s]));
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
  });

  it("drops the events of an account deleted before the flush and writes the rest", async () => {
    const keep = await newAccount();
    const gone = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, onError: (e) => errors.push(e) });
    for (let i = 0; i < 10; i++) meter.record(event(i % 2 === 0 ? keep : gone));
    await db.account.delete({ where: { id: gone } });
    await meter.flush();
    expect({ buffered: meter.buffered, written: meter.written, dropped: meter.dropped }).toEqual({
      buffered: 0,
      written: 5,
      dropped: 5,
    });
    expect(await db.usageEvent.count({ where: { accountId: keep } })).toBe(5);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toMatch(/account no longer exists/);
    await meter.close();
  });

  it("close() flushes what is left; later records are dropped and counted", async () => {
    const accountId = await newAccount();
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 60_000, onError: (e) => errors.push(e) });
    for (let i = 0; i < 7; i++) meter.record(event(accountId));
    await meter.close();
    expect(await db.usageEvent.count({ where: { accountId } })).toBe(7);
    meter.record(event(accountId));
    expect({ buffered: meter.buffered, written: meter.written, dropped: meter.dropped }).toEqual({
      buffered: 0,
      written: 7,
      dropped: 1,
    });
    expect(errors).toHaveLength(1);
    await meter.close();
  });

  it("refuses nonsensical options", () => {
    expect(() => createMeter(db, { maxBatch: 0 })).toThrow(RangeError);
    expect(() => createMeter(db, { flushIntervalMs: -5 })).toThrow(/flushIntervalMs/);
  });
});
