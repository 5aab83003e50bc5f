import { describe, expect, it } from "vitest";
import { croatianHolidays, isLateDelivery, isWorkingDay, lateDeliveryWindowEnd, lateDeliveryWindowProblem } from "./late-delivery.ts";

describe("late delivery of receipts", () => {
  it("knows Croatia's public holidays, the movable ones from Easter", () => {
    const h2026 = croatianHolidays(2026);
    // Easter 2026 is 5 April: Easter Monday 6 April, Corpus Christi 4 June.
    for (const d of ["2026-01-01", "2026-01-06", "2026-04-06", "2026-05-01", "2026-05-30", "2026-06-04", "2026-06-22", "2026-08-05", "2026-08-15", "2026-11-01", "2026-11-18", "2026-12-25", "2026-12-26"]) {
      expect(h2026.has(d), d).toBe(true);
    }
    expect(h2026.size).toBe(13);
    expect(croatianHolidays(2025).has("2025-04-21")).toBe(true); // Easter 2025: 20 April
    expect(isWorkingDay("2026-11-26")).toBe(true);
    expect(isWorkingDay("2026-11-28")).toBe(false); // Saturday
    expect(isWorkingDay("2026-11-18")).toBe(false); // Remembrance Day
  });

  it("ends the window at midnight after the second working day following the issue day", () => {
    // Thursday → Friday, Monday; ends Tuesday 00:00 Zagreb.
    expect(lateDeliveryWindowEnd(new Date("2026-11-26T10:00:00+01:00")).toISOString()).toBe("2026-11-30T23:00:00.000Z");
    // Tuesday 17 November: 18th is a holiday → 19th, 20th; ends 21st 00:00.
    expect(lateDeliveryWindowEnd(new Date("2026-11-17T23:30:00+01:00")).toISOString()).toBe("2026-11-20T23:00:00.000Z");
    // Thursday 24 December 2026: 25, 26 holidays, 27 Sunday → 28, 29; ends 30th 00:00.
    expect(lateDeliveryWindowEnd(new Date("2026-12-24T12:00:00+01:00")).toISOString()).toBe("2026-12-29T23:00:00.000Z");
    // Summer time: Friday 26 June 2026 → 29, 30 June; ends 1 July 00:00 CEST.
    expect(lateDeliveryWindowEnd(new Date("2026-06-26T12:00:00+02:00")).toISOString()).toBe("2026-06-30T22:00:00.000Z");
    // Saturday 23:30 UTC is already Sunday in Zagreb → Monday, Tuesday; ends Wednesday 00:00.
    expect(lateDeliveryWindowEnd(new Date("2026-11-21T23:30:00Z")).toISOString()).toBe("2026-11-24T23:00:00.000Z");
    // Monday 23:30 in Zagreb → Tuesday, Wednesday; ends Thursday 00:00.
    expect(lateDeliveryWindowEnd(new Date("2026-11-23T22:30:00Z")).toISOString()).toBe("2026-11-25T23:00:00.000Z");
  });

  it("marks a receipt late past 5 minutes and refuses it past the window", () => {
    const now = new Date("2026-11-26T12:00:00+01:00");
    expect(isLateDelivery(new Date(now.getTime() - 5 * 60_000), now)).toBe(false);
    expect(isLateDelivery(new Date(now.getTime() - 5 * 60_000 - 1), now)).toBe(true);
    expect(lateDeliveryWindowProblem(new Date("2026-11-24T09:00:00+01:00"), now)).toBeNull(); // Tuesday: until Thursday 24:00
    expect(lateDeliveryWindowProblem(new Date("2026-11-23T09:00:00+01:00"), now)).toContain("najkasnije 25. 11. 2026."); // Monday: until Wednesday 24:00
    expect(lateDeliveryWindowProblem(new Date("2026-11-20T09:00:00+01:00"), now)).toBe(
      "Račun izdan 20. 11. 2026. mogao se naknadno dostaviti Poreznoj upravi najkasnije 24. 11. 2026. (dva radna dana, čl. 21. st. 2. Zakona o fiskalizaciji); taj je rok istekao i Fiskal ga više ne šalje.",
    );
  });
});
