import { randomBytes } from "node:crypto";
import pg from "pg";

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** An empty database (not migrated) with a unique name, for tests of migrate and seed themselves. */
export async function emptyDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `fiskal_t_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).then(() => {}) };
}

export async function adminQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await client.query<R>(sql, params);
  } finally {
    await client.end();
  }
}

export async function query<R extends pg.QueryResultRow = pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
