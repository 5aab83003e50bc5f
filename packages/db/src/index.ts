export * from "./generated/prisma/client.ts";
export { createDb, connectionSettings, type ConnectionSettings, type Db } from "./client.ts";
export { migrate } from "./migrate.ts";
export { startEmbeddedPostgres, EmbeddedPostgresBusyError, type EmbeddedPostgres } from "./embedded.ts";
export { seedKpd, readKpdCsv, type KpdRow } from "./kpd.ts";
export { KPD_CSV_PATH, EMBEDDED_DATA_DIR, MIGRATIONS_DIR, SCHEMA_PATH } from "./paths.ts";
export {
  hashApiKey,
  generateApiKey,
  createAccount,
  createApiKey,
  revokeApiKey,
  rotateApiKey,
  activeKeyWhere,
  MAX_ROTATION_OVERLAP_SECONDS,
  type RotateResult,
  setPlan,
  ensureDemo,
  hashPassword,
  verifyPassword,
  DbInputError,
  DEMO_ACCOUNT_NAME,
  DEMO_EMAIL,
  DEMO_OIB,
  OPERATOR_ACCOUNT_NAME,
  OPERATOR_EMAIL,
  INVALIDATION_CHANNEL,
  type CustomLimits,
  type EnsureDemoResult,
} from "./accounts.ts";
export { createTestDatabase } from "./testing.ts";
export { recordAudit, type AuditEntry } from "./audit.ts";
