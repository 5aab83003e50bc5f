/**
 * The limiter's shares while its store is unreachable (docs/failures.md): each instance
 * decides with every limit divided by the live instances, floor(limit ÷ n), so that the instances
 * together never admit more than the limit; and the bookkeeping that lets an instance return to the
 * store without re-admitting what its local decisions already spent.
 */
import { ENDPOINT_GROUPS, endpointLimit, type Limits } from "./policy.ts";
import type { DecideInput } from "./types.ts";

/**
 * Who else decides for the same accounts: the API counts its processes by a heartbeat in
 * PostgreSQL. The limits package knows nothing of the database; the app passes this in.
 */
export interface LiveInstances {
  /** Live instances, this one included, as last read (at least 1). Called on every degraded decision: keep it cheap. */
  count(): number;
  /**
   * Publishes that this instance holds local admissions the store has not counted yet (`divisor`:
   * the instance count its shares were divided by), or, with null, that it holds none. Resolves once
   * every other instance can read it; rejects when it could not be stored.
   */
  setPending(divisor: number | null): Promise<void>;
  /** A fresh read: how many other live instances hold local admissions the store has not counted. */
  othersPending(): Promise<number>;
  /**
   * The same as last read (with the live count, or by othersPending()). Called on every exact
   * decision: keep it cheap. While it is above 0, this instance also decides behind its share,
   * although its store answers: another instance is admitting its share without the store.
   */
  othersPendingSeen(): number;
}

/** One process alone: nothing to share, nobody else to wait for. */
export const SINGLE_INSTANCE: LiveInstances = {
  count: () => 1,
  setPending: () => Promise.resolve(),
  othersPending: () => Promise.resolve(0),
  othersPendingSeen: () => 0,
};

/** `limits` divided by `divisor`, every window rounded down; a window may come out 0. */
function divide(limits: Limits, divisor: number): Limits {
  const share = (n: number) => Math.floor(n / divisor);
  const endpoints: Partial<Record<(typeof ENDPOINT_GROUPS)[number], number>> = {};
  for (const group of ENDPOINT_GROUPS) endpoints[group] = share(endpointLimit(limits, group));
  return { burst: share(limits.burst), perMinute: share(limits.perMinute), perDay: share(limits.perDay), endpoints };
}

/** Every window at least 1, so the local engine can run it. */
function runnable(l: Limits): Limits {
  const endpoints: Partial<Record<(typeof ENDPOINT_GROUPS)[number], number>> = {};
  for (const [g, v] of Object.entries(l.endpoints ?? {})) endpoints[g as (typeof ENDPOINT_GROUPS)[number]] = Math.max(1, v);
  return { burst: Math.max(1, l.burst), perMinute: Math.max(1, l.perMinute), perDay: Math.max(1, l.perDay), endpoints };
}

interface Scaled {
  divisor: number;
  /** the values it was computed from, to notice a Limits object changed in place (as the engine does) */
  source: Limits;
  /** the share of every window, 0 included */
  share: Limits;
  /** what the local engine runs: the share, 0 raised to 1 (a request meeting a 0 is refused before) */
  run: Limits;
}

const cache = new WeakMap<Limits, Scaled>();

function sameValues(a: Limits, b: Limits): boolean {
  if (a.burst !== b.burst || a.perMinute !== b.perMinute || a.perDay !== b.perDay) return false;
  for (const group of ENDPOINT_GROUPS) if (endpointLimit(a, group) !== endpointLimit(b, group)) return false;
  return true;
}

/** The share of `limits` among `divisor` instances, cached per Limits object (one per account and plan). */
function scaled(limits: Limits, divisor: number): Scaled {
  const known = cache.get(limits);
  if (known && known.divisor === divisor && sameValues(known.source, limits)) return known;
  const share = divide(limits, divisor);
  const s: Scaled = { divisor, source: { ...limits, endpoints: { ...limits.endpoints } }, share, run: runnable(share) };
  cache.set(limits, s);
  return s;
}

export interface ShareInput {
  /** what the local engine decides: the input with every limit replaced by its share (at least 1) */
  input: DecideInput;
  /** the counting windows whose share is 0, by policy name ("burst", "endpoint:oib", "status:day"…): the request is refused */
  zero: string[];
  /** the share of every counting window, by policy name */
  shares: Map<string, number>;
}

/**
 * The decision input this instance runs locally with `divisor` live instances. `used`: what the
 * store had counted in each window (by policy name) when this instance last saw the account, for
 * as long as those requests may still be in the window; each instance takes its part of it,
 * ceil(used ÷ divisor), off its share.
 */
export function shareInput(input: DecideInput, divisor: number, used?: ReadonlyMap<string, number>): ShareInput {
  const own = scaled(input.limits, divisor);
  const p = input.scope ? `${input.scope}:` : "";
  const shares = new Map<string, number>([
    [`${p}burst`, own.share.burst],
    [`${p}minute`, own.share.perMinute],
    [`${p}day`, own.share.perDay],
  ]);
  if (input.endpoint) shares.set(`${p}endpoint:${input.endpoint}`, endpointLimit(own.share, input.endpoint));
  let limits = own.run;
  if (used && used.size > 0) {
    for (const [policy, n] of used) {
      const share = shares.get(policy);
      if (share !== undefined) shares.set(policy, Math.max(0, share - Math.ceil(n / divisor)));
    }
    const at = (policy: string, fallback: number) => Math.max(1, shares.get(policy) ?? fallback);
    limits = {
      burst: at(`${p}burst`, own.run.burst),
      perMinute: at(`${p}minute`, own.run.perMinute),
      perDay: at(`${p}day`, own.run.perDay),
      endpoints: { ...own.run.endpoints },
    };
    if (input.endpoint) limits.endpoints![input.endpoint] = at(`${p}endpoint:${input.endpoint}`, endpointLimit(own.run, input.endpoint));
  }
  const zero = [...shares].filter(([, v]) => v === 0).map(([k]) => k);
  const local: DecideInput = { ...input, limits };
  if (input.observe) local.observe = { ...input.observe, limits: scaled(input.observe.limits, divisor).run };
  return { input: local, zero, shares };
}

/** The same input as a key: local admissions are written back per distinct input. */
export function inputKey(input: DecideInput): string {
  const l = input.limits;
  let key = `${input.identity}|${input.scope ?? ""}|${input.endpoint ?? ""}|${l.burst}/${l.perMinute}/${l.perDay}`;
  if (input.endpoint) key += `/${endpointLimit(l, input.endpoint)}`;
  return key;
}

/** The limits this instance runs locally with `divisor` live instances (each window at least 1, for reading). */
export function shareLimits(limits: Limits, divisor: number): Limits {
  return scaled(limits, divisor).run;
}
