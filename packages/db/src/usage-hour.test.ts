// The UsageHour migrations: the backfill of events recorded before the table existed, and the later
// removal of the trigger that kept it (the usage meter writes it now, see the usage package).
import { readdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "./migrate.ts";
import { MIGRATIONS_DIR } from "./paths.ts";
import { emptyDatabase, migrationsBefore, query } from "./test-support.ts";

const ROLLUP = readdirSync(MIGRATIONS_DIR).find((d) => d.endsWith("_usage_hour"))!;
const WITHOUT_TRIGGER = readdirSync(MIGRATIONS_DIR).find((d) => d.endsWith("_usage_hour_without_trigger"))!;

interface HourRow {
  hour: string;
  endpoint: string;
  requests: string;
  refused: string;
  ok: string;
  errors: string;
  totalMs: number;
}

const hours = (url: string, accountId: string) =>
  query<HourRow>(
    url,
    `SELECT to_char("hour" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24') AS hour, endpoint, requests::text, refused::text, ok::text, errors::text, "totalMs"
       FROM "UsageHour" WHERE "accountId" = $1 ORDER BY 1, 2`,
    [accountId],
  );

/** Events as (UTC instant, endpoint, status, ms, refused). */
async function insertEvents(url: string, accountId: string, events: [string, string, number, number, boolean][]) {
  const values = events.map((_, i) => `($1, 'r${i}', 'POST', $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5}, $${i * 5 + 6}::timestamptz)`);
  await query(
    url,
    `INSERT INTO "UsageEvent" ("accountId", "requestId", method, endpoint, status, "durationMs", refused, "createdAt") VALUES ${values.join(", ")}`,
    [accountId, ...events.flatMap(([at, endpoint, status, ms, refused]) => [endpoint, status, ms, refused, at])],
  );
}

const EVENTS: [string, string, number, number, boolean][] = [
  ["2026-11-20T09:00:00.000Z", "POST /v1/validate/oib", 200, 2, false],
  ["2026-11-20T09:59:59.999Z", "POST /v1/validate/oib", 429, 0.5, true],
  ["2026-11-20T09:30:00.000Z", "POST /v1/fiscalize", 500, 10, false],
  ["2026-11-20T10:00:00.000Z", "POST /v1/validate/oib", 404, 1, false],
  ["2026-11-21T09:30:00.000Z", "POST /v1/validate/oib", 201, 4, false],
];

const EXPECTED = [
  { hour: "2026-11-20T09", endpoint: "POST /v1/fiscalize", requests: "1", refused: "0", ok: "0", errors: "1", totalMs: 10 },
  { hour: "2026-11-20T09", endpoint: "POST /v1/validate/oib", requests: "2", refused: "1", ok: "1", errors: "0", totalMs: 2.5 },
  { hour: "2026-11-20T10", endpoint: "POST /v1/validate/oib", requests: "1", refused: "0", ok: "0", errors: "1", totalMs: 1 },
  { hour: "2026-11-21T09", endpoint: "POST /v1/validate/oib", requests: "1", refused: "0", ok: "1", errors: "0", totalMs: 4 },
];

describe("UsageHour", () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    await Promise.all(cleanup.map((fn) => fn()));
  });

  it("is backfilled from the events recorded before the migration", async () => {
    const db = await emptyDatabase();
    cleanup.push(db.drop);
    const before = await migrationsBefore(ROLLUP, cleanup);
    await migrate(db.url, before);
    const [{ id }] = (await query<{ id: string }>(db.url, `INSERT INTO "Account" (id, name, "updatedAt") VALUES (gen_random_uuid(), 'A', now()) RETURNING id`)) as [{ id: string }];
    await insertEvents(db.url, id, EVENTS);

    expect((await migrate(db.url)).applied[0]).toBe(ROLLUP);
    expect(await hours(db.url, id)).toEqual(EXPECTED);
  });

  it("loses its trigger, but none of its rows or indexes; events inserted afterwards leave it alone", async () => {
    expect(WITHOUT_TRIGGER > ROLLUP).toBe(true);
    const db = await emptyDatabase();
    cleanup.push(db.drop);
    await migrate(db.url, await migrationsBefore(WITHOUT_TRIGGER, cleanup));
    const [{ id }] = (await query<{ id: string }>(db.url, `INSERT INTO "Account" (id, name, "updatedAt") VALUES (gen_random_uuid(), 'A', now()) RETURNING id`)) as [{ id: string }];
    // Still there before the migration: two statements, the second adds to the rows the first created.
    await insertEvents(db.url, id, EVENTS.slice(0, 2));
    await insertEvents(db.url, id, EVENTS.slice(2));
    expect(await hours(db.url, id)).toEqual(EXPECTED);

    // Later migrations apply after it.
    expect((await migrate(db.url)).applied[0]).toEqual(WITHOUT_TRIGGER);
    expect(await hours(db.url, id)).toEqual(EXPECTED);
    await insertEvents(db.url, id, EVENTS);
    expect(await hours(db.url, id)).toEqual(EXPECTED);
    expect(await query(db.url, `SELECT tgname FROM pg_trigger WHERE tgrelid = '"UsageEvent"'::regclass AND NOT tgisinternal`)).toEqual([]);
    expect(await query(db.url, `SELECT proname FROM pg_proc WHERE proname = 'usage_hour_rollup'`)).toEqual([]);
    const indexes = await query<{ indexname: string }>(db.url, `SELECT indexname FROM pg_indexes WHERE tablename = 'UsageHour' ORDER BY 1`);
    expect(indexes.map((i) => i.indexname)).toEqual(["UsageHour_hour_idx", "UsageHour_pkey"]);

    await query(db.url, `DELETE FROM "Account" WHERE id = $1`, [id]);
    expect(await hours(db.url, id)).toEqual([]);
  });
});
