/**
 * One decision over every applicable window: one `@upstash/ratelimit` `Ratelimit` per limit
 * configuration, whose algorithm is the multi-window script (algorithm.ts), so a request costs one
 * script execution, one round trip, on admit and on refusal alike.
 */
import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis";
import { multiWindow, readObserved, runWindowScript, scriptArgs, windowKeys, type MultiWindowResponse, type WindowSpec } from "./algorithm.ts";
import { ENDPOINT_GROUPS, endpointLimit, InvalidLimitsError, type EndpointGroup, type Limits } from "./policy.ts";
import type { Decision, DecideInput, PeekInput, WindowState } from "./types.ts";

const DAY_MS = 86_400_000;
/** Ratelimit instances kept per engine (one per distinct limit configuration). */
const RATELIMIT_CACHE_SIZE = 1_000;

/** The windows of one identity under `limits`: burst, minute, the endpoint group's, day. */
function windowSpecs(
  limits: Limits,
  endpoints: readonly EndpointGroup[] = [],
  opts: { scope?: string; counts?: boolean } = {},
): WindowSpec[] {
  const counts = opts.counts ?? true;
  const p = opts.scope ? `${opts.scope}:` : "";
  // slots in the scope's header key: burst 0, minute 1, day 2, the endpoint groups from 3
  const specs: WindowSpec[] = [
    { name: "burst", policy: `${p}burst`, limit: limits.burst, windowMs: 1_000, kind: "rolling", counts, slot: 0, scope: p },
    { name: "minute", policy: `${p}minute`, limit: limits.perMinute, windowMs: 60_000, kind: "rolling", counts, slot: 1, scope: p },
  ];
  for (const group of endpoints) {
    specs.push({
      name: "endpoint",
      policy: `${p}endpoint:${group}`,
      limit: endpointLimit(limits, group),
      windowMs: 60_000,
      kind: "rolling",
      counts,
      slot: 3 + ENDPOINT_GROUPS.indexOf(group),
      scope: p,
    });
  }
  // the day is a calendar day: counted per epoch day of the store's clock, so it resets at 00:00 UTC
  specs.push({ name: "day", policy: `${p}day`, limit: limits.perDay, windowMs: DAY_MS, kind: "day", counts, slot: 2, scope: p });
  return specs;
}

/** The Ratelimit of one (limits, endpoint, scope, observe) configuration, with its windows. */
interface Plan {
  specs: WindowSpec[];
  /** how many leading specs count (the rest are observed) */
  counting: number;
  ratelimit: Ratelimit;
  /** the limit values it was built for, to notice a Limits object changed in place */
  values: number[];
}

/** Every limit value a decision depends on, in spec order. */
function valuesOf(input: DecideInput): number[] {
  const l = input.limits;
  const v = [l.burst, l.perMinute, l.perDay];
  if (input.endpoint) v.push(endpointLimit(l, input.endpoint));
  if (input.observe) {
    const o = input.observe.limits;
    v.push(o.burst, o.perMinute, o.perDay);
    for (const g of input.observe.endpoints ?? []) v.push(endpointLimit(o, g));
  }
  return v;
}

function sameValues(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function limitsId(l: Limits): string {
  let id = `${l.burst}/${l.perMinute}/${l.perDay}`;
  if (l.endpoints) for (const [g, v] of Object.entries(l.endpoints)) id += `/${g}=${v}`;
  return id;
}

function planId(input: DecideInput): string {
  let id = `${input.scope ?? ""}|${limitsId(input.limits)}|${input.endpoint ?? ""}`;
  if (input.observe) id += `|${limitsId(input.observe.limits)}|${(input.observe.endpoints ?? []).join(",")}`;
  return id;
}

/** Braces make the identity the key's hash tag: every window of it lands in one cluster slot. */
const identifierOf = (identity: string): string => `{${identity}}`;

/**
 * True inside a production bundle: the API's esbuild build defines it (apps/api/scripts/build-options.mjs);
 * the portal's Next build has NODE_ENV=production. Run from the sources (tsx, vitest) it is not defined.
 */
declare const __FISKAL_PRODUCTION_BUILD__: boolean | undefined;
const PRODUCTION_BUILD: boolean = typeof __FISKAL_PRODUCTION_BUILD__ === "boolean" && __FISKAL_PRODUCTION_BUILD__;

export interface EngineOptions {
  /**
   * A test clock: every script call decides at `testClock()` (Unix ms) instead of the store's
   * `TIME`. For tests only: refused in a production build and when NODE_ENV is "production".
   */
  testClock?: () => number;
}

export class Engine {
  private readonly ratelimits = new Map<string, Ratelimit>();
  /**
   * Plans keyed by the Limits object itself: callers hold one per account for as long as they cache
   * it (ANONYMOUS_LIMITS is a constant), so a request reuses its plan without building a string.
   */
  private readonly plans = new WeakMap<Limits, Map<string, Plan>>();
  private readonly clock: (() => number) | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    opts: EngineOptions = {},
  ) {
    if (opts.testClock !== undefined) {
      if (PRODUCTION_BUILD) throw new InvalidLimitsError("a test clock is not available in a production build");
      // eslint-disable-next-line no-restricted-properties -- whoever builds the engine, production never runs on a test clock
      if (process.env.NODE_ENV === "production") throw new InvalidLimitsError("a test clock is refused when NODE_ENV is production");
      if (typeof opts.testClock !== "function") throw new InvalidLimitsError("testClock must be a function returning Unix ms");
    }
    this.clock = opts.testClock;
  }

  private planFor(input: DecideInput): Plan {
    const { limits } = input;
    let byShape = this.plans.get(limits);
    if (!byShape) {
      byShape = new Map();
      this.plans.set(limits, byShape);
    }
    const shape = input.observe || input.scope ? `${input.scope ?? ""}|${input.endpoint ?? ""}|${input.observe ? "o" : ""}` : (input.endpoint ?? "");
    let plan = byShape.get(shape);
    const values = valuesOf(input);
    if (plan && sameValues(plan.values, values)) return plan;
    const id = planId(input);
    const specs = windowSpecs(limits, input.endpoint ? [input.endpoint] : [], { scope: input.scope });
    const counting = specs.length;
    if (input.observe) specs.push(...windowSpecs(input.observe.limits, input.observe.endpoints ?? [], { counts: false }));
    plan = { specs, counting, ratelimit: this.ratelimitFor(id, specs), values };
    byShape.set(shape, plan);
    return plan;
  }

  /** One Ratelimit per configuration, created once and reused (bounded). */
  private ratelimitFor(id: string, specs: WindowSpec[]): Ratelimit {
    let ratelimit = this.ratelimits.get(id);
    if (ratelimit) return ratelimit;
    ratelimit = new Ratelimit({
      redis: this.redis,
      prefix: this.prefix,
      limiter: multiWindow(specs, this.clock),
      // it would refuse from memory without asking the store, by a reset that is not ours
      ephemeralCache: false,
      // its timeout admits silently; timeouts are the caller's (the local fallback decides)
      timeout: 0,
      analytics: false,
      enableTelemetry: false,
    });
    if (this.ratelimits.size >= RATELIMIT_CACHE_SIZE) {
      const oldest = this.ratelimits.keys().next().value;
      if (oldest !== undefined) this.ratelimits.delete(oldest);
    }
    this.ratelimits.set(id, ratelimit);
    return ratelimit;
  }

  async decide(input: DecideInput): Promise<Decision> {
    const plan = this.planFor(input);
    // @upstash/ratelimit types limit() as its own RatelimitResponse; our custom algorithm (algorithm.ts)
    // returns that shape plus every window's state, which the library passes through untouched.
    const r = (await plan.ratelimit.limit(identifierOf(input.identity))) as unknown as MultiWindowResponse;
    const decision: Decision = {
      allowed: r.success,
      windows: plan.counting === r.windows.length ? r.windows : r.windows.slice(0, plan.counting),
      binding: r.binding,
      degraded: false,
      decidedAt: r.decidedAt,
    };
    if (plan.counting < r.windows.length) decision.observed = r.windows.slice(plan.counting);
    if (!r.success) decision.retryAfterSeconds = Math.max(1, Math.ceil(r.retryAfterMs! / 1000));
    return decision;
  }

  async peek(input: PeekInput): Promise<WindowState[]> {
    const specs = windowSpecs(input.limits, input.endpoints ?? [], { counts: false });
    const keys = windowKeys(`${this.prefix}:${identifierOf(input.identity)}`, specs);
    return readObserved(specs, await runWindowScript(this.redis, keys, scriptArgs(specs, { now: this.clock?.() })));
  }

  /**
   * Records `count` admissions at the store's current time in every window `decide(input)` counts
   * (the identity's windows, the endpoint group's, the day), unconditionally: a window may end up
   * past its limit, and then refuses until entries leave it (a log keeps its newest `limit`
   * entries). All or nothing, in one script call. For writing back what was admitted elsewhere,
   * e.g. by a local fallback while the store was unreachable.
   */
  async charge(input: DecideInput, count: number): Promise<void> {
    if (!Number.isSafeInteger(count) || count < 1) throw new InvalidLimitsError(`charge count must be a positive integer, got ${String(count)}`);
    const specs = windowSpecs(input.limits, input.endpoint ? [input.endpoint] : [], { scope: input.scope });
    const keys = windowKeys(`${this.prefix}:${identifierOf(input.identity)}`, specs);
    await runWindowScript(this.redis, keys, scriptArgs(specs, { now: this.clock?.(), charge: count }));
  }
}
