import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
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
  const pg = new PrismaPg({ connectionString: databaseUrl, max: 2 });
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: "postgres",
    adapterName: pg.adapterName,
    connect: () => pg.connect(),
    connectToShadowDb: () => Promise.reject(new Error("applying migrations needs no shadow database")),
  };
  const { appliedMigrationNames } = await withSchemaEngine(factory, (engine) =>
    engine.applyMigrations({ migrationsList: readMigrationsList(migrationsDir), filters: NO_FILTERS }),
  );
  return { applied: appliedMigrationNames };
}
