// Fiscalization, e-invoices, idempotency, account scoping and metering through the real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageSummary } from "@fiskal/usage";
import { createCisSimulator, type CisSimulator } from "@fiskal/fiscal";
import { call, timely, startHarness, trpcClient, VALID_OIB, type Harness } from "./harness.ts";

let h: Harness;
let a: { id: string; key: string };
let b: { id: string; key: string };
beforeAll(async () => {
  h = await startHarness();
  const big = { burst: 500, perMinute: 5_000, perDay: 100_000 };
  a = await h.account({ plan: "ENTERPRISE", custom: big, name: "A d.o.o." });
  b = await h.account({ plan: "ENTERPRISE", custom: big, name: "B d.o.o." });
});
afterAll(() => h.close());

let receiptNo = 100;
const receipt = (over: Record<string, unknown> = {}) => ({
  oib: VALID_OIB,
  issued_at: new Date().toISOString(),
  number: String(receiptNo++),
  premises: "POSL1",
  device: "1",
  total: "125.00",
  payment_method: "K",
  operator_oib: "94577403194",
  vat_registered: true,
  sequence: "P",
  ...over,
});

const einvoice = (number: string, over: Record<string, unknown> = {}) => ({
  number,
  issue_date: "2026-11-21",
  seller: { oib: VALID_OIB, name: "Prodavatelj d.o.o.", iban: "HR1210010051863000160" },
  buyer: { oib: "94577403194", name: "Kupac d.o.o." },
  operator: { name: "Ana Horvat", oib: "12345678903" },
  lines: [
    { description: "Razvoj aplikacije", quantity: "10", unit: "HUR", unit_price: "50.00", vat_rate: "25", kpd: "62.10.11", line_total: "500.00" },
    { description: "Pšenica", quantity: "2", unit: "KGM", unit_price: "1.25", vat_rate: "5", kpd: "01.11.11", line_total: "2.50" },
  ],
  totals: { net: "502.50", vat: "125.13", gross: "627.63" },
  ...over,
});

describe("fiscalization", () => {
  it("computes a ZKI, obtains a JIR and persists the receipt", async () => {
    const r = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body: receipt() });
    expect(r.status).toBe(200);
    expect(r.body.zki).toMatch(/^[0-9a-f]{32}$/);
    expect(r.body.jir).toMatch(/^[0-9a-f-]{36}$/);
    const row = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: r.body.id } });
    expect(row.jir).toBe(r.body.jir);
    expect(row.accountId).toBe(a.id);
    const got = await call(h.url, "GET", `/v1/invoices/${r.body.id}`, { key: a.key });
    expect(got.body).toEqual(r.body);
  });

  it("never fiscalizes twice for one Idempotency-Key, even when retried concurrently", async () => {
    const body = receipt();
    const headers = { "idempotency-key": `idem-${body.number}` };
    const first = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
    expect(first.status).toBe(200);
    const retries = await Promise.all([1, 2, 3].map(() => call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers })));
    for (const r of retries) {
      expect(r.status).toBe(200);
      expect(r.body).toEqual(first.body);
      expect(r.headers.get("idempotent-replayed")).toBe("true");
    }
    expect(await h.api.services.db.invoice.count({ where: { accountId: a.id, number: body.number } })).toBe(1);
    const conflict = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body: { ...body, total: "1.00" }, headers });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe("idempotency_conflict");
    expect(conflict.body.error.details).toEqual({ reason: "mismatch" });
  });


  it("refuses a receipt number that was already fiscalized", async () => {
    const body = receipt();
    expect((await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body })).status).toBe(200);
    const again = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict");
  });

  it("rejects an invalid OIB or total and stores nothing", async () => {
    const before = await h.api.services.db.invoice.count();
    const badOib = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body: receipt({ oib: "69435151531" }) });
    expect(badOib.status).toBe(400);
    expect(badOib.body.error.details).toEqual([{ path: "oib", message: expect.any(String) }]);
    const badTotal = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body: receipt({ total: "12.5" }) });
    expect(badTotal.status).toBe(400);
    expect(await h.api.services.db.invoice.count()).toBe(before);
  });

  it("issues the receipt with its ZKI when the tax authority fails; a retry replays it and late delivery gets the JIR", async () => {
    const cis = h.api.services.taxAuthority as CisSimulator;
    cis.inject({ failNext: 1 });
    const body = receipt();
    const headers = { "idempotency-key": `cis-down-${body.number}` };
    const down = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ status: "pending", jir: null });
    const retry = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    await h.api.services.db.invoice.update({ where: { id: down.body.id }, data: { nextAttemptAt: new Date() } });
    expect(await h.api.services.lateDelivery!.runOnce({ accountId: a.id })).toBe(1);
    const get = await call(h.url, "GET", `/v1/invoices/${down.body.id}`, { key: a.key });
    expect(get.body).toMatchObject({ status: "fiscalized", late_delivery: true, jir: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });
});

describe("overlapping retries", () => {
  it("answers a retry that overlaps the first request with in_progress and Retry-After, and runs it once", async () => {
    const slow = await startHarness({ config: { taxAuthority: createCisSimulator({ latencyMs: [400, 400] }) } });
    try {
      const c = await slow.account({ plan: "ENTERPRISE", custom: { burst: 100, perMinute: 1_000, perDay: 10_000 } });
      const body = receipt();
      const headers = { "idempotency-key": `overlap-${body.number}` };
      const results = await Promise.all([1, 2].map(() => call(slow.url, "POST", "/v1/invoices/fiscalize", { key: c.key, body, headers })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409]);
      const conflict = results.find((r) => r.status === 409)!;
      expect(conflict.body.error).toMatchObject({ code: "idempotency_conflict", details: { reason: "in_progress" } });
      expect(conflict.headers.get("retry-after")).toBe("1");
      expect(await slow.api.services.db.invoice.count({ where: { accountId: c.id } })).toBe(1);
    } finally {
      await slow.close();
    }
  });
});

describe("e-invoices", () => {
  it("validates, builds UBL, sends through the intermediary and stores it", async () => {
    const r = await call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body: einvoice("E-1") });
    expect(r.status).toBe(200);
    expect(r.body.totals).toEqual({ net: "502.50", vat: "125.13", gross: "627.63" });
    const got = await call(h.url, "GET", `/v1/einvoices/${r.body.id}`, { key: a.key });
    expect(got.status).toBe(200);
    expect(got.body.ubl).toContain("<cbc:ID>E-1</cbc:ID>");
    expect(got.body.ubl).toContain("62.10.11");
  });

  it("requires a level-5 KPD code per line and totals that add up", async () => {
    const wrong = einvoice("E-2", {
      lines: [{ description: "X", quantity: "1", unit: "H87", unit_price: "10.00", vat_rate: "25", kpd: "62.10", line_total: "10.00" }],
      totals: { net: "10.00", vat: "2.50", gross: "13.00" },
    });
    const r = await call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body: wrong });
    expect(r.status).toBe(400);
    const paths = r.body.error.details.map((d: { path: string }) => d.path);
    expect(paths.some((p: string) => p.includes("kpd"))).toBe(true);
    expect(paths.some((p: string) => p.includes("gross"))).toBe(true);
    expect(await h.api.services.db.eInvoice.count({ where: { number: "E-2" } })).toBe(0);
  });
});

describe("account scoping", () => {
  it("one account cannot read another's receipts or e-invoices on either surface", async () => {
    const mine = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body: receipt() });
    const e = await call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body: einvoice("E-SCOPE") });
    expect((await call(h.url, "GET", `/v1/invoices/${mine.body.id}`, { key: b.key })).status).toBe(404);
    expect((await call(h.url, "GET", `/v1/einvoices/${e.body.id}`, { key: b.key })).status).toBe(404);
    await expect(trpcClient(h.url, b.key).invoices.get.query({ id: mine.body.id })).rejects.toMatchObject({ data: { code: "not_found" } });
    expect((await trpcClient(h.url, a.key).invoices.get.query({ id: mine.body.id })).jir).toBe(mine.body.jir);
  });
});

describe("metering", () => {
  it("records every authenticated request, refused ones included, without writing on the request path", async () => {
    const { c, statuses } = await timely(async () => {
      const c = await h.account({ plan: "ENTERPRISE", custom: { burst: 3, perMinute: 100, perDay: 1_000 } });
      const started = performance.now();
      const statuses = await Promise.all(
        Array.from({ length: 5 }, () => call(h.url, "POST", "/v1/validate/oib", { key: c.key, body: { oib: VALID_OIB } }).then((r) => r.status)),
      );
      return { spanMs: performance.now() - started, result: { c, statuses } };
    }, 1_000);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    await h.api.services.meter.flush();
    const summary = await usageSummary(h.api.services.db, c.id);
    expect(summary.today.requests).toBe(5);
    expect(summary.today.refused).toBe(2);
    expect(summary.endpoints[0]).toMatchObject({ endpoint: "POST /v1/validate/oib", requests: 5, refused: 2 });
    const key = await h.api.services.db.apiKey.findFirstOrThrow({ where: { accountId: c.id } });
    expect(key.lastUsedAt).not.toBeNull();
  });
});
