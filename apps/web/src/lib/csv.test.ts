import { describe, expect, it } from "vitest";
import { csvField, csvRow } from "./csv.ts";

describe("csv", () => {
  it("quotes commas, quotes and line breaks, and nothing else", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("čćžšđ")).toBe("čćžšđ");
    expect(csvField(null)).toBe("");
    expect(csvField(3.25)).toBe("3.25");
    expect(csvField(true)).toBe("da");
  });

  it("defuses spreadsheet formulas", () => {
    expect(csvField("=HYPERLINK(\"x\")")).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("@a")).toBe("'@a");
  });

  it("ends rows with CRLF", () => {
    expect(csvRow(["a", 1, null])).toBe("a,1,\r\n");
  });
});
