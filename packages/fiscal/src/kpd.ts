// KPD 2025 (Klasifikacija proizvoda po djelatnostima): parsing, lookup and search.
import { createHash } from "node:crypto";

export interface KpdRow {
  code: string;
  name: string;
  level: number;
  section: string;
  parentCode: string | null;
}

export interface KpdEntry extends KpdRow {
  /** Root (section) first, parent last; empty for a section. */
  ancestors: { code: string; name: string; level: number }[];
  isLeaf: boolean;
}

export interface KpdSearchOptions {
  /** Default 20, clamped to 1..100. */
  limit?: number;
  /** Hits to skip in the ranked order (paging); default 0. */
  offset?: number;
  level?: number;
  section?: string;
}

export interface KpdSearchHit {
  entry: KpdEntry;
  score: number;
}

const LEVEL_NAMES = ["section", "division", "group", "class", "category", "subcategory"] as const;
export type KpdLevelName = (typeof LEVEL_NAMES)[number];

export function levelName(level: number): KpdLevelName {
  const name = LEVEL_NAMES[level];
  if (name === undefined) throw new RangeError(`KPD level must be 0..5, got ${level}`);
  return name;
}

// The code shape of each level: A, 62, 62.1, 62.10, 62.10.1, 62.10.11.
const CODE_SHAPES = [/^[A-Z]$/, /^\d{2}$/, /^\d{2}\.\d$/, /^\d{2}\.\d{2}$/, /^\d{2}\.\d{2}\.\d$/, /^\d{2}\.\d{2}\.\d{2}$/];

/** The level a code's shape implies, or null for something that is not a KPD code. */
export function kpdCodeLevel(code: string): number | null {
  const level = CODE_SHAPES.findIndex((re) => re.test(code));
  return level === -1 ? null : level;
}

/** Parent code by structure; divisions' parent is their section, which the code alone does not tell. */
function parentOf(code: string, level: number, section: string): string | null {
  if (level === 0) return null;
  if (level === 1) return section;
  const cut = code.slice(0, -1);
  return cut.endsWith(".") ? cut.slice(0, -1) : cut;
}

/**
 * RFC 4180 records: quoted fields, doubled quotes, CRLF or LF, optional BOM.
 * Fields are sliced out of the text, not appended char by char (which builds long V8 ropes).
 */
function csvRecords(text: string): { fields: string[]; line: number }[] {
  const records: { fields: string[]; line: number }[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < text.length) {
    const recordLine = line;
    const fields: string[] = [];
    for (;;) {
      let field: string;
      if (text[i] === '"') {
        let j = i + 1;
        let value = "";
        for (;;) {
          const q = text.indexOf('"', j);
          if (q === -1) throw new Error(`KPD CSV: unterminated quoted field starting on line ${recordLine}`);
          value += text.slice(j, q);
          if (text[q + 1] === '"') {
            value += '"';
            j = q + 2;
          } else {
            j = q + 1;
            break;
          }
        }
        for (const ch of text.slice(i, j)) if (ch === "\n") line++;
        field = value;
        i = j;
        if (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
          throw new Error(`KPD CSV line ${line}: text after a closing quote`);
        }
      } else {
        let j = i;
        while (j < text.length && text[j] !== "," && text[j] !== "\r" && text[j] !== "\n") j++;
        field = text.slice(i, j);
        i = j;
      }
      fields.push(field);
      if (text[i] === ",") {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === "\r") i++;
    if (text[i] === "\n") i++;
    line++;
    if (!(fields.length === 1 && fields[0] === "")) records.push({ fields, line: recordLine });
  }
  return records;
}

/**
 * Parses the KPD 2025 CSV (`code,name,level,section`) and derives each row's parent code.
 * Throws on a malformed file: it is trusted reference data, and a silent partial load would be worse.
 */
export function parseKpdCsv(csvText: string): KpdRow[] {
  const records = csvRecords(csvText);
  const header = records.shift();
  if (!header || header.fields.join(",") !== "code,name,level,section") {
    throw new Error(`KPD CSV: expected header "code,name,level,section", got ${JSON.stringify(header?.fields.join(","))}`);
  }
  return records.map(({ fields, line }) => {
    if (fields.length !== 4) throw new Error(`KPD CSV line ${line}: expected 4 fields, got ${fields.length}`);
    const [code, name, levelText, section] = fields as [string, string, string, string];
    const level = Number(levelText);
    if (kpdCodeLevel(code) !== level) throw new Error(`KPD CSV line ${line}: code ${code} does not have the shape of level ${levelText}`);
    if (!/^[A-Z]$/.test(section)) throw new Error(`KPD CSV line ${line}: bad section ${JSON.stringify(section)}`);
    if (name.trim() === "") throw new Error(`KPD CSV line ${line}: empty name for ${code}`);
    return { code, name, level, section, parentCode: parentOf(code, level, section) };
  });
}

/**
 * Folds text for matching: lowercase, no diacritics (č/ć→c, š→s, ž→z, đ→d), punctuation as spaces.
 * `dj` is the other common spelling of đ, so names with a đ are also indexed with dj (`foldDj`).
 */
export function foldText(s: string): string {
  return s
    .toLowerCase()
    .replace(/đ/g, "d")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9.]+/g, " ")
    .replace(/(^|\s)\.+|\.+(?=\s|$)/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The variant of a name where đ is spelled dj ("Međunarodni" → "medjunarodni"). */
function foldDj(s: string): string | null {
  return /đ/i.test(s) ? foldText(s.replace(/đ/g, "dj").replace(/Đ/g, "Dj")) : null;
}

interface Indexed {
  entry: KpdEntry;
  folded: string;
  /** The name with đ folded to dj, when it has a đ. */
  foldedDj: string | null;
  /** Position in file order. */
  index: number;
  /** Position of the code in ascending string order, the last tie-breaker. */
  codeRank: number;
}

// Score tiers: every hit in a higher tier outranks every hit in a lower one.
const SCORE_EXACT_CODE = 1000;
const SCORE_CODE_PREFIX = 900;
const SCORE_WORD_START = 500; // + up to 100 for whole-word matches, + 200 when the name is exactly the query
const SCORE_SUBSTRING = 100; // + up to 99 for the share of words that do match at a word start

const MAX_QUERY_LENGTH = 200;
const CODE_QUERY = /^\d{1,2}(?:\.\d{0,2}){0,2}$/;

// How one query word matches one name: within a token, at a token start, or a whole token.
const MATCH_SUBSTRING = 1;
const MATCH_START = 2;
const MATCH_WHOLE = 3;

export class KpdIndex {
  readonly size: number;
  readonly version: string;
  private readonly byCode: Map<string, KpdEntry>;
  private readonly indexOf: Map<string, number>;
  private readonly indexed: Indexed[];
  private readonly byCodeRank: Indexed[];
  // Inverted index over the folded name tokens: scanning the ~8k distinct tokens per query word
  // is an order of magnitude cheaper than scanning every name.
  private readonly vocab: string[];
  private readonly postings: Int32Array[];
  private readonly scratch: { matched: Uint8Array; starts: Uint8Array; wholes: Uint8Array; best: Uint8Array; scores: Uint16Array; keys: Float64Array };

  private constructor(entries: KpdEntry[], version: string) {
    this.size = entries.length;
    this.version = version;
    this.byCode = new Map(entries.map((e) => [e.code, e]));
    this.indexed = entries.map((entry, index) => ({ entry, folded: foldText(entry.name), foldedDj: foldDj(entry.name), index, codeRank: 0 }));
    this.indexOf = new Map(entries.map((e, i) => [e.code, i]));
    this.byCodeRank = [...this.indexed].sort((a, b) => compareCodes(a.entry.code, b.entry.code));
    this.byCodeRank.forEach((item, rank) => {
      item.codeRank = rank;
    });
    const tokens = new Map<string, number[]>();
    this.indexed.forEach((item, i) => {
      const words = new Set(item.folded.split(" "));
      for (const w of item.foldedDj?.split(" ") ?? []) words.add(w);
      for (const w of words) {
        const list = tokens.get(w);
        if (list) list.push(i);
        else tokens.set(w, [i]);
      }
    });
    const n = entries.length;
    this.scratch = { matched: new Uint8Array(n), starts: new Uint8Array(n), wholes: new Uint8Array(n), best: new Uint8Array(n), scores: new Uint16Array(n), keys: new Float64Array(n) };
    this.vocab = [...tokens.keys()];
    this.postings = [...tokens.values()].map((list) => Int32Array.from(list));
  }

  /** Builds the index; throws on duplicate codes or a row whose parent is missing. */
  static fromRows(rows: KpdRow[]): KpdIndex {
    const rowsByCode = new Map<string, KpdRow>();
    for (const row of rows) {
      if (rowsByCode.has(row.code)) throw new Error(`KPD: duplicate code ${row.code}`);
      rowsByCode.set(row.code, row);
    }
    const withChildren = new Set<string>();
    for (const row of rows) {
      if (row.parentCode === null) continue;
      if (!rowsByCode.has(row.parentCode)) throw new Error(`KPD: parent ${row.parentCode} of ${row.code} is missing`);
      withChildren.add(row.parentCode);
    }
    const entries = rows.map((row): KpdEntry => {
      const ancestors: KpdEntry["ancestors"] = [];
      for (let p = row.parentCode; p !== null; ) {
        const parent = rowsByCode.get(p);
        if (!parent || ancestors.length > 5) throw new Error(`KPD: broken ancestry for ${row.code}`);
        ancestors.unshift({ code: parent.code, name: parent.name, level: parent.level });
        p = parent.parentCode;
      }
      // An explicit literal (not a spread) gives every entry one hidden class; mixed shapes made
      // the search loop's property reads megamorphic and an order of magnitude slower.
      return {
        code: row.code,
        name: row.name,
        level: row.level,
        section: row.section,
        parentCode: row.parentCode,
        ancestors,
        isLeaf: !withChildren.has(row.code),
      };
    });
    // Hashed in code order so the version does not depend on the order rows were loaded in.
    const hash = createHash("sha256");
    for (const r of [...rows].sort((a, b) => compareCodes(a.code, b.code))) hash.update(`${r.code}\u0000${r.name}\u0000${r.level}\u0000${r.section}\u0000${r.parentCode ?? ""}\n`);
    return new KpdIndex(entries, hash.digest("hex").slice(0, 20));
  }

  /** Exact code lookup; tolerates surrounding spaces and a lowercase section letter. */
  get(code: string): KpdEntry | undefined {
    if (typeof code !== "string") return undefined;
    return this.byCode.get(code.trim().toUpperCase());
  }

  /**
   * Ranked search over codes and names. Diacritic- and case-insensitive; every query word must
   * match somewhere in the name (each word within one name word).
   * Tiers: exact code (1000) > code prefix (900) > all words at word starts (500–800: +100 × share
   * of whole-word matches, +200 when the name equals the query) > substrings (100–199).
   * Ties go to the deeper level first (subcategories are what invoice lines need), then code order.
   */
  search(query: string, opts: KpdSearchOptions = {}): KpdSearchHit[] {
    return this.searchPage(query, opts).hits;
  }

  /**
   * One page of the ranked search: `hits` from position `offset`, and `total`, how many entries
   * match the query and the filters in all.
   */
  searchPage(query: string, opts: KpdSearchOptions = {}): { total: number; hits: KpdSearchHit[] } {
    const requested = opts.limit !== undefined && Number.isFinite(opts.limit) ? Math.floor(opts.limit) : 20;
    const offset = opts.offset !== undefined && Number.isFinite(opts.offset) ? Math.max(0, Math.floor(opts.offset)) : 0;
    const pageSize = Math.min(100, Math.max(1, requested));
    const section = opts.section?.trim().toUpperCase();
    // Capped so a pathological query cannot cost more than a few milliseconds.
    const raw = typeof query === "string" ? query.slice(0, MAX_QUERY_LENGTH).trim() : "";
    const words = [...new Set(foldText(raw).split(" "))].filter((w) => w !== "");
    if (words.length === 0) return { total: 0, hits: [] };
    const folded = words.join(" ");
    const codeQuery = CODE_QUERY.test(raw) ? raw : null;
    const upper = raw.toUpperCase();
    const n = this.indexed.length;

    // Per entry: how many query words matched, how many at a word start, how many whole.
    // Scratch buffers are reused across calls (search is synchronous) to keep the GC out of it.
    const { matched, starts, wholes, best, scores } = this.scratch;
    matched.fill(0);
    starts.fill(0);
    wholes.fill(0);
    scores.fill(0);
    for (const w of words) {
      best.fill(0);
      for (let t = 0; t < this.vocab.length; t++) {
        const token = this.vocab[t]!;
        if (token.length < w.length) continue;
        const kind = token === w ? MATCH_WHOLE : token.startsWith(w) ? MATCH_START : token.includes(w) ? MATCH_SUBSTRING : 0;
        if (kind === 0) continue;
        const list = this.postings[t]!;
        for (let j = 0; j < list.length; j++) {
          const i = list[j]!;
          if (best[i]! < kind) best[i] = kind;
        }
      }
      for (let i = 0; i < n; i++) {
        const kind = best[i]!;
        if (kind === 0) continue;
        matched[i]!++;
        if (kind >= MATCH_START) starts[i]!++;
        if (kind === MATCH_WHOLE) wholes[i]!++;
      }
    }

    const w = words.length;
    for (let i = 0; i < n; i++) {
      if (matched[i] !== w) continue;
      if (starts[i]! < w) scores[i] = SCORE_SUBSTRING + Math.floor((99 * starts[i]!) / w);
      else {
        const item = this.indexed[i]!;
        const exact = item.folded === folded || item.foldedDj === folded ? 200 : 0;
        scores[i] = SCORE_WORD_START + Math.floor((100 * wholes[i]!) / w) + exact;
      }
    }
    if (codeQuery !== null) {
      // Codes sharing a prefix are contiguous in code order: binary search to the first one.
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.byCodeRank[mid]!.entry.code < codeQuery) lo = mid + 1;
        else hi = mid;
      }
      for (let r = lo; r < n && this.byCodeRank[r]!.entry.code.startsWith(codeQuery); r++) scores[this.byCodeRank[r]!.index] = SCORE_CODE_PREFIX;
    }
    const exact = this.byCode.get(upper);
    if (exact) scores[this.indexOf.get(exact.code)!] = SCORE_EXACT_CODE;

    // Each hit becomes one number that sorts descending into the documented order:
    // score, then deeper level, then code ascending (codeRank is the position in code order).
    // Only the best `offset + pageSize` are kept, in a min-heap, so a query matching everything
    // costs no full sort; every match is counted for the total.
    const limit = Math.min(n, offset + pageSize);
    const heap = this.scratch.keys;
    let size = 0;
    let total = 0;
    for (let i = 0; i < n; i++) {
      const score = scores[i]!;
      if (score === 0) continue;
      const item = this.indexed[i]!;
      const e = item.entry;
      if (opts.level !== undefined && e.level !== opts.level) continue;
      if (section !== undefined && e.section !== section) continue;
      total++;
      if (limit === 0) continue;
      const key = (score * 8 + e.level) * n + (n - 1 - item.codeRank);
      if (size < limit) heapPush(heap, size++, key);
      else if (key > heap[0]!) heapReplaceTop(heap, size, key);
    }
    const ranked = heap.subarray(0, size).sort().reverse();
    const hits: KpdSearchHit[] = [];
    for (let i = offset; i < size; i++) {
      const key = ranked[i]!;
      const item = this.byCodeRank[n - 1 - (key % n)]!;
      hits.push({ entry: item.entry, score: Math.floor(key / n / 8) });
    }
    return { total, hits };
  }

  /** All entries in file order. */
  entries(): KpdEntry[] {
    return this.indexed.map((i) => i.entry);
  }
}

function heapPush(heap: Float64Array, size: number, key: number): void {
  let i = size;
  heap[i] = key;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent]! <= heap[i]!) break;
    [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
    i = parent;
  }
}

function heapReplaceTop(heap: Float64Array, size: number, key: number): void {
  heap[0] = key;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let smallest = i;
    if (l < size && heap[l]! < heap[smallest]!) smallest = l;
    if (r < size && heap[r]! < heap[smallest]!) smallest = r;
    if (smallest === i) return;
    [heap[smallest], heap[i]] = [heap[i]!, heap[smallest]!];
    i = smallest;
  }
}

function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Convenience: parse the CSV text and index it. */
export function kpdIndexFromCsv(csvText: string): KpdIndex {
  return KpdIndex.fromRows(parseKpdCsv(csvText));
}
