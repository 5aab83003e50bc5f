import { describe, expect, it } from "vitest";
import { formatDayLabel, formatInt, formatMs, formatPercent, formatRelative, plural } from "./format.ts";

describe("format", () => {
  it("groups thousands the Croatian way", () => {
    expect(formatInt(10000)).toBe("10.000");
    expect(formatInt(200000)).toBe("200.000");
  });

  it("formats ratios as percentages and missing data as a dash", () => {
    expect(formatPercent(0.923)).toBe("92,3\u00a0%");
    expect(formatPercent(null)).toBe("—");
    expect(formatPercent(Number.NaN)).toBe("—");
  });

  it("formats durations in ms below a second and in seconds above", () => {
    expect(formatMs(12.34)).toBe("12,3 ms");
    expect(formatMs(1530)).toBe("1,5 s");
    expect(formatMs(null)).toBe("—");
  });

  it("labels UTC days for chart axes", () => {
    expect(formatDayLabel("2026-11-05")).toBe("5. 11.");
  });

  it("uses Croatian plural forms", () => {
    const days = (n: number) => plural(n, "dan", "dana", "dana");
    const keys = (n: number) => plural(n, "ključ", "ključa", "ključeva");
    expect(keys(1)).toBe("ključ");
    expect(keys(3)).toBe("ključa");
    expect(keys(5)).toBe("ključeva");
    expect(keys(11)).toBe("ključeva");
    expect(keys(12)).toBe("ključeva");
    expect(keys(21)).toBe("ključ");
    expect(keys(22)).toBe("ključa");
    expect(days(1)).toBe("dan");
  });

  it("describes how long ago something happened", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    expect(formatRelative(null, now)).toBe("nikad");
    expect(formatRelative(new Date("2026-11-21T11:59:50Z"), now)).toBe("upravo sada");
    expect(formatRelative(new Date("2026-11-21T11:30:00Z"), now)).toBe("prije 30 min");
    expect(formatRelative(new Date("2026-11-21T07:00:00Z"), now)).toBe("prije 5 h");
    expect(formatRelative(new Date("2026-11-18T12:00:00Z"), now)).toBe("prije 3 dana");
  });
});
