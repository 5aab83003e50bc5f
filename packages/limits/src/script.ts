/**
 * The multi-window decision (DESIGN §4) as one Lua script, and its JavaScript twin for the
 * in-process store. Both run the same algorithm on the same stored layout.
 *
 * A request names its windows, all keys of one identity (one hash tag, so one cluster slot):
 *   KEYS[i]  the window's key
 *   ARGV     four per window: kind ("r" rolling | "d" calendar day), limit, window ms,
 *            role ("c" counts the request | "o" only observed, e.g. the account's windows
 *            shown beside a free status call)
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
 * Day window = "<epoch day>:<count>", counted exactly, reset at 00:00 UTC.
 */
import { createHash } from "node:crypto";

/** Up to this limit a ring is read whole with one GET; above it, entry by entry with GETRANGE. */
const WHOLE_READ_LIMIT = 256;

export const SCRIPT = `local H, S = 16, 13
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local allowed = 1
local st = {}
local function pad(x, width)
  local s = tostring(x)
  return string.rep('0', width - #s) .. s
end
for i = 1, #KEYS do
  local key = KEYS[i]
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
    s.k, s.cap, s.head, s.first = k, cap, head, first
    s.v, s.whole, s.phys = v, whole, phys
  end
  if s.role == 'c' and s.used >= s.limit then allowed = 0 end
  st[i] = s
end
local out = { allowed, now }
for i = 1, #KEYS do
  local key, s = KEYS[i], st[i]
  local counted = allowed == 1 and s.role == 'c'
  if s.kind == 'd' then
    if counted then
      s.used = s.count + 1
      redis.call('SET', key, s.today .. ':' .. s.used, 'PX', s.left + 1000)
    end
    out[#out + 1] = s.limit - s.used
    out[#out + 1] = s.left
  else
    if counted then
      local ts = now
      if s.newest and s.newest > ts then ts = s.newest end
      local stamp = pad(ts, S)
      if s.cap ~= s.limit then
        local parts = { pad(s.limit, 8), pad(0, 8) }
        for j = s.first, s.k - 1 do
          local o = H + s.phys(j) * S
          if s.whole then parts[#parts + 1] = string.sub(s.v, o + 1, o + S)
          else parts[#parts + 1] = redis.call('GETRANGE', key, o, o + S - 1) end
        end
        parts[#parts + 1] = stamp
        redis.call('SET', key, table.concat(parts), 'PX', s.w + 1000)
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

/** The few string commands the script uses, as the in-process store provides them. */
export interface ScriptStore {
  get(key: string): string | null;
  set(key: string, value: string, pxMs: number): void;
  /** Redis SETRANGE on an existing key (the script only writes inside or right after the value). */
  setRange(key: string, offset: number, value: string): void;
  pexpire(key: string, ms: number): void;
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
  first: number;
  v: string;
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

/**
 * The script in JavaScript, for the in-process store: the same reads, decision, writes and answer.
 * Synchronous, so as atomic within one process as the Lua script is in Redis.
 */
export function runScript(store: ScriptStore, keys: readonly string[], argv: readonly (string | number)[], now: number): number[] {
  let allowed = 1;
  const st: (RingState | DayState)[] = [];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const kind = String(argv[i * 4]);
    const limit = Number(argv[i * 4 + 1]);
    const w = Number(argv[i * 4 + 2]);
    const counts = String(argv[i * 4 + 3]) === "c";
    let s: RingState | DayState;
    if (kind === "d") {
      const today = Math.floor(now / 86_400_000);
      let count = 0;
      const v = store.get(key);
      if (v !== null) {
        const sep = v.indexOf(":");
        if (sep >= 0 && Number(v.slice(0, sep)) === today) count = Number(v.slice(sep + 1));
      }
      s = { kind: "d", limit, counts, today, count, used: count, left: (today + 1) * 86_400_000 - now };
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
      const at = (j: number): number => {
        const p = k === cap ? (head + j) % cap : j;
        const o = H + p * S;
        return Number(v.slice(o, o + S));
      };
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
      s = { kind: "r", limit, w, counts, used: c, k, cap, head, first, v };
      if (c > 0) s.oldest = at(first);
      if (k > 0) s.newest = at(k - 1);
    }
    if (s.counts && s.used >= s.limit) allowed = 0;
    st.push(s);
  }
  const out = [allowed, now];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
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
    if (counted) {
      const ts = s.newest !== undefined && s.newest > now ? s.newest : now;
      const stamp = pad(ts, S);
      if (s.cap !== s.limit) {
        let value = pad(s.limit, 8) + pad(0, 8);
        for (let j = s.first; j < s.k; j++) {
          const p = s.k === s.cap ? (s.head + j) % s.cap : j;
          value += s.v.slice(H + p * S, H + (p + 1) * S);
        }
        store.set(key, value + stamp, s.w + 1000);
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
