--[[
The multi-window rate-limit decision (DESIGN §4): every window of one request is read, decided and
written in one execution, so a request is admitted by all of its counting windows or by none.
Its JavaScript twin is runScript() in script.ts (the in-process store); a differential test runs
both on the same schedules and requires the same replies.

KEYS (all of one identity: one hash tag, so one Redis Cluster slot)
  1   the header key of the counting windows, "<prefix>:{<identity>}:[<scope>:]windows"
  2   the header key of the observed windows (KEYS[1] again when every window counts, or none)
  then one per rolling window (kind "r" or "b"), in ARGV's order: its key,
      "<prefix>:{<identity>}:<policy>", a ring while the window is a sliding log, a hash while it
      is sub-bucketed. A day window has no key of its own: it lives in its header key.

ARGV (few on purpose: Redis spends about as much on each argument of a call as on a small command)
  1   "" to decide by the store's clock (TIME), or Unix ms to decide at: a test clock, which the
      engine sends only when it was built with one, and never under NODE_ENV=production
  2   "0" to decide one request; N > 0 to charge N admissions unconditionally (see CHARGE below)
  then per window:
      what   three characters: kind ("r" sliding log | "b" sub-bucketed | "d" calendar day, UTC),
             role ("c" counts the request | "o" only observed: read, never written), and the
             window's slot in its header key, one digit (e.g. "rc0", "do2")
      limit  requests per window
      width  window in ms (rolling windows only; a day window has no width argument)

Reply: { allowed (1|0), now (Unix ms), then per window: remaining, ms until its quota next
increases }. On refusal the counting windows with remaining 0 are the refusing ones, and their ms
is exactly when each admits again. Nothing is written on refusal. A charge always answers 1.

STORED LAYOUTS (little-endian, struct formats)

  header key   "<d" until: Unix ms the key must live to (its TTL is set to it on every write),
               then one 40-byte slot per window at 8 + 40 × slot; a slot never written is zeros.
    log slot   "<I4I4I4I4ddd" capacity (the limit it was written for), entries stored, head
               (physical position of the oldest entry once the ring is full), gone (how many of
               the oldest entries had left the window at the last write), first (the time of entry
               `gone`, the oldest still inside then), newest (the newest entry's time), expires
               (Unix ms the log key lives to).
    day slot   "<dd" + 24 zero bytes: epoch day (Unix ms ÷ 86,400,000), requests counted that day.

  window key, sliding log: the ring: `capacity` slots of "<d" (Unix ms of one admission),
               logical entry j at physical position j, or (head + j) mod capacity once full.
               Entries are in admission order, each ≥ the one before (the clock is taken not to
               step back; an entry is never stamped earlier than the newest one).

  window key, sub-bucketed: a hash, sub-bucket index (floor(ms ÷ (width / 100))) → requests
               admitted in it. Its slot is all zeros (no log).
  A slot with entries > 0 means the window key is a ring; otherwise it is a hash or absent. The
  header key lives at least as long as every ring it describes.

THE RULES
  Sliding log: a request at `now` is admitted iff fewer than `limit` entries are > now − width:
  exact in any span of `width`. The slot remembers the oldest entry still inside at the last write,
  so a request reads only the header while that entry stays inside; when it has left, the entries
  after it are read a chunk at a time (one GETRANGE), then by galloping and bisecting: O(log N)
  reads at worst. An admission writes its entry (SETRANGE) and the header; the log key's time to
  live (2 × width + 10 s) is renewed only when less than width + 1 s is left: a busy 1-second log
  once every 10 s, not on every admission. A changed limit keeps the newest
  entries that still count (at most the new limit), which decides every later request exactly as
  the full log would.

  Sub-bucketed (limits above RING_LIMIT): counts per 1/100 of the window, every sub-bucket that
  overlaps (now − width, now] counted whole. Never more than N in any span of width; it may refuse
  for at most width/100 after an exact log would admit again. A limit that crosses RING_LIMIT
  converts the history: a log into counts per sub-bucket (exact), counts into log entries at the
  end of their sub-bucket (never earlier than admitted, so never admitting more).

  Day: counted per epoch day of the clock, reset at 00:00 UTC.

  CHARGE (ARGV[2] = N): N admissions at `now` recorded in every counting window even past its
  limit, with no decision: a full log keeps its newest `limit` entries and refuses until they leave.

COST (bench/README.md, "Redis's cost per decision"): a Business decision costs Redis 220,000–245,000
instructions, about 100,000 of them the calls (EVALSHA and its 18 arguments, TIME, the header's GET
and SET, a SETRANGE per log, the reply) and about 75,000 the struct calls, tonumber()s and tables;
bench/redis-lua-costs.ts measures each block alone. In this Lua a table or a closure costs about
what a C call does: measure a change (BENCH_CALLGRIND=1 bench/redis-script.ts) before keeping it.
]]

local call, pack, read, unpack, byte = redis.call, struct.pack, struct.unpack, unpack, string.byte
local floor, min, max = math.floor, math.min, math.max

local HEADER_LEN, SLOT_LEN, ENTRY_LEN = 8, 40, 8
local LOG_SLOT, DAY_SLOT, ENTRY = '<I4I4I4I4ddd', '<ddxxxxxxxxxxxxxxxxxxxxxxxx', '<d'
local EMPTY_SLOT = string.rep('\0', SLOT_LEN)
local SUB_BUCKETS, DAY_MS, CHUNK = 100, 86400000, 8
-- a log key's time to live when written anew or renewed: 2 × width + RENEW_SLACK ms
local RENEW_SLACK = 10000
-- the bytes of ARGV's "what": kinds, role, slot digits
local KIND_LOG, KIND_BUCKETS, KIND_DAY, ROLE_COUNTS, DIGIT_0 = byte('r'), byte('b'), byte('d'), byte('c'), byte('0')

-- ── the clock and the request ────────────────────────────────────────────────────────────────
local now
if ARGV[1] == '' then
  local t = call('TIME')
  now = tonumber(t[1]) * 1000 + floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[1])
end
local charge = tonumber(ARGV[2])

-- the header keys: the counting windows', and the observed windows' when another (read if needed)
local countHeader = call('GET', KEYS[1]) or ''
local observeHeader = false
if KEYS[2] == KEYS[1] then observeHeader = countHeader end

-- ── helpers of the sliding log ───────────────────────────────────────────────────────────────
-- logical entry j of a ring of `cap` slots holding k entries, the oldest at `head` once full
local function entryAt(key, cap, k, head, j)
  if k == cap then j = (head + j) % cap end
  local v = call('GETRANGE', key, j * ENTRY_LEN, j * ENTRY_LEN + ENTRY_LEN - 1)
  if #v < ENTRY_LEN then return 0 end
  return (read(ENTRY, v))
end

-- every entry of a ring, oldest first
local function allEntries(key, cap, k, head)
  local ring, list = call('GET', key) or '', {}
  for j = 0, k - 1 do
    local p = j
    if k == cap then p = (head + j) % cap end
    if (p + 1) * ENTRY_LEN <= #ring then list[j + 1] = read(ENTRY, ring, p * ENTRY_LEN + 1) else list[j + 1] = 0 end
  end
  return list
end

-- ── read every window and decide ─────────────────────────────────────────────────────────────
-- each window's state, an array (cheaper than named fields): what it is, then what its kind needs
local KIND, LIMIT, WIDTH, COUNTS, SLOT, USED, KEY = 1, 2, 3, 4, 5, 6, 7
local OLDEST, NEWEST, CAP, K, HEAD, GONE, EXPIRES, ENTRIES = 8, 9, 10, 11, 12, 13, 14, 15 -- log
local TODAY, LEFT = 8, 9 -- day
local G, CUR, BUCKETS, STALE, FOLD = 8, 9, 10, 11, 12 -- sub-buckets
local allowed = 1
local st, windows, a, keyAt = {}, 0, 3, 2
while a <= #ARGV do
  local kind, role, digit = byte(ARGV[a], 1, 3)
  local limit, slot, counts = tonumber(ARGV[a + 1]), digit - DIGIT_0, role == ROLE_COUNTS
  local header = countHeader
  if not counts then
    if not observeHeader then observeHeader = call('GET', KEYS[2]) or '' end
    header = observeHeader
  end
  local slotAt = HEADER_LEN + slot * SLOT_LEN + 1
  local hasSlot = #header >= slotAt + SLOT_LEN - 1
  local s
  if kind == KIND_DAY then
    a = a + 2
    local today = floor(now / DAY_MS)
    local count = 0
    if hasSlot then
      local day, n = read(DAY_SLOT, header, slotAt)
      if day == today then count = n end
    end
    s = { kind, limit, 0, counts, slot, count, false, today, (today + 1) * DAY_MS - now }
  else
    local width = tonumber(ARGV[a + 2])
    a, keyAt = a + 3, keyAt + 1
    local key = KEYS[keyAt]
    local cap, k, head, gone, first, newest, expires = limit, 0, 0, 0, 0, 0, 0
    if hasSlot then
      local c
      c, k, head, gone, first, newest, expires = read(LOG_SLOT, header, slotAt)
      if k > 0 then cap = c end
    end
    if kind == KIND_BUCKETS then
      local g = width / SUB_BUCKETS
      local cur = floor(now / g)
      local buckets, used, stale, fold = {}, 0, {}, false
      if k > 0 then
        -- the key is still a log: its entries inside the window, as counts per sub-bucket
        local by = {}
        for _, ts in ipairs(allEntries(key, cap, k, head)) do
          if ts > now - width then
            local b = floor(ts / g)
            by[b] = (by[b] or 0) + 1
          end
        end
        for b, c in pairs(by) do
          buckets[#buckets + 1] = { b, c }
          used = used + c
        end
        fold = true
      else
        local flat = redis.pcall('HGETALL', key)
        if flat.err then
          -- a string of an earlier layout: replaced by the hash on the next write
          flat, fold = {}, true
        end
        for j = 1, #flat, 2 do
          local b, c = tonumber(flat[j]), tonumber(flat[j + 1])
          if b >= cur - SUB_BUCKETS then
            buckets[#buckets + 1] = { b, c }
            used = used + c
          else
            stale[#stale + 1] = flat[j]
          end
        end
      end
      table.sort(buckets, function(x, y) return x[1] < y[1] end)
      s = { kind, limit, width, counts, slot, used, key, g, cur, buckets, stale, fold }
    else
      s = { kind, limit, width, counts, slot, 0, key, false, newest, cap, k, head, 0, expires, false }
      if k == 0 then
        if call('TYPE', key).ok == 'hash' then
          -- the window was sub-bucketed: the newest counts that fit, as entries at the end of their sub-bucket
          local g = width / SUB_BUCKETS
          local low = floor(now / g) - SUB_BUCKETS
          local buckets = {}
          local flat = call('HGETALL', key)
          for j = 1, #flat, 2 do
            local b = tonumber(flat[j])
            if b >= low then buckets[#buckets + 1] = { b, tonumber(flat[j + 1]) } end
          end
          table.sort(buckets, function(x, y) return x[1] > y[1] end)
          local newestFirst = {}
          for _, bc in ipairs(buckets) do
            local ts = min((bc[1] + 1) * g - 1, now)
            if ts <= now - width then break end
            for _ = 1, min(bc[2], limit - #newestFirst) do newestFirst[#newestFirst + 1] = ts end
            if #newestFirst >= limit then break end
          end
          local entries = {}
          for j = #newestFirst, 1, -1 do entries[#entries + 1] = newestFirst[j] end
          s[USED], s[ENTRIES] = #entries, entries
          if #entries > 0 then s[OLDEST], s[NEWEST] = entries[1], entries[#entries] end
        end
      else
        -- the first entry inside (now − width, now]: entries before `gone` had left at the last
        -- write, `first` is the time of entry `gone`
        local edge = now - width
        local idx, ts = k, false
        if gone < k and newest > edge then
          if first > edge then
            idx, ts = gone, first
          else
            -- entry `gone` has left: read the next ones in one chunk (contiguous in the ring)
            local lo = gone + 1
            local p = lo
            if k == cap then p = (head + lo) % cap end
            local n = min(CHUNK, k - lo, cap - p)
            if n > 0 then
              local chunk = call('GETRANGE', key, p * ENTRY_LEN, (p + n) * ENTRY_LEN - 1)
              for j = 0, n - 1 do
                if (j + 1) * ENTRY_LEN > #chunk then break end
                local at = read(ENTRY, chunk, j * ENTRY_LEN + 1)
                if at > edge then
                  idx, ts = lo + j, at
                  break
                end
              end
              lo = lo + n
            end
            if not ts then
              -- gallop forward, then bisect
              local hi, step = k, 1
              while lo < hi do
                local probe = min(lo + step - 1, hi - 1)
                if entryAt(key, cap, k, head, probe) > edge then
                  hi = probe
                  break
                end
                lo = probe + 1
                step = step * 2
              end
              while lo < hi do
                local mid = floor((lo + hi) / 2)
                if entryAt(key, cap, k, head, mid) > edge then hi = mid else lo = mid + 1 end
              end
              idx = lo
            end
          end
        end
        local c = k - idx
        if c > limit then
          -- a lowered limit: only the newest `limit` count
          idx, c, ts = k - limit, limit, false
        end
        s[USED], s[GONE] = c, idx
        if c > 0 then s[OLDEST] = ts or entryAt(key, cap, k, head, idx) end
      end
    end
  end
  if counts and s[USED] >= limit then allowed = 0 end
  windows = windows + 1
  st[windows] = s
end
if charge > 0 then allowed = 1 end

-- ── write the counting windows (on admission or charge) and answer ────────────────────────────
local admitted = charge
if admitted == 0 then admitted = 1 end
local out, o = { allowed, now }, 2
local slots, liveUntil, hasSlots = {}, 0, false
for i = 1, windows do
  local s = st[i]
  local kind, limit, used, key = s[KIND], s[LIMIT], s[USED], s[KEY]
  local counted = allowed == 1 and s[COUNTS]
  local wait = 0
  if kind == KIND_DAY then
    if counted then
      used = used + admitted
      slots[s[SLOT]] = pack(DAY_SLOT, s[TODAY], used)
      hasSlots = true
      liveUntil = max(liveUntil, now + s[LEFT] + 1000)
    end
    wait = s[LEFT]
  elseif kind == KIND_BUCKETS then
    local buckets, cur, g = s[BUCKETS], s[CUR], s[G]
    if counted then
      if s[FOLD] then
        -- the ring becomes a hash
        call('DEL', key)
        local fields = {}
        for _, bc in ipairs(buckets) do
          fields[#fields + 1] = bc[1]
          fields[#fields + 1] = bc[2]
        end
        if #fields > 0 then call('HSET', key, unpack(fields)) end
        slots[s[SLOT]] = EMPTY_SLOT
        hasSlots = true
      end
      if #s[STALE] > 0 then call('HDEL', key, unpack(s[STALE])) end
      call('HINCRBY', key, cur, admitted)
      call('PEXPIRE', key, s[WIDTH] + g + 1000)
      used = used + admitted
      local last = buckets[#buckets]
      if last and last[1] == cur then last[2] = last[2] + admitted else buckets[#buckets + 1] = { cur, admitted } end
    end
    if used >= limit then
      local left = used
      for _, bc in ipairs(buckets) do
        left = left - bc[2]
        if left < limit then
          wait = (bc[1] + SUB_BUCKETS + 1) * g - now
          break
        end
      end
    elseif #buckets > 0 then
      wait = (buckets[1][1] + SUB_BUCKETS + 1) * g - now
    end
  else
    local width, oldest = s[WIDTH], s[OLDEST]
    if counted then
      local ts = max(now, s[NEWEST])
      local k, cap, head = s[K], s[CAP], s[HEAD]
      local expires = s[EXPIRES]
      if admitted == 1 and not s[ENTRIES] and k > 0 and cap == limit and used < limit then
        -- the usual case: one entry written in place, the slot updated
        if expires - now < width + 1000 then
          expires = now + 2 * width + RENEW_SLACK
          call('PEXPIRE', key, 2 * width + RENEW_SLACK)
        end
        if k < cap then
          call('SETRANGE', key, k * ENTRY_LEN, pack(ENTRY, ts))
          slots[s[SLOT]] = pack(LOG_SLOT, cap, k + 1, 0, s[GONE], oldest or ts, ts, expires)
        else
          -- full: the oldest entry, outside the window, makes room; every index moves down by one
          call('SETRANGE', key, head * ENTRY_LEN, pack(ENTRY, ts))
          slots[s[SLOT]] = pack(LOG_SLOT, cap, k, (head + 1) % cap, s[GONE] - 1, oldest or ts, ts, expires)
        end
        used = used + 1
        oldest = oldest or ts
      else
        -- the log written anew (it may replace a hash): its entries that still count, then the
        -- new ones, the newest `limit`
        local list = s[ENTRIES]
        if not list then
          list = {}
          if used > 0 then
            local all = allEntries(key, cap, k, head)
            for j = k - used + 1, k do list[#list + 1] = all[j] end
          end
        end
        -- only the newest `limit` are kept: a charge past the limit adds at most that many
        for _ = 1, min(admitted, limit) do list[#list + 1] = ts end
        local from = max(1, #list - limit + 1)
        local parts = {}
        for j = from, #list do parts[#parts + 1] = pack(ENTRY, list[j]) end
        expires = now + 2 * width + RENEW_SLACK
        call('SET', key, table.concat(parts), 'PX', 2 * width + RENEW_SLACK)
        used, oldest = #list - from + 1, list[from]
        slots[s[SLOT]] = pack(LOG_SLOT, limit, used, 0, 0, oldest, ts, expires)
      end
      hasSlots = true
      -- the header outlives the ring it describes
      liveUntil = max(liveUntil, expires)
    end
    if used > 0 then wait = oldest + width - now end
  end
  out[o + 1] = limit - used
  out[o + 2] = wait
  o = o + 2
end

-- the counting windows' header key: every slot written this time, the others as they were
if hasSlots then
  local old = countHeader
  liveUntil = max(liveUntil, now + 1000)
  if #old >= HEADER_LEN then liveUntil = max(liveUntil, (read('<d', old))) end
  local parts, top = { pack('<d', liveUntil) }, floor((#old - HEADER_LEN) / SLOT_LEN) - 1
  for slot in pairs(slots) do top = max(top, slot) end
  for slot = 0, top do
    local at = HEADER_LEN + slot * SLOT_LEN
    parts[slot + 2] = slots[slot] or (at + SLOT_LEN <= #old and string.sub(old, at + 1, at + SLOT_LEN)) or EMPTY_SLOT
  end
  call('SET', KEYS[1], table.concat(parts), 'PX', liveUntil - now)
end
return out
