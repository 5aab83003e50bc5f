// The request log's daily partitions: made ahead, made on demand by the writer, expired whole.
import { randomUUID } from "node:crypto";
import { afterEach, expect, it } from "vitest";
import { createAccount } from "@fiskal/accounts";
import { maintainRequestLog, requestLogDays } from "./retention.ts";
import { recentRequests } from "./recent.ts";
import { usageSummary } from "./summary.ts";
import { openTestDatabase, recordUsage, type TestDatabase } from "./testing.ts";

const open: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

/** A database of its own: maintenance acts on every partition of it. */
async function fresh(): Promise<TestDatabase> {
  const t = await openTestDatabase();
  open.push(t);
  return t;
}

async function seed(t: TestDatabase, accountId: string, instants: string[]) {
  await recordUsage(
    t.db,
    instants.map((at) => ({
      accountId,
      apiKeyId: null,
      requestId: `${at}#${randomUUID()}`,
      method: "POST",
      endpoint: "POST /v1/validate/oib",
      status: 200,
      durationMs: 2,
      refused: false,
      at: new Date(at),
    })),
  );
}

/** Each event's partition, by the time it was recorded at. */
async function placement(t: TestDatabase): Promise<Record<string, string>> {
  const rows = await t.db.$queryRaw<{ part: string; at: string }[]>`
    SELECT tableoid::regclass::text AS part, to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM "UsageEvent"`;
  return Object.fromEntries(rows.map((r) => [r.at, r.part.replace(/"/g, "")]));
}

const relid = async (t: TestDatabase, name: string) =>
  (await t.db.$queryRaw<{ oid: number | null }[]>`SELECT to_regclass(${`"${name}"`})::oid::int AS oid`)[0]!.oid;

it("creates the partitions of today and the next two days ahead, once", async () => {
  const t = await fresh();
  const now = new Date("2031-03-10T23:59:59.999Z");
  expect(await maintainRequestLog(t.db, { retentionDays: 30, now })).toMatchObject({ created: ["2031-03-10", "2031-03-11", "2031-03-12"] });
  expect(await requestLogDays(t.db)).toEqual(expect.arrayContaining(["2031-03-10", "2031-03-11", "2031-03-12"]));
  expect(await requestLogDays(t.db)).not.toContain("2031-03-13");
  // Every partition has the account index and the primary key of the parent.
  const indexes = await t.db.$queryRaw<{ indexname: string }[]>`SELECT indexname FROM pg_indexes WHERE tablename = 'UsageEvent_p20310311' ORDER BY 1`;
  expect(indexes.map((i) => i.indexname)).toEqual(["UsageEvent_p20310311_accountId_createdAt_idx", "UsageEvent_p20310311_accountId_createdAt_idx1", "UsageEvent_p20310311_pkey"]);
  // Run again (another instance, the next hour): nothing to do; two at once do not collide.
  expect(await maintainRequestLog(t.db, { retentionDays: 30, now })).toEqual({ created: [], dropped: [] });
  const later = new Date("2031-03-11T00:00:00.000Z");
  const both = await Promise.all([maintainRequestLog(t.db, { retentionDays: 30, now: later }), maintainRequestLog(t.db, { retentionDays: 30, now: later })]);
  expect(both.flatMap((r) => r.created)).toContain("2031-03-13");
  expect((await requestLogDays(t.db)).filter((d) => d === "2031-03-13")).toHaveLength(1);
});

it("drops whole partitions past retention, never a row of a retained day; the hourly totals stay", async () => {
  const t = await fresh();
  const a = (await createAccount(t.db, { name: "A" })).id;
  const b = (await createAccount(t.db, { name: "B" })).id;
  const now = new Date("2030-06-30T12:00:00.000Z");
  // Retention 30 days: the partitions of days that ended by 2030-05-31T00:00Z go.
  const expired = ["2030-05-20T10:00:00.000Z", "2030-05-20T11:00:00.000Z", "2030-05-30T23:59:59.999Z"];
  const kept = ["2030-05-31T00:00:00.000Z", "2030-05-31T23:59:59.999Z", "2030-06-15T08:00:00.000Z", "2030-06-30T11:00:00.000Z"];
  await seed(t, a, [...expired, ...kept]);
  await seed(t, b, ["2030-05-30T12:00:00.000Z", "2030-05-31T12:00:00.000Z"]);
  const keptOid = await relid(t, "UsageEvent_p20300531");
  const totals = await Promise.all([usageSummary(t.db, a, now), usageSummary(t.db, b, now)]);

  const result = await maintainRequestLog(t.db, { retentionDays: 30, now });
  // (besides the partitions the migration made ahead, years before this `now`)
  expect(result.dropped.filter((d) => d >= "2030")).toEqual(["2030-05-20", "2030-05-30"]);
  expect((await requestLogDays(t.db)).filter((d) => d < "2030-05-31")).toEqual([]);
  expect((await recentRequests(t.db, a)).map((r) => r.at.toISOString())).toEqual([...kept].reverse());
  expect((await recentRequests(t.db, b)).map((r) => r.at.toISOString())).toEqual(["2030-05-31T12:00:00.000Z"]);
  // The retained day's partition is the same table as before, every row in it.
  expect(await relid(t, "UsageEvent_p20300531")).toBe(keptOid);
  expect(await relid(t, "UsageEvent_p20300530")).toBeNull();
  expect(await Promise.all([usageSummary(t.db, a, now), usageSummary(t.db, b, now)])).toEqual(totals);
  expect(totals[0].month.requests).toBe(2);

  // A day later, 2030-05-31 goes too.
  expect((await maintainRequestLog(t.db, { retentionDays: 30, now: new Date("2030-07-01T00:00:00.000Z") })).dropped).toEqual(["2030-05-31"]);
  expect((await recentRequests(t.db, a)).map((r) => r.at.toISOString())).toEqual(["2030-06-30T11:00:00.000Z", "2030-06-15T08:00:00.000Z"]);
});

it("puts events either side of midnight UTC into their own days' partitions, whatever the session's time zone", async () => {
  const t = await fresh();
  const a = (await createAccount(t.db, { name: "A" })).id;
  await t.db.$executeRawUnsafe(`ALTER DATABASE "${t.name}" SET timezone = 'Pacific/Kiritimati'`);
  await seed(t, a, ["2029-12-31T23:59:59.999Z", "2030-01-01T00:00:00.000Z", "2030-01-01T23:59:59.999Z"]);
  expect(await placement(t)).toEqual({
    "2029-12-31T23:59:59.999Z": "UsageEvent_p20291231",
    "2030-01-01T00:00:00.000Z": "UsageEvent_p20300101",
    "2030-01-01T23:59:59.999Z": "UsageEvent_p20300101",
  });
});

it("a batch of a day without a partition creates it; there is no DEFAULT partition to catch a row", async () => {
  const t = await fresh();
  const a = (await createAccount(t.db, { name: "A" })).id;
  expect(await requestLogDays(t.db)).not.toContain("2033-02-03");
  // Written directly, a row of a day without its partition is refused.
  await expect(
    t.db.$executeRaw`INSERT INTO "UsageEvent" ("accountId", "requestId", method, endpoint, status, "durationMs", refused, "createdAt")
                     VALUES (${a}::uuid, 'x', 'GET', 'GET /v1/limits', 200, 1, false, '2033-02-03T10:00:00Z')`,
  ).rejects.toThrow(/no partition of relation "UsageEvent" found for row/);
  expect(await t.db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM ONLY "UsageEvent"`).toEqual([{ n: 0n }]);
  // The meter's writer makes sure of its batch's days first.
  await seed(t, a, ["2033-02-03T10:00:00.000Z", "2033-02-05T10:00:00.000Z"]);
  expect(await requestLogDays(t.db)).toEqual(expect.arrayContaining(["2033-02-03", "2033-02-05"]));
  expect(await requestLogDays(t.db)).not.toContain("2033-02-04");
  expect(await placement(t)).toEqual({ "2033-02-03T10:00:00.000Z": "UsageEvent_p20330203", "2033-02-05T10:00:00.000Z": "UsageEvent_p20330205" });
});

it("a late batch of a day already expired is written (its partition made again) and expires at the next run", async () => {
  const t = await fresh();
  const a = (await createAccount(t.db, { name: "A" })).id;
  const now = new Date("2030-06-30T12:00:00.000Z");
  await seed(t, a, ["2030-05-01T10:00:00.000Z"]);
  expect((await maintainRequestLog(t.db, { retentionDays: 30, now })).dropped.filter((d) => d >= "2030")).toEqual(["2030-05-01"]);
  await seed(t, a, ["2030-05-01T11:00:00.000Z"]);
  expect((await recentRequests(t.db, a)).map((r) => r.at.toISOString())).toEqual(["2030-05-01T11:00:00.000Z"]);
  expect((await maintainRequestLog(t.db, { retentionDays: 30, now })).dropped).toEqual(["2030-05-01"]);
  expect(await recentRequests(t.db, a)).toEqual([]);
});

it("refuses a retention, a look-ahead or a time that make no sense", async () => {
  const t = await fresh();
  const before = await requestLogDays(t.db);
  await expect(maintainRequestLog(t.db, { retentionDays: 0 })).rejects.toThrow(/retentionDays/);
  await expect(maintainRequestLog(t.db, { retentionDays: 1.5 })).rejects.toThrow(/retentionDays/);
  await expect(maintainRequestLog(t.db, { retentionDays: 30, daysAhead: -1 })).rejects.toThrow(/daysAhead/);
  await expect(maintainRequestLog(t.db, { retentionDays: 30, now: new Date("nope") })).rejects.toThrow(/now must be a valid Date/);
  expect(await requestLogDays(t.db)).toEqual(before);
});
