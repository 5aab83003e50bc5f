import { describe, expect, it } from "vitest";
import { formatMoney, multiplyDecimal, normalizeDecimal, parseDecimal, parseMoney, roundDecimal } from "./money.ts";

describe("money", () => {
  it("parses and formats cents exactly", () => {
    expect(parseMoney("125.00")).toBe(12500n);
    expect(parseMoney("125")).toBe(12500n);
    expect(parseMoney("0.5")).toBe(50n);
    expect(parseMoney("-3.07")).toBe(-307n);
    expect(parseMoney("90071992547409.93")).toBe(9007199254740993n);
    expect(formatMoney(12500n)).toBe("125.00");
    expect(formatMoney(5n)).toBe("0.05");
    expect(formatMoney(-5n)).toBe("-0.05");
    expect(formatMoney(-307n)).toBe("-3.07");
    expect(formatMoney(9007199254740993n)).toBe("90071992547409.93");
  });

  it.each(["", "1.005", "1e3", "+1", "1,00", " 1", "1.", ".5", "NaN", "--1"])("refuses %j", (s) => {
    expect(() => parseMoney(s)).toThrow(RangeError);
  });

  it("rounds half away from zero", () => {
    expect(roundDecimal(parseDecimal("0.005")!, 2)).toBe(1n);
    expect(roundDecimal(parseDecimal("0.0049")!, 2)).toBe(0n);
    expect(roundDecimal(parseDecimal("-0.005")!, 2)).toBe(-1n);
    expect(roundDecimal(parseDecimal("2.675")!, 2)).toBe(268n); // 2.675 is 2.67499… as a float
    expect(roundDecimal(parseDecimal("7")!, 2)).toBe(700n);
  });

  it("multiplies without floats", () => {
    // 0.1 × 3 is 0.30000000000000004 in floating point
    expect(roundDecimal(multiplyDecimal(parseDecimal("0.1")!, parseDecimal("3")!), 2)).toBe(30n);
    expect(roundDecimal(multiplyDecimal(parseDecimal("1.125")!, parseDecimal("3")!), 2)).toBe(338n);
  });

  it("normalizes decimals", () => {
    expect(normalizeDecimal(parseDecimal("25.00")!)).toBe("25");
    expect(normalizeDecimal(parseDecimal("1.50")!)).toBe("1.5");
    expect(normalizeDecimal(parseDecimal("0")!)).toBe("0");
    expect(parseDecimal("1.12345678901")).toBeNull();
  });
});
