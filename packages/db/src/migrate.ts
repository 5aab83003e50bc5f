import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { MIGRATIONS_DIR } from "./paths.ts";
import { NO_FILTERS, readMigrationsList, withSchemaEngine } from "./schema-engine.ts";

/**
 * Applies every pending migration of prisma/migrations to `databaseUrl` (what `prisma migrate
 * deploy` does). Idempotent; concurrent callers are serialized by the engine's advisory lock.
 */
export async function migrate(
  databaseUrl: string,
  migrationsDir: string = MIGRATIONS_DIR,
): Promise<{ applied: string[] }> {
  const migrationsList = readMigrationsList(migrationsDir);
  if (await migrationsUpToDate(databaseUrl, migrationsList)) return { applied: [] };
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: 2 });
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: "postgres",
    adapterName: adapter.adapterName,
    connect: async () => wholeScripts(await adapter.connect()),
    connectToShadowDb: () => Promise.reject(new Error("applying migrations needs no shadow database")),
  };
  const { appliedMigrationNames } = await withSchemaEngine(factory, (engine) =>
    engine.applyMigrations({ migrationsList, filters: NO_FILTERS }),
  );
  return { applied: appliedMigrationNames };
}

/**
 * The pg adapter runs a migration script by splitting it at every ";", which cuts a statement that
 * contains one (a PL/pgSQL function body, a string literal) into invalid pieces. PostgreSQL's simple
 * query protocol takes the whole script at once (as `psql -c` sends it) and runs it as one implicit
 * transaction: a migration that fails part-way leaves nothing of itself behind, unless the script
 * opens and commits transactions of its own. A statement that refuses to run in a transaction block
 * (CREATE INDEX CONCURRENTLY) must therefore be alone in its migration.
 */
function wholeScripts<A extends SqlDriverAdapter & { underlyingDriver(): pg.Pool }>(conn: A): A {
  const pool = conn.underlyingDriver();
  // The adapter's own conversion of driver errors into the engine's error shape (private, so not in its types).
  const onError = (conn as unknown as { onError(err: unknown): never }).onError.bind(conn);
  conn.executeScript = async (script: string) => {
    try {
      await pool.query(script);
    } catch (err) {
      onError(err);
    }
  };
  return conn;
}

export type MigrationsList = ReturnType<typeof readMigrationsList>;

/**
 * True when every local migration is recorded as applied, unchanged (same SHA-256 checksum as
 * Prisma records) and not rolled back, and the database records none we do not have. Then the
 * schema engine (a large WebAssembly module whose compiled code stays in the process's memory)
 * is not loaded at all. Any doubt, including a missing history table, leaves the decision to it.
 */
export async function migrationsUpToDate(databaseUrl: string, list: MigrationsList): Promise<boolean> {
  const local = new Map<string, string>();
  for (const dir of list.migrationDirectories) {
    if (dir.migrationFile.content.tag !== "ok") return false;
    local.set(dir.path, createHash("sha256").update(dir.migrationFile.content.value).digest("hex"));
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    const applied = new Map<string, string>();
    for (const row of rows) {
      if (row.rolled_back_at !== null) continue;
      if (row.finished_at === null) return false;
      applied.set(row.migration_name, row.checksum);
    }
    if (applied.size !== local.size) return false;
    for (const [name, checksum] of local) if (applied.get(name) !== checksum) return false;
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
