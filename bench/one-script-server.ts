// What the design floor would be if DESIGN §4 allowed it: the same bare handler, the same windows,
// transport and headers as bench/limited-server.ts, but the four windows decided by ONE Lua script
// (one EVALSHA, all or nothing, so a refusal never needs refunds) instead of four @upstash/ratelimit
// instances. It is a measurement for the owner of the design, not a limiter of the product: the
// counting is @upstash/ratelimit's own sliding-window formula and fixed day, on the same
// @upstash/redis client over the same RESP requester, so that the gap between this row and the
// design floor is the price of four instances against one script.
import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import type { Decision, WindowState } from "@fiskal/limits";
// the package's internals, as its Engine uses them, so that both rows pay for the same arithmetic
import { createRedisRequester } from "../packages/limits/src/redis-requester.ts";
import { slidingEmptyBy } from "../packages/limits/src/window-math.ts";
import { serveDecided } from "./decided-server.ts";

// KEYS: (previous, current) bucket of burst, minute and endpoint, then the day's bucket.
// ARGV: now, then the four limits. Answers {1, remaining × 4} or {0, index of the refusing window}.
const SCRIPT = `
local now = tonumber(ARGV[1])
local windows = {1000, 60000, 60000}
local used = {}
for i = 1, 3 do
  local previous = tonumber(redis.call("GET", KEYS[2 * i - 1]) or "0")
  local current = tonumber(redis.call("GET", KEYS[2 * i]) or "0")
  local w = windows[i]
  used[i] = math.floor((1 - (now % w) / w) * previous) + current
  if used[i] >= tonumber(ARGV[1 + i]) then return {0, i} end
end
local day = tonumber(redis.call("GET", KEYS[7]) or "0")
if day >= tonumber(ARGV[5]) then return {0, 4} end
local out = {1}
for i = 1, 3 do
  local v = redis.call("INCR", KEYS[2 * i])
  if v == 1 then redis.call("PEXPIRE", KEYS[2 * i], windows[i] * 2 + 1000) end
  out[i + 1] = tonumber(ARGV[1 + i]) - (used[i] + 1)
end
local d = redis.call("INCR", KEYS[7])
if d == 1 then redis.call("PEXPIRE", KEYS[7], 86400000) end
out[5] = tonumber(ARGV[5]) - d
return out
`;

const LIMIT = { burst: 1_000_000_000, minute: 1_000_000_000, endpoint: 1_000_000_000, day: 1_000_000_000_000 };
const identity = `acct:bench-${randomUUID()}`;
const prefix = `fiskal-bench:${randomUUID()}`;
const requester = createRedisRequester(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", 1_000);
await requester.ready(5_000);
const redis = new Redis(requester);
// EVALSHA, and EVAL once when Redis does not know the script yet, as @upstash/ratelimit does
const script = redis.createScript<number[]>(SCRIPT);

const specs = [
  { name: "burst", policy: "burst", limit: LIMIT.burst, windowMs: 1_000 },
  { name: "minute", policy: "minute", limit: LIMIT.minute, windowMs: 60_000 },
  { name: "endpoint", policy: "endpoint:oib", limit: LIMIT.endpoint, windowMs: 60_000 },
] as const;

async function decide(): Promise<Decision> {
  const now = Date.now();
  const keys: string[] = [];
  for (const s of specs) {
    const bucket = Math.floor(now / s.windowMs);
    keys.push(`${prefix}:${s.policy}:${identity}:${bucket - 1}`, `${prefix}:${s.policy}:${identity}:${bucket}`);
  }
  const day = Math.floor(now / 86_400_000);
  keys.push(`${prefix}:day:${identity}:${day}`);
  const reply = await script.exec(keys, [
    String(now),
    String(LIMIT.burst),
    String(LIMIT.minute),
    String(LIMIT.endpoint),
    String(LIMIT.day),
  ]);
  if (reply[0] !== 1) throw new Error(`refused by window ${reply[1]}: the bench's limits must not throttle`);
  const windows: WindowState[] = specs.map((s, i) => ({
    name: s.name,
    limit: s.limit,
    remaining: reply[i + 1]!,
    reset: slidingEmptyBy(s.limit - reply[i + 1]!, Math.floor(now / s.windowMs), s.windowMs),
    windowSeconds: s.windowMs / 1000,
    policy: s.policy,
  }));
  windows.push({ name: "day", limit: LIMIT.day, remaining: reply[4]!, reset: (day + 1) * 86_400_000, windowSeconds: 86_400, policy: "day" });
  let binding = windows[0]!;
  for (const w of windows) if (w.remaining < binding.remaining) binding = w;
  return { allowed: true, windows, binding, degraded: false };
}

serveDecided(decide);
