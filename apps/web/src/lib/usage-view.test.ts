import { describe, expect, it } from "vitest";
import { logFilter, paramsFrom, parseView, viewQuery } from "./usage-view.ts";

const NOW = new Date("2026-11-23T16:42:10Z"); // 17:42 in Zagreb (CET)

describe("parseView", () => {
  it("defaults to the last 24 hours in hourly buckets", () => {
    const v = parseView({}, NOW);
    expect(v).toMatchObject({ range: "24h", bucket: "hour", status: null, endpoint: null, key: null, problems: [] });
    expect(v.from.toISOString()).toBe("2026-11-22T17:00:00.000Z");
    expect(v.to).toEqual(NOW);
  });

  it("7 and 30 days start at local midnight in Zagreb", () => {
    expect(parseView({ range: "7d" }, NOW).from.toISOString()).toBe("2026-11-16T23:00:00.000Z");
    const m = parseView({ range: "30d" }, NOW);
    expect(m.from.toISOString()).toBe("2026-10-24T22:00:00.000Z"); // CEST before 25 October
    expect(m.bucket).toBe("day");
  });

  it("custom dates are whole local days, the last one inclusive, capped at now", () => {
    const v = parseView({ range: "custom", from: "2026-11-01", to: "2026-11-02" }, NOW);
    expect([v.from.toISOString(), v.to.toISOString(), v.bucket]).toEqual(["2026-10-31T23:00:00.000Z", "2026-11-02T23:00:00.000Z", "hour"]);
    const today = parseView({ range: "custom", from: "2026-11-20", to: "2026-11-30" }, NOW);
    expect(today.to).toEqual(NOW);
    expect(today.toDay).toBe("2026-11-23");
  });

  it("names what it ignores and falls back to 24 hours", () => {
    expect(parseView({ range: "custom", from: "2026-11-10", to: "2026-11-01" }, NOW).problems[0]).toMatch(/nakon datuma/);
    expect(parseView({ range: "custom", from: "2026-02-30", to: "2026-03-01" }, NOW).range).toBe("24h");
    expect(parseView({ range: "custom", from: "2026-01-01", to: "2026-11-01" }, NOW).problems[0]).toMatch(/najviše 92 dana/);
    expect(parseView({ range: "1y" }, NOW).problems[0]).toMatch(/Nepoznato razdoblje/);
    const bad = parseView({ status: "6xx", key: "x'; --" }, NOW);
    expect([bad.status, bad.key, bad.problems.length]).toEqual([null, null, 2]);
  });

  it("round-trips through the URL and becomes the log filter", () => {
    const key = "01a2096e-f9f4-75ec-8b2d-65e4aa608321";
    const v = parseView(paramsFrom(new URLSearchParams(`range=7d&status=429&endpoint=GET+%2Fv1%2Flimits&key=${key}`)), NOW);
    expect(viewQuery(v)).toBe(`?range=7d&status=429&endpoint=GET+%2Fv1%2Flimits&key=${key}`);
    expect(viewQuery(v, { status: undefined, range: "24h" })).toBe(`?endpoint=GET+%2Fv1%2Flimits&key=${key}`);
    expect(logFilter(v)).toEqual({ from: v.from, to: v.to, status: "429", endpoint: "GET /v1/limits", apiKeyId: key });
  });
});
