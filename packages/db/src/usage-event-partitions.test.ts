// The usage_event_partitions migration: an existing, unpartitioned request log becomes daily
// partitions of "createdAt" with every row, id and value kept, and the id sequence going on.
import { readdirSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { migrate } from "./migrate.ts";
import { MIGRATIONS_DIR } from "./paths.ts";
import { emptyDatabase, migrationsBefore, query } from "./test-support.ts";

const PARTITIONS = readdirSync(MIGRATIONS_DIR).find((d) => d.endsWith("_usage_event_partitions"))!;

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(cleanup.map((fn) => fn()));
});

const ALL_COLUMNS = `id::text, "accountId"::text, "apiKeyId"::text, "requestId", method, endpoint, status, "durationMs", refused,
  to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS "createdAt", "rateWindow", "rateLimit", "rateRemaining", "retryAfter", headers`;

it("converts an existing UsageEvent table into daily partitions, keeping every row, id and value", async () => {
  const db = await emptyDatabase();
  cleanup.push(db.drop);
  await migrate(db.url, await migrationsBefore(PARTITIONS, cleanup));
  const [{ id: account }] = (await query<{ id: string }>(db.url, `INSERT INTO "Account" (id, name, "updatedAt") VALUES (gen_random_uuid(), 'A', now()) RETURNING id`)) as [{ id: string }];
  // Three days, both sides of a midnight, with and without a decision; 1,000 more rows on one day.
  await query(
    db.url,
    `INSERT INTO "UsageEvent" ("accountId", "apiKeyId", "requestId", method, endpoint, status, "durationMs", refused, "createdAt", "rateWindow", "rateLimit", "rateRemaining", "retryAfter", headers)
     VALUES ($1, NULL, 'a', 'POST', 'POST /v1/validate/oib', 200, 1.25, false, '2026-09-30T23:59:59.999Z', 'day', 1000, 999, NULL, E'X-RateLimit-Limit: 1000\\nRateLimit: "day";r=999;t=3600'),
            ($1, gen_random_uuid(), 'b', 'POST', 'POST /v1/validate/oib', 429, 0.5, true, '2026-10-01T00:00:00.000Z', 'minute', 60, 0, 12, 'Retry-After: 12'),
            ($1, NULL, 'c', 'GET', 'GET /v1/limits', 500, 3, false, '2026-10-03T12:00:00.000Z', NULL, NULL, NULL, NULL, NULL)`,
    [account],
  );
  await query(
    db.url,
    `INSERT INTO "UsageEvent" ("accountId", "requestId", method, endpoint, status, "durationMs", refused, "createdAt")
     SELECT $1, 'bulk' || i, 'GET', 'GET /v1/kpd/{code}', 200, i / 10.0, false, '2026-10-02T00:00:00Z'::timestamptz + i * interval '86 seconds'
       FROM generate_series(0, 999) AS i`,
    [account],
  );
  const before = await query(db.url, `SELECT ${ALL_COLUMNS} FROM "UsageEvent" e ORDER BY e.id`);
  expect(before).toHaveLength(1003);

  expect((await migrate(db.url)).applied[0]).toBe(PARTITIONS);

  expect(await query(db.url, `SELECT ${ALL_COLUMNS} FROM "UsageEvent" e ORDER BY e.id`)).toEqual(before);
  expect(await query(db.url, `SELECT relkind FROM pg_class WHERE oid = '"UsageEvent"'::regclass`)).toEqual([{ relkind: "p" }]);
  expect(await query(db.url, `SELECT to_regclass('"UsageEvent_unpartitioned"') AS old`)).toEqual([{ old: null }]);
  // Each row in its own day's partition; a partition for every day with events, and today's and the next two days'.
  const placed = await query<{ part: string; n: number }>(db.url, `SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM "UsageEvent" GROUP BY 1 ORDER BY 1`);
  expect(placed).toEqual([
    { part: `"UsageEvent_p20260930"`, n: 1 },
    { part: `"UsageEvent_p20261001"`, n: 1 },
    { part: `"UsageEvent_p20261002"`, n: 1000 },
    { part: `"UsageEvent_p20261003"`, n: 1 },
  ]);
  const days = await query<{ name: string }>(db.url, `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"UsageEvent"'::regclass ORDER BY 1`);
  const today = Date.now();
  const ahead = [0, 1, 2].map((i) => `UsageEvent_p${new Date(today + i * 86_400_000).toISOString().slice(0, 10).replace(/-/g, "")}`);
  expect(days.map((d) => d.name)).toEqual(expect.arrayContaining(["UsageEvent_p20260930", "UsageEvent_p20261001", "UsageEvent_p20261002", "UsageEvent_p20261003", ...ahead]));
  // The primary key holds the partition key; besides it the account index, and the same for the
  // rarer statuses only (a later migration); no foreign key.
  const indexes = await query<{ indexname: string; indexdef: string }>(db.url, `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'UsageEvent' ORDER BY 1`);
  expect(indexes.map((i) => i.indexname)).toEqual(["UsageEvent_accountId_createdAt_idx", "UsageEvent_accountId_createdAt_unsuccessful_idx", "UsageEvent_pkey"]);
  expect(indexes[1]!.indexdef).toContain(`WHERE (status >= 300)`);
  expect(indexes[2]!.indexdef).toContain(`(id, "createdAt")`);
  expect(await query(db.url, `SELECT conname FROM pg_constraint WHERE conrelid = '"UsageEvent"'::regclass AND contype = 'f'`)).toEqual([]);

  // New rows take the next ids of the same sequence.
  const maxBefore = BigInt((before.at(-1) as { id: string }).id);
  const [added] = await query<{ id: string }>(
    db.url,
    `INSERT INTO "UsageEvent" ("accountId", "requestId", method, endpoint, status, "durationMs", refused, "createdAt")
     VALUES ($1, 'new', 'GET', 'GET /v1/limits', 200, 1, false, '2026-10-03T13:00:00Z') RETURNING id::text`,
    [account],
  );
  expect(BigInt(added!.id)).toBe(maxBefore + 1n);
  // Dropping the table would take the sequence with it: it belongs to the new table.
  expect(await query(db.url, `SELECT pg_get_serial_sequence('"UsageEvent"', 'id') AS seq`)).toEqual([{ seq: `public."UsageEvent_id_seq"` }]);
});

it("usage_event_partition() makes a day's partition once, bounded by UTC midnights", async () => {
  const db = await emptyDatabase();
  cleanup.push(db.drop);
  await migrate(db.url);
  // Called in a session whose time zone is not UTC.
  await query(db.url, `ALTER DATABASE "${db.name}" SET timezone = 'America/Los_Angeles'`);
  expect(await query(db.url, `SELECT current_setting('TimeZone') AS tz, "usage_event_partition"('2027-03-14') AS name`)).toEqual([{ tz: "America/Los_Angeles", name: "UsageEvent_p20270314" }]);
  expect(await query(db.url, `SELECT "usage_event_partition"('2027-03-14') AS name`)).toEqual([{ name: "UsageEvent_p20270314" }]);
  const [{ id: account }] = (await query<{ id: string }>(db.url, `INSERT INTO "Account" (id, name, "updatedAt") VALUES (gen_random_uuid(), 'A', now()) RETURNING id`)) as [{ id: string }];
  const insert = (at: string) =>
    query(db.url, `INSERT INTO "UsageEvent" ("accountId", "requestId", method, endpoint, status, "durationMs", refused, "createdAt") VALUES ($1, $2::text, 'GET', 'GET /v1/limits', 200, 1, false, $2::text::timestamptz)`, [account, at]);
  await insert("2027-03-14T00:00:00.000Z");
  await insert("2027-03-14T23:59:59.999Z");
  await expect(insert("2027-03-13T23:59:59.999Z")).rejects.toThrow(/no partition of relation "UsageEvent" found for row/);
  await expect(insert("2027-03-15T00:00:00.000Z")).rejects.toThrow(/no partition of relation "UsageEvent" found for row/);
  expect(await query(db.url, `SELECT count(*)::int AS n FROM "UsageEvent_p20270314"`)).toEqual([{ n: 2 }]);
});
