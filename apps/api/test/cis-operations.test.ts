// The other receipt operations of CIS through the API, against the local CIS (official XSD via
// xmllint, signature via xmlsec1, signed answers): a tip (napojnica), a change of payment method
// (promijeniNacPlac) and provjera, each in the "fiscalize" endpoint group.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startLocalCis, type LocalCis } from "@fiskal/fiscal/testing/local-cis";
import { buildOpenApiDocument } from "../src/openapi.ts";
import { call, startHarness, VALID_OIB, type Harness } from "./harness.ts";

let cis: LocalCis;
let h: Harness;
let a: { id: string; key: string };
beforeAll(async () => {
  cis = await startLocalCis();
  h = await startHarness({ config: { cis: { url: cis.url, ca: cis.caPem, signer: { ca: [cis.caPem], names: ["fiskalcistest"] }, timeoutMs: 1_500, connectTimeoutMs: 1_000 } } });
  a = await h.account({ plan: "ENTERPRISE", custom: { burst: 100, perMinute: 1_000, perDay: 10_000 } });
});
afterAll(async () => {
  await h?.close();
  await cis?.close();
});
beforeEach(() => cis.setMode({ kind: "check" }));

let n = 1;
async function fiscalized(): Promise<{ id: string; number: string }> {
  const number = String(n++);
  const r = await call(h.url, "POST", "/v1/invoices/fiscalize", {
    key: a.key,
    body: { oib: VALID_OIB, issued_at: new Date().toISOString(), number, premises: "OPS1", device: "1", total: "125.00", payment_method: "K", operator_oib: "94577403194", vat_registered: true, sequence: "P", vat: [{ rate: "25", base: "100.00", amount: "25.00" }] },
  });
  expect(r.status, r.text).toBe(200);
  expect(r.body.jir).toBeTruthy();
  return { id: r.body.id, number };
}
const post = (id: string, op: string, body: Record<string, unknown>) => call(h.url, "POST", `/v1/invoices/${id}/${op}`, { key: a.key, body });

describe("tips, payment method changes and provjera", () => {
  it("a tip goes to CIS as a signed, schema-valid NapojnicaZahtjev and is kept with the receipt; the same tip again is not sent twice, another is a 409", async () => {
    const r = await fiscalized();
    const before = cis.requests.length;
    const tip = await post(r.id, "tip", { amount: "5", payment_method: "G" });
    expect(tip.status, tip.text).toBe(200);
    expect(tip.body).toMatchObject({ id: r.id, tip: { amount: "5.00", payment_method: "G" }, payment_method: "K", changed_payment_method: null });
    const sent = cis.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ element: "NapojnicaZahtjev" });
    expect(sent[0]!.error).toBeUndefined();
    expect(sent[0]!.racunZahtjev).toContain(`<tns:BrOznRac>${r.number}</tns:BrOznRac>`);
    expect(sent[0]!.racunZahtjev).toContain("<tns:Napojnica><tns:iznosNapojnice>5.00</tns:iznosNapojnice><tns:nacinPlacanjaNapojnice>G</tns:nacinPlacanjaNapojnice></tns:Napojnica>");
    expect((await call(h.url, "GET", `/v1/invoices/${r.id}`, { key: a.key })).body.tip).toEqual({ amount: "5.00", payment_method: "G" });

    const again = await post(r.id, "tip", { amount: "5.00", payment_method: "G" });
    expect(again.status).toBe(200);
    const other = await post(r.id, "tip", { amount: "7.00", payment_method: "K" });
    expect(other.status).toBe(409);
    expect(other.body.error.details).toMatchObject({ reason: "tip_reported" });
    expect(cis.requests.length).toBe(before + 1);
  });

  it("a change of payment method goes to CIS as PromijeniNacPlacZahtjev; the receipt keeps its own method and shows the new one", async () => {
    const r = await fiscalized();
    const before = cis.requests.length;
    const res = await post(r.id, "payment-method", { payment_method: "G" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ payment_method: "K", changed_payment_method: "G" });
    expect(cis.requests.slice(before).map((q) => [q.element, q.error])).toEqual([["PromijeniNacPlacZahtjev", undefined]]);
    expect(cis.requests.at(-1)!.racunZahtjev).toContain("<tns:NacinPlac>K</tns:NacinPlac>");
    expect(cis.requests.at(-1)!.racunZahtjev).toContain("<tns:PromijenjeniNacinPlac>G</tns:PromijenjeniNacinPlac>");
    // Asking for the method it already has sends nothing.
    expect((await post(r.id, "payment-method", { payment_method: "G" })).status).toBe(200);
    expect(cis.requests.length).toBe(before + 1);
  });

  it("provjera on the test endpoint: valid, or CIS's errors; CIS refusing a tip is a 400 with its code and nothing kept", async () => {
    const r = await fiscalized();
    const ok = await post(r.id, "check", {});
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ id: r.id, valid: true, errors: [] });
    expect(cis.requests.at(-1)).toMatchObject({ element: "ProvjeraZahtjev" });
    cis.setMode({ kind: "error", code: "s005" }, 1);
    const bad = await post(r.id, "check", {});
    expect(bad.body).toMatchObject({ valid: false, errors: [{ code: "s005" }] });
    cis.setMode({ kind: "error", code: "s005" }, 1);
    const refused = await post(r.id, "tip", { amount: "1.00", payment_method: "K" });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toMatchObject({ cis_code: "s005" });
    expect((await call(h.url, "GET", `/v1/invoices/${r.id}`, { key: a.key })).body.tip).toBeNull();
  });

  it("refuses bad input and unknown receipts; all three count in the fiscalize group", async () => {
    const r = await fiscalized();
    expect((await post(r.id, "tip", { amount: "0", payment_method: "G" })).status).toBe(400);
    expect((await post(r.id, "tip", { amount: "1.00", payment_method: "C" })).status).toBe(400);
    expect((await post("0193b7f2-0000-7000-8000-000000000000", "tip", { amount: "1.00", payment_method: "G" })).status).toBe(404);
    const doc = buildOpenApiDocument("http://api.test") as { paths: Record<string, { post?: Record<string, unknown> }> };
    for (const op of ["tip", "payment-method", "check"]) expect(doc.paths[`/v1/invoices/{id}/${op}`]?.post?.["x-rate-limit-group"], op).toBe("fiscalize");
  });
});
