import type { EndpointGroup, Limits } from "./policy.ts";

export type WindowName = "burst" | "minute" | "endpoint" | "day";

export interface WindowState {
  name: WindowName;
  limit: number;
  remaining: number;
  /** Unix ms: when a refusing window admits again; otherwise when the window is empty again */
  reset: number;
  /** 1, 60, 60, 86400 */
  windowSeconds: number;
  /** "burst", "minute", "endpoint:kpd", "day" */
  policy: string;
}

export interface Decision {
  allowed: boolean;
  /** every applicable window, after this request */
  windows: WindowState[];
  /** admit: the window with the fewest remaining; refuse: the refusing window (latest reset if several) */
  binding: WindowState;
  /** refuse only; whole seconds, never too early */
  retryAfterSeconds?: number;
  /** true when decided by the local fallback because Redis failed */
  degraded: boolean;
}

export type StoreConfig = { kind: "upstash"; url: string; token: string } | { kind: "redis"; url: string } | { kind: "memory" };

export interface DecideInput {
  /** whom the quota belongs to, e.g. "acct:<uuid>" or "ip:1.2.3.4" — never an API key */
  identity: string;
  limits: Limits;
  endpoint?: EndpointGroup;
}

export interface RateLimiter {
  decide(input: DecideInput): Promise<Decision>;
  /** current state of every window, consuming nothing */
  peek(input: DecideInput): Promise<WindowState[]>;
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
  /** decision only: sequential Redis round trips it needed (1 to admit, 2 to refuse) */
  roundTrips?: number;
}
