// An e-invoice is fiscalized with the account's certificate, so its seller must be the
// certificate's OIB: another seller is refused with 400 before anything is stored or sent
// (as receipts are), instead of being delivered and then never fiscalized.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIntermediarySimulator, type Intermediary } from "@fiskal/fiscal";
import { call, startHarness, VALID_OIB, type Harness } from "./harness.ts";

const OTHER_SELLER = "94577403194";
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
beforeAll(async () => {
  h = await startHarness({ config: { intermediary } });
  a = await h.account({ plan: "ENTERPRISE", custom: { burst: 100, perMinute: 1_000, perDay: 10_000 }, name: "Prodavatelj d.o.o." });
});
afterAll(() => h?.close());

const example = () => JSON.parse(readFileSync(new URL("../../../examples/einvoices/01-standard-multi-rate.json", import.meta.url), "utf8")) as Record<string, any>;
const send = (body: unknown) => call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body });
const stored = () => h.api.services.db.eInvoice.count({ where: { accountId: a.id } });

describe("the seller of an e-invoice", () => {
  it("is the OIB of the account's certificate: another seller gets 400, nothing stored or sent", async () => {
    // The account's certificate for VALID_OIB: the one its first receipt is signed with.
    const receipt = await call(h.url, "POST", "/v1/invoices/fiscalize", {
      key: a.key,
      body: { oib: VALID_OIB, issued_at: new Date().toISOString(), number: "1", premises: "POS1", device: "1", total: "12.50", payment_method: "K", operator_oib: "94577403194", vat_registered: true, sequence: "P", vat: [{ rate: "25", base: "10.00", amount: "2.50" }] },
    });
    expect(receipt.status, receipt.text).toBe(200);
    const own: Record<string, any> = { ...example(), number: "SELLER-1" };
    expect(own.seller.oib).toBe(VALID_OIB);
    const ok = await send(own);
    expect(ok.status, ok.text).toBe(200);
    const cert = await h.api.services.db.certificate.findUniqueOrThrow({ where: { accountId: a.id } });
    expect(cert.oib).toBe(VALID_OIB);

    const before = await stored();
    const sendsBefore = sends;
    const other = { ...example(), number: "SELLER-2", seller: { ...example().seller, oib: OTHER_SELLER }, buyer: { ...example().buyer, oib: VALID_OIB } };
    const r = await send(other);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.code).toBe("validation_error");
    expect(r.body.error.details).toEqual([{ path: "seller.oib", reason: "oib_mismatch", message: expect.stringContaining(OTHER_SELLER) }]);
    expect(r.body.error.message).toContain(VALID_OIB);
    expect(await stored()).toBe(before);
    expect(sends).toBe(sendsBefore);
  });

  it("is refused with the same 400 when the certificate has expired", async () => {
    await h.api.services.db.certificate.update({ where: { accountId: a.id }, data: { notAfter: new Date(Date.now() - 60_000) } });
    try {
      const before = await stored();
      const sendsBefore = sends;
      const r = await send({ ...example(), number: "SELLER-3" });
      expect(r.status, r.text).toBe(400);
      expect(r.body.error.details).toEqual([expect.objectContaining({ path: "certificate", reason: "expired" })]);
      expect(await stored()).toBe(before);
      expect(sends).toBe(sendsBefore);
    } finally {
      await h.api.services.db.certificate.update({ where: { accountId: a.id }, data: { notAfter: new Date(Date.now() + 365 * 86_400_000) } });
    }
  });
});
