import { readFile } from "node:fs/promises";
import { insertKpdRows, KPD_CSV_PATH, type Db } from "@fiskal/db";
import { parseKpdCsv, type KpdRow } from "@fiskal/fiscal";

/**
 * Reads the KPD file with the one KPD parser (@fiskal/fiscal parseKpdCsv: header, fields, level
 * shapes, parents) and checks what a load into the table needs besides: unique codes, and that
 * every parent is in the file.
 */
export async function readKpdCsv(csvPath: string = KPD_CSV_PATH): Promise<KpdRow[]> {
  let rows: KpdRow[];
  try {
    rows = parseKpdCsv(await readFile(csvPath, "utf8"));
  } catch (err) {
    throw new Error(`${csvPath}: ${(err as Error).message}`, { cause: err });
  }
  const codes = new Set<string>();
  for (const row of rows) {
    if (codes.has(row.code)) throw new Error(`${csvPath}: duplicate code ${row.code}`);
    codes.add(row.code);
  }
  for (const row of rows) {
    if (row.parentCode !== null && !codes.has(row.parentCode)) {
      throw new Error(`${csvPath}: parent ${row.parentCode} of ${row.code} is not in the file`);
    }
  }
  return rows;
}

/**
 * Loads the KPD classification (the file kept by @fiskal/db, `KPD_CSV_PATH`) into KpdCode. Rows
 * already present are left alone, so it is safe to run at every start; a fully loaded table costs
 * one count query, the load itself one statement (`insertKpdRows`).
 */
export async function seedKpd(db: Db, csvPath: string = KPD_CSV_PATH): Promise<{ inserted: number }> {
  const rows = await readKpdCsv(csvPath);
  if ((await db.kpdCode.count()) >= rows.length) return { inserted: 0 };
  return { inserted: await insertKpdRows(db, rows) };
}
