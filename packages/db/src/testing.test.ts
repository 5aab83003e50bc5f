import { readdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { MIGRATIONS_DIR } from "./paths.ts";
import { describe, expect, it } from "vitest";
import { createTestDatabase, templateName, type TestDatabaseSeed } from "./testing.ts";
import { adminQuery, query } from "./test-support.ts";

const templateState = async (name: string) =>
  (await adminQuery<{ oid: number; datistemplate: boolean }>("SELECT oid::int, datistemplate FROM pg_database WHERE datname = $1", [name])).rows[0];

async function dropTemplate(name: string): Promise<void> {
  await adminQuery(`ALTER DATABASE "${name}" WITH IS_TEMPLATE false`).catch(() => {});
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

describe("createTestDatabase", () => {
  it("gives isolated, migrated and seeded databases copied from one template, seeded once", async () => {
    let runs = 0;
    // A version of its own: this test builds (and removes) its own template.
    const seed: TestDatabaseSeed = {
      version: `test-${randomBytes(6).toString("hex")}`,
      run: async (db) => {
        runs++;
        await db.account.create({ data: { name: "Seeded" } });
      },
    };
    const name = templateName(seed);
    expect(name).not.toBe(templateName());
    expect(name).toBe(templateName(seed));
    try {
      const a = await createTestDatabase({ seed });
      const template = await templateState(name);
      expect(template?.datistemplate).toBe(true);
      const b = await createTestDatabase({ seed });
      try {
        expect(a.url).not.toBe(b.url);
        // Reused, not rebuilt: the seed ran once.
        expect(await templateState(name)).toEqual(template);
        expect(runs).toBe(1);
        const migrations = readdirSync(MIGRATIONS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).length;
        for (const url of [a.url, b.url]) {
          expect(await query(url, `SELECT count(*)::int AS n FROM "_prisma_migrations"`)).toEqual([{ n: migrations }]);
          expect(await query(url, `SELECT name FROM "Account"`)).toEqual([{ name: "Seeded" }]);
        }
        await query(a.url, `INSERT INTO "Account" (id, name, "updatedAt") VALUES (gen_random_uuid(), 'Only in A', now())`);
        expect(await query(a.url, `SELECT name FROM "Account" ORDER BY name`)).toEqual([{ name: "Only in A" }, { name: "Seeded" }]);
        expect(await query(b.url, `SELECT name FROM "Account"`)).toEqual([{ name: "Seeded" }]);
      } finally {
        await a.drop();
        await b.drop();
      }
      const copy = new URL(a.url).pathname.slice(1);
      expect((await adminQuery("SELECT 1 FROM pg_database WHERE datname = $1", [copy])).rows).toHaveLength(0);
      await a.drop();
    } finally {
      await dropTemplate(name);
    }
  });

  it("without a seed, gives a migrated database with empty tables", async () => {
    const t = await createTestDatabase();
    try {
      expect(await query(t.url, `SELECT count(*)::int AS n FROM "KpdCode"`)).toEqual([{ n: 0 }]);
      expect(await query(t.url, `SELECT count(*)::int AS n FROM "Account"`)).toEqual([{ n: 0 }]);
    } finally {
      await t.drop();
    }
  });
});
