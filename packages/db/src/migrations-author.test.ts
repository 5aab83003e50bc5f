import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createMigration, pendingSchemaChanges } from "./migrations-author.ts";

describe("migrations folder", () => {
  it("matches schema.prisma (a schema change without a migration fails here)", async () => {
    expect(await pendingSchemaChanges()).toBeNull();
  });

  it("migrate:new writes the whole schema into an empty folder, and refuses a blank name", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "fiskal-migrations-"));
    try {
      await expect(createMigration("  ?? ", { migrationsDir: dir })).rejects.toThrow(/invalid migration name/);
      expect(await readdir(dir)).toEqual([]);
      const result = await createMigration("Add Things", { migrationsDir: dir, now: new Date("2026-01-02T03:04:05Z") });
      expect(result?.created).toBe("20260102030405_add_things");
      expect((await readdir(dir)).sort()).toEqual(["20260102030405_add_things", "migration_lock.toml"]);
      const sql = await readFile(path.join(dir, "20260102030405_add_things", "migration.sql"), "utf8");
      expect(sql).toContain(`CREATE TABLE "KpdCode"`);
      expect(sql).toContain(`CREATE TYPE "Plan" AS ENUM ('SANDBOX', 'STARTER', 'BUSINESS', 'ENTERPRISE')`);
      expect(await readFile(path.join(dir, "migration_lock.toml"), "utf8")).toContain(`provider = "postgresql"`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
