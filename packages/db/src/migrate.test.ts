import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "./client.ts";
import { EmbeddedPostgresBusyError, startEmbeddedPostgres } from "./embedded.ts";
import { migrate, migrationsUpToDate } from "./migrate.ts";
import { readMigrationsList } from "./schema-engine.ts";
import { cp } from "node:fs/promises";
import { emptyDatabase, query } from "./test-support.ts";

import { readdirSync } from "node:fs";
import { MIGRATIONS_DIR } from "./paths.ts";

/** Every migration folder, in order: what a fresh database must get applied. */
const ALL = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

async function tables(url: string): Promise<string[]> {
  const rows = await query<{ tablename: string }>(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
  return rows.map((r) => r.tablename);
}

describe("migrate on PostgreSQL", () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    await Promise.all(cleanup.map((fn) => fn()));
  });

  it("applies the migrations once, then nothing", async () => {
    const db = await emptyDatabase();
    cleanup.push(db.drop);
    expect(await migrate(db.url)).toEqual({ applied: ALL });
    expect(await tables(db.url)).toEqual(
      expect.arrayContaining(["Account", "ApiKey", "KpdCode", "User", "WebhookAttempt", "_prisma_migrations"]),
    );
    expect(await migrate(db.url)).toEqual({ applied: [] });
    const history = await query(db.url, `SELECT migration_name, finished_at FROM "_prisma_migrations"`);
    expect(history).toHaveLength(ALL.length);
    expect(history.every((h) => h.finished_at !== null)).toBe(true);
  });

  it("knows without the schema engine when nothing is pending, and still applies a new migration", async () => {
    const db = await emptyDatabase();
    cleanup.push(db.drop);
    const dir = await mkdtemp(path.join(tmpdir(), "fiskal-migrations-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    expect(await migrationsUpToDate(db.url, readMigrationsList(dir))).toBe(false); // no history table yet
    await migrate(db.url, dir);
    expect(await migrationsUpToDate(db.url, readMigrationsList(dir))).toBe(true);

    const added = "29991231000000_extra_column";
    await mkdir(path.join(dir, added));
    await writeFile(path.join(dir, added, "migration.sql"), `ALTER TABLE "Account" ADD COLUMN "probe" TEXT;\n`);
    expect(await migrationsUpToDate(db.url, readMigrationsList(dir))).toBe(false);
    expect(await migrate(db.url, dir)).toEqual({ applied: [added] });
    expect(await migrationsUpToDate(db.url, readMigrationsList(dir))).toBe(true);

    // an applied migration whose file has changed since is not "up to date": the engine decides
    await writeFile(path.join(dir, added, "migration.sql"), `ALTER TABLE "Account" ADD COLUMN "probe2" TEXT;\n`);
    expect(await migrationsUpToDate(db.url, readMigrationsList(dir))).toBe(false);
    expect(await migrationsUpToDate("postgres://postgres@127.0.0.1:1/nowhere", readMigrationsList(dir))).toBe(false);
  });

  it("runs a migration script whole: statements containing ';' apply, and a failing script leaves nothing", async () => {
    const db = await emptyDatabase();
    cleanup.push(db.drop);
    const dir = await mkdtemp(path.join(tmpdir(), "fiskal-migrations-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    await migrate(db.url, dir);

    const fn = "29991231000000_function";
    await mkdir(path.join(dir, fn));
    await writeFile(
      path.join(dir, fn, "migration.sql"),
      `CREATE FUNCTION "probe"() RETURNS text LANGUAGE plpgsql AS $$\nBEGIN\n  PERFORM 1;\n  RETURN 'a;b';\nEND\n$$;\n`,
    );
    expect(await migrate(db.url, dir)).toEqual({ applied: [fn] });
    expect(await query(db.url, `SELECT "probe"() AS v`)).toEqual([{ v: "a;b" }]);

    // The first statement succeeds, the second fails: the first must not stay applied.
    const broken = "29991231000001_broken";
    await mkdir(path.join(dir, broken));
    await writeFile(path.join(dir, broken, "migration.sql"), `CREATE TABLE "Probe" (id int);\nSELECT "no_such_column" FROM "Account";\n`);
    await expect(migrate(db.url, dir)).rejects.toThrow(/no_such_column/);
    expect(await tables(db.url)).not.toContain("Probe");
  });

  it("is safe when two processes start at the same time", async () => {
    const db = await emptyDatabase();
    cleanup.push(db.drop);
    const [a, b] = await Promise.all([migrate(db.url), migrate(db.url)]);
    expect([...a.applied, ...b.applied].sort()).toEqual(ALL);
    expect(await query(db.url, `SELECT 1 FROM "_prisma_migrations"`)).toHaveLength(ALL.length);
  });

  it("fails clearly on an unreachable database", async () => {
    await expect(migrate("postgres://postgres@127.0.0.1:1/nowhere")).rejects.toThrow();
  });
});

describe("migrate on embedded PGlite", () => {
  it("applies once, persists across a restart, and serves a pg pool", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "fiskal-pglite-"));
    try {
      const first = await startEmbeddedPostgres({ dataDir, port: 0 });
      try {
        expect(first.port).toBeGreaterThan(0);
        // The embedded server's TCP port asks for the password generated beside its data.
        expect(first.url).toMatch(new RegExp(`^postgres://postgres:[^@/]{16,}@127\\.0\\.0\\.1:${first.port}/postgres$`));
        expect(await migrate(first.url)).toEqual({ applied: ALL });
        expect(await migrate(first.url)).toEqual({ applied: [] });
        const db = createDb(first.url, { max: 4 });
        try {
          await db.account.create({ data: { name: "Persisted d.o.o." } });
        } finally {
          await db.$disconnect();
        }
        expect(JSON.parse(await readFile(`${dataDir}.lock`, "utf8"))).toEqual({ pid: process.pid, url: first.url });
        await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/already open in this process/);
        // Another live process serving a directory: refused, with the URL to use instead.
        const foreign = `${dataDir}-foreign`;
        await writeFile(`${foreign}.lock`, JSON.stringify({ pid: process.ppid, url: first.url }));
        const busy = await startEmbeddedPostgres({ dataDir: foreign }).catch((error: unknown) => error);
        await rm(`${foreign}.lock`, { force: true });
        await rm(foreign, { recursive: true, force: true });
        expect(busy).toBeInstanceOf(EmbeddedPostgresBusyError);
        expect(busy).toMatchObject({ pid: process.ppid, url: first.url });
      } finally {
        await first.close();
      }
      await expect(readFile(`${dataDir}.lock`, "utf8")).rejects.toThrow(/ENOENT/);

      // A lock left behind by a crashed process is taken over.
      await writeFile(`${dataDir}.lock`, JSON.stringify({ pid: 2 ** 22 + 1, url: first.url }));
      const second = await startEmbeddedPostgres({ dataDir });
      try {
        expect(await migrate(second.url)).toEqual({ applied: [] });
        const pool = new pg.Pool({ connectionString: second.url, max: 8 });
        try {
          const counts = await Promise.all(
            Array.from({ length: 16 }, () => pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Account" WHERE name = 'Persisted d.o.o.'`)),
          );
          expect(counts.map((r) => r.rows[0]?.n)).toEqual(Array(16).fill(1));
        } finally {
          await pool.end();
        }
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await rm(`${dataDir}.lock`, { force: true });
    }
  });
});
