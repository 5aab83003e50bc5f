import { describe, expect, it } from "vitest";
import { labelIndexes, niceScale, quotaProgress } from "./chart.ts";

describe("niceScale", () => {
  it("rounds the maximum up to a nice value", () => {
    expect(niceScale(87)).toEqual({ max: 100, ticks: [0, 25, 50, 75, 100] });
    expect(niceScale(9000).max).toBe(10000);
    expect(niceScale(3)).toEqual({ max: 3, ticks: [0, 1, 2, 3] });
  });

  it("gives a usable scale for empty data", () => {
    expect(niceScale(0)).toEqual({ max: 4, ticks: [0, 1, 2, 3, 4] });
  });

  it("never puts the maximum below the data", () => {
    for (const v of [1, 7, 13, 99, 101, 555, 12345]) expect(niceScale(v).max).toBeGreaterThanOrEqual(v);
  });
});

describe("labelIndexes", () => {
  it("always labels the last slot and thins the rest", () => {
    const idx = labelIndexes(30, 8);
    expect(idx.has(29)).toBe(true);
    expect(idx.size).toBeLessThanOrEqual(8);
    expect(labelIndexes(5, 10).size).toBe(5);
  });
});

describe("quotaProgress", () => {
  it("warns from 80% of the daily quota", () => {
    expect(quotaProgress(7999, 10000).warn).toBe(false);
    expect(quotaProgress(8000, 10000)).toEqual({ ratio: 0.8, warn: true, exceeded: false });
    expect(quotaProgress(12000, 10000)).toEqual({ ratio: 1, warn: true, exceeded: true });
  });
});
