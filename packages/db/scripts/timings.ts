// Measures the database package's slow paths on this machine: pnpm --filter @fiskal/db run timings
// (the KPD seed and the seeded test template: pnpm --filter @fiskal/accounts run timings)
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, migrate, startEmbeddedPostgres } from "../src/index.ts";
import { adminQuery, emptyDatabase } from "../src/test-support.ts";

async function time<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  console.log(`${label.padEnd(44)} ${(performance.now() - start).toFixed(0).padStart(6)} ms`);
  return result;
}

const pg = await emptyDatabase();
try {
  await time("migrate, PostgreSQL, fresh database", () => migrate(pg.url));
  await time("migrate, PostgreSQL, up to date", () => migrate(pg.url));
} finally {
  await pg.drop();
}

const dataDir = await mkdtemp(path.join(tmpdir(), "fiskal-timings-"));
try {
  const embedded = await time("startEmbeddedPostgres, new data dir", () => startEmbeddedPostgres({ dataDir }));
  try {
    await time("migrate, PGlite, fresh database", () => migrate(embedded.url));
    await time("migrate, PGlite, up to date", () => migrate(embedded.url));
  } finally {
    await time("close embedded", () => embedded.close());
  }
  const again = await time("startEmbeddedPostgres, existing data dir", () => startEmbeddedPostgres({ dataDir }));
  await again.close();
} finally {
  await rm(dataDir, { recursive: true, force: true });
}

// A private template name measures the cold build without touching the shared template.
const template = `fiskal_tpl_timing_${randomBytes(4).toString("hex")}`;
try {
  for (const label of ["first (builds template)", "second", "third"]) {
    const t = await time(`createTestDatabase, ${label}`, () => createTestDatabase({ template }));
    await t.drop();
  }
} finally {
  await adminQuery(`ALTER DATABASE "${template}" WITH IS_TEMPLATE false`).catch(() => {});
  await adminQuery(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
}
