/** Waits after the 1st, 2nd, … failed automatic attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
];

/** A receiver may ask for a later retry, but not for one days away. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * When to try again after the `failedAutoAttempts`-th failed automatic attempt, or null once the
 * schedule is used up. A Retry-After header can only postpone the next attempt, never advance it.
 */
export function nextAttemptDelay(
  delays: readonly number[],
  failedAutoAttempts: number,
  retryAfterMs: number | null,
): number | null {
  const base = delays[failedAutoAttempts - 1];
  if (base === undefined) return null;
  return Math.max(base, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}
