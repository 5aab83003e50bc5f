import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { MIGRATIONS_DIR } from "./paths.ts";

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

/** A copy of the migrations folder holding only the migrations before `name`; `cleanup` gets its removal. */
export async function migrationsBefore(name: string, cleanup: Array<() => Promise<void>>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "fiskal-migrations-"));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  for (const entry of readdirSync(MIGRATIONS_DIR, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name < name) await cp(path.join(MIGRATIONS_DIR, entry.name), path.join(dir, entry.name), { recursive: true });
  }
  await cp(path.join(MIGRATIONS_DIR, "migration_lock.toml"), path.join(dir, "migration_lock.toml"));
  return dir;
}
