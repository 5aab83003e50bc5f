// Writing new migrations: diff the migrations folder (replayed on an in-memory PGlite shadow)
// against schema.prisma. adapter-pg is unusable as a shadow in Prisma 7.10 (shadow URL handling,
// the "char" type), and the native engine is unavailable, hence PGlite.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { MIGRATIONS_DIR, SCHEMA_PATH } from "./paths.ts";
import {
  MIGRATION_LOCK_CONTENT,
  MIGRATION_LOCK_FILE,
  NO_FILTERS,
  readMigrationsList,
  withSchemaEngine,
} from "./schema-engine.ts";

/**
 * The SQL that takes a database migrated with `migrationsDir` to `schemaPath`, or null when they
 * already agree.
 */
export async function pendingSchemaChanges(
  opts: { migrationsDir?: string; schemaPath?: string } = {},
): Promise<string | null> {
  const migrationsDir = opts.migrationsDir ?? MIGRATIONS_DIR;
  const schemaPath = opts.schemaPath ?? SCHEMA_PATH;
  // One in-memory instance serves as both the (unused) main connection and the shadow: each PGlite
  // costs seconds to start, and the diff only reads what the shadow replays.
  let instance: PGlite | undefined;
  const open = async () => new PrismaPGlite((instance ??= new PGlite())).connect();
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: "postgres",
    adapterName: "pglite-shadow",
    connect: open,
    connectToShadowDb: open,
  };
  try {
    const result = await withSchemaEngine(factory, (engine) =>
      engine.diff({
        from: { tag: "migrations", ...readMigrationsList(migrationsDir) },
        to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: readFileSync(schemaPath, "utf8") }] },
        script: true,
        exitCode: true,
        filters: NO_FILTERS,
      }),
    );
    // exitCode 2 means "the diff is not empty"; 0 means nothing to do.
    return result.exitCode === 2 ? (result.stdout ?? "") : null;
  } finally {
    await instance?.close();
  }
}

/** Writes `<timestamp>_<name>/migration.sql` for the pending schema changes, if any. */
export async function createMigration(
  name: string,
  opts: { migrationsDir?: string; schemaPath?: string; now?: Date } = {},
): Promise<{ created: string; sql: string } | null> {
  const slug = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!slug) throw new Error(`invalid migration name ${JSON.stringify(name)}: use letters, digits and _`);
  const migrationsDir = opts.migrationsDir ?? MIGRATIONS_DIR;
  const sql = await pendingSchemaChanges({ migrationsDir, schemaPath: opts.schemaPath });
  if (sql === null) return null;
  const stamp = (opts.now ?? new Date()).toISOString().replace(/\D/g, "").slice(0, 14);
  const dirName = `${stamp}_${slug}`;
  const dir = path.join(migrationsDir, dirName);
  if (existsSync(dir)) throw new Error(`migration ${dirName} already exists`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "migration.sql"), sql);
  const lock = path.join(migrationsDir, MIGRATION_LOCK_FILE);
  if (!existsSync(lock)) writeFileSync(lock, MIGRATION_LOCK_CONTENT);
  return { created: dirName, sql };
}
