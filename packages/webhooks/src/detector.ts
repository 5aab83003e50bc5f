import type { RateLimitWarningData } from "./events.ts";
import type { Webhooks } from "./webhooks.ts";

export type DayWindow = {
  limit: number;
  remaining: number;
  /** Unix ms of the next 00:00 UTC, when the day window resets. */
  reset: number;
};

export type WarningObservation = {
  accountId: string;
  plan: string;
  limitsVersion: number;
  day: DayWindow;
};

export type WarningDetectorOptions = {
  webhooks: Pick<Webhooks, "emit">;
  /** Share of the daily limit that triggers the warning, default 0.8. */
  threshold?: number;
  /** Called when recording a warning failed; the next observation above the threshold tries again. */
  onError?: (err: unknown, observation: WarningObservation) => void;
  /** Called once per warning, by the process whose emit recorded it (e.g. to e-mail the account's owners). */
  onWarning?: (accountId: string, data: RateLimitWarningData) => Promise<void> | void;
};

export type WarningDetector = {
  /** Returns at once; starts asynchronous work only when usage reached the threshold and this process has not yet recorded the warning. */
  observe(input: WarningObservation): void;
  /** Resolves when every warning started so far has been recorded (or has failed). */
  flush(): Promise<void>;
};

/** "YYYY-MM-DD" of the UTC day the window belongs to: the day that ends at `reset`. */
export function windowDay(resetMs: number): string {
  return new Date(resetMs - 1).toISOString().slice(0, 10);
}

export function warningDedupeKey(day: string, limitsVersion: number): string {
  return `rate_limit.warning:${day}:v${limitsVersion}`;
}

/** Smallest usage that counts as reaching `threshold` of `limit` (float noise in threshold × limit rounded away). */
export function thresholdUsage(limit: number, threshold: number): number {
  return Math.max(1, Math.ceil(Math.round(limit * threshold * 1e6) / 1e6));
}

/**
 * Fires `rate_limit.warning` the first time an account's usage in a UTC day reaches the threshold.
 * Exactly once across processes comes from the event's unique (accountId, dedupeKey); the local set
 * only spares the database the requests after the first one in this process.
 */
export function createWarningDetector(options: WarningDetectorOptions): WarningDetector {
  const threshold = options.threshold ?? 0.8;
  if (!(threshold > 0 && threshold <= 1)) throw new Error("threshold must be in (0, 1]");
  const onError = options.onError ?? ((err: unknown) => console.error("rate_limit.warning:", err));
  // day → "accountId:vN" already recorded or being recorded in this process.
  const seen = new Map<string, Set<string>>();
  const inFlight = new Set<Promise<void>>();

  function forget(day: string, key: string) {
    seen.get(day)?.delete(key);
  }

  function remember(day: string, key: string): boolean {
    let keys = seen.get(day);
    if (!keys) {
      keys = new Set();
      seen.set(day, keys);
      // Earlier days' windows never come back; the two newest stay for requests straddling midnight.
      for (const old of [...seen.keys()].sort().slice(0, -2)) seen.delete(old);
    }
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  }

  return {
    observe(input) {
      const { limit, remaining, reset } = input.day;
      if (!(limit > 0) || !Number.isFinite(limit) || !Number.isFinite(reset)) return;
      const used = limit - Math.max(0, remaining);
      if (used < thresholdUsage(limit, threshold)) return;
      const day = windowDay(reset);
      const key = `${input.accountId}:v${input.limitsVersion}`;
      if (!remember(day, key)) return;

      const data: RateLimitWarningData = {
        account_id: input.accountId,
        plan: input.plan,
        window: "day",
        limit,
        used,
        remaining: Math.max(0, remaining),
        threshold,
        resets_at: new Date(reset).toISOString(),
      };
      const work = options.webhooks
        .emit(input.accountId, "rate_limit.warning", data, warningDedupeKey(day, input.limitsVersion))
        .then(
          // null: another process recorded this day's warning first (and notifies).
          async (recorded) => {
            if (recorded && options.onWarning) await options.onWarning(input.accountId, data);
          },
          (err: unknown) => {
            forget(day, key);
            onError(err, input);
          },
        );
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    },

    async flush() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
