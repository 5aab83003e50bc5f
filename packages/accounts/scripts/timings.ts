// Measures the seed's slow paths on this machine: pnpm --filter @fiskal/accounts run timings
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createDb, createTestDatabase as createMigratedDatabase, migrate, startEmbeddedPostgres } from "@fiskal/db";
import { seedKpd } from "../src/kpd.ts";
import { createTestDatabase } from "../src/testing.ts";

async function time<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  console.log(`${label.padEnd(44)} ${(performance.now() - start).toFixed(0).padStart(6)} ms`);
  return result;
}

const empty = await createMigratedDatabase();
try {
  const db = createDb(empty.url, { max: 2 });
  try {
    await time("seedKpd, PostgreSQL, empty table (5,828 rows)", () => seedKpd(db));
    await time("seedKpd, PostgreSQL, already loaded", () => seedKpd(db));
  } finally {
    await db.$disconnect();
  }
} finally {
  await empty.drop();
}

const dataDir = await mkdtemp(path.join(tmpdir(), "fiskal-timings-"));
try {
  const embedded = await startEmbeddedPostgres({ dataDir });
  try {
    await migrate(embedded.url);
    const db = createDb(embedded.url, { max: 4 });
    try {
      await time("seedKpd, PGlite, empty table", () => seedKpd(db));
    } finally {
      await db.$disconnect();
    }
  } finally {
    await embedded.close();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}

// A private template name measures the cold build (migrations and KPD) without touching the shared one.
const template = `fiskal_tpl_timing_${randomBytes(4).toString("hex")}`;
const adminUrl = process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
try {
  for (const label of ["first (builds template)", "second", "third"]) {
    const t = await time(`createTestDatabase, ${label}`, () => createTestDatabase({ template }));
    await t.drop();
  }
} finally {
  await admin(`ALTER DATABASE "${template}" WITH IS_TEMPLATE false`).catch(() => {});
  await admin(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
}
