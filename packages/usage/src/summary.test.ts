import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { requestsToday, usageSummary } from "./summary.ts";
import { openTestDatabase, recordUsage, type TestDatabase } from "./testing.ts";

// Neither the process's nor the database session's time zone may leak into the UTC buckets.
const savedTz = process.env.TZ;
let testDb: TestDatabase;
let db: Db;
let a: string;
let b: string;

interface Ev {
  at: string;
  endpoint: string;
  status: number;
  ms: number;
  refused?: boolean;
}

async function seed(accountId: string, events: Ev[]): Promise<void> {
  await recordUsage(
    testDb.db,
    events.map((e) => ({
      accountId,
      apiKeyId: null,
      requestId: randomUUID(),
      method: e.endpoint.split(" ")[0]!,
      endpoint: e.endpoint,
      status: e.status,
      durationMs: e.ms,
      refused: e.refused ?? false,
      at: new Date(e.at),
    })),
  );
}

const OIB = "POST /v1/validate/oib";
const KPD = "GET /v1/kpd/{code}";
const FISC = "POST /v1/fiscalize";

beforeAll(async () => {
  process.env.TZ = "America/Los_Angeles";
  testDb = await openTestDatabase();
  const url = new URL(testDb.url);
  url.searchParams.set("options", "-c TimeZone=Pacific/Kiritimati");
  db = createDb(url.toString());
  a = (await createAccount(testDb.db, { name: "A" })).id;
  b = (await createAccount(testDb.db, { name: "B" })).id;
  await seed(a, [
    { at: "2026-01-30T23:59:59.999Z", endpoint: OIB, status: 200, ms: 1 },
    { at: "2026-01-31T00:00:00.000Z", endpoint: OIB, status: 200, ms: 1 },
    { at: "2026-02-01T08:00:00.000Z", endpoint: KPD, status: 429, ms: 1, refused: true },
    { at: "2026-02-01T09:00:00.000Z", endpoint: KPD, status: 503, ms: 1 },
    { at: "2026-02-28T23:59:59.999Z", endpoint: OIB, status: 200, ms: 7 },
    { at: "2026-03-01T00:00:00.000Z", endpoint: OIB, status: 200, ms: 10 },
    { at: "2026-03-01T00:59:59.999Z", endpoint: OIB, status: 201, ms: 20 },
    { at: "2026-03-01T10:29:00.000Z", endpoint: KPD, status: 429, ms: 1, refused: true },
    { at: "2026-03-01T10:29:30.000Z", endpoint: KPD, status: 500, ms: 30 },
    { at: "2026-03-01T23:59:59.999Z", endpoint: FISC, status: 404, ms: 5 },
    { at: "2026-03-02T00:00:00.000Z", endpoint: FISC, status: 200, ms: 100 },
  ]);
  // Another account, busy at the same moments: none of it may show up in A's numbers.
  await seed(
    b,
    ["2026-02-01T08:00:00Z", "2026-03-01T00:00:00Z", "2026-03-01T10:00:00Z", "2026-03-31T11:00:00Z"].flatMap((at) =>
      Array.from({ length: 25 }, () => ({ at, endpoint: "GET /v1/other", status: 200, ms: 999 })),
    ),
  );
});

afterAll(async () => {
  process.env.TZ = savedTz;
  await db?.$disconnect();
  await testDb?.close();
});

describe("usageSummary", () => {
  it("buckets by UTC day, hour and month, zero-filled, scoped to the account", async () => {
    const s = await usageSummary(db, a, new Date("2026-03-01T10:30:00Z"));

    expect(s.today).toEqual({ requests: 5, refused: 1, avgMs: 13.2, successRate: 0.4 });
    expect(s.month).toEqual(s.today);

    expect(s.daily).toHaveLength(30);
    expect(s.daily[0]!.date).toBe("2026-01-31");
    expect(s.daily[29]!.date).toBe("2026-03-01");
    const nonZero = s.daily.filter((d) => d.requests > 0);
    expect(nonZero).toEqual([
      { date: "2026-01-31", requests: 1, refused: 0, errors: 0 },
      { date: "2026-02-01", requests: 2, refused: 1, errors: 1 },
      { date: "2026-02-28", requests: 1, refused: 0, errors: 0 },
      { date: "2026-03-01", requests: 5, refused: 1, errors: 2 },
    ]);
    // Consecutive days, no gaps or repeats.
    for (let i = 1; i < 30; i++) {
      expect(Date.parse(s.daily[i]!.date) - Date.parse(s.daily[i - 1]!.date)).toBe(86_400_000);
    }
    expect(s.daily.filter((d) => d.requests === 0).every((d) => d.refused === 0 && d.errors === 0)).toBe(true);

    expect(s.hourly).toHaveLength(24);
    expect(s.hourly.map((h) => h.hour)).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(s.hourly.filter((h) => h.requests > 0)).toEqual([
      { hour: 0, requests: 2, refused: 0 },
      { hour: 10, requests: 2, refused: 1 },
      { hour: 23, requests: 1, refused: 0 },
    ]);

    expect(s.endpoints).toEqual([
      { endpoint: KPD, requests: 2, refused: 1, avgMs: 15.5, successRate: 0 },
      { endpoint: OIB, requests: 2, refused: 0, avgMs: 15, successRate: 1 },
      { endpoint: FISC, requests: 1, refused: 0, avgMs: 5, successRate: 0 },
    ]);
  });

  it("counts the whole month even when it started before the 30-day chart", async () => {
    const s = await usageSummary(db, a, new Date("2026-03-31T12:00:00Z"));
    expect(s.daily[0]!.date).toBe("2026-03-02");
    expect(s.daily[29]!.date).toBe("2026-03-31");
    expect(s.daily.filter((d) => d.requests > 0)).toEqual([{ date: "2026-03-02", requests: 1, refused: 0, errors: 0 }]);
    expect(s.month).toEqual({ requests: 6, refused: 1, avgMs: 166 / 6, successRate: 3 / 6 });
    expect(s.today).toEqual({ requests: 0, refused: 0, avgMs: null, successRate: null });
    expect(s.hourly.every((h) => h.requests === 0 && h.refused === 0)).toBe(true);
    expect(s.endpoints.map((e) => [e.endpoint, e.requests])).toEqual([
      [KPD, 2],
      [FISC, 2],
      [OIB, 2],
    ]);
  });

  it("gives an account without traffic zeros and nulls, never another account's data", async () => {
    const empty = (await createAccount(testDb.db, { name: "quiet" })).id;
    const s = await usageSummary(db, empty, new Date("2026-03-01T10:30:00Z"));
    expect(s.today).toEqual({ requests: 0, refused: 0, avgMs: null, successRate: null });
    expect(s.month).toEqual(s.today);
    expect(s.daily).toHaveLength(30);
    expect(s.daily.every((d) => d.requests === 0)).toBe(true);
    expect(s.hourly).toHaveLength(24);
    expect(s.endpoints).toEqual([]);
  });

  it("rejects a malformed account id or date", async () => {
    await expect(usageSummary(db, "1 OR 1=1")).rejects.toThrow(TypeError);
    await expect(usageSummary(db, a, new Date("nope"))).rejects.toThrow(/now must be a valid Date/);
  });
});

describe("requestsToday", () => {
  it("counts admitted requests of the UTC day only", async () => {
    expect(await requestsToday(db, a, new Date("2026-03-01T10:30:00Z"))).toBe(4);
    expect(await requestsToday(db, a, new Date("2026-03-01T23:59:59.999Z"))).toBe(4);
    expect(await requestsToday(db, a, new Date("2026-03-02T00:00:00Z"))).toBe(1);
    expect(await requestsToday(db, a, new Date("2026-02-01T23:00:00Z"))).toBe(1);
    expect(await requestsToday(db, b, new Date("2026-03-01T10:30:00Z"))).toBe(50);
  });

  it("rejects a malformed account id", async () => {
    await expect(requestsToday(db, "x")).rejects.toThrow(/accountId must be a UUID/);
  });
});
