import { describe, expect, it } from "vitest";
import { pageAllowed } from "./roles";

describe("pageAllowed", () => {
  it("follows the role matrix for pages", () => {
    expect(pageAllowed("ACCOUNTANT", "/keys")).toBe(false);
    expect(pageAllowed("ACCOUNTANT", "/keys?x=1")).toBe(false);
    expect(pageAllowed("ACCOUNTANT", "/webhooks/abc")).toBe(false);
    expect(pageAllowed("ACCOUNTANT", "/audit")).toBe(true);
    expect(pageAllowed("DEVELOPER", "/audit")).toBe(false);
    expect(pageAllowed("DEVELOPER", "/certificates")).toBe(true);
    expect(pageAllowed("OWNER", "/audit")).toBe(true);
    expect(pageAllowed("ACCOUNTANT", "/keysfoo")).toBe(true);
    expect(pageAllowed(null, "/keys")).toBe(false);
    expect(pageAllowed(null, "/team")).toBe(true);
    expect(pageAllowed("ACCOUNTANT", "/dashboard")).toBe(true);
  });
});
