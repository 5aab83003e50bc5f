import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApiKey } from "@fiskal/accounts";
import type { Db } from "@fiskal/db";
import { recentRequests } from "./recent.ts";
import { openTestDatabase, type TestDatabase } from "./testing.ts";

let testDb: TestDatabase;
let db: Db;
let a: string;
let b: string;
let keyA: { id: string; prefix: string };
let bEventId: string;

async function seed(accountId: string, apiKeyId: string | null, requestId: string, at: string, status = 200) {
  return db.usageEvent.create({
    data: {
      accountId,
      apiKeyId,
      requestId,
      method: "GET",
      endpoint: "GET /v1/kpd/{code}",
      status,
      durationMs: 2.25,
      refused: status === 429,
      createdAt: new Date(at),
    },
  });
}

beforeAll(async () => {
  testDb = await openTestDatabase();
  db = testDb.db;
  a = (await createAccount(db, { name: "A" })).id;
  b = (await createAccount(db, { name: "B" })).id;
  keyA = await createApiKey(db, a, "main");
  const keyB = await createApiKey(db, b, "other");
  // Written directly, not through the meter: the day's partition first.
  await db.$queryRaw`SELECT "usage_event_partition"('2026-04-01')`;
  // Inserted out of time order, as flushes from several instances would be; r3/r4 share a timestamp.
  await seed(a, keyA.id, "r2", "2026-04-01T10:00:02Z");
  await seed(a, null, "r1", "2026-04-01T10:00:01Z");
  await seed(a, keyA.id, "r3", "2026-04-01T10:00:03Z", 429);
  bEventId = (await seed(b, keyB.id, "b1", "2026-04-01T10:00:03Z")).id.toString();
  await seed(a, keyA.id, "r4", "2026-04-01T10:00:03Z", 500);
  // Another account's key id on A's event must not leak that key's prefix.
  await seed(a, keyB.id, "r5", "2026-04-01T10:00:05Z");
  await seed(a, keyA.id, "r7", "2026-04-01T10:00:07Z");
  await seed(a, null, "r6", "2026-04-01T10:00:06Z");
  await seed(b, keyB.id, "b2", "2026-04-01T10:00:08Z");
});

afterAll(async () => {
  await testDb?.close();
});

describe("recentRequests", () => {
  it("lists the account's requests newest first with the key prefix", async () => {
    const rows = await recentRequests(db, a);
    expect(rows.map((r) => r.requestId)).toEqual(["r7", "r6", "r5", "r4", "r3", "r2", "r1"]);
    expect(rows.map((r) => r.keyPrefix)).toEqual([keyA.prefix, null, null, keyA.prefix, keyA.prefix, keyA.prefix, null]);
    expect(rows[3]).toEqual({
      id: expect.stringMatching(/^[0-9]+$/),
      requestId: "r4",
      at: new Date("2026-04-01T10:00:03Z"),
      method: "GET",
      endpoint: "GET /v1/kpd/{code}",
      status: 500,
      durationMs: 2.25,
      refused: false,
      keyPrefix: keyA.prefix,
      keyName: "main",
      decision: null,
      headers: null,
    });
    expect(rows[4]).toMatchObject({ requestId: "r3", status: 429, refused: true });
    // Same instant: the later insert (higher id) comes first.
    expect(BigInt(rows[3]!.id)).toBeGreaterThan(BigInt(rows[4]!.id));
  });

  it("pages with the id of the last row as cursor, string or bigint", async () => {
    const all = await recentRequests(db, a);
    const p1 = await recentRequests(db, a, { limit: 3 });
    const p2 = await recentRequests(db, a, { limit: 3, before: p1[2]!.id });
    const p3 = await recentRequests(db, a, { limit: 3, before: BigInt(p2[2]!.id) });
    const p4 = await recentRequests(db, a, { limit: 3, before: p3[p3.length - 1]!.id });
    expect([p1.length, p2.length, p3.length, p4.length]).toEqual([3, 3, 1, 0]);
    expect([...p1, ...p2, ...p3]).toEqual(all);
    // The cursor sits between two rows of the same instant (r4 | r3).
    const afterR4 = await recentRequests(db, a, { before: all[3]!.id });
    expect(afterR4.map((r) => r.requestId)).toEqual(["r3", "r2", "r1"]);
  });

  it("never shows another account's requests, not even through its cursor", async () => {
    const rows = await recentRequests(db, b);
    expect(rows.map((r) => r.requestId)).toEqual(["b2", "b1"]);
    expect(await recentRequests(db, a, { before: bEventId })).toEqual([]);
    expect(await recentRequests(db, a, { before: "999999999" })).toEqual([]);
  });

  it("caps the limit at 200 and rejects bad input", async () => {
    const c = (await createAccount(db, { name: "C" })).id;
    await db.usageEvent.createMany({
      data: Array.from({ length: 205 }, (_, i) => ({
        accountId: c,
        apiKeyId: null,
        requestId: `c${i}`,
        method: "GET",
        endpoint: "GET /v1/x",
        status: 200,
        durationMs: 1,
        refused: false,
        createdAt: new Date(Date.UTC(2026, 3, 1, 0, 0, i)),
      })),
    });
    expect(await recentRequests(db, c, { limit: 1000 })).toHaveLength(200);
    expect(await recentRequests(db, c)).toHaveLength(50);
    await expect(recentRequests(db, c, { limit: 0 })).rejects.toThrow(RangeError);
    await expect(recentRequests(db, c, { limit: 2.5 })).rejects.toThrow(RangeError);
    await expect(recentRequests(db, c, { before: "12; DROP TABLE x" })).rejects.toThrow(/before must be/);
    await expect(recentRequests(db, c, { before: -1n })).rejects.toThrow(/before must be/);
    await expect(recentRequests(db, "nope")).rejects.toThrow(/accountId must be a UUID/);
  });
});
