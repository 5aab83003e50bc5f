// Test harness: a fresh migrated database per test file, the admin statements that simulate a
// database outage for it, and a way to record usage history for the portal's queries.
import { createTestDatabase } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { createMeter, METER_APPLICATION_NAME, type UsageRecord } from "./meter.ts";

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  name: string;
  db: Db;
  /** Kills the database's live connections and refuses new ones until `recover()`. */
  outage(): Promise<void>;
  recover(): Promise<void>;
  /** Terminates the usage meters' connections to this database; resolves to how many there were. */
  killMeterConnections(): Promise<number>;
  close(): Promise<void>;
}

async function admin<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = createDb(ADMIN_URL, { max: 1 });
  try {
    return await fn(db);
  } finally {
    await db.$disconnect();
  }
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const created = await createTestDatabase();
  const name = decodeURIComponent(new URL(created.url).pathname.slice(1));
  if (!/^fiskal_t_[0-9a-z_]+$/.test(name)) throw new Error(`unexpected test database name ${name}`);
  const db = createDb(created.url);
  return {
    url: created.url,
    name,
    db,
    outage: () =>
      admin(async (a) => {
        await a.$executeRawUnsafe(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
        await a.$queryRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`;
      }),
    recover: () =>
      admin(async (a) => {
        await a.$executeRawUnsafe(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      }),
    killMeterConnections: () =>
      admin(async (a) => {
        const killed = await a.$queryRaw<{ ok: boolean }[]>`
          SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
           WHERE datname = ${name} AND application_name = ${METER_APPLICATION_NAME}`;
        return killed.filter((k) => k.ok).length;
      }),
    close: async () => {
      await db.$disconnect();
      await created.drop();
    },
  };
}

/**
 * Writes usage as the API would (request log and hourly counts) through a meter of its own, and
 * fails if anything was not written. Rows inserted into "UsageEvent" directly are not counted in
 * "UsageHour".
 */
export async function recordUsage(db: Db, records: UsageRecord[]): Promise<void> {
  const errors: unknown[] = [];
  const meter = createMeter(db, { flushIntervalMs: 3_600_000, maxBuffer: Math.max(records.length, 1), onError: (e) => errors.push(e) });
  for (const r of records) meter.record(r);
  await meter.close();
  if (errors.length > 0 || meter.written !== records.length) {
    throw new Error(`recordUsage wrote ${meter.written} of ${records.length} events`, { cause: errors[0] });
  }
}
