import type { EndpointGroup, Limits } from "./plans.ts";

export type WindowName = "burst" | "minute" | "endpoint" | "day";

export interface WindowState {
  name: WindowName;
  limit: number;
  remaining: number;
  /**
   * Unix ms by the store's clock: for a refusing window, when it admits again; otherwise when its
   * quota next increases (a rolling window: when its oldest counted request leaves it; the day: 00:00 UTC).
   * Equal to the decision time when nothing is counted.
   */
  reset: number;
  /** `reset` as a duration from the decision, measured on the store's clock */
  resetInMs: number;
  /** 1, 60, 60, 86400 */
  windowSeconds: number;
  /** "burst", "minute", "endpoint:kpd", "day" */
  policy: string;
}

export interface Decision {
  allowed: boolean;
  /** every window that decided the request, after it (on refusal: as they stand, nothing was counted) */
  windows: WindowState[];
  /** the windows of `DecideInput.observe`, read in the same script execution and never counted */
  observed?: WindowState[];
  /** admit: the window with the fewest remaining; refuse: the refusing window (latest reset if several) */
  binding: WindowState;
  /** refuse only; whole seconds until the binding window admits: never early, at most 1 s late */
  retryAfterSeconds?: number;
  /** true when decided by the local fallback because Redis failed */
  degraded: boolean;
  /** Unix ms of the store's clock at the decision (the clock every window is measured by) */
  decidedAt: number;
}

export type StoreConfig =
  | { kind: "upstash"; url: string; token: string }
  | { kind: "redis"; url: string }
  /** `redis+cluster://[user:password@]host:port,host:port,…` (or `rediss+cluster://` for TLS): seed nodes of a Redis Cluster */
  | { kind: "cluster"; url: string }
  | { kind: "memory" };

export interface DecideInput {
  /** whom the quota belongs to, e.g. "acct:<uuid>" or "ip:1.2.3.4" — never an API key */
  identity: string;
  limits: Limits;
  endpoint?: EndpointGroup;
  /**
   * Windows of their own under the same identity (policies "<scope>:burst", …), e.g. "status" for
   * the allowance of free status calls: same hash tag, so they can be decided with `observe`.
   */
  scope?: string;
  /** The identity's own windows to report beside the decision, read in the same execution, never counted. */
  observe?: { limits: Limits; endpoints?: readonly EndpointGroup[] };
}

export interface PeekInput {
  identity: string;
  limits: Limits;
  endpoints?: readonly EndpointGroup[];
}

export interface RateLimiter {
  decide(input: DecideInput): Promise<Decision>;
  /** current state of every window (with `endpoints`, one endpoint window per group), consuming nothing */
  peek(input: PeekInput): Promise<WindowState[]>;
  readonly store: StoreConfig["kind"];
  fallbackActive(): boolean;
  close(): Promise<void>;
}

export interface RateLimitEvent {
  type: "fallback" | "recovered" | "decision";
  allowed?: boolean;
  degraded?: boolean;
  reason?: string;
  window?: WindowName;
  durationMs?: number;
  /** decision only: sequential store round trips it needed (always 1; 0 when the local fallback decided) */
  roundTrips?: number;
}
