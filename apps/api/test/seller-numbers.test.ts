// A receipt or e-invoice number belongs to the issuer (its OIB), not to the Fiskal account that sent
// it: two accounts of one company share the numbering. The second account's attempt is a 409 that
// names neither the other account nor its document, and nothing is stored or sent for it.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIntermediarySimulator, type Intermediary } from "@fiskal/fiscal";
import { call, startHarness, VALID_OIB, type Harness } from "./harness.ts";

const simulator = createIntermediarySimulator({ latencyMs: [1, 3], perSecond: 1_000 });
let sends = 0;
const intermediary: Intermediary = {
  send: (req) => {
    sends++;
    return simulator.send(req);
  },
};

let h: Harness;
let a: { id: string; key: string };
let b: { id: string; key: string };
beforeAll(async () => {
  h = await startHarness({ config: { intermediary } });
  const custom = { burst: 100, perMinute: 1_000, perDay: 10_000 };
  a = await h.account({ plan: "ENTERPRISE", custom, name: "Tvrtka d.o.o." });
  b = await h.account({ plan: "ENTERPRISE", custom, name: "Tvrtka d.o.o. (drugi račun)" });
});
afterAll(() => h?.close());

const receipt = (number: string) => ({
  oib: VALID_OIB,
  issued_at: new Date().toISOString(),
  number,
  premises: "POS1",
  device: "1",
  total: "12.50",
  payment_method: "K",
  operator_oib: "94577403194",
  vat_registered: true,
  sequence: "P",
  vat: [{ rate: "25", base: "10.00", amount: "2.50" }],
});
const einvoice = (number: string) => ({
  ...(JSON.parse(readFileSync(new URL("../../../examples/einvoices/01-standard-multi-rate.json", import.meta.url), "utf8")) as Record<string, unknown>),
  number,
});

describe("numbers per issuer OIB across accounts", () => {
  it("a receipt number another account of the same OIB used is a 409 that reveals nothing of it", async () => {
    const first = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body: receipt("101") });
    expect(first.status, first.text).toBe(200);
    const before = await h.api.services.db.invoice.count();
    const again = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: b.key, body: receipt("101") });
    expect(again.status, again.text).toBe(409);
    expect(again.body.error.code).toBe("conflict");
    expect(again.body.error.details).toEqual({ reason: "number_taken" });
    for (const secret of [a.id, first.body.id, first.body.jir, first.body.zki, "Tvrtka d.o.o."]) expect(again.text).not.toContain(secret);
    expect(await h.api.services.db.invoice.count()).toBe(before);
    // Another number, or the same number on another device, is this account's to issue.
    const next = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: b.key, body: receipt("102") });
    expect(next.status, next.text).toBe(200);
    const otherDevice = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: b.key, body: { ...receipt("101"), device: "2" } });
    expect(otherDevice.status, otherDevice.text).toBe(200);
    // The first account's own repeat keeps its own answer (with its JIR).
    const own = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body: receipt("101") });
    expect(own.status, own.text).toBe(409);
    expect(own.body.error.details).toMatchObject({ reason: "fiscalized", id: first.body.id });
  });

  it("an e-invoice number another account of the same seller used is a 409 that reveals nothing of it", async () => {
    const first = await call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body: einvoice("2026-101-1") });
    expect(first.status, first.text).toBe(200);
    const before = await h.api.services.db.eInvoice.count();
    const sendsBefore = sends;
    const again = await call(h.url, "POST", "/v1/einvoices/send", { key: b.key, body: einvoice("2026-101-1") });
    expect(again.status, again.text).toBe(409);
    expect(again.body.error.code).toBe("conflict");
    expect(again.body.error.details).toEqual({ reason: "number_taken" });
    for (const secret of [a.id, first.body.id, "Tvrtka d.o.o."]) expect(again.text).not.toContain(secret);
    expect(await h.api.services.db.eInvoice.count()).toBe(before);
    expect(sends).toBe(sendsBefore);
    const next = await call(h.url, "POST", "/v1/einvoices/send", { key: b.key, body: einvoice("2026-101-2") });
    expect(next.status, next.text).toBe(200);
  });
});
