/**
 * The multi-window decision (DESIGN §4): the Lua script (multi-window.lua, where KEYS, ARGV, the
 * stored layouts and the rules are documented) and its JavaScript twin for the in-process store,
 * which runs the same algorithm on the same stored bytes. A differential test (differential.test.ts)
 * runs both on the same random schedules and requires identical replies.
 *
 * The script's text is taken at build time: the API's esbuild bundle inlines it (the define
 * `__FISKAL_MULTI_WINDOW_LUA__`, apps/api/scripts/build.mjs), the portal's Next build through its
 * `env` (apps/web/next.config.ts); run from the sources (tsx, vitest) it is read beside this file.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

declare const __FISKAL_MULTI_WINDOW_LUA__: string | undefined;

/** Inlined by a bundler: the API's esbuild define, or the portal's Next `env` (honoured only inside Next). */
function inlinedScript(): string | undefined {
  if (typeof __FISKAL_MULTI_WINDOW_LUA__ === "string") return __FISKAL_MULTI_WINDOW_LUA__;
  // eslint-disable-next-line no-restricted-properties -- a constant Next inlines at build time, not configuration
  return process.env.NEXT_RUNTIME ? process.env.FISKAL_MULTI_WINDOW_LUA : undefined;
}

export const SCRIPT: string = inlinedScript() ?? readFileSync(new URL("./multi-window.lua", import.meta.url), "utf8");

export const SCRIPT_SHA = createHash("sha1").update(SCRIPT).digest("hex");

/** Rolling windows up to this limit are sliding logs; above it, sub-bucketed (see the script). */
export const RING_LIMIT = 100_000;
/** Sub-buckets per window of a sub-bucketed window. */
const SUB_BUCKETS = 100;
const DAY_MS = 86_400_000;
/** Entries read at once when the oldest entry inside a log has left. */
const CHUNK = 8;
/** A log key's time to live when renewed: 2 × width + RENEW_SLACK ms. */
const RENEW_SLACK = 10_000;
const HEADER_LEN = 8;
const SLOT_LEN = 40;
const ENTRY_LEN = 8;
const EMPTY_SLOT = "\0".repeat(SLOT_LEN);

/** The commands the script uses, as the in-process store provides them. Strings hold bytes (latin1). */
export interface ScriptStore {
  get(key: string): string | null;
  /** Redis GETRANGE: bytes `from`…`to` inclusive, "" when the key is missing */
  getrange(key: string, from: number, to: number): string;
  set(key: string, value: string, pxMs: number): void;
  /** Redis SETRANGE: zero-padded, the key's time to live kept (none for a new key) */
  setrange(key: string, offset: number, value: string): void;
  pexpire(key: string, ms: number): void;
  /** Redis TYPE */
  type(key: string): "string" | "hash" | "none";
  del(key: string): void;
  /** a hash as [field, value, field, value, …]; [] when missing */
  hgetall(key: string): string[];
  hset(key: string, pairs: [string, number][]): void;
  hdel(key: string, fields: string[]): void;
  hincrby(key: string, field: string, by: number): void;
}

// ── the stored layouts, as struct.pack/unpack write and read them ─────────────────────────────

const bytes = (b: Buffer): string => b.toString("latin1");
const buffer = (s: string): Buffer => Buffer.from(s, "latin1");

const packDouble = (x: number): string => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(x);
  return bytes(b);
};
const readDouble = (s: string, at: number): number => buffer(s.slice(at, at + 8)).readDoubleLE(0);

interface LogSlot {
  cap: number;
  k: number;
  head: number;
  gone: number;
  first: number;
  newest: number;
  expires: number;
}

/** "<I4I4I4I4ddd" */
function packLogSlot(s: LogSlot): string {
  const b = Buffer.alloc(SLOT_LEN);
  b.writeUInt32LE(s.cap, 0);
  b.writeUInt32LE(s.k, 4);
  b.writeUInt32LE(s.head, 8);
  b.writeUInt32LE(s.gone, 12);
  b.writeDoubleLE(s.first, 16);
  b.writeDoubleLE(s.newest, 24);
  b.writeDoubleLE(s.expires, 32);
  return bytes(b);
}

function readLogSlot(header: string, at: number): LogSlot {
  const b = buffer(header.slice(at, at + SLOT_LEN));
  return {
    cap: b.readUInt32LE(0),
    k: b.readUInt32LE(4),
    head: b.readUInt32LE(8),
    gone: b.readUInt32LE(12),
    first: b.readDoubleLE(16),
    newest: b.readDoubleLE(24),
    expires: b.readDoubleLE(32),
  };
}

/** "<dd" + 24 zero bytes */
function packDaySlot(day: number, count: number): string {
  const b = Buffer.alloc(SLOT_LEN);
  b.writeDoubleLE(day, 0);
  b.writeDoubleLE(count, 8);
  return bytes(b);
}

// ── helpers of the sliding log ────────────────────────────────────────────────────────────────

function entryAt(store: ScriptStore, key: string, cap: number, k: number, head: number, j: number): number {
  const p = k === cap ? (head + j) % cap : j;
  const v = store.getrange(key, p * ENTRY_LEN, p * ENTRY_LEN + ENTRY_LEN - 1);
  return v.length < ENTRY_LEN ? 0 : readDouble(v, 0);
}

function allEntries(store: ScriptStore, key: string, cap: number, k: number, head: number): number[] {
  const ring = store.get(key) ?? "";
  const list: number[] = [];
  for (let j = 0; j < k; j++) {
    const p = k === cap ? (head + j) % cap : j;
    list.push((p + 1) * ENTRY_LEN <= ring.length ? readDouble(ring, p * ENTRY_LEN) : 0);
  }
  return list;
}

/** The index of the first entry > edge, and its time when known without another read (the script's read pass, inlined there). */
function firstInside(store: ScriptStore, key: string, slot: LogSlot, edge: number): [number, number | false] {
  const { cap, k, head, gone, first, newest } = slot;
  if (gone >= k || newest <= edge) return [k, false];
  if (first > edge) return [gone, first];
  let lo = gone + 1;
  const p = k === cap ? (head + lo) % cap : lo;
  const n = Math.min(CHUNK, k - lo, cap - p);
  if (n > 0) {
    const chunk = store.getrange(key, p * ENTRY_LEN, (p + n) * ENTRY_LEN - 1);
    for (let j = 0; j < n; j++) {
      if ((j + 1) * ENTRY_LEN > chunk.length) break;
      const at = readDouble(chunk, j * ENTRY_LEN);
      if (at > edge) return [lo + j, at];
    }
    lo += n;
  }
  let hi = k;
  let step = 1;
  while (lo < hi) {
    const probe = Math.min(lo + step - 1, hi - 1);
    if (entryAt(store, key, cap, k, head, probe) > edge) {
      hi = probe;
      break;
    }
    lo = probe + 1;
    step *= 2;
  }
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (entryAt(store, key, cap, k, head, mid) > edge) hi = mid;
    else lo = mid + 1;
  }
  return [lo, false];
}

interface DayState {
  kind: "d";
  limit: number;
  counts: boolean;
  slot: number;
  used: number;
  today: number;
  left: number;
}

/** What a rolling window keeps while deciding, sub-bucketed or a sliding log. */
interface RollingState {
  limit: number;
  width: number;
  counts: boolean;
  slot: number;
  used: number;
  key: string;
}

interface BucketState extends RollingState {
  kind: "b";
  g: number;
  cur: number;
  buckets: [number, number][];
  stale: string[];
  fold: boolean;
}

interface LogState extends RollingState {
  kind: "r";
  oldest: number | false;
  newest: number;
  cap: number;
  k: number;
  head: number;
  gone: number;
  expires: number;
  /** the entries a rewritten log starts from (converted from sub-buckets), oldest first */
  entries: number[] | false;
}

/**
 * The script in JavaScript, for the in-process store: the same reads, decision, writes, stored
 * bytes and answer, step for step (the names follow multi-window.lua). Synchronous, so as atomic
 * within one process as the Lua script is in Redis. `now` is ARGV[1] when given, else `clock`.
 */
export function runScript(store: ScriptStore, keys: readonly string[], argv: readonly (string | number)[], clock: number): number[] {
  const now = String(argv[0]) === "" ? clock : Number(argv[0]);
  const charge = Number(argv[1]);
  const countHeader = store.get(keys[0]!) ?? "";
  let observeHeader: string | false = keys[1] === keys[0] ? countHeader : false;

  // ── read every window and decide
  let allowed = 1;
  const st: (DayState | BucketState | LogState)[] = [];
  let keyAt = 1;
  for (let a = 2; a < argv.length; ) {
    const what = String(argv[a]);
    const kind = what[0];
    const counts = what[1] === "c";
    const slot = what.charCodeAt(2) - 48;
    const limit = Number(argv[a + 1]);
    let header = countHeader;
    if (!counts) {
      if (observeHeader === false) observeHeader = store.get(keys[1]!) ?? "";
      header = observeHeader;
    }
    const slotAt = HEADER_LEN + slot * SLOT_LEN;
    const hasSlot = header.length >= slotAt + SLOT_LEN;
    let s: DayState | BucketState | LogState;
    if (kind === "d") {
      a += 2;
      const today = Math.floor(now / DAY_MS);
      let count = 0;
      if (hasSlot && readDouble(header, slotAt) === today) count = readDouble(header, slotAt + 8);
      s = { kind: "d", limit, counts, slot, used: count, today, left: (today + 1) * DAY_MS - now };
    } else {
      const width = Number(argv[a + 2]);
      a += 3;
      keyAt += 1;
      const key = keys[keyAt]!;
      const stored: LogSlot = hasSlot ? readLogSlot(header, slotAt) : { cap: limit, k: 0, head: 0, gone: 0, first: 0, newest: 0, expires: 0 };
      if (stored.k === 0) stored.cap = limit;
      const { cap, k, head } = stored;
      if (kind === "b") {
        const g = width / SUB_BUCKETS;
        const cur = Math.floor(now / g);
        const buckets: [number, number][] = [];
        const stale: string[] = [];
        let used = 0;
        let fold = false;
        if (k > 0) {
          const by = new Map<number, number>();
          for (const ts of allEntries(store, key, cap, k, head)) {
            if (ts > now - width) by.set(Math.floor(ts / g), (by.get(Math.floor(ts / g)) ?? 0) + 1);
          }
          for (const [b, c] of by) {
            buckets.push([b, c]);
            used += c;
          }
          fold = true;
        } else {
          let flat: string[] = [];
          // a string of an earlier layout: replaced by the hash on the next write
          if (store.type(key) === "string") fold = true;
          else flat = store.hgetall(key);
          for (let j = 0; j < flat.length; j += 2) {
            const b = Number(flat[j]);
            const c = Number(flat[j + 1]);
            if (b >= cur - SUB_BUCKETS) {
              buckets.push([b, c]);
              used += c;
            } else stale.push(flat[j]!);
          }
        }
        buckets.sort((x, y) => x[0] - y[0]);
        s = { kind: "b", limit, width, counts, slot, used, key, g, cur, buckets, stale, fold };
      } else {
        const log: LogState = {
          kind: "r", limit, width, counts, slot, used: 0, key, oldest: false, newest: stored.newest,
          cap, k, head, gone: 0, expires: stored.expires, entries: false,
        };
        s = log;
        if (k === 0) {
          if (store.type(key) === "hash") {
            const g = width / SUB_BUCKETS;
            const low = Math.floor(now / g) - SUB_BUCKETS;
            const flat = store.hgetall(key);
            const buckets: [number, number][] = [];
            for (let j = 0; j < flat.length; j += 2) {
              const b = Number(flat[j]);
              if (b >= low) buckets.push([b, Number(flat[j + 1])]);
            }
            buckets.sort((x, y) => y[0] - x[0]);
            const newestFirst: number[] = [];
            for (const [b, c] of buckets) {
              const ts = Math.min((b + 1) * g - 1, now);
              if (ts <= now - width) break;
              for (let n = Math.min(c, limit - newestFirst.length); n > 0; n--) newestFirst.push(ts);
              if (newestFirst.length >= limit) break;
            }
            const entries = newestFirst.reverse();
            log.used = entries.length;
            log.entries = entries;
            if (entries.length > 0) {
              log.oldest = entries[0]!;
              log.newest = entries[entries.length - 1]!;
            }
          }
        } else {
          let [idx, ts] = firstInside(store, key, stored, now - width);
          let c = k - idx;
          if (c > limit) {
            idx = k - limit;
            c = limit;
            ts = false;
          }
          log.used = c;
          log.gone = idx;
          if (c > 0) log.oldest = ts === false ? entryAt(store, key, cap, k, head, idx) : ts;
        }
      }
    }
    if (counts && s.used >= limit) allowed = 0;
    st.push(s);
  }
  if (charge > 0) allowed = 1;

  // ── write the counting windows and answer
  const admitted = charge === 0 ? 1 : charge;
  const out = [allowed, now];
  const slots = new Map<number, string>();
  let liveUntil = 0;
  for (const s of st) {
    const counted = allowed === 1 && s.counts;
    let wait = 0;
    if (s.kind === "d") {
      if (counted) {
        s.used += admitted;
        slots.set(s.slot, packDaySlot(s.today, s.used));
        liveUntil = Math.max(liveUntil, now + s.left + 1000);
      }
      wait = s.left;
    } else if (s.kind === "b") {
      if (counted) {
        if (s.fold) {
          store.del(s.key);
          if (s.buckets.length > 0) store.hset(s.key, s.buckets.map(([b, c]) => [String(b), c]));
          slots.set(s.slot, EMPTY_SLOT);
        }
        if (s.stale.length > 0) store.hdel(s.key, s.stale);
        store.hincrby(s.key, String(s.cur), admitted);
        store.pexpire(s.key, s.width + s.g + 1000);
        s.used += admitted;
        const last = s.buckets[s.buckets.length - 1];
        if (last && last[0] === s.cur) last[1] += admitted;
        else s.buckets.push([s.cur, admitted]);
      }
      if (s.used >= s.limit) {
        let left = s.used;
        for (const [b, c] of s.buckets) {
          left -= c;
          if (left < s.limit) {
            wait = (b + SUB_BUCKETS + 1) * s.g - now;
            break;
          }
        }
      } else if (s.buckets.length > 0) {
        wait = (s.buckets[0]![0] + SUB_BUCKETS + 1) * s.g - now;
      }
    } else {
      if (counted) {
        const ts = Math.max(now, s.newest);
        const { width, limit, k, cap, head, key } = s;
        let expires = s.expires;
        if (admitted === 1 && s.entries === false && k > 0 && cap === limit && s.used < limit) {
          if (expires - now < width + 1000) {
            expires = now + 2 * width + RENEW_SLACK;
            store.pexpire(key, 2 * width + RENEW_SLACK);
          }
          const oldest = s.oldest === false ? ts : s.oldest;
          if (k < cap) {
            store.setrange(key, k * ENTRY_LEN, packDouble(ts));
            slots.set(s.slot, packLogSlot({ cap, k: k + 1, head: 0, gone: s.gone, first: oldest, newest: ts, expires }));
          } else {
            store.setrange(key, head * ENTRY_LEN, packDouble(ts));
            slots.set(s.slot, packLogSlot({ cap, k, head: (head + 1) % cap, gone: s.gone - 1, first: oldest, newest: ts, expires }));
          }
          s.used += 1;
          s.oldest = oldest;
        } else {
          let list = s.entries;
          if (list === false) {
            list = [];
            if (s.used > 0) list = allEntries(store, key, cap, k, head).slice(k - s.used);
          }
          for (let n = Math.min(admitted, limit); n > 0; n--) list.push(ts);
          const kept = list.slice(Math.max(0, list.length - limit));
          expires = now + 2 * width + RENEW_SLACK;
          store.set(key, kept.map(packDouble).join(""), 2 * width + RENEW_SLACK);
          s.used = kept.length;
          s.oldest = kept[0]!;
          slots.set(s.slot, packLogSlot({ cap: limit, k: s.used, head: 0, gone: 0, first: s.oldest, newest: ts, expires }));
        }
        liveUntil = Math.max(liveUntil, expires);
      }
      if (s.used > 0) wait = (s.oldest as number) + s.width - now;
    }
    out.push(s.limit - s.used, wait);
  }

  if (slots.size > 0) {
    const old = countHeader;
    liveUntil = Math.max(liveUntil, now + 1000);
    if (old.length >= HEADER_LEN) liveUntil = Math.max(liveUntil, readDouble(old, 0));
    let top = Math.floor((old.length - HEADER_LEN) / SLOT_LEN) - 1;
    for (const slot of slots.keys()) top = Math.max(top, slot);
    let value = packDouble(liveUntil);
    for (let slot = 0; slot <= top; slot++) {
      const at = HEADER_LEN + slot * SLOT_LEN;
      value += slots.get(slot) ?? (at + SLOT_LEN <= old.length ? old.slice(at, at + SLOT_LEN) : EMPTY_SLOT);
    }
    store.set(keys[0]!, value, liveUntil - now);
  }
  // Redis answers a Lua number as an integer, truncated
  return out.map(Math.trunc);
}
