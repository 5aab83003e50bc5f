/**
 * One decision over every applicable window, on one @upstash/redis client.
 *
 * Admit path: every window's `limit()` is issued at once (one round trip). Refuse path: one more
 * round trip that gives back what the other windows took, and what the refusing fixed window
 * counted, then reads the counters to compute when the request would be admitted.
 */
import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis";
import { endpointLimit, type EndpointGroup, type Limits } from "./policy.ts";
import type { Decision, DecideInput, WindowName, WindowState } from "./types.ts";
import { fixedResetAt, slidingAdmitsAt, slidingEmptyBy, slidingUsed } from "./window-math.ts";

const DAY_MS = 86_400_000;
const LIMITER_CACHE_SIZE = 1_000;

export interface WindowSpec {
  name: WindowName;
  policy: string;
  limit: number;
  windowMs: number;
  kind: "sliding" | "fixed";
}

export function windowSpecs(limits: Limits, endpoint?: EndpointGroup): WindowSpec[] {
  const specs: WindowSpec[] = [
    { name: "burst", policy: "burst", limit: limits.burst, windowMs: 1_000, kind: "sliding" },
    { name: "minute", policy: "minute", limit: limits.perMinute, windowMs: 60_000, kind: "sliding" },
  ];
  if (endpoint) {
    specs.push({
      name: "endpoint",
      policy: `endpoint:${endpoint}`,
      limit: endpointLimit(limits, endpoint),
      windowMs: 60_000,
      kind: "sliding",
    });
  }
  // a fixed window of one day is aligned to epoch days, so it resets at 00:00 UTC
  specs.push({ name: "day", policy: "day", limit: limits.perDay, windowMs: DAY_MS, kind: "fixed" });
  return specs;
}

function matches(specs: WindowSpec[], limits: Limits, endpoint?: EndpointGroup): boolean {
  for (const spec of specs) {
    const expected =
      spec.name === "burst"
        ? limits.burst
        : spec.name === "minute"
          ? limits.perMinute
          : spec.name === "day"
            ? limits.perDay
            : endpointLimit(limits, endpoint!);
    if (spec.limit !== expected) return false;
  }
  return true;
}

/** Wraps every Redis phase, e.g. with a timeout. */
export type Guard = <T>(p: Promise<T>) => Promise<T>;

export interface EngineResult {
  decision: Decision;
  roundTrips: number;
}

interface Counted {
  state: WindowState;
  /** the first Unix ms at which this window admits a request */
  admitsAt: number;
}

/** The windows of one (limits, endpoint) pair with their Ratelimit instances, in the same order. */
interface Plan {
  specs: WindowSpec[];
  limiters: Ratelimit[];
}

export class Engine {
  private readonly limiters = new Map<string, Ratelimit>();
  /**
   * Keyed by the Limits object itself: callers hold one per account for as long as they cache it
   * (and ANONYMOUS_LIMITS is a constant), so a request reuses the plan instead of rebuilding it.
   * Entries go with their Limits object, and are rebuilt if its values change.
   */
  private readonly plans = new WeakMap<Limits, Map<EndpointGroup | undefined, Plan>>();

  private planFor(limits: Limits, endpoint?: EndpointGroup): Plan {
    let byEndpoint = this.plans.get(limits);
    if (!byEndpoint) {
      byEndpoint = new Map();
      this.plans.set(limits, byEndpoint);
    }
    let plan = byEndpoint.get(endpoint);
    // an object changed in place must not keep its old windows
    if (!plan || !matches(plan.specs, limits, endpoint)) {
      const specs = windowSpecs(limits, endpoint);
      plan = { specs, limiters: specs.map((s) => this.limiterFor(s)) };
      byEndpoint.set(endpoint, plan);
    }
    return plan;
  }

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /**
   * Ratelimit instances per (window policy, limit), reused across requests. The counters are keyed
   * by policy and identity only, so a plan change judges the next request against the same count.
   */
  private limiterFor(spec: WindowSpec): Ratelimit {
    const id = `${spec.policy}:${spec.limit}`;
    let limiter = this.limiters.get(id);
    if (limiter) return limiter;
    limiter = new Ratelimit({
      redis: this.redis,
      prefix: `${this.prefix}:${spec.policy}`,
      limiter:
        spec.kind === "sliding"
          ? Ratelimit.slidingWindow(spec.limit, `${spec.windowMs} ms`)
          : Ratelimit.fixedWindow(spec.limit, `${spec.windowMs} ms`),
      // the ephemeral cache refuses in memory until the end of the bucket, later than the
      // sliding window really admits again, and it never learns about refunds
      ephemeralCache: false,
      // its timeout admits silently; timeouts are handled by the caller's Guard instead
      timeout: 0,
      analytics: false,
      enableTelemetry: false,
    });
    if (this.limiters.size >= LIMITER_CACHE_SIZE) {
      const oldest = this.limiters.keys().next().value;
      if (oldest !== undefined) this.limiters.delete(oldest);
    }
    this.limiters.set(id, limiter);
    return limiter;
  }

  private key(spec: WindowSpec, identity: string, bucket: number): string {
    return `${this.prefix}:${spec.policy}:${identity}:${bucket}`;
  }

  private stateKeys(spec: WindowSpec, identity: string, at: number): string[] {
    const bucket = Math.floor(at / spec.windowMs);
    return spec.kind === "sliding"
      ? [this.key(spec, identity, bucket - 1), this.key(spec, identity, bucket)]
      : [this.key(spec, identity, bucket)];
  }

  /** Window states from counters read at `at`; `values` are consumed in stateKeys order. */
  private count(specs: WindowSpec[], values: unknown[], at: number): Counted[] {
    let i = 0;
    const next = (): number => Number(values[i++] ?? 0) || 0;
    return specs.map((spec) => {
      const base = { name: spec.name, limit: spec.limit, windowSeconds: spec.windowMs / 1000, policy: spec.policy };
      if (spec.kind === "sliding") {
        const previous = next();
        const current = next();
        const sliding = { windowMs: spec.windowMs, previous, current, at };
        const used = slidingUsed(previous, current, spec.windowMs, at);
        const admitsAt = slidingAdmitsAt(sliding, spec.limit);
        const reset = used >= spec.limit ? admitsAt : slidingAdmitsAt(sliding, 1);
        return { state: { ...base, remaining: Math.max(0, spec.limit - used), reset }, admitsAt };
      }
      const used = next();
      const reset = fixedResetAt(Math.floor(at / spec.windowMs), spec.windowMs);
      return { state: { ...base, remaining: Math.max(0, spec.limit - used), reset }, admitsAt: used >= spec.limit ? reset : at };
    });
  }

  async peek(input: DecideInput, guard: Guard): Promise<WindowState[]> {
    const specs = windowSpecs(input.limits, input.endpoint);
    const at = Date.now();
    const keys = specs.flatMap((s) => this.stateKeys(s, input.identity, at));
    const values = await guard(this.redis.mget<unknown[]>(...keys));
    return this.count(specs, values, at).map((c) => c.state);
  }

  async decide(input: DecideInput, guard: Guard): Promise<EngineResult> {
    const { identity } = input;
    const { specs, limiters } = this.planFor(input.limits, input.endpoint);
    const responses = await guard(Promise.all(limiters.map((l) => l.limit(identity))));

    if (responses.every((r) => r.success)) {
      const windows = specs.map((spec, i): WindowState => {
        const r = responses[i]!;
        const reset =
          spec.kind === "sliding"
            ? slidingEmptyBy(spec.limit - r.remaining, r.reset / spec.windowMs - 1, spec.windowMs)
            : r.reset;
        return {
          name: spec.name,
          limit: spec.limit,
          remaining: r.remaining,
          reset,
          windowSeconds: spec.windowMs / 1000,
          policy: spec.policy,
        };
      });
      let binding = windows[0]!;
      for (const w of windows) {
        if (w.remaining < binding.remaining || (w.remaining === binding.remaining && w.reset > binding.reset)) binding = w;
      }
      return { decision: { allowed: true, windows, binding, degraded: false }, roundTrips: 1 };
    }

    // Refused. Give back every increment this request made: sliding windows count only what they
    // admit, the fixed window counts refused calls too. Each refund targets the exact bucket the
    // increment went to (from its reset), so a bucket boundary in between cannot misplace it.
    const refunds: Promise<unknown>[] = [];
    specs.forEach((spec, i) => {
      const r = responses[i]!;
      if (r.success || spec.kind === "fixed") {
        refunds.push(this.redis.decrby(this.key(spec, identity, r.reset / spec.windowMs - 1), 1));
      }
    });
    const at = Date.now();
    const keys = specs.flatMap((s) => this.stateKeys(s, identity, at));
    // issued after the refunds on the same connection, so the read sees them
    const [values] = await guard(Promise.all([this.redis.mget<unknown[]>(...keys), ...refunds]));
    const counted = this.count(specs, values, at);

    let binding: Counted | undefined;
    counted.forEach((c, i) => {
      const refusing = !responses[i]!.success || c.admitsAt > at;
      if (!refusing) return;
      c.state.reset = c.admitsAt;
      if (!binding || c.admitsAt > binding.admitsAt) binding = c;
    });
    const chosen = binding ?? counted[responses.findIndex((r) => !r.success)]!;
    const retryAfterSeconds = Math.max(1, Math.ceil((chosen.admitsAt - Date.now()) / 1000));
    return {
      decision: {
        allowed: false,
        windows: counted.map((c) => c.state),
        binding: chosen.state,
        retryAfterSeconds,
        degraded: false,
      },
      roundTrips: 2,
    };
  }
}
