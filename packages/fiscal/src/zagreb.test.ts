import { describe, expect, it } from "vitest";
import { croatianDateTime, formatCisDateTime, zagrebDate, zagrebDateTime, zagrebMidnight, zagrebTime } from "./zagreb.ts";

// Instants on both sides of the 2026 DST changes in Zagreb (spring forward 29 March, fall back 25 October).
const at = (iso: string) => new Date(iso);

describe("Zagreb formatters across DST", () => {
  it("zagrebTime gives zero-padded local fields", () => {
    expect(zagrebTime(at("2026-03-29T00:30:00Z"))).toEqual({ year: "2026", month: "03", day: "29", hour: "01", minute: "30", second: "00" });
    expect(zagrebTime(at("2026-03-29T01:30:00Z"))).toEqual({ year: "2026", month: "03", day: "29", hour: "03", minute: "30", second: "00" });
    expect(zagrebTime(at("2026-10-25T00:30:00Z"))).toEqual({ year: "2026", month: "10", day: "25", hour: "02", minute: "30", second: "00" });
    expect(zagrebTime(at("2026-10-25T01:30:00Z"))).toEqual({ year: "2026", month: "10", day: "25", hour: "02", minute: "30", second: "00" });
  });

  it("zagrebDate and formatCisDateTime follow the local calendar", () => {
    expect(zagrebDate(at("2026-01-05T23:05:00Z"))).toBe("2026-01-06");
    expect(formatCisDateTime(at("2026-03-29T01:30:00Z"))).toBe("29.03.2026 03:30:00");
    expect(formatCisDateTime(at("2026-10-25T01:30:00Z"))).toBe("25.10.2026 02:30:00");
  });

  it("croatianDateTime prints what the certificate messages printed before", () => {
    expect(croatianDateTime(at("2026-03-29T00:30:00Z"))).toBe("29. 3. 2026. u 01:30");
    expect(croatianDateTime(at("2026-03-29T01:30:00Z"))).toBe("29. 3. 2026. u 03:30");
    expect(croatianDateTime(at("2026-10-25T00:30:00Z"))).toBe("25. 10. 2026. u 02:30");
    expect(croatianDateTime(at("2026-10-25T01:30:00Z"))).toBe("25. 10. 2026. u 02:30");
    expect(croatianDateTime(at("2026-01-05T23:05:00Z"))).toBe("6. 1. 2026. u 00:05");
  });

  it("zagrebDateTime is the sortable local time of the CSV exports", () => {
    expect(zagrebDateTime(at("2026-03-29T01:30:05Z"))).toBe("2026-03-29 03:30:05");
    expect(zagrebDateTime(at("2026-10-25T01:30:00Z"))).toBe("2026-10-25 02:30:00");
    expect(zagrebDateTime(at("2026-12-31T23:00:00Z"))).toBe("2027-01-01 00:00:00");
  });

  it("zagrebMidnight is 00:00 in Zagreb, CET or CEST, also on the days the clocks change", () => {
    expect(zagrebMidnight("2026-01-05").toISOString()).toBe("2026-01-04T23:00:00.000Z");
    expect(zagrebMidnight("2026-03-29").toISOString()).toBe("2026-03-28T23:00:00.000Z"); // a 23-hour day
    expect(zagrebMidnight("2026-03-30").toISOString()).toBe("2026-03-29T22:00:00.000Z");
    expect(zagrebMidnight("2026-10-25").toISOString()).toBe("2026-10-24T22:00:00.000Z"); // a 25-hour day
    expect(zagrebMidnight("2026-10-26").toISOString()).toBe("2026-10-25T23:00:00.000Z");
  });
});
