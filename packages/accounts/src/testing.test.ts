import { describe, expect, it } from "vitest";
import { createDb } from "@fiskal/db";
import { createTestDatabase } from "./testing.ts";

describe("createTestDatabase", () => {
  it("gives databases of their own with the whole KPD classification loaded", async () => {
    const a = await createTestDatabase();
    const b = await createTestDatabase();
    try {
      expect(a.url).not.toBe(b.url);
      for (const url of [a.url, b.url]) {
        const db = createDb(url, { max: 1 });
        try {
          expect(await db.kpdCode.count()).toBe(5828);
          expect(await db.kpdCode.findUnique({ where: { code: "62.10.11" } })).toMatchObject({ parentCode: "62.10.1" });
        } finally {
          await db.$disconnect();
        }
      }
    } finally {
      await a.drop();
      await b.drop();
    }
  });
});
