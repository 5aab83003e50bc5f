import { describe, expect, it } from "vitest";
import { amountProblem, issueDateProblem, issueTimeProblem, laterDateProblem, textLengthProblem, zagrebDate } from "./bounds.ts";

const now = new Date("2026-11-23T15:00:00Z");

describe("issue times", () => {
  it("refuses instants before fiscalization began, after 2099 and those PostgreSQL cannot store", () => {
    for (const s of [
      "0000-01-01T00:00:00Z",
      "0001-01-01T00:00:00+14:00",
      "9999-12-31T23:59:59-23:59",
      "2012-12-31T23:59:59+01:00",
      "2100-01-01T00:00:00+01:00",
    ]) {
      expect(issueTimeProblem(new Date(s), now), s).toMatch(/Vrijeme izdavanja/);
    }
    expect(issueTimeProblem(new Date(Number.NaN), now)).toMatch(/nije ispravan/);
  });

  it("accepts the first second in Zagreb and a clock up to five minutes ahead", () => {
    expect(issueTimeProblem(new Date("2013-01-01T00:00:00+01:00"), now)).toBeNull();
    expect(issueTimeProblem(new Date("2012-12-31T23:00:00Z"), now)).toBeNull();
    expect(issueTimeProblem(new Date(now.getTime() + 5 * 60_000), now)).toBeNull();
    expect(issueTimeProblem(new Date(now.getTime() + 5 * 60_000 + 1), now)).toMatch(/budućnosti/);
  });
});

describe("dates", () => {
  it("an issue date lies between the first date and today in Zagreb", () => {
    expect(issueDateProblem("2026-11-23", now)).toBeNull();
    expect(issueDateProblem("2026-11-24", now)).toMatch(/budućnosti/);
    // 23:58 UTC is already the next day in Zagreb.
    expect(issueDateProblem("2026-11-24", new Date("2026-11-23T23:58:00Z"))).toBeNull();
    expect(issueDateProblem("2025-12-31", now, "2026-01-01")).toMatch(/1\. 1\. 2026\./);
    expect(issueDateProblem("9999-12-31", now)).toMatch(/2099/);
    expect(issueDateProblem("2026-02-30", now)).toMatch(/kalendarski/);
  });

  it("a later date may lie ahead, up to 2099", () => {
    expect(laterDateProblem("2099-12-31")).toBeNull();
    expect(laterDateProblem("2100-01-01", "Datum dospijeća")).toMatch(/^Datum dospijeća mora biti najkasnije 31\. 12\. 2099\./);
  });

  it("gives the Zagreb calendar date of an instant", () => {
    expect(zagrebDate(new Date("2026-06-30T22:30:00Z"))).toBe("2026-07-01");
    expect(zagrebDate(new Date("2026-12-31T22:59:59Z"))).toBe("2026-12-31");
  });
});

describe("amounts and text", () => {
  it("an amount fits numeric(14, 2)", () => {
    expect(amountProblem("999999999999.99")).toBeNull();
    expect(amountProblem("-12.5")).toBeNull();
    expect(amountProblem("1000000000000.00")).toMatch(/12 znamenki/);
    expect(amountProblem("1.234")).toMatch(/najviše 2 decimale/);
    expect(amountProblem("12345", { precision: 4, scale: 0 })).toMatch(/najviše 4 znamenke /);
  });

  it("text length counts code points", () => {
    expect(textLengthProblem("😀".repeat(3), 3)).toBeNull();
    expect(textLengthProblem("abcd", 3)).toMatch(/najviše 3 znaka \(ima 4\)/);
  });
});
