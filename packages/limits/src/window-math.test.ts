import { describe, expect, it } from "vitest";
import { slidingAdmitsAt, slidingEmptyBy, slidingUsed, type SlidingState } from "./window-math.ts";

/** What the Upstash script would count at time t, given the counters read at state.at. */
function usedAt(s: SlidingState, t: number): number {
  const bucket = Math.floor(s.at / s.windowMs);
  const tBucket = Math.floor(t / s.windowMs);
  if (tBucket === bucket) return slidingUsed(s.previous, s.current, s.windowMs, t);
  if (tBucket === bucket + 1) return slidingUsed(s.current, 0, s.windowMs, t);
  return 0;
}

// deterministic pseudo-random cases
function* cases(n: number, windowMs: number): Generator<{ s: SlidingState; limit: number }> {
  let seed = 42;
  const rnd = (max: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % max;
  };
  for (let i = 0; i < n; i++) {
    const limit = 1 + rnd(60);
    const at = 1_795_000_000_000 + rnd(10 * windowMs);
    yield { s: { windowMs, previous: rnd(limit + 5), current: rnd(limit + 5), at }, limit };
  }
}

describe("slidingAdmitsAt", () => {
  it("finds the first millisecond the 1 s window admits (checked against every millisecond)", () => {
    for (const { s, limit } of cases(300, 1_000)) {
      const t = slidingAdmitsAt(s, limit);
      expect(t).toBeGreaterThanOrEqual(s.at);
      expect(usedAt(s, t)).toBeLessThan(limit);
      for (let u = s.at; u < t; u++) expect(usedAt(s, u)).toBeGreaterThanOrEqual(limit);
    }
  });

  it("finds the first millisecond the 60 s window admits", () => {
    for (const { s, limit } of cases(300, 60_000)) {
      const t = slidingAdmitsAt(s, limit);
      expect(usedAt(s, t)).toBeLessThan(limit);
      if (t > s.at) expect(usedAt(s, t - 1)).toBeGreaterThanOrEqual(limit);
    }
  });

  it("a full current bucket with nothing before admits 1 ms into the next bucket", () => {
    const at = 1_795_000_000_400;
    expect(slidingAdmitsAt({ windowMs: 1_000, previous: 0, current: 5, at }, 5)).toBe(1_795_000_001_001);
  });

  it("weights the previous bucket: 10 in it, 0 now, limit 5 → admits once the weight is below 5", () => {
    const at = 1_795_000_000_000;
    // floor((1 - m/1000) * 10) <= 4  ⇔  m > 500
    expect(slidingAdmitsAt({ windowMs: 1_000, previous: 10, current: 0, at }, 5)).toBe(at + 501);
  });

  it("returns `at` when the window admits already", () => {
    const at = 1_795_000_000_123;
    expect(slidingAdmitsAt({ windowMs: 60_000, previous: 3, current: 1, at }, 10)).toBe(at);
  });
});

describe("slidingEmptyBy", () => {
  it("is never earlier than the real emptying time, whatever the split between the counters", () => {
    for (const { s } of cases(300, 1_000)) {
      const bucket = Math.floor(s.at / s.windowMs);
      const used = usedAt(s, s.at);
      if (used === 0) continue;
      const exact = slidingAdmitsAt(s, 1);
      expect(slidingEmptyBy(used, bucket, s.windowMs)).toBeGreaterThanOrEqual(exact);
    }
  });

  it("is exact when everything counted is in the current bucket", () => {
    const s = { windowMs: 1_000, previous: 0, current: 4, at: 1_795_000_000_600 };
    expect(slidingEmptyBy(4, 1_795_000_000, 1_000)).toBe(slidingAdmitsAt(s, 1));
  });
});
