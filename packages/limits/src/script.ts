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
 *   a 71-byte header, zero-padded decimal: capacity (the limit it was written for, 8), entries
 *   stored (8), head: physical slot of the oldest entry once the ring is full (8), how many of the
 *   oldest entries had left the window at the last admission (8), the first entry still inside the
 *   window then (13), the newest entry (13), and until when the key is known to live (13);
 *   then 13-digit Unix ms per admitted request, in admission order from the head.
 * A request at `now` is admitted iff fewer than `limit` entries are > now − W: exact in any span
 * of W. The first entry inside the window is known from the header while it stays inside; when it
 * has left, the next one is found by galloping forward and bisecting, so a request reads only the
 * header in the steady state and O(log N) entries at worst. An admission writes its entry and the
 * header in place (SETRANGE) and renews the key's time to live (2 W) only when less than W is
 * left: 71 + 13 × limit bytes. A changed limit keeps the newest entries that still count (at most
 * the new limit), which decides every later request exactly as the full log would. The store's
 * clock is taken not to step back (an entry is never stamped earlier than the newest one).
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

export const SCRIPT = `local H, S, B = 71, 13, ${SUB_BUCKETS}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local allowed = 1
local st = {}
local sub, floor = string.sub, math.floor
local function stampOf(ms)
  return string.format('%013.0f', ms)
end
local HEADER = '${"^" + "(%d%d%d%d%d%d%d%d)".repeat(4) + ("(" + "%d".repeat(13) + ")").repeat(3)}'
local function header(cap, k, head, gone, firstTs, newest, exp)
  return string.format('%08d%08d%08d%08d%013.0f%013.0f%013.0f', cap, k, head, gone, firstTs, newest, exp)
end
for i = 1, #ARGV / 4 do
  local key, alt = KEYS[2 * i - 1], KEYS[2 * i]
  local a = (i - 1) * 4
  -- every field up front: a table that grows one field at a time is rebuilt several times
  local s = { kind = ARGV[a + 1], limit = tonumber(ARGV[a + 2]), w = tonumber(ARGV[a + 3]), role = ARGV[a + 4],
    used = 0, k = 0, cap = 0, head = 0, exp = 0, first = 0, oldest = false, newest = false, raw = false, dropAlt = false,
    today = 0, count = 0, left = 0 }
  if s.kind == 'd' then
    local today = floor(now / 86400000)
    s.today = today
    s.count = 0
    local v = redis.call('GET', key)
    if v then
      local sep = string.find(v, ':', 1, true)
      if sep and tonumber(sub(v, 1, sep - 1)) == today then s.count = tonumber(sub(v, sep + 1)) end
    end
    s.used = s.count
    s.left = (today + 1) * 86400000 - now
  elseif s.kind == 'b' then
    local g = s.w / B
    local cur = floor(now / g)
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
        local c1, c2, c3 = string.match(v, HEADER)
        local cap, k, head = tonumber(c1), tonumber(c2), tonumber(c3)
        local by = {}
        for j = 0, k - 1 do
          local p = j
          if k == cap then p = (head + j) % cap end
          local ts = tonumber(sub(v, H + p * S + 1, H + p * S + S))
          if ts > now - s.w then
            local b = floor(ts / g)
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
    local cap, k, head, gone, firstTs, exp = s.limit, 0, 0, 0, 0, 0
    local v = redis.call('GETRANGE', key, 0, H - 1)
    if #v == H then
      local c1, c2, c3, c4, c5, c6, c7 = string.match(v, HEADER)
      cap, k, head, gone = tonumber(c1), tonumber(c2), tonumber(c3), tonumber(c4)
      firstTs, s.newest, exp = tonumber(c5), tonumber(c6), tonumber(c7)
    end
    local full = k == cap
    local function at(j)
      local p = j
      if full then p = (head + j) % cap end
      local o = H + p * S
      return tonumber(redis.call('GETRANGE', key, o, o + S - 1))
    end
    s.k, s.cap, s.head, s.exp = k, cap, head, exp
    if k == 0 and redis.call('EXISTS', alt) == 1 then
      local g = s.w / B
      local low = floor(now / g) - B
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
      for j = #newest, 1, -1 do raw[#raw + 1] = stampOf(newest[j]) end
      s.used = #newest
      if s.used > 0 then
        s.oldest, s.newest = newest[#newest], newest[1]
      end
      s.raw, s.dropAlt = table.concat(raw), true
    else
      local edge = now - s.w
      -- entries before index gone had already left; the one at gone is known from the header; if
      -- it has left too, gallop forward from there, then bisect
      local lo, hi, step = gone, k, 1
      if gone < k and firstTs > edge then
        hi = gone
      elseif gone < k then
        lo, step = gone + 1, 1
      end
      while lo < hi do
        local probe = lo + step - 1
        if probe >= hi then probe = hi - 1 end
        if at(probe) > edge then
          hi = probe
          break
        end
        lo = probe + 1
        step = step * 2
      end
      while lo < hi do
        local mid = floor((lo + hi) / 2)
        if at(mid) > edge then hi = mid else lo = mid + 1 end
      end
      local first, c = lo, k - lo
      if c > s.limit then
        first = k - s.limit
        c = s.limit
      end
      s.used, s.first = c, first
      if c > 0 then
        if first == gone then s.oldest = firstTs else s.oldest = at(first) end
      end
      if cap ~= s.limit then
        local raw = {}
        for j = first, k - 1 do raw[#raw + 1] = stampOf(at(j)) end
        s.raw = table.concat(raw)
      end
    end
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
      local stamp = stampOf(ts)
      local k, cap, head = s.k, s.cap, s.head
      local oldest = s.oldest or ts
      if s.raw then
        local n = #s.raw / S + 1
        redis.call('SET', key, header(s.limit, n, 0, 0, oldest, ts, now + 2 * s.w) .. s.raw .. stamp, 'PX', 2 * s.w)
        if s.dropAlt then redis.call('DEL', alt) end
      elseif k == 0 then
        redis.call('SET', key, header(cap, 1, 0, 0, ts, ts, now + 2 * s.w) .. stamp, 'PX', 2 * s.w)
      else
        -- the key must outlive its newest entry by W: renew its time to live only when less is left
        local exp = s.exp
        if exp - now < s.w + 1000 then
          exp = now + 2 * s.w
          redis.call('PEXPIRE', key, 2 * s.w)
        end
        if k < cap then
          redis.call('SETRANGE', key, H + k * S, stamp)
          redis.call('SETRANGE', key, 0, header(cap, k + 1, 0, s.first, oldest, ts, exp))
        else
          -- full: the oldest entry, outside the window, makes room; every index moves down by one
          redis.call('SETRANGE', key, H + head * S, stamp)
          redis.call('SETRANGE', key, 0, header(cap, k, (head + 1) % cap, s.first - 1, oldest, ts, exp))
        end
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
  pexpire(key: string, ms: number): void;
  exists(key: string): boolean;
  del(key: string): void;
  /** a hash as [field, value, field, value, …]; [] when missing */
  hgetall(key: string): string[];
  hset(key: string, pairs: [string, number][]): void;
  hdel(key: string, fields: string[]): void;
  hincrby(key: string, field: string, by: number): void;
}

const H = 71;
const S = 13;
const pad = (x: number, width: number): string => String(x).padStart(width, "0");
const header = (cap: number, k: number, head: number, gone: number, firstTs: number, newest: number, exp: number): string =>
  pad(cap, 8) + pad(k, 8) + pad(head, 8) + pad(gone, 8) + pad(firstTs, S) + pad(newest, S) + pad(exp, S);

interface RingState {
  kind: "r";
  limit: number;
  w: number;
  counts: boolean;
  used: number;
  oldest?: number;
  newest?: number;
  v: string;
  k: number;
  cap: number;
  head: number;
  first: number;
  exp: number;
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

interface Ring {
  cap: number;
  k: number;
  head: number;
  gone: number;
  firstTs: number;
  newest?: number;
  exp: number;
  at: (j: number) => number;
}

/** A stored log (or none): its header and its entries in chronological order. */
function readRing(v: string | null, limit: number): Ring {
  if (v === null || v.length < H) return { cap: limit, k: 0, head: 0, gone: 0, firstTs: 0, exp: 0, at: () => 0 };
  const cap = Number(v.slice(0, 8));
  const k = Number(v.slice(8, 16));
  const head = Number(v.slice(16, 24));
  const full = k === cap;
  return {
    cap,
    k,
    head,
    gone: Number(v.slice(24, 32)),
    firstTs: Number(v.slice(32, 45)),
    newest: Number(v.slice(45, 58)),
    exp: Number(v.slice(58, 71)),
    at: (j) => {
      const o = H + (full ? (head + j) % cap : j) * S;
      return Number(v.slice(o, o + S));
    },
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
        const ring = readRing(store.get(key), limit);
        if (ring.k > 0) {
          const by = new Map<number, number>();
          for (let j = 0; j < ring.k; j++) {
            const ts = ring.at(j);
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
      const v = store.get(key);
      const ring = readRing(v, limit);
      const { k, at } = ring;
      s = { kind: "r", limit, w, counts, used: 0, v: v ?? "", k, cap: ring.cap, head: ring.head, first: 0, newest: ring.newest, exp: ring.exp };
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
        const edge = now - w;
        const gone = ring.gone;
        let lo = gone;
        let hi = k;
        let step = 1;
        // the entry at gone is known from the header; if it has left too, gallop, then bisect
        if (gone < k && ring.firstTs > edge) hi = gone;
        else if (gone < k) lo = gone + 1;
        while (lo < hi) {
          const probe = Math.min(lo + step - 1, hi - 1);
          if (at(probe) > edge) {
            hi = probe;
            break;
          }
          lo = probe + 1;
          step *= 2;
        }
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
        s.first = first;
        if (c > 0) s.oldest = first === gone ? ring.firstTs : at(first);
        if (ring.cap !== limit) {
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
      const { k, cap, head } = s;
      const oldest = s.oldest ?? ts;
      if (s.raw !== undefined) {
        store.set(key, header(s.limit, s.raw.length / S + 1, 0, 0, oldest, ts, now + 2 * s.w) + s.raw + stamp, 2 * s.w);
        if (s.dropAlt) store.del(alt);
      } else if (k === 0) {
        store.set(key, header(cap, 1, 0, 0, ts, ts, now + 2 * s.w) + stamp, 2 * s.w);
      } else {
        // the key must outlive its newest entry by W: renew its time to live only when less is left
        const exp = s.exp - now < s.w + 1000 ? now + 2 * s.w : s.exp;
        if (k < cap) {
          store.set(key, header(cap, k + 1, 0, s.first, oldest, ts, exp) + s.v.slice(H) + stamp, exp - now);
        } else {
          // full: the oldest entry, outside the window, makes room; every index moves down by one
          const o = H + head * S;
          store.set(key, header(cap, k, (head + 1) % cap, s.first - 1, oldest, ts, exp) + s.v.slice(H, o) + stamp + s.v.slice(o + S), exp - now);
        }
      }
      s.used += 1;
      s.oldest ??= ts;
    }
    out.push(s.limit - s.used, s.used > 0 ? s.oldest! + s.w - now : 0);
  }
  return out;
}
