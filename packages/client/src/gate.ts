// The shared gate every request of one client passes before it is sent. It turns the documented
// client behaviour into one state per client instance, so concurrent calls queue behind the same
// wait instead of each discovering the limit on its own:
// - after a 429, nobody sends until the wait is over; then one request probes alone;
// - when X-RateLimit-Remaining drops below the threshold, nobody sends until X-RateLimit-Reset;
//   the server's reset is when that window is empty again, so its whole limit may then go at once;
// - otherwise at most `remaining - threshold + 1` requests start before fresher headers arrive
//   (what a sequential client obeying "pause below the threshold" would send).
import type { Clock } from "./clock.ts";

export interface RateLimitStanding {
  /** X-RateLimit-Limit of the binding window; null when the header was absent. */
  limit: number | null;
  /** X-RateLimit-Remaining, or the default (100) when the header was absent. */
  remaining: number;
  /** X-RateLimit-Reset in Unix seconds; null when the header was absent. */
  reset: number | null;
}

export type GateOutcome =
  /** Any response other than a 429 (including 304 and errors), with its rate-limit headers. */
  | { kind: "response"; standing: RateLimitStanding }
  /** A 429. `waitMs` null: the call gives up at once (the server asks for more than the cap). */
  | { kind: "refused"; standing: RateLimitStanding; waitMs: number | null }
  /** No response: network error, timeout or abort. */
  | { kind: "lost" };

export interface GatePause {
  reason: "rate_limited" | "low_remaining";
  /** Epoch ms until which no request is sent. */
  until: number;
}

export interface GateOptions {
  clock: Clock;
  /** Pause when X-RateLimit-Remaining is below this (5). */
  lowRemaining: number;
  /** Assumed X-RateLimit-Remaining before any response, and when the header is absent (100). */
  defaultRemaining: number;
  /** A low-remaining pause longer than this is not taken (a daily quota would block for hours). */
  maxDelayMs: number;
  onPause?: (pause: GatePause) => void;
}

export class RateGate {
  private pauseUntil = 0;
  private budgetAfterPause: number | null = null;
  private budget: number;
  private inFlight = 0;
  private waiting = new Set<() => void>();
  private last: RateLimitStanding | null = null;

  constructor(private readonly opts: GateOptions) {
    this.budget = Math.max(1, opts.defaultRemaining - opts.lowRemaining + 1);
  }

  /** The most recent rate-limit headers seen by this client, or null before the first response. */
  get standing(): RateLimitStanding | null {
    return this.last;
  }

  /** Epoch ms until which requests are held (0 when none is). */
  get pausedUntil(): number {
    return this.pauseUntil;
  }

  /** Waits for a turn to send one request; the caller must `release` it exactly once. */
  async acquire(signal?: AbortSignal): Promise<void> {
    const { clock } = this.opts;
    for (;;) {
      signal?.throwIfAborted();
      const now = clock.now();
      if (now < this.pauseUntil) {
        await clock.sleep(this.pauseUntil - now, signal);
        continue;
      }
      if (this.budgetAfterPause !== null) {
        this.budget = this.budgetAfterPause;
        this.budgetAfterPause = null;
      }
      if (this.budget > 0) {
        this.budget--;
        this.inFlight++;
        return;
      }
      // Nothing in flight can bring fresher headers: let one request find out.
      if (this.inFlight === 0) {
        this.budget = 1;
        continue;
      }
      await this.nextChange(signal);
    }
  }

  release(outcome: GateOutcome): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (outcome.kind !== "lost") this.last = outcome.standing;
    if (outcome.kind === "refused") {
      if (outcome.waitMs === null) this.budget = 0;
      else this.pause({ reason: "rate_limited", until: this.opts.clock.now() + outcome.waitMs }, 1);
    } else if (outcome.kind === "response") {
      this.observe(outcome.standing);
    }
    this.notify();
  }

  private observe(s: RateLimitStanding): void {
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

  private nextChange(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiting.delete(wake);
        reject(signal!.reason);
      };
      this.waiting.add(wake);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}
