import { readFile } from "node:fs/promises";
import type { Db } from "./client.ts";
import { KPD_CSV_PATH } from "./paths.ts";

export type KpdRow = { code: string; name: string; level: number; section: string; parentCode: string | null };

/** The code one level up: 62.10.11 → 62.10.1 → 62.10 → 62.1 → 62 → its section letter → none. */
export function kpdParentCode(code: string, section: string): string | null {
  if (/^[A-Z]$/.test(code)) return null;
  if (/^\d\d$/.test(code)) return section;
  return code.slice(0, -1).replace(/\.$/, "");
}

/** Minimal RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ""));
}

/** Parses and checks the KPD file: header, levels, and that every parent exists in it. */
export async function readKpdCsv(csvPath: string = KPD_CSV_PATH): Promise<KpdRow[]> {
  const [header, ...lines] = parseCsv((await readFile(csvPath, "utf8")).replace(/^\uFEFF/, ""));
  if (header?.join(",") !== "code,name,level,section") {
    throw new Error(`${csvPath}: expected header "code,name,level,section", got "${header?.join(",") ?? ""}"`);
  }
  const rows = lines.map((fields, i): KpdRow => {
    const [code, name, level, section] = fields;
    const lineNo = i + 2;
    if (fields.length !== 4 || !code || !name || !section || !/^[0-5]$/.test(level ?? "")) {
      throw new Error(`${csvPath}:${lineNo}: malformed row ${JSON.stringify(fields)}`);
    }
    return { code, name, level: Number(level), section, parentCode: kpdParentCode(code, section) };
  });
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
 * Loads the KPD classification into KpdCode. Rows already present are left alone, so it is safe
 * to run at every start; a fully loaded table costs one count query. One INSERT … unnest carries
 * all rows: measured ~25× faster than Prisma's createMany for these 5,828 rows.
 */
export async function seedKpd(db: Db, csvPath: string = KPD_CSV_PATH): Promise<{ inserted: number }> {
  const rows = await readKpdCsv(csvPath);
  if ((await db.kpdCode.count()) >= rows.length) return { inserted: 0 };
  const inserted = await db.$executeRaw`
    INSERT INTO "KpdCode" (code, name, level, section, "parentCode")
    SELECT * FROM unnest(
      ${rows.map((r) => r.code)}::text[],
      ${rows.map((r) => r.name)}::text[],
      ${rows.map((r) => r.level)}::int[],
      ${rows.map((r) => r.section)}::text[],
      ${rows.map((r) => r.parentCode)}::text[]
    )
    ON CONFLICT (code) DO NOTHING`;
  return { inserted };
}
