/**
 * The multi-window decision (DESIGN §4) as one Lua script, and its JavaScript twin for the
 * in-process store. Both run the same algorithm on the same stored layout.
 *
 * A request names its windows, all keys of one identity (one hash tag, so one cluster slot):
 *   KEYS     two per window: its key, and the key of the same window's other representation
 *            (`<key>:b`; for the day the key again)
 *   ARGV     four per window: kind ("r" sliding log | "b" sub-bucketed | "d" calendar day), limit,
 *            window ms, role ("c" counts the request | "o" only observed, e.g. the account's
 *            windows shown beside a free status call)
 * Every window is read first; only if every counting window admits is the request recorded in all
 * of them. Nothing is written on refusal, so there is nothing to give back. The clock is the
 * store's (`TIME`), one clock for every API instance.
 *
 * Answer: {allowed (1|0), now (Unix ms, store clock), then per window: remaining, ms until the
 * window's quota next increases}. For a refused request the counting windows with remaining 0 are
 * the refusing ones, and their ms is exactly when each admits again.
 *
 * Rolling window = a sliding log of the last `limit` admission times, a ring buffer in one string:
 *   bytes 0–7   capacity (the limit it was written for), zero-padded decimal
 *   bytes 8–15  head: physical slot of the oldest entry once the ring is full (0 until then)
 *   then        13-digit Unix ms per admitted request, in admission order from the head
 * A request at `now` is admitted iff fewer than `limit` entries are > now − W: exact in any span
 * of W, O(log limit) reads (binary search over the sorted log) and O(1) writes, 16 + 13 × limit
 * bytes, expiring W after the last admission. A changed limit keeps the newest entries that still
 * count (at most the new limit), which decides every later request exactly as the full log would.
 *
 * Above RING_LIMIT a rolling window is sub-bucketed instead: a hash of counts per 1/100 of W,
 * every sub-bucket that overlaps the span (now − W, now] counted whole. It never admits more than
 * N in any span of W; what it over-counts is the part of its oldest sub-bucket already outside the
 * span, so it may refuse for at most W/100 (10 ms of a second, 600 ms of a minute) after an exact
 * log would admit again. A limit that crosses RING_LIMIT converts the window's history: a log into
 * counts per sub-bucket (exact), counts into log entries at the end of their sub-bucket (never
 * earlier than they were admitted, so never admitting more).
 *
 * Day window = "<epoch day>:<count>", counted exactly, reset at 00:00 UTC.
 */
import { createHash } from "node:crypto";

/** Rolling windows up to this limit are sliding logs; above it, sub-bucketed (see above). */
export const RING_LIMIT = 100_000;
/** Sub-buckets per window of a sub-bucketed window. */
const SUB_BUCKETS = 100;
/** Up to this limit a log is read whole with one GET; above it, entry by entry with GETRANGE. */
const WHOLE_READ_LIMIT = 256;

export const SCRIPT = `local H, S, B = 16, 13, ${SUB_BUCKETS}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local allowed = 1
local st = {}
local function pad(x, width)
  local s = string.format('%.0f', x)
  return string.rep('0', width - #s) .. s
end
for i = 1, #ARGV / 4 do
  local key, alt = KEYS[2 * i - 1], KEYS[2 * i]
  local a = (i - 1) * 4
  local s = { kind = ARGV[a + 1], limit = tonumber(ARGV[a + 2]), w = tonumber(ARGV[a + 3]), role = ARGV[a + 4] }
  if s.kind == 'd' then
    local today = math.floor(now / 86400000)
    s.today = today
    s.count = 0
    local v = redis.call('GET', key)
    if v then
      local sep = string.find(v, ':', 1, true)
      if sep and tonumber(string.sub(v, 1, sep - 1)) == today then s.count = tonumber(string.sub(v, sep + 1)) end
    end
    s.used = s.count
    s.left = (today + 1) * 86400000 - now
  elseif s.kind == 'b' then
    local g = s.w / B
    local cur = math.floor(now / g)
    local bs, used, stale = {}, 0, {}
    local flat = redis.call('HGETALL', alt)
    for j = 1, #flat, 2 do
      local b, c = tonumber(flat[j]), tonumber(flat[j + 1])
      if b >= cur - B then
        bs[#bs + 1] = { b, c }
        used = used + c
      else
        stale[#stale + 1] = flat[j]
      end
    end
    if #flat == 0 then
      local v = redis.call('GET', key)
      if v and #v >= H then
        local cap, head = tonumber(string.sub(v, 1, 8)), tonumber(string.sub(v, 9, 16))
        local k = math.floor((#v - H) / S)
        local by = {}
        for j = 0, k - 1 do
          local p = j
          if k == cap then p = (head + j) % cap end
          local ts = tonumber(string.sub(v, H + p * S + 1, H + p * S + S))
          if ts > now - s.w then
            local b = math.floor(ts / g)
            by[b] = (by[b] or 0) + 1
          end
        end
        for b, c in pairs(by) do
          bs[#bs + 1] = { b, c }
          used = used + c
        end
        s.fold = true
      end
    end
    table.sort(bs, function(x, y) return x[1] < y[1] end)
    s.bs, s.used, s.stale, s.cur, s.g = bs, used, stale, cur, g
  else
    local whole = s.limit <= ${WHOLE_READ_LIMIT}
    local v, len
    if whole then
      v = redis.call('GET', key)
      len = v and #v or 0
    else
      len = redis.call('STRLEN', key)
      if len > 0 then v = redis.call('GETRANGE', key, 0, H - 1) end
    end
    local cap, head, k = s.limit, 0, 0
    if len >= H then
      cap = tonumber(string.sub(v, 1, 8))
      head = tonumber(string.sub(v, 9, 16))
      k = math.floor((len - H) / S)
    end
    local function phys(j)
      if k == cap then return (head + j) % cap end
      return j
    end
    local function at(j)
      local o = H + phys(j) * S
      if whole then return tonumber(string.sub(v, o + 1, o + S)) end
      return tonumber(redis.call('GETRANGE', key, o, o + S - 1))
    end
    if k == 0 and redis.call('EXISTS', alt) == 1 then
      local g = s.w / B
      local low = math.floor(now / g) - B
      local bs = {}
      local flat = redis.call('HGETALL', alt)
      for j = 1, #flat, 2 do
        local b = tonumber(flat[j])
        if b >= low then bs[#bs + 1] = { b, tonumber(flat[j + 1]) } end
      end
      table.sort(bs, function(x, y) return x[1] > y[1] end)
      local newest = {}
      for _, bc in ipairs(bs) do
        local ts = math.min((bc[1] + 1) * g - 1, now)
        if ts <= now - s.w then break end
        for _ = 1, math.min(bc[2], s.limit - #newest) do newest[#newest + 1] = ts end
        if #newest >= s.limit then break end
      end
      local raw = {}
      for j = #newest, 1, -1 do raw[#raw + 1] = pad(newest[j], S) end
      s.used = #newest
      if s.used > 0 then
        s.oldest, s.newest = newest[#newest], newest[1]
      end
      s.raw, s.dropAlt = table.concat(raw), true
    else
      local lo, hi, edge = 0, k, now - s.w
      while lo < hi do
        local mid = math.floor((lo + hi) / 2)
        if at(mid) > edge then hi = mid else lo = mid + 1 end
      end
      local first, c = lo, k - lo
      if c > s.limit then
        first = k - s.limit
        c = s.limit
      end
      s.used = c
      if c > 0 then s.oldest = at(first) end
      if k > 0 then s.newest = at(k - 1) end
      if cap ~= s.limit then
        local raw = {}
        local p, m = phys(first), k - first
        if m > 0 then
          if k == cap and p + m > cap then
            raw[1] = redis.call('GETRANGE', key, H + p * S, H + cap * S - 1)
            raw[2] = redis.call('GETRANGE', key, H, H + (p + m - cap) * S - 1)
          else
            raw[1] = redis.call('GETRANGE', key, H + p * S, H + (p + m) * S - 1)
          end
        end
        s.raw = table.concat(raw)
      end
    end
    s.k, s.cap, s.head = k, cap, head
  end
  if s.role == 'c' and s.used >= s.limit then allowed = 0 end
  st[i] = s
end
local out = { allowed, now }
for i = 1, #ARGV / 4 do
  local key, alt, s = KEYS[2 * i - 1], KEYS[2 * i], st[i]
  local counted = allowed == 1 and s.role == 'c'
  if s.kind == 'd' then
    if counted then
      s.used = s.count + 1
      redis.call('SET', key, s.today .. ':' .. s.used, 'PX', s.left + 1000)
    end
    out[#out + 1] = s.limit - s.used
    out[#out + 1] = s.left
  elseif s.kind == 'b' then
    if counted then
      if s.fold then
        local pairs_ = {}
        for _, bc in ipairs(s.bs) do
          pairs_[#pairs_ + 1] = bc[1]
          pairs_[#pairs_ + 1] = bc[2]
        end
        if #pairs_ > 0 then redis.call('HSET', alt, unpack(pairs_)) end
        redis.call('DEL', key)
      end
      if #s.stale > 0 then redis.call('HDEL', alt, unpack(s.stale)) end
      redis.call('HINCRBY', alt, s.cur, 1)
      redis.call('PEXPIRE', alt, s.w + s.g + 1000)
      s.used = s.used + 1
      local last = s.bs[#s.bs]
      if last and last[1] == s.cur then last[2] = last[2] + 1 else s.bs[#s.bs + 1] = { s.cur, 1 } end
    end
    out[#out + 1] = s.limit - s.used
    local wait = 0
    if s.used >= s.limit then
      local left = s.used
      for _, bc in ipairs(s.bs) do
        left = left - bc[2]
        if left < s.limit then
          wait = (bc[1] + B + 1) * s.g - now
          break
        end
      end
    elseif #s.bs > 0 then
      wait = (s.bs[1][1] + B + 1) * s.g - now
    end
    out[#out + 1] = wait
  else
    if counted then
      local ts = now
      if s.newest and s.newest > ts then ts = s.newest end
      local stamp = pad(ts, S)
      if s.raw then
        redis.call('SET', key, pad(s.limit, 8) .. pad(0, 8) .. s.raw .. stamp, 'PX', s.w + 1000)
        if s.dropAlt then redis.call('DEL', alt) end
      elseif s.k == 0 then
        redis.call('SET', key, pad(s.limit, 8) .. pad(0, 8) .. stamp, 'PX', s.w + 1000)
      elseif s.k < s.cap then
        redis.call('SETRANGE', key, H + s.k * S, stamp)
        redis.call('PEXPIRE', key, s.w + 1000)
      else
        redis.call('SETRANGE', key, H + s.head * S, stamp)
        redis.call('SETRANGE', key, 8, pad((s.head + 1) % s.cap, 8))
        redis.call('PEXPIRE', key, s.w + 1000)
      end
      s.used = s.used + 1
      if not s.oldest then s.oldest = ts end
    end
    out[#out + 1] = s.limit - s.used
    if s.used > 0 then out[#out + 1] = s.oldest + s.w - now else out[#out + 1] = 0 end
  end
end
return out
`;

export const SCRIPT_SHA = createHash("sha1").update(SCRIPT).digest("hex");

/** The commands the script uses, as the in-process store provides them. */
export interface ScriptStore {
  get(key: string): string | null;
  set(key: string, value: string, pxMs: number): void;
  /** Redis SETRANGE on an existing string (the script only writes inside or right after the value). */
  setRange(key: string, offset: number, value: string): void;
  pexpire(key: string, ms: number): void;
  exists(key: string): boolean;
  del(key: string): void;
  /** a hash as [field, value, field, value, …]; [] when missing */
  hgetall(key: string): string[];
  hset(key: string, pairs: [string, number][]): void;
  hdel(key: string, fields: string[]): void;
  hincrby(key: string, field: string, by: number): void;
}

const H = 16;
const S = 13;
const pad = (x: number, width: number): string => String(x).padStart(width, "0");

interface RingState {
  kind: "r";
  limit: number;
  w: number;
  counts: boolean;
  used: number;
  oldest?: number;
  newest?: number;
  k: number;
  cap: number;
  head: number;
  /** the entries a rewritten log keeps, already formatted */
  raw?: string;
  dropAlt?: boolean;
}

interface BucketState {
  kind: "b";
  limit: number;
  w: number;
  counts: boolean;
  used: number;
  g: number;
  cur: number;
  bs: [number, number][];
  stale: string[];
  fold: boolean;
}

interface DayState {
  kind: "d";
  limit: number;
  counts: boolean;
  today: number;
  count: number;
  used: number;
  left: number;
}

/** The log's entries as numbers, physical order resolved to chronological. */
function ringReader(v: string, k: number, cap: number, head: number): (j: number) => number {
  return (j) => {
    const p = k === cap ? (head + j) % cap : j;
    const o = H + p * S;
    return Number(v.slice(o, o + S));
  };
}

/**
 * The script in JavaScript, for the in-process store: the same reads, decision, writes and answer.
 * Synchronous, so as atomic within one process as the Lua script is in Redis.
 */
export function runScript(store: ScriptStore, keys: readonly string[], argv: readonly (string | number)[], now: number): number[] {
  let allowed = 1;
  const st: (RingState | BucketState | DayState)[] = [];
  const windows = argv.length / 4;
  for (let i = 0; i < windows; i++) {
    const key = keys[2 * i]!;
    const alt = keys[2 * i + 1]!;
    const kind = String(argv[i * 4]);
    const limit = Number(argv[i * 4 + 1]);
    const w = Number(argv[i * 4 + 2]);
    const counts = String(argv[i * 4 + 3]) === "c";
    let s: RingState | BucketState | DayState;
    if (kind === "d") {
      const today = Math.floor(now / 86_400_000);
      let count = 0;
      const v = store.get(key);
      if (v !== null) {
        const sep = v.indexOf(":");
        if (sep >= 0 && Number(v.slice(0, sep)) === today) count = Number(v.slice(sep + 1));
      }
      s = { kind: "d", limit, counts, today, count, used: count, left: (today + 1) * 86_400_000 - now };
    } else if (kind === "b") {
      const g = w / SUB_BUCKETS;
      const cur = Math.floor(now / g);
      const bs: [number, number][] = [];
      const stale: string[] = [];
      let used = 0;
      const flat = store.hgetall(alt);
      for (let j = 0; j < flat.length; j += 2) {
        const b = Number(flat[j]);
        const c = Number(flat[j + 1]);
        if (b >= cur - SUB_BUCKETS) {
          bs.push([b, c]);
          used += c;
        } else stale.push(flat[j]!);
      }
      let fold = false;
      if (flat.length === 0) {
        const v = store.get(key);
        if (v !== null && v.length >= H) {
          const cap = Number(v.slice(0, 8));
          const head = Number(v.slice(8, 16));
          const k = Math.floor((v.length - H) / S);
          const at = ringReader(v, k, cap, head);
          const by = new Map<number, number>();
          for (let j = 0; j < k; j++) {
            const ts = at(j);
            if (ts > now - w) by.set(Math.floor(ts / g), (by.get(Math.floor(ts / g)) ?? 0) + 1);
          }
          for (const [b, c] of by) {
            bs.push([b, c]);
            used += c;
          }
          fold = true;
        }
      }
      bs.sort((x, y) => x[0] - y[0]);
      s = { kind: "b", limit, w, counts, used, g, cur, bs, stale, fold };
    } else {
      const v = store.get(key) ?? "";
      let cap = limit;
      let head = 0;
      let k = 0;
      if (v.length >= H) {
        cap = Number(v.slice(0, 8));
        head = Number(v.slice(8, 16));
        k = Math.floor((v.length - H) / S);
      }
      const at = ringReader(v, k, cap, head);
      s = { kind: "r", limit, w, counts, used: 0, k, cap, head };
      if (k === 0 && store.exists(alt)) {
        const g = w / SUB_BUCKETS;
        const low = Math.floor(now / g) - SUB_BUCKETS;
        const flat = store.hgetall(alt);
        const bs: [number, number][] = [];
        for (let j = 0; j < flat.length; j += 2) {
          const b = Number(flat[j]);
          if (b >= low) bs.push([b, Number(flat[j + 1])]);
        }
        bs.sort((x, y) => y[0] - x[0]);
        const newest: number[] = [];
        for (const [b, c] of bs) {
          const ts = Math.min((b + 1) * g - 1, now);
          if (ts <= now - w) break;
          for (let n = Math.min(c, limit - newest.length); n > 0; n--) newest.push(ts);
          if (newest.length >= limit) break;
        }
        s.used = newest.length;
        if (s.used > 0) {
          s.oldest = newest[newest.length - 1];
          s.newest = newest[0];
        }
        s.raw = newest
          .slice()
          .reverse()
          .map((ts) => pad(ts, S))
          .join("");
        s.dropAlt = true;
      } else {
        let lo = 0;
        let hi = k;
        const edge = now - w;
        while (lo < hi) {
          const mid = Math.floor((lo + hi) / 2);
          if (at(mid) > edge) hi = mid;
          else lo = mid + 1;
        }
        let first = lo;
        let c = k - lo;
        if (c > limit) {
          first = k - limit;
          c = limit;
        }
        s.used = c;
        if (c > 0) s.oldest = at(first);
        if (k > 0) s.newest = at(k - 1);
        if (cap !== limit) {
          let raw = "";
          for (let j = first; j < k; j++) raw += pad(at(j), S);
          s.raw = raw;
        }
      }
    }
    if (s.counts && s.used >= s.limit) allowed = 0;
    st.push(s);
  }
  const out = [allowed, now];
  for (let i = 0; i < windows; i++) {
    const key = keys[2 * i]!;
    const alt = keys[2 * i + 1]!;
    const s = st[i]!;
    const counted = allowed === 1 && s.counts;
    if (s.kind === "d") {
      if (counted) {
        s.used = s.count + 1;
        store.set(key, `${s.today}:${s.used}`, s.left + 1000);
      }
      out.push(s.limit - s.used, s.left);
      continue;
    }
    if (s.kind === "b") {
      if (counted) {
        if (s.fold) {
          if (s.bs.length > 0) store.hset(alt, s.bs.map(([b, c]) => [String(b), c]));
          store.del(key);
        }
        if (s.stale.length > 0) store.hdel(alt, s.stale);
        store.hincrby(alt, String(s.cur), 1);
        store.pexpire(alt, s.w + s.g + 1000);
        s.used += 1;
        const last = s.bs[s.bs.length - 1];
        if (last && last[0] === s.cur) last[1] += 1;
        else s.bs.push([s.cur, 1]);
      }
      let wait = 0;
      if (s.used >= s.limit) {
        let left = s.used;
        for (const [b, c] of s.bs) {
          left -= c;
          if (left < s.limit) {
            wait = (b + SUB_BUCKETS + 1) * s.g - now;
            break;
          }
        }
      } else if (s.bs.length > 0) {
        wait = (s.bs[0]![0] + SUB_BUCKETS + 1) * s.g - now;
      }
      out.push(s.limit - s.used, wait);
      continue;
    }
    if (counted) {
      const ts = s.newest !== undefined && s.newest > now ? s.newest : now;
      const stamp = pad(ts, S);
      if (s.raw !== undefined) {
        store.set(key, pad(s.limit, 8) + pad(0, 8) + s.raw + stamp, s.w + 1000);
        if (s.dropAlt) store.del(alt);
      } else if (s.k === 0) {
        store.set(key, pad(s.limit, 8) + pad(0, 8) + stamp, s.w + 1000);
      } else if (s.k < s.cap) {
        store.setRange(key, H + s.k * S, stamp);
        store.pexpire(key, s.w + 1000);
      } else {
        store.setRange(key, H + s.head * S, stamp);
        store.setRange(key, 8, pad((s.head + 1) % s.cap, 8));
        store.pexpire(key, s.w + 1000);
      }
      s.used += 1;
      s.oldest ??= ts;
    }
    out.push(s.limit - s.used, s.used > 0 ? s.oldest! + s.w - now : 0);
  }
  return out;
}
