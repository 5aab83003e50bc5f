/**
 * Exact timing for @upstash/ratelimit's windows, computed from their stored counters.
 *
 * slidingWindow keeps one counter per fixed bucket (bucket = floor(t / W)) and, at time t, counts
 *   used(t) = floor((1 - (t % W) / W) * previous) + current
 * admitting a request while used(t) < limit. Its own `reset` (end of the current bucket) is neither
 * when it admits again nor when it is empty, so both are computed here by replaying that formula
 * with the same IEEE double arithmetic as its Lua script. used(t) never rises without new requests,
 * so the first admitting millisecond can be found by bisection.
 */

export interface SlidingState {
  windowMs: number;
  /** counter of the bucket containing `at` */
  current: number;
  /** counter of the bucket before it */
  previous: number;
  /** the time (Unix ms) the counters were read */
  at: number;
}

/** used(t) exactly as the Lua script computes it, for t inside the bucket of `previous`/`current`. */
export function slidingUsed(previous: number, current: number, windowMs: number, t: number): number {
  const percentageInCurrent = (t % windowMs) / windowMs;
  return Math.floor((1 - percentageInCurrent) * previous) + current;
}

/** Smallest t in [lo, hi] with pred(t), assuming pred is monotone (false…false true…true); null if none. */
function firstTrue(lo: number, hi: number, pred: (t: number) => boolean): number | null {
  if (lo > hi || !pred(hi)) return null;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * First Unix ms ≥ state.at at which fewer than `threshold` requests are counted, i.e. the window
 * admits again when threshold = limit, and is empty when threshold = 1.
 */
export function slidingAdmitsAt(state: SlidingState, threshold: number): number {
  const { windowMs: w, current, previous, at } = state;
  const bucketStart = Math.floor(at / w) * w;
  const inThisBucket = firstTrue(at, bucketStart + w - 1, (t) => slidingUsed(previous, current, w, t) < threshold);
  if (inThisBucket !== null) return inThisBucket;
  // next bucket: the current counter becomes the previous one; the new current is 0
  const next = bucketStart + w;
  const inNextBucket = firstTrue(next, next + w - 1, (t) => slidingUsed(current, 0, w, t) < threshold);
  if (inNextBucket !== null) return inNextBucket;
  return next + w;
}

/**
 * Upper bound of when a sliding window that counted `used` requests at some moment of bucket
 * `bucket` is empty again, without knowing how they split between the two counters: the worst
 * case is all of them in the current bucket. With nothing counted it is empty already.
 */
export function slidingEmptyBy(used: number, bucket: number, windowMs: number): number {
  const bucketStart = bucket * windowMs;
  if (used <= 0) return bucketStart;
  return slidingAdmitsAt({ windowMs, current: used, previous: 0, at: bucketStart }, 1);
}

/** Start of the next bucket of a fixed window; for 86,400,000 ms that is the next 00:00 UTC. */
export function fixedResetAt(bucket: number, windowMs: number): number {
  return (bucket + 1) * windowMs;
}
