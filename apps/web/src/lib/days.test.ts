import { describe, expect, it } from "vitest";
import { croatianDay, normalizeDay, parsePeriod, validDay } from "./days.ts";

describe("days", () => {
  it("reads a day typed the Croatian way or as in a URL", () => {
    expect(normalizeDay("20. 11. 2026.")).toBe("2026-11-20");
    expect(normalizeDay(" 1.2.2026 ")).toBe("2026-02-01");
    expect(normalizeDay("2026-11-20")).toBe("2026-11-20");
    expect(normalizeDay("11/20/2026")).toBe("11/20/2026");
    expect(croatianDay("2026-02-01")).toBe("1. 2. 2026.");
    expect([validDay("2026-02-28"), validDay("2026-02-29"), validDay("2024-02-29"), validDay("2026-13-01")]).toEqual([true, false, true, false]);
  });

  it("parses a period and names each wrong field in Croatian", () => {
    expect(parsePeriod({ from: "1. 11. 2026.", to: "2026-11-30" })).toEqual({ from: "2026-11-01", to: "2026-11-30", errors: {} });
    expect(parsePeriod({})).toEqual({ from: undefined, to: undefined, errors: {} });
    expect(parsePeriod({ from: "11/20/2026", to: "" }).errors).toEqual({ from: "„11/20/2026” nije datum u obliku dd. mm. gggg., npr. 20. 11. 2026." });
    expect(parsePeriod({ from: "31. 2. 2026." }).errors.from).toBe("Datum 31. 2. 2026. ne postoji u kalendaru.");
    expect(parsePeriod({ from: "10. 11. 2026.", to: "1. 11. 2026." }).errors).toEqual({ to: "Datum „do” (1. 11. 2026.) je prije datuma „od” (10. 11. 2026.)." });
  });

  it("a required period within limits (the archive export)", () => {
    const opts = { required: true, min: "2000-01-01", max: "2099-12-31" };
    expect(parsePeriod({ from: " ", to: "1. 1. 2026." }, opts).errors).toEqual({ from: "Unesite datum „od”, npr. 20. 11. 2026." });
    expect(parsePeriod({ from: "1. 1. 1999.", to: "1. 1. 2100." }, opts).errors).toEqual({
      from: "Datum mora biti između 1. 1. 2000. i 31. 12. 2099.",
      to: "Datum mora biti između 1. 1. 2000. i 31. 12. 2099.",
    });
  });
});
