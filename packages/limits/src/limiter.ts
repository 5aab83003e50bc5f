/**
 * createRateLimiter: the Engine on the configured store, failing open to a per-instance in-memory
 * Engine while Redis is unreachable, probing it in the background and returning when it answers.
 */
import { Redis } from "@upstash/redis";
import { Engine } from "./engine.ts";
import { createRedisRequester, type RedisRequester } from "./redis-requester.ts";
import { createClusterRequester } from "./cluster-requester.ts";
import { createMemoryRequester } from "./memory-requester.ts";
import { ENDPOINT_LIMITS, assertLimits, InvalidLimitsError } from "./policy.ts";
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

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const prefix = opts.prefix;
  if (typeof prefix !== "string" || prefix.length === 0) throw new InvalidLimitsError("prefix must be a non-empty string");
  const timeoutMs = opts.redisTimeoutMs;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new InvalidLimitsError("redisTimeoutMs must be a positive number of milliseconds");
  const probeIntervalMs = opts.probeIntervalMs ?? 25;
  const store = opts.store;

  const emit = (e: RateLimitEvent): void => {
    try {
      opts.onEvent?.(e);
    } catch {
      // a failing listener must not change a decision
    }
  };

  if (store.kind === "memory") {
    const engine = new Engine(new Redis(createMemoryRequester()), prefix);
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
  let redis: Redis;
  let guard: Guard;
  if (store.kind === "redis" || store.kind === "cluster") {
    requester = store.kind === "redis" ? createRedisRequester(store.url, timeoutMs) : createClusterRequester(store.url, timeoutMs);
    redis = new Redis(requester);
    // the requester times its commands itself, with one timer for all of them
    guard = passThrough;
  } else {
    redis = new Redis({ url: store.url, token: store.token, enableTelemetry: false, retry: false });
    guard = timeoutGuard(timeoutMs);
  }
  const primary = new Engine(redis, prefix);
  let local: Engine | undefined;
  const fallbackEngine = (): Engine => (local ??= new Engine(new Redis(createMemoryRequester()), prefix));

  let degraded = false;
  let probe: NodeJS.Timeout | undefined;
  let probing = false;
  let closed = false;
  // the first decision waits (briefly) for the initial connection instead of failing over at once
  let startup: Promise<void> | undefined = requester?.ready(Math.max(1_000, timeoutMs));
  startup?.catch(() => {});

  const enterFallback = (err: unknown): void => {
    if (degraded || closed) return;
    degraded = true;
    emit({ type: "fallback", reason: err instanceof Error ? err.message : String(err) });
    probe = setInterval(() => {
      if (probing) return;
      probing = true;
      guard(redis.ping())
        .then(() => {
          if (!degraded || closed) return;
          degraded = false;
          clearInterval(probe);
          probe = undefined;
          emit({ type: "recovered" });
        })
        .catch(() => {})
        .finally(() => {
          probing = false;
        });
    }, probeIntervalMs);
    probe.unref();
  };

  const onPrimary = async <T>(run: (engine: Engine) => Promise<T>): Promise<T | undefined> => {
    if (degraded) return undefined;
    try {
      if (startup) {
        await startup;
        startup = undefined;
      }
      return await guard(run(primary));
    } catch (err) {
      startup = undefined;
      enterFallback(err);
      return undefined;
    }
  };

  return {
    store: store.kind,
    fallbackActive: () => degraded,
    peek: async (input): Promise<WindowState[]> => {
      assertInput(input);
      const windows = await onPrimary((engine) => engine.peek(input));
      return windows ?? fallbackEngine().peek(input);
    },
    decide: async (input): Promise<Decision> => {
      assertInput(input);
      const started = performance.now();
      const result = await onPrimary((engine) => engine.decide(input));
      if (result) {
        emitDecision(emit, result, started, 1);
        return result;
      }
      const decision = await fallbackEngine().decide(input);
      decision.degraded = true;
      emitDecision(emit, decision, started, 0);
      return decision;
    },
    close: async () => {
      closed = true;
      if (probe) clearInterval(probe);
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
