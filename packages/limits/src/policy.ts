/** Plans, endpoint groups and the limits they grant (DESIGN §4). */

import { ENDPOINT_LIMITS, MAX_DAY_LIMIT, MAX_ROLLING_LIMIT, PLANS, type EndpointGroup, type Limits, type PlanName } from "./plans.ts";
import type { Decision, WindowState } from "./types.ts";

export {
  ENDPOINT_GROUPS,
  ENDPOINT_LIMITS,
  MAX_DAY_LIMIT,
  MAX_ROLLING_LIMIT,
  PLANS,
  type EndpointGroup,
  type Limits,
  type PlanName,
} from "./plans.ts";

/**
 * Unauthenticated requests, counted per client IP. Low enough that guessing keys is slow
 * (30 tries a minute, 1,000 a day per address), high enough for a person fixing a typo in a key.
 */
export const ANONYMOUS_LIMITS = { burst: 5, perMinute: 30, perDay: 1_000 } as const satisfies Limits;

/**
 * The anonymous windows are named "ip:burst", "ip:minute", "ip:day" in every header, so that no
 * client takes them for its account's windows ("burst", "minute", "day").
 */
export const ANONYMOUS_SCOPE = "ip";

/**
 * A decision over an address's anonymous windows, as it is reported: every window's policy carries
 * the scope `ip:` (the store's keys stay as they are). The binding window stays one of the windows.
 */
export function anonymousDecision(d: Decision): Decision {
  const scoped = (w: WindowState): WindowState => ({ ...w, policy: `${ANONYMOUS_SCOPE}:${w.policy}` });
  const windows = d.windows.map(scoped);
  const at = d.windows.indexOf(d.binding);
  return { ...d, windows, binding: at === -1 ? scoped(d.binding) : windows[at]! };
}

/**
 * The allowance of free status calls (GET /v1/limits), per account: they take nothing from the
 * account's quota, so they are counted against these windows ("status:*") instead.
 */
export const STATUS_LIMITS = { burst: 10, perMinute: 120, perDay: 20_000 } as const satisfies Limits;

export class InvalidLimitsError extends Error {
  override name = "InvalidLimitsError";
}

function isPositiveInt(n: unknown): n is number {
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0;
}

/**
 * Throws InvalidLimitsError unless every field is a positive integer within its bound: the bounds of
 * `CustomLimitsBounds` (plans.ts), checked without zod because every decision runs it.
 */
export function assertLimits(limits: Limits): void {
  if (limits === null || typeof limits !== "object") {
    throw new InvalidLimitsError("limits must be an object with burst, perMinute and perDay");
  }
  for (const field of ["burst", "perMinute", "perDay"] as const) {
    const max = field === "perDay" ? MAX_DAY_LIMIT : MAX_ROLLING_LIMIT;
    if (!isPositiveInt(limits[field]) || limits[field] > max) {
      throw new InvalidLimitsError(`limits.${field} must be an integer from 1 to ${max}, got ${String(limits[field])}`);
    }
  }
  for (const [group, value] of Object.entries(limits.endpoints ?? {})) {
    if (!Object.hasOwn(ENDPOINT_LIMITS, group)) throw new InvalidLimitsError(`limits.endpoints.${group} is not an endpoint group`);
    if (!isPositiveInt(value) || value > MAX_ROLLING_LIMIT) {
      throw new InvalidLimitsError(`limits.endpoints.${group} must be an integer from 1 to ${MAX_ROLLING_LIMIT}, got ${String(value)}`);
    }
  }
}

/** The dedicated per-minute limit of an endpoint group under these limits. */
export function endpointLimit(limits: Limits, group: EndpointGroup): number {
  return limits.endpoints?.[group] ?? ENDPOINT_LIMITS[group].perMinute;
}

export interface AccountLimitsInput {
  plan: PlanName;
  customPerMinute?: number | null;
  customPerDay?: number | null;
  customBurst?: number | null;
  /** ENTERPRISE only: `{ "oib": 100000, … }`, per-minute limits replacing the standard endpoint limits. */
  customEndpointLimits?: unknown;
}

/** The limits an account is judged by. ENTERPRISE needs all three custom values set by an operator. */
export function limitsFor(account: AccountLimitsInput): Limits {
  if (account.plan === "ENTERPRISE") {
    const custom = {
      customBurst: account.customBurst,
      customPerMinute: account.customPerMinute,
      customPerDay: account.customPerDay,
    };
    const missing = (Object.keys(custom) as (keyof typeof custom)[]).filter((k) => !isPositiveInt(custom[k]));
    if (missing.length > 0) {
      throw new InvalidLimitsError(
        `ENTERPRISE account needs positive integer custom limits; missing or invalid: ${missing.join(", ")}`,
      );
    }
    const limits: Limits = { burst: custom.customBurst!, perMinute: custom.customPerMinute!, perDay: custom.customPerDay! };
    const endpoints = account.customEndpointLimits;
    if (endpoints !== null && endpoints !== undefined) {
      if (typeof endpoints !== "object" || Array.isArray(endpoints)) {
        throw new InvalidLimitsError("customEndpointLimits must be an object of endpoint group → per-minute limit");
      }
      limits.endpoints = { ...(endpoints as Record<EndpointGroup, number>) };
    }
    assertLimits(limits);
    return limits;
  }
  const plan = PLANS[account.plan];
  if (!plan) throw new InvalidLimitsError(`unknown plan ${String(account.plan)}`);
  return { ...plan };
}
