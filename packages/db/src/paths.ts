import path from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const REPO_ROOT = path.resolve(PACKAGE_DIR, "../..");
export const SCHEMA_PATH = path.join(PACKAGE_DIR, "prisma", "schema.prisma");
export const MIGRATIONS_DIR = path.join(PACKAGE_DIR, "prisma", "migrations");
export const KPD_CSV_PATH = path.join(PACKAGE_DIR, "data", "kpd-2025.csv");
/** Where the embedded database lives when no DATABASE_URL is given. */
export const EMBEDDED_DATA_DIR = path.join(REPO_ROOT, ".data", "pglite");
