// Review findings turned into tests: duplicate sends, failures after the outside world acted,
// stale idempotency records, caching only successes, HEAD, and headers on a failing gate.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaxAuthorityError } from "@fiskal/fiscal";
import { call, startHarness, VALID_OIB, type Harness } from "./harness.ts";

let h: Harness;
let a: { id: string; key: string };
let cisCalls = 0;
let receiptNo = 5000;
beforeAll(async () => {
  h = await startHarness();
  a = await h.account({ plan: "ENTERPRISE", custom: { burst: 500, perMinute: 5_000, perDay: 100_000 } });
  const cis = h.api.services.taxAuthority;
  const original = cis.fiscalize.bind(cis);
  cis.fiscalize = (req) => {
    cisCalls++;
    return original(req);
  };
});
afterAll(() => h.close());

const receipt = () => ({
  oib: VALID_OIB,
  issued_at: new Date().toISOString(),
  number: String(receiptNo++),
  premises: "POSL9",
  device: "1",
  total: "10.00",
  payment_method: "G",
  operator_oib: "94577403194",
  vat_registered: true,
  sequence: "P",
});

async function sql(text: string) {
  const client = new pg.Client({ connectionString: h.databaseUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

describe("fiscalizing one receipt number", () => {
  it("reaches the tax authority once when the same receipt is sent concurrently", async () => {
    const body = receipt();
    const before = cisCalls;
    const results = await Promise.all([1, 2, 3, 4].map(() => call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(cisCalls - before).toBe(1);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe("conflict");
  });

  it("sends nothing when the receipt cannot be recorded first, and a retry with the key then fiscalizes once", async () => {
    const body = receipt();
    const headers = { "idempotency-key": `store-fails-${body.number}` };
    await sql(`ALTER TABLE "Invoice" ADD CONSTRAINT refuse_all CHECK (false) NOT VALID`);
    const before = cisCalls;
    try {
      const failed = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
      expect(failed.status).toBe(500);
      expect(failed.body.error.code).toBe("internal_error");
    } finally {
      await sql(`ALTER TABLE "Invoice" DROP CONSTRAINT refuse_all`);
    }
    expect(cisCalls - before).toBe(0);
    const retry = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    const replay = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(retry.body);
    expect(cisCalls - before).toBe(1);
  });

  it("lets a retry run when the tax authority refused the receipt", async () => {
    const body = receipt();
    const headers = { "idempotency-key": `cis-refused-${body.number}` };
    const authority = h.api.services.taxAuthority;
    const original = authority.fiscalize.bind(authority);
    authority.fiscalize = async () => {
      authority.fiscalize = original;
      throw new TaxAuthorityError("Certifikat nije izdan od strane produkcijskog potpisnika.", "rejected", "s002");
    };
    const refused = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toMatchObject({ cis_code: "s002" });
    expect((await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers })).status).toBe(200);
  });
});

describe("e-invoices with one number", () => {
  it("reach the intermediary once when sent concurrently", async () => {
    const intermediary = h.api.services.intermediary;
    const original = intermediary.send.bind(intermediary);
    let sends = 0;
    intermediary.send = (req) => {
      sends++;
      return original(req);
    };
    const body = {
      number: "E-RACE-1",
      issue_date: "2026-11-21",
      seller: { oib: VALID_OIB, name: "Prodavatelj d.o.o." },
      buyer: { oib: "94577403194", name: "Kupac d.o.o." },
      operator: { name: "Ana Horvat", oib: "12345678903" },
      lines: [{ description: "Usluga", quantity: "1", unit: "H87", unit_price: "100.00", vat_rate: "25", kpd: "62.10.11", line_total: "100.00" }],
      totals: { net: "100.00", vat: "25.00", gross: "125.00" },
    };
    const results = await Promise.all([1, 2, 3].map(() => call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(sends).toBe(1);
    intermediary.send = original;
  });
});

describe("KPD caching and odd requests", () => {
  it("caches only successful answers and confirms with 304 only what exists", async () => {
    const missing = await call(h.url, "GET", "/v1/kpd/99.99.99", { key: a.key });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("etag")).toBeNull();
    expect(missing.headers.get("cache-control")).toBe("no-store"); // authenticated, not cacheable: only a found code is
    const star = await call(h.url, "GET", "/v1/kpd/99.99.99", { key: a.key, headers: { "if-none-match": "*" } });
    expect(star.status).toBe(404);
    const bad = await call(h.url, "GET", "/v1/kpd/search?q=", { key: a.key });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("etag")).toBeNull();
    const found = await call(h.url, "GET", "/v1/kpd/62.10.11", { key: a.key, headers: { "if-none-match": "*" } });
    expect(found.status).toBe(304);
  });

  it("answers a literal % in a code with 404, not a crash", async () => {
    for (const path of ["/v1/kpd/%25", "/v1/kpd/100%25"]) {
      const r = await call(h.url, "GET", path, { key: a.key });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
  });

  it("answers HEAD like GET, without a body", async () => {
    const r = await call(h.url, "HEAD", "/v1/kpd/62.10.11", { key: a.key });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    expect(r.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
  });

  it("still sends rate-limit headers on a 500 from the gate", async () => {
    const broken = await h.account({ plan: "ENTERPRISE", custom: { burst: 5, perMinute: 50, perDay: 500 } });
    await sql(`UPDATE "Account" SET "customBurst" = NULL WHERE id = '${broken.id}'`);
    h.api.services.auth.invalidateAccount(broken.id);
    const r = await call(h.url, "GET", "/v1/kpd/62", { key: broken.key });
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe("internal_error");
    expect(r.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    expect(r.headers.get("x-request-id")).toMatch(/^req_/);
  });

});
