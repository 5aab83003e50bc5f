import { describe, expect, it } from "vitest";
import { HR_STANDARD_RATES, HR_VAT_RATES, vatRateProblem, vatRatesOn } from "./vat-rates.ts";

describe("Croatian VAT rates by date", () => {
  it("today: 25, 13, 5 and 0, the HR-TB-2 list that e-invoices check (HR-BR-CL-1)", () => {
    expect(vatRatesOn("2026-11-26")).toEqual([...HR_VAT_RATES]);
    expect(HR_VAT_RATES.filter((r) => r !== "0")).toEqual([...HR_STANDARD_RATES]);
  });
  it("10 % only until the end of 2013", () => {
    expect(vatRatesOn("2013-12-31")).toContain("10");
    expect(vatRatesOn("2014-01-01")).not.toContain("10");
    expect(vatRateProblem("10.00", "2013-05-05")).toBeNull();
    expect(vatRateProblem("10", "2014-01-01")).toBe("Stopa PDV-a 10.00 % ne vrijedi na dan 1. 1. 2014.; dopuštene su 25, 13, 5, 0 (%).");
  });
  it("compares rates as numbers and refuses what is not a rate", () => {
    expect(vatRateProblem("13.0", "2026-01-01")).toBeNull();
    expect(vatRateProblem("5.5", "2026-01-01")).toMatch(/^Stopa PDV-a 5.50 % ne vrijedi/);
    expect(vatRateProblem("abc", "2026-01-01")).toMatch(/^Stopa PDV-a abc % ne vrijedi/);
  });
});
