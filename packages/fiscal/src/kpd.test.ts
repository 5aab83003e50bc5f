import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { foldText, KpdIndex, type KpdSearchHit, levelName, parseKpdCsv } from "./kpd.ts";

const CSV_PATH = new URL("../../db/data/kpd-2025.csv", import.meta.url);
let index: KpdIndex;
let csv: string;

beforeAll(() => {
  csv = readFileSync(CSV_PATH, "utf8");
  index = KpdIndex.fromRows(parseKpdCsv(csv));
});

const codes = (hits: KpdSearchHit[]) => hits.map((h) => h.entry.code);

describe("parseKpdCsv on the real KPD 2025 file", () => {
  it("loads all 5,828 rows with the published level counts", () => {
    const rows = parseKpdCsv(csv);
    expect(rows).toHaveLength(5828);
    expect(index.size).toBe(5828);
    const perLevel = [0, 0, 0, 0, 0, 0];
    for (const r of rows) perLevel[r.level]!++;
    expect(perLevel).toEqual([22, 87, 284, 644, 1432, 3359]);
    expect(new Set(rows.map((r) => r.section)).size).toBe(22);
  });

  it("keeps quoted names with commas and derives parents", () => {
    const rows = parseKpdCsv(csv);
    const byCode = new Map(rows.map((r) => [r.code, r]));
    expect(byCode.get("01.11.12")).toEqual({ code: "01.11.12", name: "Pšenica, osim tvrde", level: 5, section: "A", parentCode: "01.11.1" });
    expect(byCode.get("A")?.parentCode).toBeNull();
    expect(byCode.get("62")?.parentCode).toBe("K");
    expect(byCode.get("62.1")?.parentCode).toBe("62");
    expect(byCode.get("62.10")?.parentCode).toBe("62.1");
    expect(byCode.get("62.10.1")?.parentCode).toBe("62.10");
    expect(rows.every((r) => !r.name.includes("\r") && r.name === r.name.trim())).toBe(true);
  });
});

describe("parseKpdCsv on edge cases", () => {
  it("handles a BOM, LF endings, doubled quotes and quoted newlines", () => {
    const text = '\uFEFFcode,name,level,section\nA,"Say ""hi"", twice",0,A\n01,"two\nlines",1,A\n';
    expect(parseKpdCsv(text)).toEqual([
      { code: "A", name: 'Say "hi", twice', level: 0, section: "A", parentCode: null },
      { code: "01", name: "two\nlines", level: 1, section: "A", parentCode: "A" },
    ]);
  });

  it("throws with a line number on malformed input", () => {
    expect(() => parseKpdCsv("code,name\nA,x\n")).toThrow(/header/);
    expect(() => parseKpdCsv("code,name,level,section\r\nA,x,0\r\n")).toThrow(/line 2: expected 4 fields/);
    expect(() => parseKpdCsv("code,name,level,section\nA,x,0,A\n62.1,x,3,A\n")).toThrow(/line 3: code 62.1 does not have the shape of level 3/);
    expect(() => parseKpdCsv('code,name,level,section\nA,"x,0,A\n')).toThrow(/unterminated/);
  });
});

describe("KpdIndex.fromRows", () => {
  const row = (code: string, level: number, parentCode: string | null) => ({ code, name: code, level, section: "A", parentCode });
  it("refuses duplicates and orphans", () => {
    expect(() => KpdIndex.fromRows([row("A", 0, null), row("A", 0, null)])).toThrow(/duplicate code A/);
    expect(() => KpdIndex.fromRows([row("A", 0, null), row("01.1", 2, "01")])).toThrow(/parent 01 of 01.1 is missing/);
  });

  it("has a stable version that changes with the data", () => {
    const rows = parseKpdCsv(csv);
    expect(KpdIndex.fromRows(rows).version).toBe(index.version);
    expect(KpdIndex.fromRows([...rows].reverse()).version).toBe(index.version);
    expect(index.version).toMatch(/^[0-9a-f]{20}$/);
    const changed = rows.map((r) => (r.code === "62.10.11" ? { ...r, name: `${r.name}.` } : r));
    expect(KpdIndex.fromRows(changed).version).not.toBe(index.version);
  });
});

describe("KpdIndex.get", () => {
  it("returns 62.10.11 with its ancestors, root first", () => {
    const e = index.get("62.10.11")!;
    expect(e).toMatchObject({ code: "62.10.11", name: "Usluge IT dizajna i razvoja aplikacija", level: 5, section: "K", parentCode: "62.10.1", isLeaf: true });
    expect(e.ancestors.map((a) => a.code)).toEqual(["K", "62", "62.1", "62.10", "62.10.1"]);
    expect(e.ancestors.map((a) => a.level)).toEqual([0, 1, 2, 3, 4]);
    expect(e.ancestors[0]!.name).toMatch(/^TELEKOMUNIKACIJE, RAČUNALNO PROGRAMIRANJE/);
  });

  it("tolerates spaces and a lowercase section letter, nothing looser", () => {
    expect(index.get("  62.10.11 ")?.code).toBe("62.10.11");
    expect(index.get("k")?.code).toBe("K");
    expect(index.get("K")?.ancestors).toEqual([]);
    expect(index.get("K")?.isLeaf).toBe(false);
    expect(index.get("621011")).toBeUndefined();
    expect(index.get("62.10.99")).toBeUndefined();
    expect(index.get("")).toBeUndefined();
  });

  it("marks exactly the subcategories as leaves", () => {
    const leaves = index.entries().filter((e) => e.isLeaf);
    expect(leaves).toHaveLength(3359);
    expect(leaves.every((e) => e.level === 5)).toBe(true);
  });
});

describe("KpdIndex.search", () => {
  it("is diacritic-insensitive: psenica finds Pšenica", () => {
    const hits = index.search("psenica");
    expect(codes(hits)).toEqual(["01.11.1", "01.11.11", "01.11.12"]);
    expect(hits[0]!.entry.name).toBe("Pšenica");
    expect(codes(index.search("PŠENICA"))).toEqual(codes(hits));
  });

  it("folds č, ć, ž, š and đ (as d or dj)", () => {
    expect(codes(index.search("zitarice"))).toContain("01.11");
    expect(codes(index.search("racunalnog programiranja"))).toEqual(expect.arrayContaining(["62.1", "62.10"]));
    expect(codes(index.search("međunarodnim"))).toEqual(["51.10.13", "51.10.14"]);
    expect(codes(index.search("medunarodnim"))).toEqual(["51.10.13", "51.10.14"]);
    expect(codes(index.search("medjunarodnim"))).toEqual(["51.10.13", "51.10.14"]);
    expect(foldText("Čćžšđ ČĆŽŠĐ")).toBe("cczsd cczsd");
  });

  it("pages: the total counts every match, and the pages in order are the ranking", () => {
    const all = index.searchPage("usluge", { limit: 100 });
    expect(all.total).toBeGreaterThan(100);
    expect(all.hits).toHaveLength(100);
    const pages: string[] = [];
    for (let offset = 0; offset < all.total; offset += 37) {
      const page = index.searchPage("usluge", { limit: 37, offset });
      expect(page.total).toBe(all.total);
      pages.push(...codes(page.hits));
    }
    expect(pages).toHaveLength(all.total);
    expect(new Set(pages).size).toBe(all.total);
    expect(pages.slice(0, 100)).toEqual(codes(all.hits));
    // filters are counted too, and past the end a page is empty
    const leaves = index.searchPage("usluge", { level: 5, limit: 5 });
    expect(leaves.total).toBeLessThan(all.total);
    expect(index.searchPage("usluge", { offset: all.total, limit: 5 })).toEqual({ total: all.total, hits: [] });
    expect(index.searchPage("psenica softver")).toEqual({ total: 0, hits: [] });
  });

  it("requires every word to match", () => {
    expect(codes(index.search("tvrda psenica"))).toEqual(["01.11.11"]);
    expect(codes(index.search("psenica tvrda"))).toEqual(["01.11.11"]);
    expect(index.search("psenica softver")).toEqual([]);
    const hits = index.search("usluge prijevoza", { limit: 100 });
    expect(hits.length).toBeGreaterThan(5);
    for (const h of hits) expect(foldText(h.entry.name)).toMatch(/usluge.*prijevoz|prijevoz.*usluge/);
  });

  it("ranks exact code above code prefix, prefixes deeper first, then by code", () => {
    const hits = index.search("62.1", { limit: 8 });
    expect(codes(hits)).toEqual(["62.1", "62.10.11", "62.10.12", "62.10.21", "62.10.22", "62.10.1", "62.10.2", "62.10"]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(new Set(hits.slice(1).map((h) => h.score)).size).toBe(1);
    expect(codes(index.search("62.10.11"))).toEqual(["62.10.11"]);
  });

  it("ranks an exact name over word starts over substrings", () => {
    const hits = index.search("kukuruz", { limit: 100 });
    // Exact name first (deeper level wins the tie), then names with a word starting "kukuruz".
    expect(codes(hits).slice(0, 2)).toEqual(["01.11.20", "01.11.2"]);
    expect(codes(hits)).toContain("10.62.14"); // Kukuruzno ulje
    const sub = index.search("uruz", { limit: 100 });
    expect(codes(sub)).toEqual(expect.arrayContaining(["01.11.20", "10.62.14"]));
    const scoreOf = (list: KpdSearchHit[], code: string) => list.find((h) => h.entry.code === code)!.score;
    expect(scoreOf(hits, "01.11.20")).toBeGreaterThan(scoreOf(hits, "10.62.14"));
    expect(scoreOf(hits, "10.62.14")).toBeGreaterThan(scoreOf(sub, "10.62.14"));
  });

  it("orders every result list by score, then deeper level, then code", () => {
    for (const q of ["usluge", "ulje", "62", "proizvodi od", "a"]) {
      const hits = index.search(q, { limit: 100 });
      for (let i = 1; i < hits.length; i++) {
        const [a, b] = [hits[i - 1]!, hits[i]!];
        const ordered = a.score > b.score || (a.score === b.score && (a.entry.level > b.entry.level || (a.entry.level === b.entry.level && a.entry.code < b.entry.code)));
        expect(ordered, `${q}: ${a.entry.code} before ${b.entry.code}`).toBe(true);
      }
    }
  });

  it("applies limit (default 20, at most 100), level and section filters", () => {
    expect(index.search("usluge")).toHaveLength(20);
    expect(index.search("usluge", { limit: 500 })).toHaveLength(100);
    expect(index.search("usluge", { limit: 0 })).toHaveLength(1);
    expect(index.search("usluge", { limit: 3 })).toHaveLength(3);
    const k = index.search("usluge", { level: 2, section: "k", limit: 100 });
    expect(k.length).toBeGreaterThan(0);
    expect(k.every((h) => h.entry.level === 2 && h.entry.section === "K")).toBe(true);
    expect(index.search("psenica", { level: 5 }).map((h) => h.entry.code)).toEqual(["01.11.11", "01.11.12"]);
  });

  it("returns nothing for blank or unmatched queries", () => {
    expect(index.search("")).toEqual([]);
    expect(index.search("   ")).toEqual([]);
    expect(index.search("!!!")).toEqual([]);
    expect(index.search("xyzzyq")).toEqual([]);
  });

  it("ignores repeated words and caps very long queries", () => {
    expect(codes(index.search("psenica psenica Pšenica"))).toEqual(["01.11.1", "01.11.11", "01.11.12"]);
    expect(index.search(`psenica ${"x".repeat(10_000)}`)).toEqual([]);
    expect(codes(index.search(`${"psenica ".repeat(25)}zzz`))).toEqual(["01.11.1", "01.11.11", "01.11.12"]);
  });
});

describe("levelName", () => {
  it("names the six levels and refuses others", () => {
    expect([0, 1, 2, 3, 4, 5].map(levelName)).toEqual(["section", "division", "group", "class", "category", "subcategory"]);
    expect(() => levelName(6)).toThrow(RangeError);
    expect(() => levelName(-1)).toThrow(RangeError);
  });
});
