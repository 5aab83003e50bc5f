export * from "./generated/prisma/client.ts";
export { createDb, connectionSettings, type ConnectionSettings, type Db } from "./client.ts";
export { migrate } from "./migrate.ts";
export { embeddedPasswordFile, startEmbeddedPostgres, EmbeddedPostgresBusyError, type EmbeddedPostgres } from "./embedded.ts";
export { insertKpdRows, type KpdCodeRow } from "./kpd.ts";
export { KPD_CSV_PATH, EMBEDDED_DATA_DIR, MIGRATIONS_DIR, SCHEMA_PATH } from "./paths.ts";
export { createTestDatabase, type TestDatabaseSeed } from "./testing.ts";
export { openTarget } from "./cli/target.ts";
export { recordAudit, type AuditEntry } from "./audit.ts";
