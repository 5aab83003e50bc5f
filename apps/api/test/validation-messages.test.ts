// A 400 validation_error explains each problem in our own words: no zod default ("Invalid input:
// expected string, received number") reaches a client, while a schema's own message is kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { croatianIssueMessage } from "../src/zod-messages.ts";
import { call, startHarness, type Harness } from "./harness.ts";

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness();
  key = (await h.account({ plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 10_000, perDay: 100_000 } })).key;
});
afterAll(() => h.close());

const ZOD_DEFAULT = /Invalid input|expected|received|Too small|Too big|Unrecognized key|Invalid (string|option|format)/;

describe("validation_error details", () => {
  it("names the expected type and what was sent", async () => {
    const r = await call(h.url, "POST", "/v1/validate/oib", { key, body: { oib: 12345 } });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual([{ path: "oib", message: "Očekivan je tekst (string), a poslan je broj." }]);
  });

  it("says a missing field is required", async () => {
    const r = await call(h.url, "POST", "/v1/validate/oib", { key, body: {} });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual([{ path: "oib", message: "Polje je obavezno." }]);
  });

  it("counts items of a batch in Croatian", async () => {
    const r = await call(h.url, "POST", "/v1/validate/oib/batch", { key, body: { oibs: [] } });
    expect(r.status).toBe(400);
    expect(r.body.error.details[0].path).toBe("oibs");
    for (const d of r.body.error.details) expect(d.message).not.toMatch(ZOD_DEFAULT);
  });

  it("never lets a zod default message through on any field of an e-invoice", async () => {
    const r = await call(h.url, "POST", "/v1/einvoices/send", { key, body: { number: 17, issue_date: true, seller: [], lines: "x", extra: 1 } });
    expect(r.status).toBe(400);
    expect(r.body.error.details.length).toBeGreaterThan(0);
    for (const d of r.body.error.details) expect(d.message, JSON.stringify(d)).not.toMatch(ZOD_DEFAULT);
  });

  it("maps every zod issue code to a sentence of ours", () => {
    const codes = ["invalid_type", "too_small", "too_big", "invalid_format", "not_multiple_of", "unrecognized_keys", "invalid_value", "invalid_union", "invalid_key", "invalid_element", "custom"];
    for (const code of codes) {
      const message = croatianIssueMessage({ code, input: 1, expected: "string", origin: "string", minimum: 2, maximum: 5, format: "email", divisor: 2, keys: ["a"], values: ["x"], path: [] } as never);
      expect(message, code).toMatch(/\.$/);
      expect(message, code).not.toMatch(ZOD_DEFAULT);
    }
  });
});
