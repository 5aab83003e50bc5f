import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAccount } from "@fiskal/accounts";
import { pruneUsageEvents } from "./retention.ts";
import { recentRequests } from "./recent.ts";
import { usageSummary } from "./summary.ts";
import { openTestDatabase, recordUsage, type TestDatabase } from "./testing.ts";

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await openTestDatabase();
});

afterAll(async () => {
  await testDb?.close();
});

async function seed(accountId: string, instants: string[]) {
  await recordUsage(
    testDb.db,
    instants.map((at) => ({
      accountId,
      apiKeyId: null,
      requestId: randomUUID(),
      method: "POST",
      endpoint: "POST /v1/validate/oib",
      status: 200,
      durationMs: 2,
      refused: false,
      at: new Date(at),
    })),
  );
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
  expect(await pruneUsageEvents(testDb.db, { before: new Date("2026-11-10T00:00:00.000Z"), batchSize: 3 })).toEqual({ deleted: 8, complete: true });

  expect((await recentRequests(testDb.db, a)).map((r) => r.at.toISOString())).toEqual(["2026-11-21T09:00:00.000Z", "2026-11-20T10:00:00.000Z"]);
  expect((await recentRequests(testDb.db, b)).map((r) => r.at.toISOString())).toEqual(["2026-11-10T00:00:00.000Z"]);
  expect(await Promise.all([usageSummary(testDb.db, a, now), usageSummary(testDb.db, b, now)])).toEqual(before);
  expect(before[0]!.month.requests).toBe(9);

  // nothing left to delete: a second run is a no-op
  expect(await pruneUsageEvents(testDb.db, { before: new Date("2026-11-10T00:00:00.000Z") })).toEqual({ deleted: 0, complete: true });
});

it("with `since`, visits only the accounts with usage since the previous run", async () => {
  const active = (await createAccount(testDb.db, { name: `active-${randomUUID()}` })).id;
  const idle = (await createAccount(testDb.db, { name: `idle-${randomUUID()}` })).id;
  // The previous run deleted everything before 2025-01-01; since then, each account has old events
  // the next cutoff covers, but only `active` has usage after the previous cutoff.
  await seed(active, ["2025-01-01T05:00:00.000Z", "2025-03-01T00:00:00.000Z"]);
  await seed(idle, ["2024-12-31T23:00:00.000Z"]);
  const result = await pruneUsageEvents(testDb.db, { before: new Date("2025-02-01T00:00:00.000Z"), since: new Date("2025-01-01T00:00:00.000Z") });
  expect(result).toEqual({ deleted: 1, complete: true });
  expect((await recentRequests(testDb.db, active)).map((r) => r.at.toISOString())).toEqual(["2025-03-01T00:00:00.000Z"]);
  // idle's event predates `since`: a complete earlier run would have deleted it, so it is not looked for
  expect(await recentRequests(testDb.db, idle)).toHaveLength(1);
});

it("stops between statements once its signal is aborted, and says so", async () => {
  const a = (await createAccount(testDb.db, { name: `abort-${randomUUID()}` })).id;
  await seed(a, ["2020-01-01T00:00:00.000Z"]);
  const stop = new AbortController();
  stop.abort();
  expect(await pruneUsageEvents(testDb.db, { before: new Date("2021-01-01T00:00:00.000Z"), signal: stop.signal })).toEqual({ deleted: 0, complete: false });
  expect(await recentRequests(testDb.db, a)).toHaveLength(1);
});

it("refuses a cutoff that is not a date and a batch size that is not a positive integer", async () => {
  await expect(pruneUsageEvents(testDb.db, { before: new Date("nope") })).rejects.toThrow(/before must be a valid Date/);
  await expect(pruneUsageEvents(testDb.db, { before: new Date(), batchSize: 0 })).rejects.toThrow(/batchSize/);
});
