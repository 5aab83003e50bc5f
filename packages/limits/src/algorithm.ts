/**
 * The multi-window script as an @upstash/ratelimit algorithm: `new Ratelimit({ limiter:
 * multiWindow(specs) })` decides every window of a request in one script execution.
 *
 * `Ratelimit.limit(identifier)` hands the algorithm `<prefix>:<identifier>`; the identifier is the
 * identity in braces, so every key of one identity shares a Redis Cluster hash tag:
 * `<prefix>:{acct:…}:burst`, `…:minute`, `…:endpoint:oib`, `…:day`.
 */
import type { Algorithm } from "@upstash/ratelimit";
import { Redis, type Requester } from "@upstash/redis";
import { RING_LIMIT, SCRIPT, SCRIPT_SHA } from "./script.ts";
import type { WindowName, WindowState } from "./types.ts";

export interface WindowSpec {
  name: WindowName;
  /** "burst", "minute", "endpoint:kpd", "day"; with a scope, e.g. "status:burst" */
  policy: string;
  limit: number;
  windowMs: number;
  kind: "rolling" | "day";
  /** counting windows decide the request; observed ones are only reported */
  counts: boolean;
  /** its slot in the identity's header key (multi-window.lua): one per policy of a scope */
  slot: number;
  /** "" or the scope with its colon, e.g. "status:": the windows of one scope share a header key */
  scope: string;
}

/** What a script call does besides reading: decide one request, or charge `charge` admissions. */
export interface ScriptCall {
  /** Unix ms to decide at (a test clock); by default the store's clock */
  now?: number;
  /** record this many admissions unconditionally instead of deciding */
  charge?: number;
}

/** What `Ratelimit.limit()` answers with this algorithm: its usual fields plus every window. */
export interface MultiWindowResponse {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix ms (the store's clock) when the binding window admits again or its quota next increases */
  reset: number;
  pending: Promise<unknown>;
  /** every window in spec order, counting ones first as given */
  windows: WindowState[];
  /** the counting windows' binding window: fewest remaining on admit, latest admit on refusal */
  binding: WindowState;
  /** refusal only: ms until the binding window admits again, by the store's clock */
  retryAfterMs?: number;
  /** Unix ms of the store's clock when the script ran */
  decidedAt: number;
}

type RegionContext = { redis: Redis };

const DONE = Promise.resolve();

/**
 * The @upstash/redis client of the limiter, over the project's requesters (one connection to Redis,
 * a Redis Cluster, or the in-process store): replies come back as Redis sent them. By default
 * @upstash/redis runs every reply through its JSON parsing (each of a decision's ten integers
 * formatted and parsed again, about 1.2 µs per decision); the limiter's commands answer integers
 * and status strings, which need none. The Upstash REST client gets the same through its config
 * (`automaticDeserialization: false`).
 */
export function rawRedis(requester: Requester): Redis {
  return new RawRedis(requester);
}

class RawRedis extends Redis {
  constructor(requester: Requester) {
    super(requester);
    // @upstash/redis passes `opts` to every command it builds; the requester form takes none
    this.opts = { automaticDeserialization: false };
  }
}

/** Sends the script by hash, and whole once when the store does not know it yet. */
export function runWindowScript(redis: Redis, keys: string[], args: string[]): Promise<number[]> {
  return redis.evalsha<string[], number[]>(SCRIPT_SHA, keys, args).catch((err: unknown) => {
    if (err instanceof Error && err.message.toUpperCase().includes("NOSCRIPT")) {
      return redis.eval<string[], number[]>(SCRIPT, keys, args);
    }
    throw err;
  });
}

/** The script's arguments (multi-window.lua, ARGV): the clock and the charge, then per window what it is, its limit and width. */
export function scriptArgs(specs: readonly WindowSpec[], call: ScriptCall = {}): string[] {
  const args: string[] = [call.now === undefined ? "" : String(call.now), String(call.charge ?? 0)];
  for (const s of specs) {
    if (!Number.isInteger(s.slot) || s.slot < 0 || s.slot > 9) throw new Error(`a window's slot is one digit, got ${s.slot}`);
    const kind = s.kind === "day" ? "d" : s.limit <= RING_LIMIT ? "r" : "b";
    args.push(`${kind}${s.counts ? "c" : "o"}${s.slot}`, String(s.limit));
    if (s.kind !== "day") args.push(String(s.windowMs));
  }
  return args;
}

/** `args` (from scriptArgs) deciding at `now` instead of the store's clock. */
const at = (args: readonly string[], now: number): string[] => [String(now), ...args.slice(1)];

/**
 * The admit rule for the binding window: whether `b` binds rather than `a`, i.e. has fewer
 * requests left, or as many and a later reset. (On refusal the refusing window that admits last binds.)
 */
function bindsBefore(b: WindowState, a: WindowState): boolean {
  return b.remaining < a.remaining || (b.remaining === a.remaining && b.resetInMs > a.resetInMs);
}

/** The binding window of windows read or admitted together. */
export function bindingWindow(windows: readonly WindowState[]): WindowState {
  let binding = windows[0]!;
  for (const w of windows) if (bindsBefore(w, binding)) binding = w;
  return binding;
}

/** Window states and the binding window from the script's answer. */
function readAnswer(specs: readonly WindowSpec[], reply: readonly number[]): MultiWindowResponse {
  // absolute times on the store's clock, the one every window is measured by: the day's reset is
  // then exactly 00:00 UTC
  const storeNow = Number(reply[1]);
  const allowed = reply[0] === 1;
  const windows: WindowState[] = new Array<WindowState>(specs.length);
  let binding: WindowState | undefined;
  for (let i = 0; i < specs.length; i++) {
    const s = specs[i]!;
    const remaining = Math.max(0, Number(reply[2 + 2 * i]));
    const resetInMs = Math.max(0, Number(reply[3 + 2 * i]));
    const w: WindowState = {
      name: s.name,
      limit: s.limit,
      remaining,
      reset: storeNow + resetInMs,
      resetInMs,
      windowSeconds: s.windowMs / 1000,
      policy: s.policy,
    };
    windows[i] = w;
    if (!s.counts) continue;
    if (allowed) {
      if (!binding || bindsBefore(w, binding)) binding = w;
    } else if (remaining === 0 && (!binding || resetInMs > binding.resetInMs)) {
      // refusing windows have nothing left; the one admitting last decides the wait
      binding = w;
    }
  }
  if (!binding) throw new Error("the rate-limit script answered without a counting window");
  return {
    success: allowed,
    limit: binding.limit,
    remaining: binding.remaining,
    reset: binding.reset,
    pending: DONE,
    windows,
    binding,
    retryAfterMs: allowed ? undefined : binding.resetInMs,
    decidedAt: Number(reply[1]),
  };
}

/** The windows of an answer in which every window was only observed (read, nothing counted). */
export function readObserved(specs: readonly WindowSpec[], reply: readonly number[]): WindowState[] {
  // read as if every window had counted and admitted: the windows are the same
  return readAnswer(
    specs.map((s) => ({ ...s, counts: true })),
    [1, ...reply.slice(1)],
  ).windows;
}

/**
 * Keys of these windows for the key `Ratelimit` derives from the identifier (multi-window.lua,
 * KEYS): the header key of the counting windows and of the observed ones, then the key of each
 * rolling window (a day window lives in its header key).
 */
export function windowKeys(base: string, specs: readonly WindowSpec[]): string[] {
  const counting = specs.find((s) => s.counts);
  const observed = specs.find((s) => !s.counts);
  const countHeader = `${base}:${(counting ?? observed)!.scope}windows`;
  const observeHeader = observed ? `${base}:${observed.scope}windows` : countHeader;
  const keys: string[] = [countHeader, observeHeader];
  for (const s of specs) if (s.kind !== "day") keys.push(`${base}:${s.policy}`);
  return keys;
}

/**
 * An @upstash/ratelimit algorithm deciding all `specs` together. `getRemaining` reads without
 * counting (every window observed); `resetTokens` forgets the identity's windows.
 */
export function multiWindow(specs: readonly WindowSpec[], clock?: () => number): Algorithm<RegionContext> {
  const args = scriptArgs(specs);
  // the counting windows, read without counting
  const own = specs.filter((s) => s.counts).map((s) => ({ ...s, counts: false }));
  const observeArgs = scriptArgs(own);
  if (own.length === 0) throw new Error("multiWindow() needs at least one counting window");
  return () => ({
    limit: async (ctx, identifier) => {
      const keys = windowKeys(identifier, specs);
      const reply = await runWindowScript(ctx.redis, keys, clock ? at(args, clock()) : args);
      return readAnswer(specs, reply);
    },
    getRemaining: async (ctx, identifier) => {
      const reply = await runWindowScript(ctx.redis, windowKeys(identifier, own), clock ? at(observeArgs, clock()) : observeArgs);
      const binding = bindingWindow(readObserved(own, reply));
      return { remaining: binding.remaining, reset: binding.reset, limit: binding.limit };
    },
    resetTokens: async (ctx, identifier) => {
      await ctx.redis.del(...new Set(windowKeys(identifier, specs)));
    },
  });
}
