// Fiscalization 2.0 through the API against the local double (official XSDs, xmlsec1): a delivered
// e-invoice is recorded with the tax authority; payments and rejections are e-reported via
// POST /v1/einvoices/{id}/payments and /rejection, in the "einvoice" rate-limit group.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startLocalCis, type LocalCis } from "@fiskal/fiscal/testing/local-cis";
import { call, startHarness, VALID_OIB, type Harness } from "./harness.ts";

let cis: LocalCis;
let h: Harness;
let a: { id: string; key: string };

beforeAll(async () => {
  cis = await startLocalCis();
  const trust = { ca: [cis.caPem], names: ["fiskalcistest"] };
  h = await startHarness({ config: { f2: { url: cis.url, ca: cis.caPem, signer: trust, timeoutMs: 1_500, connectTimeoutMs: 1_000 } } });
  a = await h.account({ plan: "ENTERPRISE", custom: { burst: 100, perMinute: 1_000, perDay: 10_000 } });
});
afterAll(async () => {
  await h?.close();
  await cis?.close();
});
beforeEach(() => cis.setMode({ kind: "check" }));

const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Zagreb" }).format(new Date());
let seq = 1;
async function delivered(): Promise<{ id: string; number: string }> {
  const number = `F2-${Date.now()}-${seq++}`;
  const res = await call(h.url, "POST", "/v1/einvoices/send", {
    key: a.key,
    body: {
      number,
      issue_date: today(),
      seller: { oib: VALID_OIB, name: "Prodavatelj d.o.o.", iban: "HR1210010051863000160" },
      buyer: { oib: "94577403194", name: "Kupac d.o.o." },
      operator: { name: "Ana Horvat", oib: "12345678903" },
      lines: [{ description: "Razvoj aplikacije", quantity: "10", unit: "HUR", unit_price: "50.00", vat_rate: "25", kpd: "62.10.11", line_total: "500.00" }],
      totals: { net: "500.00", vat: "125.00", gross: "625.00" },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.id, number };
}
const pay = (id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(h.url, "POST", `/v1/einvoices/${id}/payments`, { key: a.key, body, headers });
const reject = (id: string, body: Record<string, unknown>) => call(h.url, "POST", `/v1/einvoices/${id}/rejection`, { key: a.key, body });

describe("after delivery: the e-invoice is recorded with the tax authority", () => {
  it("records the delivered UBL (schema-valid, signed), then marks it recorded", async () => {
    const e = await delivered();
    const before = cis.requests.length;
    expect(await h.api.services.einvoiceFiscalization!.runOnce({ accountId: a.id })).toBe(1);
    const sent = cis.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: "f2", element: "EvidentirajERacunZahtjev" });
    expect(sent[0]!.error).toBeUndefined();
    expect(sent[0]!.racunZahtjev).toContain(`<efis:brojDokumenta>${e.number}</efis:brojDokumenta>`);
    const row = await h.api.services.db.eInvoice.findUniqueOrThrow({ where: { id: e.id } });
    expect(row).toMatchObject({ fiscalizationStatus: "recorded", fiscalizationRequestId: sent[0]!.jir, fiscalizationAttempts: 1, fiscalizationError: null });
    const status = await call(h.url, "GET", `/v1/einvoices/${e.id}/fiscalization`, { key: a.key });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ einvoice_id: e.id, status: "recorded", request_id: sent[0]!.jir, attempts: 1, error: null, reports: [] });
    // Recorded once: the next pass sends nothing.
    expect(await h.api.services.einvoiceFiscalization!.runOnce({ accountId: a.id })).toBe(0);
    expect(cis.requests.length).toBe(before + 1);
  });

  it("service down: tried again later; a refusal is kept with its code and not retried", async () => {
    const e = await delivered();
    await cis.down();
    try {
      expect(await h.api.services.einvoiceFiscalization!.runOnce({ accountId: a.id })).toBe(0);
    } finally {
      await cis.up();
    }
    let row = await h.api.services.db.eInvoice.findUniqueOrThrow({ where: { id: e.id } });
    expect(row).toMatchObject({ fiscalizationStatus: "pending", fiscalizationAttempts: 1 });
    expect(row.fiscalizationError).toContain("ECONNREFUSED");
    await h.api.services.db.eInvoice.update({ where: { id: e.id }, data: { fiscalizationNextAttemptAt: new Date() } });
    cis.setMode({ kind: "error", code: "S006" }, 1);
    expect(await h.api.services.einvoiceFiscalization!.runOnce({ accountId: a.id })).toBe(0);
    row = await h.api.services.db.eInvoice.findUniqueOrThrow({ where: { id: e.id } });
    expect(row).toMatchObject({ fiscalizationStatus: "refused", fiscalizationAttempts: 2 });
    expect(row.fiscalizationError).toContain("S006");
    expect(await h.api.services.einvoiceFiscalization!.runOnce({ accountId: a.id })).toBe(0);
  });
});

describe("POST /v1/einvoices/{id}/payments", () => {
  it("reports a payment (schema-valid, signed) and answers the recorded report; a retry with the key replays it", async () => {
    const e = await delivered();
    const headers = { "idempotency-key": `pay-${e.id}` };
    const res = await pay(e.id, { paid_on: today(), amount: "600", method: "T" }, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ einvoice_id: e.id, kind: "payment", status: "recorded" });
    expect(res.body.data).toMatchObject({ naplaceniIznos: "600.00", nacinPlacanja: "T", oibPorezniBrojIzdavatelja: VALID_OIB, oibPorezniBrojPrimatelja: "94577403194" });
    const seen = cis.requests.at(-1)!;
    expect(seen).toMatchObject({ element: "EvidentirajNaplatuZahtjev", jir: res.body.request_id });
    expect(seen.error).toBeUndefined();
    // Counted in the e-invoice endpoint group (shared with POST /v1/einvoices/send).
    expect(res.headers.get("ratelimit-policy")).toMatch(/einvoice/);
    const status = await call(h.url, "GET", `/v1/einvoices/${e.id}/fiscalization`, { key: a.key });
    expect(status.body.reports).toEqual([res.body]);
    const other = await h.account();
    expect((await call(h.url, "GET", `/v1/einvoices/${e.id}/fiscalization`, { key: other.key })).status).toBe(404);
    const sent = cis.requests.length;
    const replay = await pay(e.id, { paid_on: today(), amount: "600", method: "T" }, headers);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(res.body);
    expect(cis.requests.length).toBe(sent);
  });

  it("refuses what cannot be right before sending: over-payment, future date, unknown field, other account's e-invoice", async () => {
    const e = await delivered();
    const before = cis.requests.length;
    expect((await pay(e.id, { paid_on: today(), amount: "600.00", method: "T" })).status).toBe(200);
    const over = await pay(e.id, { paid_on: today(), amount: "25.01", method: "T" });
    expect(over.status).toBe(400);
    expect(over.body.error.details).toEqual([{ path: "amount", message: expect.stringContaining("625.00") }]);
    const future = await pay(e.id, { paid_on: "2099-01-01", amount: "1.00", method: "T" });
    expect(future.status).toBe(400);
    expect(future.body.error.details[0].path).toBe("paid_on");
    const unknown = await pay(e.id, { paid_on: today(), amount: "1.00", method: "T", note: "x" });
    expect(unknown.status).toBe(400);
    const other = await h.account();
    const foreign = await call(h.url, "POST", `/v1/einvoices/${e.id}/payments`, { key: other.key, body: { paid_on: today(), amount: "1.00", method: "T" } });
    expect(foreign.status).toBe(404);
    expect(cis.requests.length).toBe(before + 1);
    expect(await h.api.services.db.eInvoiceReport.count({ where: { eInvoiceId: e.id } })).toBe(1);
  });

  it("a refusal by the tax authority is a 400 with its code; an outage a 503 with Retry-After; nothing is kept", async () => {
    const e = await delivered();
    cis.setMode({ kind: "error", code: "S007" }, 1);
    const refused = await pay(e.id, { paid_on: today(), amount: "1.00", method: "Z" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "validation_error", details: { f2_code: "S007" } });
    cis.setMode({ kind: "error", code: "S001" }, 1);
    const down = await pay(e.id, { paid_on: today(), amount: "1.00", method: "Z" });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe("upstream_unavailable");
    expect(down.headers.get("retry-after")).toMatch(/^\d+$/);
    cis.setMode({ kind: "bad-signature" }, 1);
    expect((await pay(e.id, { paid_on: today(), amount: "1.00", method: "Z" })).status).toBe(503);
    expect(await h.api.services.db.eInvoiceReport.count({ where: { eInvoiceId: e.id } })).toBe(0);
    expect((await pay(e.id, { paid_on: today(), amount: "1.00", method: "Z" })).status).toBe(200);
  });

  it("a timeout keeps the report as unknown: it may have been recorded", async () => {
    const e = await delivered();
    cis.setMode({ kind: "timeout" }, 1);
    const res = await pay(e.id, { paid_on: today(), amount: "1.00", method: "T" });
    expect(res.status).toBe(503);
    expect(res.body.error.details).toMatchObject({ reason: "outcome_unknown" });
    const rows = await h.api.services.db.eInvoiceReport.findMany({ where: { eInvoiceId: e.id } });
    expect(rows.map((r) => r.status)).toEqual(["unknown"]);
  });
});

/**
 * A delivered e-invoice marked self-billed (389): the one kind whose issuer reports a rejection in
 * the recipient's place. Sending 389 is not modelled, so the delivered row is marked in the database.
 */
async function selfBilled(): Promise<{ id: string; number: string }> {
  const e = await delivered();
  await h.api.services.db.eInvoice.update({ where: { id: e.id }, data: { documentType: "389" } });
  return e;
}

describe("POST /v1/einvoices/{id}/rejection", () => {
  it("the issuer of an ordinary invoice may not report its rejection: 403, nothing signed or kept", async () => {
    const e = await delivered();
    const before = cis.requests.length;
    const res = await reject(e.id, { rejected_on: today(), reason_type: "U", reason: "Pogrešna stopa PDV-a." });
    expect(res.status, res.text).toBe(403);
    expect(res.body.error).toMatchObject({ code: "forbidden", details: { reason: "recipient_reports", document_type: "380" } });
    expect(res.body.error.message).toContain("primatelj");
    expect(cis.requests.length).toBe(before);
    expect(await h.api.services.db.eInvoiceReport.count({ where: { eInvoiceId: e.id } })).toBe(0);
  });

  it("reports the rejection of a self-billed invoice once; a second one is a 409", async () => {
    const e = await selfBilled();
    const res = await reject(e.id, { rejected_on: today(), reason_type: "U", reason: "Pogrešna stopa PDV-a." });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ kind: "rejection", status: "recorded", data: { vrstaRazlogaOdbijanja: "U", razlogOdbijanja: "Pogrešna stopa PDV-a." } });
    expect(cis.requests.at(-1)).toMatchObject({ element: "EvidentirajOdbijanjeZahtjev", jir: res.body.request_id });
    const again = await reject(e.id, { rejected_on: today(), reason_type: "O", reason: "Opet." });
    expect(again.status).toBe(409);
    expect(again.body.error.details).toMatchObject({ reason: "already_reported" });
  });

  it("validates the reason and the date; unknown e-invoice is a 404", async () => {
    const e = await selfBilled();
    expect((await reject(e.id, { rejected_on: today(), reason_type: "X", reason: "x" })).status).toBe(400);
    expect((await reject(e.id, { rejected_on: today(), reason_type: "N", reason: "   " })).status).toBe(400);
    expect((await reject(e.id, { rejected_on: "2020-01-01", reason_type: "N", reason: "Rano." })).status).toBe(400);
    expect((await reject("0193b7f2-0000-7000-8000-000000000000", { rejected_on: today(), reason_type: "N", reason: "x" })).status).toBe(404);
  });
});
