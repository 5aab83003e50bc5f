// The KPD levels in the API's own words are the classification's Croatian names: level 5 is a
// "potkategorija" (pod + k → potk, as the statistics office writes it), the same word the e-invoice
// messages use (KPD_LEVEL_NAMES_HR in @fiskal/fiscal).
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../src/openapi.ts";

describe("KPD wording in the OpenAPI document", () => {
  it("names level 5 a potkategorija, never podkategorija", () => {
    const text = JSON.stringify(buildOpenApiDocument("http://api.test"));
    expect(text).toContain("5 = potkategorija");
    expect(text).not.toMatch(/podkategorij/i);
  });
});
