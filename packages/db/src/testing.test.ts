import { readdirSync } from "node:fs";
import { MIGRATIONS_DIR } from "./paths.ts";
import { describe, expect, it } from "vitest";
import { createTestDatabase, templateName } from "./testing.ts";
import { adminQuery, query } from "./test-support.ts";

describe("createTestDatabase", () => {
  it("gives isolated, migrated and seeded databases copied from one template", async () => {
    const a = await createTestDatabase();
    const oid = async () =>
      (await adminQuery<{ oid: number; datistemplate: boolean }>("SELECT oid::int, datistemplate FROM pg_database WHERE datname = $1", [templateName()])).rows[0];
    const template = await oid();
    expect(template?.datistemplate).toBe(true);
    const b = await createTestDatabase();
    try {
      expect(a.url).not.toBe(b.url);
      // Reused, not rebuilt.
      expect(await oid()).toEqual(template);
      for (const url of [a.url, b.url]) {
        expect(await query(url, `SELECT count(*)::int AS n FROM "KpdCode"`)).toEqual([{ n: 5828 }]);
        const migrations = readdirSync(MIGRATIONS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).length;
        expect(await query(url, `SELECT count(*)::int AS n FROM "_prisma_migrations"`)).toEqual([{ n: migrations }]);
      }
      await query(a.url, `INSERT INTO "Account" (id, name, "updatedAt") VALUES (gen_random_uuid(), 'Only in A', now())`);
      expect(await query(a.url, `SELECT name FROM "Account"`)).toEqual([{ name: "Only in A" }]);
      expect(await query(b.url, `SELECT name FROM "Account"`)).toEqual([]);
    } finally {
      await a.drop();
      await b.drop();
    }
    const name = new URL(a.url).pathname.slice(1);
    expect((await adminQuery("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rows).toHaveLength(0);
    await a.drop();
  });
});
