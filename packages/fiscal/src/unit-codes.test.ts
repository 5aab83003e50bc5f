import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isUnitCode, UNIT_CODES, UNIT_HINTS } from "./unit-codes.ts";

/** The code list a rule of the official EN 16931 schematron (compiled XSLT) accepts. */
function schematronCodeList(rule: string): string[] {
  const xslt = readFileSync(new URL("../../../reference/en16931/EN16931-UBL-validation-1.3.15.xslt", import.meta.url), "utf8");
  const at = xslt.indexOf(`<xsl:attribute name="id">${rule}</xsl:attribute>`);
  expect(at, `${rule} in the schematron`).toBeGreaterThan(0);
  const test = xslt.slice(xslt.lastIndexOf('<xsl:when test="', at), at);
  const list = /contains\(\s*'([^']*)'/.exec(test)?.[1];
  expect(list, `${rule} has a code list`).toBeDefined();
  return list!.split(/\s+/).filter(Boolean);
}

describe("unit codes (UN/ECE Rec 20/21)", () => {
  it("are exactly the list EN 16931 rule BR-CL-23 accepts", () => {
    const official = schematronCodeList("BR-CL-23");
    expect(official.length).toBeGreaterThan(2000);
    expect([...UNIT_CODES].sort()).toEqual([...new Set(official)].sort());
  });

  it("accept the common units and refuse the Croatian abbreviations, with the code to use instead", () => {
    for (const u of ["H87", "C62", "HUR", "DAY", "KGM", "LTR", "MTR", "MTK", "XPK", "XPX"]) expect(isUnitCode(u), u).toBe(true);
    for (const u of ["KOM", "kom", "SAT", "h87", "", " H87", undefined, 87]) expect(isUnitCode(u), String(u)).toBe(false);
    for (const [word, code] of Object.entries(UNIT_HINTS)) {
      expect(isUnitCode(word), word).toBe(false);
      expect(isUnitCode(code), code).toBe(true);
    }
  });
});
