import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

function isThisPackage(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: string }).name === "@fiskal/db";
  } catch {
    return false;
  }
}

// From this file's location; when an app has bundled this module into its own build (the API's
// dist/), through the package name instead.
const besideSource = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGE_DIR = isThisPackage(besideSource)
  ? besideSource
  : path.dirname(createRequire(import.meta.url).resolve("@fiskal/db/package.json"));
const REPO_ROOT = path.resolve(PACKAGE_DIR, "../..");
export const SCHEMA_PATH = path.join(PACKAGE_DIR, "prisma", "schema.prisma");
export const MIGRATIONS_DIR = path.join(PACKAGE_DIR, "prisma", "migrations");
export const KPD_CSV_PATH = path.join(PACKAGE_DIR, "data", "kpd-2025.csv");
/** Where the embedded database lives when no DATABASE_URL is given. */
export const EMBEDDED_DATA_DIR = path.join(REPO_ROOT, ".data", "pglite");
