import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as codes from "./einvoice-codes.ts";

/** The code list a rule of the official EN 16931 schematron (compiled XSLT) accepts. */
function schematronCodeList(rule: string): string[] {
  const xslt = readFileSync(new URL("../../../reference/en16931/EN16931-UBL-validation-1.3.15.xslt", import.meta.url), "utf8");
  const at = xslt.indexOf(`<xsl:attribute name="id">${rule}</xsl:attribute>`);
  expect(at, `${rule} in the schematron`).toBeGreaterThan(0);
  const list = /contains\(\s*'([^']*)'/.exec(xslt.slice(xslt.lastIndexOf('<xsl:when test="', at), at))?.[1];
  expect(list, `${rule} has a code list`).toBeDefined();
  return list!.split(/\s+/).filter(Boolean);
}

describe("code lists of the e-invoice model", () => {
  it("are exactly the lists of the official EN 16931 schematron", () => {
    for (const [name, rule] of Object.entries(codes.CODE_LIST_RULES)) {
      const list: ReadonlySet<string> = codes[name as keyof typeof codes.CODE_LIST_RULES];
      expect([...list].sort(), `${name} (${rule})`).toEqual([...new Set(schematronCodeList(rule))].sort());
    }
  });

  it("contain what the examples and defaults use", () => {
    for (const c of ["VATEX-EU-AE", "VATEX-EU-IC", "VATEX-EU-G", "VATEX-EU-O", "VATEX-EU-132-1B"]) expect(codes.VATEX_CODES.has(c), c).toBe(true);
    for (const c of ["1", "10", "30", "48", "58"]) expect(codes.PAYMENT_MEANS_CODES.has(c), c).toBe(true);
    for (const c of ["9934", "9930", "0192", "0088"]) expect(codes.ENDPOINT_SCHEMES.has(c), c).toBe(true);
    expect(codes.ALLOWANCE_REASON_CODES.has("95")).toBe(true);
    expect(codes.CHARGE_REASON_CODES.has("FC")).toBe(true);
    expect(codes.COUNTRY_CODES.has("HR") && codes.COUNTRY_CODES.has("NO")).toBe(true);
  });
});
