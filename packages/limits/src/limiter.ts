/**
 * createRateLimiter: the Engine on the configured store. While the store (or, on a cluster, the
 * shard of an account) is unreachable, a per-instance in-memory Engine decides with every limit
 * divided among the live instances; the store is probed in the background, and on its return the
 * local admissions are written back to it before the instance decides on it alone again
 * (docs/failures.md).
 */
import { Redis } from "@upstash/redis";
import { rawRedis } from "./algorithm.ts";
import { Engine } from "./engine.ts";
import { createRedisRequester, type RedisRequester } from "./redis-requester.ts";
import { createClusterRequester, keySlot, type ClusterRequester } from "./cluster-requester.ts";
import { createMemoryRequester } from "./memory-requester.ts";
import { ENDPOINT_LIMITS, assertLimits, InvalidLimitsError } from "./policy.ts";
import { SINGLE_INSTANCE, inputKey, shareInput, shareLimits, type LiveInstances } from "./shares.ts";
import type { Decision, DecideInput, PeekInput, RateLimitEvent, RateLimiter, StoreConfig, WindowState } from "./types.ts";

export interface RateLimiterOptions {
  store: StoreConfig;
  /** Key prefix in the store; give deployments and test runs their own. No default: each app's env.ts has it (RATE_LIMIT_PREFIX). */
  prefix: string;
  onEvent?: (e: RateLimitEvent) => void;
  /** How long one store round trip may take before the local fallback decides. No default: each app's env.ts has it (RATE_LIMIT_STORE_TIMEOUT_MS). */
  redisTimeoutMs: number;
  /** how often Redis is probed while the fallback is active (default 25 ms: back on Redis within 100 ms of it answering) */
  probeIntervalMs?: number;
  /**
   * The instances deciding for the same accounts (the API counts its processes by a heartbeat in
   * PostgreSQL). While the store is unreachable, each admits floor(limit ÷ count) per window, and
   * on its return waits for the others' local admissions to be written back. Default: this process alone.
   */
  liveInstances?: LiveInstances;
  /**
   * A test clock (Unix ms): every decision is taken at `now()` instead of the store's `TIME` (passed to
   * the script in ARGV), and the outage memory ages by it. For tests that would otherwise wait for a
   * window in real time; it may only move forward faster than real time, never behind it (the store
   * expires keys by its own clock). Refused in a production build and under NODE_ENV=production.
   */
  now?: () => number;
}

const SCOPE = /^[a-z][a-z0-9_-]{0,31}$/;

function assertGroup(group: unknown): void {
  if (typeof group !== "string" || !Object.hasOwn(ENDPOINT_LIMITS, group)) {
    throw new InvalidLimitsError(`unknown endpoint group ${String(group)}`);
  }
}

function assertInput(input: DecideInput & PeekInput): void {
  if (typeof input?.identity !== "string" || input.identity.length === 0 || input.identity.length > 256) {
    throw new InvalidLimitsError("identity must be a non-empty string of at most 256 characters");
  }
  // the identity is the keys' hash tag: a brace inside it would end the tag early
  if (/[{}]/.test(input.identity)) throw new InvalidLimitsError("identity must not contain { or }");
  assertLimits(input.limits);
  if (input.endpoint !== undefined) assertGroup(input.endpoint);
  for (const g of input.endpoints ?? []) assertGroup(g);
  if (input.scope !== undefined && (typeof input.scope !== "string" || !SCOPE.test(input.scope))) {
    throw new InvalidLimitsError("scope must be a short lower-case name");
  }
  if (input.observe) {
    assertLimits(input.observe.limits);
    for (const g of input.observe.endpoints ?? []) assertGroup(g);
  }
}

/** Wraps every store call, e.g. with a timeout. */
type Guard = <T>(p: Promise<T>) => Promise<T>;
const passThrough: Guard = (p) => p;

function timeoutGuard(ms: number): Guard {
  return <T>(p: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
    });
    return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
  };
}

/** A shard of the store (the whole store unless it is a cluster) that failed, until it is exact again. */
interface Unit {
  /** "*" for a single store; on a cluster, the master that served the failed account's slot */
  id: string;
  /**
   * down: decided locally, each window at this instance's share;
   * gated: the store answers again; a request needs its local share and then the store to admit
   * it, until every instance's local admissions are written back
   */
  phase: "down" | "gated";
  /** the most live instances seen since this shard failed: a share only shrinks during an outage */
  divisor: number;
  /** what the probe reads on a cluster: the windows of the account that failed first */
  probe: PeekInput;
  probing: boolean;
  /** local admissions the store has not counted yet, per distinct decision input */
  unwritten: Map<string, { input: DecideInput; count: number }>;
  writing: boolean;
  /** local decisions being made: the instance's pending flag must be published before they admit */
  reserving: number;
  /** identities admitted locally here: they stay with this unit even if the slot map moves them */
  identities: Set<string>;
}

/** A shard that just failed (or is gated), nothing written back or reserved yet. */
function newUnit(id: string, phase: Unit["phase"], divisor: number, input: PeekInput): Unit {
  return { id, phase, divisor, probe: { identity: input.identity, limits: input.limits }, probing: false, unwritten: new Map(), writing: false, reserving: 0, identities: new Set() };
}

/** how often a gated instance reads whether the others have written their local admissions back */
const GATE_INTERVAL_MS = 10;
/** accounts whose last decision on the store is remembered for an outage (the least recent are forgotten) */
const SEEN_MAX = 50_000;

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const prefix = opts.prefix;
  if (typeof prefix !== "string" || prefix.length === 0) throw new InvalidLimitsError("prefix must be a non-empty string");
  const timeoutMs = opts.redisTimeoutMs;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new InvalidLimitsError("redisTimeoutMs must be a positive number of milliseconds");
  const probeIntervalMs = opts.probeIntervalMs ?? 25;
  const store = opts.store;
  const instances = opts.liveInstances ?? SINGLE_INSTANCE;
  const engineOptions = opts.now === undefined ? {} : { testClock: opts.now };
  const clock = opts.now ?? Date.now;

  const emit = (e: RateLimitEvent): void => {
    try {
      opts.onEvent?.(e);
    } catch {
      // a failing listener must not change a decision
    }
  };

  if (store.kind === "memory") {
    const engine = new Engine(rawRedis(createMemoryRequester()), prefix, engineOptions);
    return {
      store: "memory",
      fallbackActive: () => false,
      peek: async (input) => {
        assertInput(input);
        return engine.peek(input);
      },
      decide: async (input) => {
        assertInput(input);
        const started = performance.now();
        const decision = await engine.decide(input);
        emitDecision(emit, decision, started, 1);
        return decision;
      },
      close: async () => {},
    };
  }

  let requester: RedisRequester | undefined;
  let cluster: ClusterRequester | undefined;
  let redis: Redis;
  let guard: Guard;
  if (store.kind === "redis" || store.kind === "cluster") {
    if (store.kind === "cluster") requester = cluster = createClusterRequester(store.url, timeoutMs);
    else requester = createRedisRequester(store.url, timeoutMs);
    redis = rawRedis(requester);
    // the requester times its commands itself, with one timer for all of them
    guard = passThrough;
  } else {
    redis = new Redis({ url: store.url, token: store.token, enableTelemetry: false, retry: false, automaticDeserialization: false });
    guard = timeoutGuard(timeoutMs);
  }
  const primary = new Engine(redis, prefix, engineOptions);
  const local = new Engine(rawRedis(createMemoryRequester()), prefix, engineOptions);
  // the registry lives elsewhere (the API's database): its calls are bounded like the store's
  const bounded = timeoutGuard(timeoutMs);
  /** writes local admissions back: `count` admissions at the store's now, in every counting window, all or nothing */
  const charge = (input: DecideInput, count: number): Promise<void> => guard(primary.charge(input, count));

  let closed = false;
  // the first decision waits (briefly) for the initial connection instead of failing over at once
  let startup: Promise<void> | undefined = requester?.ready(Math.max(1_000, timeoutMs));
  startup?.catch(() => {});

  const units = new Map<string, Unit>();
  /** identities admitted locally, to the unit that holds their unwritten admissions */
  const stickTo = new Map<string, Unit>();
  const shardOf = (identity: string): string => (cluster ? cluster.shardOf(`${prefix}:{${identity}}`) : "*");
  const unitFor = (identity: string): Unit | undefined => {
    const stuck = stickTo.get(identity);
    if (stuck || units.size === 0) return stuck;
    return (cluster && units.get(`slot:${keySlot(`{${identity}}`)}`)) || units.get(shardOf(identity));
  };
  const liveCount = (): number => {
    const n = Math.floor(instances.count());
    return Number.isFinite(n) && n > 1 ? n : 1;
  };

  // --- the pending flag: set before the first local admission, cleared once all are written back

  let flag: "set" | "clear" = "clear";
  let flagWrites = 0;
  let flagChain: Promise<void> = Promise.resolve();
  const wantPending = (): boolean => {
    for (const u of units.values()) if (u.reserving > 0 || u.unwritten.size > 0) return true;
    return false;
  };
  /** Brings the published flag in line with what this instance holds; serialized. */
  const syncFlag = (): Promise<void> => {
    flagWrites++;
    flagChain = flagChain
      .then(async () => {
        const want = wantPending() ? "set" : "clear";
        if (want === flag) return;
        let divisor = 1;
        for (const u of units.values()) divisor = Math.max(divisor, u.divisor);
        await bounded(instances.setPending(want === "set" ? divisor : null));
        flag = want;
      })
      .catch(() => {})
      .finally(() => {
        flagWrites--;
      });
    return flagChain;
  };
  /** True once every other instance can see that this one may hold unwritten local admissions. */
  const published = async (): Promise<boolean> => {
    if (flag === "set" && flagWrites === 0) return true;
    await syncFlag();
    return flag === "set";
  };

  // --- shards going down and coming back

  let prober: NodeJS.Timeout | undefined;
  let gateTimer: NodeJS.Timeout | undefined;
  let gateBusy = false;

  /**
   * Another instance admits its share without the store (cut off from it, or not yet written
   * back): this one decides behind its share too, until the others have written theirs back.
   */
  const gateFor = (shard: string, input: PeekInput): Unit => {
    const u = newUnit(shard, "gated", liveCount(), input);
    units.set(shard, u);
    emit({ type: "fallback", reason: "another instance holds admissions its store has not counted yet: deciding within this instance's share" });
    startGate();
    return u;
  };

  const markDown = (shard: string, input: PeekInput, err: unknown): Unit => {
    // a slot whose keys are split by a migration that outlasted the timeout: only that slot
    const id = cluster && err instanceof Error && err.message.startsWith("TRYAGAIN") ? `slot:${keySlot(`{${input.identity}}`)}` : shard;
    let u = units.get(id);
    if (!u) {
      u = newUnit(id, "down", liveCount(), input);
      units.set(id, u);
    } else if (u.phase === "down") {
      return u;
    }
    u.phase = "down";
    emit({ type: "fallback", reason: `${cluster ? `shard ${id}: ` : ""}${err instanceof Error ? err.message : String(err)}` });
    startProbing(u);
    return u;
  };

  const probe = (u: Unit): void => {
    if (u.probing || u.phase !== "down" || closed) return;
    u.probing = true;
    guard<unknown>(u.id === "*" ? redis.ping() : primary.peek(u.probe))
      .then(() => {
        if (closed || u.phase !== "down" || units.get(u.id) !== u) return;
        // back on the store, behind the gate: its local share and the store must both admit
        u.phase = "gated";
        startGate();
      })
      .catch(() => {})
      .finally(() => {
        u.probing = false;
      });
  };

  const startProbing = (u: Unit): void => {
    if (!prober) {
      prober = setInterval(() => {
        let down = false;
        for (const unit of units.values()) {
          if (unit.phase !== "down") continue;
          down = true;
          probe(unit);
        }
        if (!down) {
          clearInterval(prober);
          prober = undefined;
        }
      }, probeIntervalMs);
      prober.unref();
    }
    // a single Redis: probe the moment its connection is back, not at the next tick
    if (store.kind === "redis" && requester) {
      const rq = requester;
      void (async () => {
        while (!closed && u.phase === "down" && units.get(u.id) === u) {
          try {
            await rq.ready(60_000);
          } catch {
            if (closed) return;
            continue;
          }
          probe(u);
          await new Promise((r) => setTimeout(r, probeIntervalMs).unref());
        }
      })();
    }
  };

  const makeExact = (u: Unit): void => {
    units.delete(u.id);
    for (const identity of u.identities) if (stickTo.get(identity) === u) stickTo.delete(identity);
    emit({ type: "recovered" });
  };

  const writeBack = async (u: Unit): Promise<void> => {
    if (u.writing || u.unwritten.size === 0) return;
    u.writing = true;
    try {
      while (u.unwritten.size > 0 && u.phase === "gated" && !closed) {
        const batch = [...u.unwritten].map(([key, entry]) => ({ key, entry, count: entry.count }));
        const results = await Promise.allSettled(
          batch.map(async ({ entry, count }) => {
            await charge(entry.input, count);
            entry.count -= count;
          }),
        );
        for (const { key, entry } of batch) if (entry.count === 0) u.unwritten.delete(key);
        // a failed write is tried again on the next tick (a timed-out one may count twice: never fewer)
        if (results.some((r) => r.status === "rejected")) return;
      }
    } finally {
      u.writing = false;
    }
  };

  /** While a shard is gated: write its local admissions back, clear the flag, then wait for the others'. */
  const gateTick = (): void => {
    if (gateBusy || closed) return;
    gateBusy = true;
    void (async () => {
      const gated = [...units.values()].filter((u) => u.phase === "gated");
      if (gated.length === 0) {
        clearInterval(gateTimer);
        gateTimer = undefined;
        return;
      }
      await Promise.all(gated.map(writeBack));
      const written = gated.filter((u) => u.phase === "gated" && u.unwritten.size === 0 && !u.writing);
      if (written.length === 0) return;
      await syncFlag();
      // a fresh read: no instance may still hold admissions the store has not counted
      const others = await bounded(instances.othersPending());
      if (others !== 0) return;
      for (const u of written) if (u.phase === "gated" && u.unwritten.size === 0 && !u.writing && u.reserving === 0) makeExact(u);
    })()
      .catch(() => {})
      .finally(() => {
        gateBusy = false;
      });
  };

  const startGate = (): void => {
    gateTick();
    if (!gateTimer) {
      gateTimer = setInterval(gateTick, GATE_INTERVAL_MS);
      gateTimer.unref();
    }
  };

  // --- what the store last said of each account, for the shares of an outage

  /** identity (and scope) → the windows of its last decision on the store, and when (local clock) */
  const seen = new Map<string, { at: number; windows: WindowState[] }>();
  const seenKey = (input: DecideInput): string => (input.scope ? `${input.identity}|${input.scope}` : input.identity);
  const remember = (input: DecideInput, d: Decision): void => {
    const key = seenKey(input);
    seen.delete(key);
    seen.set(key, { at: clock(), windows: d.windows });
    if (seen.size > SEEN_MAX) seen.delete(seen.keys().next().value!);
  };
  /**
   * What the store had counted in each window of the account when last seen, while those requests
   * may still be in it (a rolling window's length after, the day until its reset).
   */
  const usedOf = (input: DecideInput): Map<string, number> | undefined => {
    const last = seen.get(seenKey(input));
    if (!last) return undefined;
    const now = clock();
    let used: Map<string, number> | undefined;
    for (const w of last.windows) {
      const until = last.at + (w.windowSeconds === 86_400 ? w.resetInMs : w.windowSeconds * 1_000);
      if (now < until && w.remaining < w.limit) (used ??= new Map()).set(w.policy, w.limit - w.remaining);
    }
    return used;
  };

  // --- decisions

  const record = (u: Unit, input: DecideInput): void => {
    const key = inputKey(input);
    const entry = u.unwritten.get(key);
    if (entry) entry.count++;
    else u.unwritten.set(key, { input, count: 1 });
    u.identities.add(input.identity);
    stickTo.set(input.identity, u);
  };

  /** A refusal by the local engine's view of `windows` (the shares that are 0, or all when unpublished). */
  const refusal = async (localInput: DecideInput, policies: string[], zero: boolean): Promise<Decision> => {
    const d = await local.decide(localInput);
    const windows = d.windows.map((w) => {
      if (!policies.includes(w.policy)) return w;
      const waitMs = w.windowSeconds === 86_400 ? w.resetInMs : w.windowSeconds * 1_000;
      return { ...w, limit: zero ? 0 : w.limit, remaining: 0, resetInMs: waitMs, reset: d.decidedAt + waitMs };
    });
    const binding = windows.find((w) => policies.includes(w.policy)) ?? windows[0]!;
    return {
      ...d,
      allowed: false,
      windows,
      binding,
      retryAfterSeconds: zero ? Math.max(1, Math.ceil(binding.resetInMs / 1_000)) : 1,
      degraded: true,
    };
  };

  const decideLocally = async (u: Unit, input: DecideInput): Promise<Decision> => {
    u.divisor = Math.max(u.divisor, liveCount());
    const share = shareInput(input, u.divisor, usedOf(input));
    if (share.zero.length > 0) return refusal(share.input, share.zero, true);
    u.reserving++;
    try {
      // the others must know before anything is admitted that the store will not have counted it
      if (!(await published())) return refusal(share.input, [...share.shares.keys()], false);
      const d = await local.decide(share.input);
      d.degraded = true;
      if (d.allowed) record(u, input);
      return d;
    } finally {
      u.reserving--;
    }
  };

  const decideGated = async (u: Unit, input: DecideInput): Promise<Decision> => {
    u.divisor = Math.max(u.divisor, liveCount());
    const share = shareInput(input, u.divisor, usedOf(input));
    if (share.zero.length > 0) return refusal(share.input, share.zero, true);
    const mine = await local.decide(share.input);
    if (!mine.allowed) {
      mine.degraded = true;
      return mine;
    }
    try {
      const d = await guard(primary.decide(input));
      remember(input, d);
      return d;
    } catch (err) {
      // admitted by the share, and the store may not have counted it: down again, and written back later
      markDown(u.id, input, err);
      u.reserving++;
      try {
        if (!(await published())) return refusal(share.input, [...share.shares.keys()], false);
        record(u, input);
        mine.degraded = true;
        return mine;
      } finally {
        u.reserving--;
      }
    }
  };

  const onStore = async <T>(run: () => Promise<T>): Promise<T> => {
    if (startup) {
      try {
        await startup;
      } finally {
        startup = undefined;
      }
    }
    return guard(run());
  };

  return {
    store: store.kind,
    // until every shard decides on the store alone again
    fallbackActive: () => units.size > 0,
    peek: async (input): Promise<WindowState[]> => {
      assertInput(input);
      let u = unitFor(input.identity);
      // gated: the store answers, and what it counted (written back included) is the account's state
      if (!u || u.phase === "gated") {
        const id = u?.id ?? shardOf(input.identity);
        try {
          return await onStore(() => primary.peek(input));
        } catch (err) {
          u = markDown(id, input, err);
        }
      }
      return local.peek({ ...input, limits: shareLimits(input.limits, Math.max(u.divisor, liveCount())) });
    },
    decide: async (input): Promise<Decision> => {
      assertInput(input);
      const started = performance.now();
      let u = unitFor(input.identity);
      if (!u && instances.othersPendingSeen() > 0) u = gateFor(shardOf(input.identity), input);
      if (!u) {
        const id = shardOf(input.identity);
        try {
          const decision = await onStore(() => primary.decide(input));
          remember(input, decision);
          emitDecision(emit, decision, started, 1);
          return decision;
        } catch (err) {
          u = markDown(id, input, err);
        }
      }
      const decision = u.phase === "gated" ? await decideGated(u, input) : await decideLocally(u, input);
      emitDecision(emit, decision, started, decision.degraded ? 0 : 1);
      return decision;
    },
    close: async () => {
      closed = true;
      if (prober) clearInterval(prober);
      if (gateTimer) clearInterval(gateTimer);
      await requester?.close();
    },
  };
}

function emitDecision(emit: (e: RateLimitEvent) => void, d: Decision, started: number, roundTrips: number): void {
  emit({
    type: "decision",
    allowed: d.allowed,
    degraded: d.degraded,
    window: d.binding.name,
    durationMs: performance.now() - started,
    roundTrips,
  });
}
