import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, createTestDatabase, type Db } from "@fiskal/db";
import { readKpdCsv, seedKpd } from "./kpd.ts";

describe("readKpdCsv", () => {
  it("reads all 5,828 rows of the file, each with its parent up to the section", async () => {
    const rows = await readKpdCsv();
    expect(rows).toHaveLength(5828);
    expect(rows.filter((r) => r.level === 0)).toHaveLength(22);
    const parent = (code: string) => rows.find((r) => r.code === code)?.parentCode;
    expect(["62.10.11", "62.10.1", "62.10", "62.1", "62", "K"].map(parent)).toEqual(["62.10.1", "62.10", "62.1", "62", "K", null]);
  });

  it("names the file and the line of a malformed row (the parser is @fiskal/fiscal's)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "fiskal-kpd-"));
    try {
      const bad = path.join(dir, "bad.csv");
      await writeFile(bad, 'code,name,level,section\r\nA,"Poljoprivreda, šumarstvo",0,A\r\n01,Usjevi,2,A\r\n');
      await expect(readKpdCsv(bad)).rejects.toThrow(`${bad}: KPD CSV line 3: code 01 does not have the shape of level 2`);
      const duplicate = path.join(dir, "dup.csv");
      await writeFile(duplicate, 'code,name,level,section\nA,"Poljoprivreda, ""šumarstvo""",0,A\nA,Opet,0,A\n');
      await expect(readKpdCsv(duplicate)).rejects.toThrow(/duplicate code A/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("seedKpd", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let dir: string;
  beforeAll(async () => {
    // migrated, with an empty KpdCode table
    database = await createTestDatabase();
    db = createDb(database.url, { max: 2 });
    dir = await mkdtemp(path.join(tmpdir(), "fiskal-kpd-"));
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a file whose parent codes are missing, inserting nothing", async () => {
    const bad = path.join(dir, "bad.csv");
    await writeFile(bad, "code,name,level,section\nA,Poljoprivreda,0,A\n01.1,Usjevi,2,A\n");
    await expect(seedKpd(db, bad)).rejects.toThrow(/parent 01 of 01.1/);
    expect(await db.kpdCode.count()).toBe(0);
  });

  it("loads every row with its parent, then skips when loaded", async () => {
    expect(await seedKpd(db)).toEqual({ inserted: 5828 });
    expect(await db.kpdCode.count()).toBe(5828);
    const byCode = async (code: string) => db.kpdCode.findUniqueOrThrow({ where: { code } });
    expect(await byCode("62.10.11")).toMatchObject({ parentCode: "62.10.1", level: 5, section: "K" });
    expect(await byCode("A")).toMatchObject({ parentCode: null, level: 0 });
    expect(await byCode("01")).toMatchObject({ parentCode: "A", level: 1 });
    const orphans = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "KpdCode" c
      WHERE c."parentCode" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "KpdCode" p WHERE p.code = c."parentCode")`;
    expect(orphans[0]?.n).toBe(0);
    expect(await seedKpd(db)).toEqual({ inserted: 0 });
  });

  it("fills in rows that went missing", async () => {
    const { count } = await db.kpdCode.deleteMany({ where: { section: "V" } });
    expect(count).toBe(6);
    expect(await seedKpd(db)).toEqual({ inserted: 6 });
    expect(await db.kpdCode.count()).toBe(5828);
  });
});
