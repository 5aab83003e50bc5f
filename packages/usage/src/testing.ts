// Test harness: a fresh migrated database per test file, plus the admin statements that
// simulate a database outage for it.
import { createDb, createTestDatabase, type Db } from "@fiskal/db";

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  name: string;
  db: Db;
  /** Kills the database's live connections and refuses new ones until `recover()`. */
  outage(): Promise<void>;
  recover(): Promise<void>;
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
    close: async () => {
      await db.$disconnect();
      await created.drop();
    },
  };
}
