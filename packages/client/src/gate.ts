// The shared gate every request of one client passes before it is sent. It turns the documented
// client behaviour into one state per client instance, so concurrent calls queue behind the same
// wait instead of each discovering the limit on its own.
//
// With the IETF `RateLimit` / `RateLimit-Policy` fields (every window's remaining `r`, seconds until
// its quota next increases `t`, quota `q` and span `w`), the client paces itself exactly. The API's
// rolling windows are sliding logs: a slot comes back when the request that used it leaves the
// window. The gate keeps, per window, the times at which each counted request leaves it: for its own
// requests the moment the response arrived plus the span (the server admitted it no later than
// that, so the slot is never assumed back too early), for requests it did not send (other clients
// of the account, or before this one started) the server's `t`, or the full span when unknown. It
// spends every remaining request and sends the next one when a slot is back. Every response
// reconciles the record with the server's `r`.
//
// Without those fields, the seed rules apply to the X-RateLimit-* headers:
// - when X-RateLimit-Remaining drops below the threshold (5), nobody sends until X-RateLimit-Reset;
// - otherwise at most `remaining - threshold + 1` requests start before fresher headers arrive;
// - a missing X-RateLimit-Remaining counts as 100.
//
// In both modes, after a 429 nobody sends until the server's Retry-After is over. The call that was
// refused waits its own, possibly doubled, delay; the doubling is that call's and never holds others.
import type { Clock } from "./clock.js";

/** One window of the IETF fields: `"minute";r=59;t=60` with its policy `"minute";q=60;w=60`. */
export interface RateLimitWindow {
  /** e.g. "burst", "minute", "endpoint:oib", "day". */
  name: string;
  /** Quota `q`. */
  limit: number;
  /** Span `w` in seconds. */
  windowSeconds: number;
  /** Remaining `r`. */
  remaining: number;
  /** `t`: seconds until the window's quota next increases (0 when it counts nothing). */
  resetSeconds: number;
}

export interface RateLimitStanding {
  /** X-RateLimit-Limit of the binding window; null when the header was absent. */
  limit: number | null;
  /** X-RateLimit-Remaining, or the default (100) when the header was absent. */
  remaining: number;
  /** X-RateLimit-Reset in Unix seconds: when the binding window's quota next increases; null when absent. */
  reset: number | null;
  /** Every window of the IETF `RateLimit` field; null when the response carried none. */
  windows?: RateLimitWindow[] | null;
}

/** Which windows a request counts in: `counted` false for free calls (GET /v1/limits). */
export interface GateScope {
  counted: boolean;
  /** The endpoint group whose dedicated window applies ("oib", "kpd", "fiscalize", "einvoice"), if any. */
  group: string | null;
}

export type GateOutcome =
  /** Any response other than a 429 (including 304 and errors), with its rate-limit headers. */
  | { kind: "response"; standing: RateLimitStanding }
  /**
   * A 429. `retryAfterMs`: the server's Retry-After (or the default when absent), which holds every
   * call; null when it is longer than the cap (nothing within the cap can succeed).
   */
  | { kind: "refused"; standing: RateLimitStanding; retryAfterMs: number | null }
  /** No response: network error, timeout or abort. */
  | { kind: "lost" };

export interface GatePause {
  reason: "rate_limited" | "low_remaining" | "window_full";
  /** Epoch ms until which no request is sent. */
  until: number;
}

export interface GateOptions {
  clock: Clock;
  /** Pause when X-RateLimit-Remaining is below this (5); applies without the IETF fields. */
  lowRemaining: number;
  /** Assumed X-RateLimit-Remaining before any response, and when the header is absent (100). */
  defaultRemaining: number;
  /** A pause longer than this is not taken (a daily quota would block for hours). */
  maxDelayMs: number;
  /**
   * Asks the API for the account's standing (GET /v1/limits) and reports it with `observeLimits`.
   * Called before the first burst, and when the record is stale and several calls are queued.
   */
  learn?: () => Promise<void>;
  onPause?: (pause: GatePause) => void;
}

/** Windows above this quota are tracked by count, not by a log of leave times. */
const MAX_LOGGED = 1_000;
/** A record older than this (the minute window) is refreshed before a burst. */
const STALE_MS = 60_000;

interface Window {
  name: string;
  limit: number;
  spanMs: number;
  /** Log mode: when each counted request leaves the window, ascending. */
  leaves: number[];
  /** Count mode (large quotas, the day): remaining at the last observation and counted sends since. */
  coarse: boolean;
  remaining: number;
  sentSince: number;
  nextIncreaseAt: number;
}

export class RateGate {
  private pauseUntil = 0;
  private budgetAfterPause: number | null = null;
  private budget: number;
  private inFlight = 0;
  private inFlightByGroup = new Map<string, number>();
  private waiting = new Set<() => void>();
  private last: RateLimitStanding | null = null;
  private windows = new Map<string, Window>();
  private lastObservedAt: number | null = null;
  private learning: Promise<void> | null = null;
  private lastLearnedAt: number | null = null;
  private outstanding = 0;
  private lastWindowPause = 0;

  constructor(private readonly opts: GateOptions) {
    this.budget = Math.max(1, opts.defaultRemaining - opts.lowRemaining + 1);
  }

  /** The most recent rate-limit headers seen by this client, or null before the first response. */
  get standing(): RateLimitStanding | null {
    return this.last;
  }

  /** Epoch ms until which requests are held after a 429 or a low-remaining pause (0 when none is). */
  get pausedUntil(): number {
    return this.pauseUntil;
  }

  /** A call begins (before any await), so the gate knows how many are queued. */
  enter(): void {
    this.outstanding++;
  }

  /** A call ends, whatever its outcome. */
  leave(): void {
    this.outstanding = Math.max(0, this.outstanding - 1);
  }

  /** Waits for a turn to send one request; the caller must `release` it exactly once. */
  async acquire(scope: GateScope, signal?: AbortSignal): Promise<void> {
    const { clock } = this.opts;
    if (!scope.counted) {
      signal?.throwIfAborted();
      return;
    }
    // Before the first response, let the calls started in the same tick line up, so a burst is seen as one.
    if (this.lastObservedAt === null && this.opts.learn) await Promise.resolve();
    for (;;) {
      signal?.throwIfAborted();
      const now = clock.now();
      if (now < this.pauseUntil) {
        await this.waitUntil(this.pauseUntil, signal);
        continue;
      }
      if (this.budgetAfterPause !== null) {
        this.budget = this.budgetAfterPause;
        this.budgetAfterPause = null;
      }
      if (this.shouldLearn(now)) {
        await this.learnNow();
        continue;
      }
      const applicable = this.applicable(scope);
      if (applicable.length > 0) {
        const wakeAt = this.windowsWait(applicable, now);
        if (wakeAt === 0) {
          this.take(scope);
          for (const w of applicable) if (w.coarse) w.sentSince++;
          return;
        }
        await this.waitUntil(wakeAt, signal);
        continue;
      }
      if (this.budget > 0) {
        this.budget--;
        this.take(scope);
        return;
      }
      // Nothing in flight can bring fresher headers: let one request find out.
      if (this.inFlight === 0) {
        this.budget = 1;
        continue;
      }
      await this.waitUntil(null, signal);
    }
  }

  release(scope: GateScope, outcome: GateOutcome): void {
    const { clock } = this.opts;
    if (scope.counted) {
      this.inFlight = Math.max(0, this.inFlight - 1);
      if (scope.group !== null) this.inFlightByGroup.set(scope.group, Math.max(0, (this.inFlightByGroup.get(scope.group) ?? 0) - 1));
    }
    if (outcome.kind !== "lost") {
      this.last = outcome.standing;
      this.lastObservedAt = clock.now();
      // A free call's 429 describes its own allowance, not the account's windows.
      const describesAccount = scope.counted || outcome.kind === "response";
      if (outcome.standing.windows?.length && describesAccount) this.observeWindows(outcome.standing.windows, scope, scope.counted && outcome.kind === "response");
    }
    if (outcome.kind === "refused") {
      if (scope.counted) {
        if (outcome.retryAfterMs === null) this.budget = 0;
        else this.pause({ reason: "rate_limited", until: clock.now() + outcome.retryAfterMs }, 1);
      }
    } else if (outcome.kind === "response" && scope.counted && !outcome.standing.windows?.length) {
      this.observeLegacy(outcome.standing);
    }
    this.notify();
  }

  /** The body of GET /v1/limits: every window of the account and of every endpoint group. */
  observeLimits(windows: readonly RateLimitWindow[]): void {
    this.lastObservedAt = this.opts.clock.now();
    this.observeWindows(windows, { counted: false, group: null }, false);
    this.notify();
  }

  // --- cold start ------------------------------------------------------------------------------

  private shouldLearn(now: number): boolean {
    if (!this.opts.learn || this.outstanding < 2) return false;
    if (this.learning) return true;
    if (this.lastLearnedAt !== null && now - this.lastLearnedAt < STALE_MS) return false;
    // Nothing known, or the record is old while several calls are queued.
    return this.lastObservedAt === null || now - this.lastObservedAt > STALE_MS;
  }

  private async learnNow(): Promise<void> {
    if (!this.learning) {
      this.learning = this.opts.learn!()
        .catch(() => undefined)
        .finally(() => {
          this.lastLearnedAt = this.opts.clock.now();
          this.learning = null;
        });
    }
    await this.learning;
  }

  // --- exact windows (IETF fields) ---------------------------------------------------------------

  private applicable(scope: GateScope): Window[] {
    const out: Window[] = [];
    for (const w of this.windows.values()) {
      if (!w.name.startsWith("endpoint:") || w.name === `endpoint:${scope.group}`) out.push(w);
    }
    return out;
  }

  private inFlightFor(w: Window): number {
    return w.name.startsWith("endpoint:") ? (this.inFlightByGroup.get(w.name.slice("endpoint:".length)) ?? 0) : this.inFlight;
  }

  /** 0 when every window has a free slot now; otherwise when to look again (Infinity: at the next response). */
  private windowsWait(applicable: Window[], now: number): number {
    let wakeAt = 0;
    for (const w of applicable) {
      let at = 0;
      if (w.coarse) {
        if (w.remaining - w.sentSince >= 1 || w.nextIncreaseAt - now > this.opts.maxDelayMs) continue;
        // Quota used up: one probe when it next increases (the server decides beyond that).
        if (now >= w.nextIncreaseAt) {
          if (this.inFlightFor(w) === 0) {
            w.remaining = w.sentSince + 1;
            continue;
          }
          at = Infinity;
        } else at = w.nextIncreaseAt;
      } else {
        prune(w, now);
        const free = w.limit - w.leaves.length - this.inFlightFor(w);
        if (free >= 1) continue;
        // The slot comes back when enough of the counted requests have left.
        const mustLeave = 1 - free;
        at = mustLeave <= w.leaves.length ? w.leaves[mustLeave - 1]! : Infinity;
        if (at !== Infinity && at - now > this.opts.maxDelayMs) continue;
      }
      wakeAt = Math.max(wakeAt, at);
    }
    if (wakeAt > 0 && wakeAt !== Infinity && wakeAt !== this.lastWindowPause) {
      this.lastWindowPause = wakeAt;
      this.opts.onPause?.({ reason: "window_full", until: wakeAt });
    }
    return wakeAt;
  }

  private observeWindows(readings: readonly RateLimitWindow[], scope: GateScope, counted: boolean): void {
    const now = this.opts.clock.now();
    for (const r of readings) {
      const spanMs = r.windowSeconds * 1000;
      const applies = !r.name.startsWith("endpoint:") || r.name === `endpoint:${scope.group}`;
      let w = this.windows.get(r.name);
      const coarse = r.limit > MAX_LOGGED || spanMs > this.opts.maxDelayMs;
      if (!w || w.coarse !== coarse) {
        w = { name: r.name, limit: r.limit, spanMs, leaves: [], coarse, remaining: r.remaining, sentSince: 0, nextIncreaseAt: now };
        this.windows.set(r.name, w);
      }
      w.limit = r.limit;
      w.spanMs = spanMs;
      const nextIncreaseAt = now + r.resetSeconds * 1000;
      if (w.coarse) {
        w.remaining = r.remaining;
        w.sentSince = 0;
        w.nextIncreaseAt = nextIncreaseAt;
        continue;
      }
      prune(w, now);
      if (counted && applies) insert(w.leaves, now + spanMs);
      const used = Math.max(0, r.limit - r.remaining);
      // Requests still in flight may already be counted by the server: assume they are.
      const inFlight = this.inFlightFor(w);
      if (w.leaves.length > used) {
        // The server has already let go of some: our leave times are upper bounds, drop the earliest.
        w.leaves.splice(0, w.leaves.length - used);
      } else if (w.leaves.length < used - inFlight) {
        // Requests this client did not send: the oldest leaves after `t`, the rest at the latest.
        const missing = used - inFlight - w.leaves.length;
        for (let i = 0; i < missing; i++) insert(w.leaves, i === 0 && r.resetSeconds > 0 ? Math.min(nextIncreaseAt, now + spanMs) : now + spanMs);
      }
    }
  }

  // --- X-RateLimit-* only (the seed rules) --------------------------------------------------------

  private observeLegacy(s: RateLimitStanding): void {
    const { lowRemaining, maxDelayMs, clock } = this.opts;
    if (s.remaining >= lowRemaining) {
      this.budget = Math.max(0, s.remaining - lowRemaining + 1 - this.inFlight);
      return;
    }
    const resetMs = s.reset === null ? null : s.reset * 1000;
    const now = clock.now();
    if (resetMs !== null && resetMs > now && resetMs - now <= maxDelayMs) {
      this.pause({ reason: "low_remaining", until: resetMs }, s.limit ?? 1);
    } else if (resetMs !== null && resetMs <= now) {
      this.budget = Math.max(1, s.limit ?? 1);
    } else {
      // Reset unknown or too far away: spend what is left, no more at once.
      this.budget = Math.max(0, s.remaining - this.inFlight);
    }
  }

  // --- shared machinery --------------------------------------------------------------------------

  private take(scope: GateScope): void {
    this.inFlight++;
    if (scope.group !== null) this.inFlightByGroup.set(scope.group, (this.inFlightByGroup.get(scope.group) ?? 0) + 1);
  }

  private pause(p: GatePause, budgetAfter: number): void {
    const now = this.opts.clock.now();
    if (now < this.pauseUntil) {
      this.pauseUntil = Math.max(this.pauseUntil, p.until);
      this.budgetAfterPause = Math.min(this.budgetAfterPause ?? budgetAfter, budgetAfter);
    } else {
      this.pauseUntil = p.until;
      this.budgetAfterPause = budgetAfter;
    }
    this.opts.onPause?.({ reason: p.reason, until: this.pauseUntil });
  }

  private notify(): void {
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const wake of waiting) wake();
  }

  /** Resolves at `until` (epoch ms; null or Infinity: never) or at the next release, whichever is first. */
  private waitUntil(until: number | null, signal?: AbortSignal): Promise<void> {
    const { clock } = this.opts;
    return new Promise<void>((resolve, reject) => {
      const timer = new AbortController();
      const done = () => {
        this.waiting.delete(wake);
        signal?.removeEventListener("abort", onAbort);
        timer.abort();
      };
      const wake = () => {
        done();
        resolve();
      };
      const onAbort = () => {
        done();
        reject(signal!.reason);
      };
      this.waiting.add(wake);
      signal?.addEventListener("abort", onAbort, { once: true });
      if (until !== null && until !== Infinity) {
        clock.sleep(Math.max(0, until - clock.now()), timer.signal).then(wake, () => undefined);
      }
    });
  }
}

function prune(w: Window, now: number): void {
  let i = 0;
  while (i < w.leaves.length && w.leaves[i]! <= now) i++;
  if (i > 0) w.leaves.splice(0, i);
}

function insert(sorted: number[], v: number): void {
  let i = sorted.length;
  while (i > 0 && sorted[i - 1]! > v) i--;
  sorted.splice(i, 0, v);
}

/** Parses the IETF `RateLimit` and `RateLimit-Policy` fields into windows; null when either is absent. */
export function parseRateLimitFields(rateLimit: string | null, policy: string | null): RateLimitWindow[] | null {
  if (!rateLimit || !policy) return null;
  const pol = new Map<string, { q?: number; w?: number }>();
  for (const [name, params] of items(policy)) pol.set(name, { q: params.get("q"), w: params.get("w") });
  const out: RateLimitWindow[] = [];
  for (const [name, params] of items(rateLimit)) {
    const p = pol.get(name);
    const r = params.get("r");
    if (!p || p.q === undefined || p.w === undefined || r === undefined) continue;
    out.push({ name, limit: p.q, windowSeconds: p.w, remaining: r, resetSeconds: params.get("t") ?? 0 });
  }
  return out.length > 0 ? out : null;
}

function items(field: string): Array<[string, Map<string, number>]> {
  const out: Array<[string, Map<string, number>]> = [];
  for (const m of field.matchAll(/"([^"]*)"((?:\s*;\s*[a-z][a-z0-9_-]*=[^,;]*)*)/gi)) {
    const params = new Map<string, number>();
    for (const pm of m[2]!.matchAll(/;\s*([a-z][a-z0-9_-]*)=\s*(\d+)/gi)) params.set(pm[1]!.toLowerCase(), Number(pm[2]));
    out.push([m[1]!, params]);
  }
  return out;
}
