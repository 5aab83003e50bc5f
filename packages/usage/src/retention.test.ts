import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAccount } from "@fiskal/db";
import { pruneUsageEvents } from "./retention.ts";
import { recentRequests } from "./recent.ts";
import { usageSummary } from "./summary.ts";
import { openTestDatabase, type TestDatabase } from "./testing.ts";

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await openTestDatabase();
});

afterAll(async () => {
  await testDb?.close();
});

async function seed(accountId: string, instants: string[]) {
  await testDb.db.usageEvent.createMany({
    data: instants.map((at) => ({
      accountId,
      apiKeyId: null,
      requestId: randomUUID(),
      method: "POST",
      endpoint: "POST /v1/validate/oib",
      status: 200,
      durationMs: 2,
      refused: false,
      createdAt: new Date(at),
    })),
  });
}

it("deletes only the events before the cutoff, of every account, in batches; totals and charts stay", async () => {
  const now = new Date("2026-11-21T12:00:00.000Z");
  const a = (await createAccount(testDb.db, { name: `a-${randomUUID()}` })).id;
  const b = (await createAccount(testDb.db, { name: `b-${randomUUID()}` })).id;
  const old = Array.from({ length: 7 }, (_, i) => `2026-11-0${1 + (i % 3)}T10:00:00.000Z`);
  await seed(a, [...old, "2026-11-20T10:00:00.000Z", "2026-11-21T09:00:00.000Z"]);
  await seed(b, ["2026-11-09T23:59:59.999Z", "2026-11-10T00:00:00.000Z"]);
  const before = await Promise.all([usageSummary(testDb.db, a, now), usageSummary(testDb.db, b, now)]);

  // batches of 3: account a needs three statements for its 7 old events
  expect(await pruneUsageEvents(testDb.db, { before: new Date("2026-11-10T00:00:00.000Z"), batchSize: 3 })).toBe(8);

  expect((await recentRequests(testDb.db, a)).map((r) => r.at.toISOString())).toEqual(["2026-11-21T09:00:00.000Z", "2026-11-20T10:00:00.000Z"]);
  expect((await recentRequests(testDb.db, b)).map((r) => r.at.toISOString())).toEqual(["2026-11-10T00:00:00.000Z"]);
  expect(await Promise.all([usageSummary(testDb.db, a, now), usageSummary(testDb.db, b, now)])).toEqual(before);
  expect(before[0]!.month.requests).toBe(9);

  // nothing left to delete: a second run is a no-op
  expect(await pruneUsageEvents(testDb.db, { before: new Date("2026-11-10T00:00:00.000Z") })).toBe(0);
});

it("refuses a cutoff that is not a date and a batch size that is not a positive integer", async () => {
  await expect(pruneUsageEvents(testDb.db, { before: new Date("nope") })).rejects.toThrow(/before must be a valid Date/);
  await expect(pruneUsageEvents(testDb.db, { before: new Date(), batchSize: 0 })).rejects.toThrow(/batchSize/);
});
