// The receipt model of POST /v1/invoices/fiscalize (RacunType of the official schema), storno, and
// the receipt's QR code, through the real server.
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeZki, createCisSimulator, racunProblems, type FiscalizeRequest, type TaxAuthority } from "@fiskal/fiscal";
import { call, startHarness, trpcClient, VALID_OIB, type Harness } from "./harness.ts";

const OPERATOR = "94577403194";
const sent: FiscalizeRequest[] = [];
const simulator = createCisSimulator({ latencyMs: [1, 3] });
const recording: TaxAuthority = {
  fiscalize(req) {
    sent.push(req);
    return simulator.fiscalize(req);
  },
};

let h: Harness;
let a: { id: string; key: string };
let b: { id: string; key: string };
beforeAll(async () => {
  h = await startHarness({ config: { taxAuthority: recording } });
  // Above the dedicated 30/min of fiscalize: this file sends more receipts than that.
  const big = { burst: 500, perMinute: 5_000, perDay: 100_000, endpoints: { fiscalize: 5_000 } };
  a = await h.account({ plan: "ENTERPRISE", custom: big, name: "Receipts A d.o.o." });
  b = await h.account({ plan: "ENTERPRISE", custom: big, name: "Receipts B d.o.o." });
});
afterAll(() => h.close());

// Receipts are issued now (a minute ago, whole seconds): older ones are late deliveries or refused.
const ISSUED = new Date(Math.floor((Date.now() - 60_000) / 1000) * 1000);
const zagreb = (d: Date) => {
  const f = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Zagreb", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value]));
  return { datv: `${p.year}${p.month}${p.day}_${p.hour}${p.minute}`, datVrijeme: `${p.day}.${p.month}.${p.year}T${p.hour}:${p.minute}:${p.second}`, day: `${Number(p.day)}\\. ${Number(p.month)}\\. ${p.year}\\.` };
};
const Z = zagreb(ISSUED);

let receiptNo = 1;
const receipt = (over: Record<string, unknown> = {}) => ({
  oib: VALID_OIB,
  issued_at: ISSUED.toISOString(),
  number: String(receiptNo++),
  premises: "RCPT1",
  device: "1",
  total: "125.00",
  payment_method: "K",
  operator_oib: OPERATOR,
  vat_registered: true,
  sequence: "P",
  ...over,
});
const fiscalize = (key: string, body: unknown) => call(h.url, "POST", "/v1/invoices/fiscalize", { key, body });
const count = () => h.api.services.db.invoice.count();

describe("the receipt model", () => {
  it("fiscalizes a receipt with every RacunType field and returns, stores and sends them all", async () => {
    const body = receipt({
      total: "141.37",
      payment_method: "O",
      sequence: "N",
      vat: [
        { rate: "25", base: "100.00", amount: "25.00" },
        { rate: "5", base: "4.00", amount: "0.20" },
      ],
      consumption_tax: [{ rate: "3", base: "100.00", amount: "3.00" }],
      other_taxes: [{ name: "Porez na luksuz", rate: "15.00", base: "10.00", amount: "1.50" }],
      exempt_amount: "3.00",
      margin_amount: "2.00",
      not_taxable_amount: "1.00",
      fees: [{ name: "Povratna naknada", amount: "0.07" }],
      buyer_oib: "12345678903",
      special_purpose: "Primjer",
    });
    const r = await fiscalize(a.key, body);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      status: "fiscalized",
      oib: VALID_OIB,
      total: "141.37",
      payment_method: "O",
      operator_oib: OPERATOR,
      vat_registered: true,
      sequence: "N",
      late_delivery: false,
      vat: [
        { rate: "25.00", base: "100.00", amount: "25.00" },
        { rate: "5.00", base: "4.00", amount: "0.20" },
      ],
      consumption_tax: [{ rate: "3.00", base: "100.00", amount: "3.00" }],
      other_taxes: [{ name: "Porez na luksuz", rate: "15.00", base: "10.00", amount: "1.50" }],
      exempt_amount: "3.00",
      margin_amount: "2.00",
      not_taxable_amount: "1.00",
      fees: [{ name: "Povratna naknada", amount: "0.07" }],
      buyer_oib: "12345678903",
      paragon_number: null,
      special_purpose: "Primjer",
      storno_of: null,
    });
    expect(r.body.jir).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.qr_url).toBe(`https://porezna.gov.hr/rn?jir=${r.body.jir}&datv=${Z.datv}&izn=14137`);
    const got = await call(h.url, "GET", `/v1/invoices/${r.body.id}`, { key: a.key });
    expect(got.body).toEqual(r.body);

    const row = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: r.body.id } });
    expect(row).toMatchObject({ operatorOib: OPERATOR, vatRegistered: true, sequenceMark: "N", lateDelivery: false, buyerOib: "12345678903" });

    // What went to the tax authority: the schema's RacunType, valid by the schema's rules.
    const req = sent.find((s) => s.receipt.number === body.number)!;
    expect(req.keyPem).toMatch(/BEGIN PRIVATE KEY/);
    expect(req.racun).toMatchObject({
      Oib: VALID_OIB,
      USustPdv: true,
      DatVrijeme: Z.datVrijeme,
      OznSlijed: "N",
      BrRac: { BrOznRac: body.number, OznPosPr: "RCPT1", OznNapUr: "1" },
      Pdv: [
        { Stopa: "25.00", Osnovica: "100.00", Iznos: "25.00" },
        { Stopa: "5.00", Osnovica: "4.00", Iznos: "0.20" },
      ],
      Pnp: [{ Stopa: "3.00", Osnovica: "100.00", Iznos: "3.00" }],
      OstaliPor: [{ Naziv: "Porez na luksuz", Stopa: "15.00", Osnovica: "10.00", Iznos: "1.50" }],
      IznosOslobPdv: "3.00",
      IznosMarza: "2.00",
      IznosNePodlOpor: "1.00",
      Naknade: [{ NazivN: "Povratna naknada", IznosN: "0.07" }],
      IznosUkupno: "141.37",
      NacinPlac: "O",
      OibOper: OPERATOR,
      ZastKod: r.body.zki,
      NakDost: false,
      SpecNamj: "Primjer",
      OibPrimateljaRacuna: "12345678903",
    });
    expect(racunProblems(req.racun!)).toEqual([]);
  });

  it("refuses a receipt without an operator OIB (400, nothing written or sent)", async () => {
    const before = await count();
    const sentBefore = sent.length;
    const { operator_oib: _, ...body } = receipt();
    const r = await fiscalize(a.key, body);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("validation_error");
    expect(r.body.error.details).toEqual([{ path: "operator_oib", message: expect.any(String) }]);
    const bad = await fiscalize(a.key, receipt({ operator_oib: "94577403195" }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ path: "operator_oib", message: "OIB nema ispravnu kontrolnu znamenku." }]);
    expect(await count()).toBe(before);
    expect(sent.length).toBe(sentBefore);
  });

  it("requires the VAT-system flag and the sequence mark, and takes neither late delivery nor unknown fields", async () => {
    const before = await count();
    const { vat_registered: _v, sequence: _s, ...missing } = receipt();
    const r = await fiscalize(a.key, missing);
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["sequence", "vat_registered"]);

    const late = await fiscalize(a.key, receipt({ late_delivery: true }));
    expect(late.status).toBe(400);
    expect(late.body.error.details).toEqual([{ path: "late_delivery", message: expect.stringContaining('"late_delivery"') }]);

    const nested = await fiscalize(a.key, receipt({ vat: [{ rate: "25", base: "1.00", amount: "0.25", note: "x" }], operatr_oib: OPERATOR }));
    expect(nested.status).toBe(400);
    expect(nested.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["operatr_oib", "vat.0.note"]);
    expect(await count()).toBe(before);
  });

  it("refuses what the schema and the specification refuse", async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ payment_method: "C" }, "payment_method"],
      [{ sequence: "X" }, "sequence"],
      [{ number: "0123" }, "number"],
      [{ device: "01" }, "device"],
      [{ vat: [{ rate: "25", base: "100.00", amount: "20.00" }] }, "vat.0.amount"],
      [{ vat: [{ rate: "23", base: "100.00", amount: "23.00" }] }, "vat.0.rate"],
      [{ vat: [] }, "vat"],
      [{ vat_registered: false, vat: [{ rate: "25", base: "100.00", amount: "25.00" }] }, "vat"],
      [{ consumption_tax: [{ rate: "5", base: "100.00", amount: "5.00" }] }, "consumption_tax.0.rate"],
      [{ buyer_oib: "12345678903", payment_method: "T" }, "buyer_oib"],
      [{ fees: [{ name: "", amount: "1.00" }] }, "fees.0.name"],
      [{ total: "100000000.00" }, "total"],
      [{ total: "12.5" }, "total"],
    ];
    for (const [over, path] of cases) {
      const r = await fiscalize(a.key, receipt(over));
      expect(r.status, `${JSON.stringify(over)}: ${r.text}`).toBe(400);
      expect(r.body.error.code).toBe("validation_error");
      expect(r.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await count()).toBe(before);
  });

  it("refuses a VAT rate that is not in force on the receipt's date, e.g. 10 % (400, nothing written or sent)", async () => {
    const before = await count();
    const sentBefore = sent.length;
    const r = await fiscalize(a.key, receipt({ total: "110.00", vat: [{ rate: "10", base: "100.00", amount: "10.00" }] }));
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.code).toBe("validation_error");
    expect(r.body.error.details).toEqual([{ path: "vat.0.rate", message: expect.stringMatching(new RegExp(`^Stopa PDV-a 10\\.00 % ne vrijedi na dan ${Z.day}`)) }]);
    expect(await count()).toBe(before);
    expect(sent.length).toBe(sentBefore);
    const ok = await fiscalize(a.key, receipt({ total: "113.00", vat: [{ rate: "13", base: "100.00", amount: "13.00" }] }));
    expect(ok.status, ok.text).toBe(200);
  });

  it("sends a re-entered paragon receipt as a late delivery", async () => {
    const body = receipt({ paragon_number: "123/458/5" });
    const r = await fiscalize(a.key, body);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ paragon_number: "123/458/5", late_delivery: true });
    expect(sent.find((s) => s.receipt.number === body.number)!.racun).toMatchObject({ ParagonBrRac: "123/458/5", NakDost: true });
  });

  it("sends a receipt issued more than 5 minutes before it arrives as a late delivery (NakDost), one within them on time", async () => {
    const late = receipt({ issued_at: new Date(Date.now() - 10 * 60_000).toISOString() });
    const r = await fiscalize(a.key, late);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: "fiscalized", late_delivery: true });
    expect(sent.find((s) => s.receipt.number === late.number)!.racun).toMatchObject({ NakDost: true });
    expect(await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: r.body.id } })).toMatchObject({ lateDelivery: true });

    const onTime = receipt({ issued_at: new Date(Date.now() - 3 * 60_000).toISOString() });
    const t = await fiscalize(a.key, onTime);
    expect(t.status, t.text).toBe(200);
    expect(t.body).toMatchObject({ late_delivery: false });
    expect(sent.find((s) => s.receipt.number === onTime.number)!.racun).toMatchObject({ NakDost: false });
  });

  it("refuses a receipt past the legal window for late delivery (two working days): 400, nothing written or sent", async () => {
    for (const issuedAt of [new Date(Date.now() - 10 * 86_400_000).toISOString(), "2024-01-01T10:00:00+01:00"]) {
      const before = await count();
      const sentBefore = sent.length;
      const r = await fiscalize(a.key, receipt({ issued_at: issuedAt }));
      expect(r.status, r.text).toBe(400);
      expect(r.body.error.details).toEqual([{ path: "issued_at", message: expect.stringMatching(/naknadno dostaviti .* najkasnije .*taj je rok istekao/) }]);
      expect(await count()).toBe(before);
      expect(sent.length).toBe(sentBefore);
    }
    expect((await fiscalize(a.key, receipt({ issued_at: "2024-01-01T10:00:00+01:00" }))).body.error.details[0].message).toContain("najkasnije 3. 1. 2024.");
  });
});

describe("storno", () => {
  it("fiscalizes negative totals, with or without a reference to the original", async () => {
    const original = await fiscalize(a.key, receipt({ total: "125.00", vat: [{ rate: "25", base: "100.00", amount: "25.00" }] }));
    expect(original.status).toBe(200);
    const storno = await fiscalize(
      a.key,
      receipt({ total: "-125.00", vat: [{ rate: "25", base: "-100.00", amount: "-25.00" }], storno_of: original.body.id }),
    );
    expect(storno.status, storno.text).toBe(200);
    expect(storno.body).toMatchObject({ total: "-125.00", storno_of: original.body.id, vat: [{ rate: "25.00", base: "-100.00", amount: "-25.00" }] });
    expect(storno.body.qr_url).toMatch(/&izn=-12500$/);
    expect(storno.body.zki).toMatch(/^[0-9a-f]{32}$/);
    const free = await fiscalize(a.key, receipt({ total: "-3.50" }));
    expect(free.status).toBe(200);
    expect(free.body.storno_of).toBeNull();
  });

  it("checks the reference: this account's, same issuer, not larger than the original, negative", async () => {
    const original = await fiscalize(a.key, receipt({ total: "50.00" }));
    const theirs = await fiscalize(b.key, receipt({ total: "50.00" }));
    const before = await count();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ total: "-10.00", storno_of: theirs.body.id }, "storno_of", /ne postoji/],
      [{ total: "-10.00", storno_of: "0190d1a8-0000-7000-8000-00000000abcd" }, "storno_of", /ne postoji/],
      [{ total: "10.00", storno_of: original.body.id }, "total", /negativan/],
      [{ total: "-50.01", storno_of: original.body.id }, "total", /veći/],
      [{ total: "-1.00", storno_of: "not-a-uuid" }, "storno_of", /UUID/],
    ];
    for (const [over, path, message] of cases) {
      const r = await fiscalize(a.key, receipt(over));
      expect(r.status, r.text).toBe(400);
      expect(r.body.error.details).toEqual([{ path, message: expect.stringMatching(message) }]);
    }
    expect(await count()).toBe(before);
  });
});

describe("QR code", () => {
  const decodePng = (base64: string) => {
    const png = PNG.sync.read(Buffer.from(base64, "base64"));
    return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
  };

  it("renders the receipt's QR code as PNG and SVG, holding the link of the receipt", async () => {
    const r = await fiscalize(a.key, receipt({ total: "1525.99" }));
    const png = await call(h.url, "GET", `/v1/invoices/${r.body.id}/qr?format=png&size=400`, { key: a.key });
    expect(png.status, png.text).toBe(200);
    expect(png.body).toMatchObject({ id: r.body.id, format: "png", content_type: "image/png", url: r.body.qr_url });
    expect(r.body.qr_url).toBe(`https://porezna.gov.hr/rn?jir=${r.body.jir}&datv=${Z.datv}&izn=152599`);
    expect(PNG.sync.read(Buffer.from(png.body.data, "base64")).width).toBe(400);
    expect(decodePng(png.body.data)).toBe(r.body.qr_url);
    expect(png.body.data_uri).toBe(`data:image/png;base64,${png.body.data}`);

    const svg = await call(h.url, "GET", `/v1/invoices/${r.body.id}/qr`, { key: a.key });
    expect(svg.status).toBe(200);
    expect(svg.body).toMatchObject({ format: "svg", content_type: "image/svg+xml", url: r.body.qr_url });
    expect(svg.body.data).toMatch(/^<svg width="\d+mm" height="\d+mm" role="img"/);
    expect(Buffer.from(svg.body.data_uri.split(",")[1], "base64").toString("utf8")).toBe(svg.body.data);

    // The same on the tRPC surface.
    const viaTrpc = await trpcClient(h.url, a.key).invoices.qr.query({ id: r.body.id, format: "png", size: 200 });
    expect(decodePng(viaTrpc.data)).toBe(r.body.qr_url);
  });

  it("shows the ZKI while a receipt has no JIR", async () => {
    const r = await fiscalize(a.key, receipt({ total: "5.10" }));
    await h.api.services.db.invoice.update({ where: { id: r.body.id }, data: { jir: null, status: "pending" } });
    const qr = await call(h.url, "GET", `/v1/invoices/${r.body.id}/qr?format=png`, { key: a.key });
    expect(qr.body.url).toBe(`https://porezna.gov.hr/rn?zki=${r.body.zki}&datv=${Z.datv}&izn=510`);
    expect(decodePng(qr.body.data)).toBe(qr.body.url);
  });

  it("answers 404 for another account's receipt and 400 for bad options", async () => {
    const r = await fiscalize(a.key, receipt());
    expect((await call(h.url, "GET", `/v1/invoices/${r.body.id}/qr`, { key: b.key })).status).toBe(404);
    expect((await call(h.url, "GET", "/v1/invoices/nope/qr", { key: a.key })).status).toBe(404);
    const bad = await call(h.url, "GET", `/v1/invoices/${r.body.id}/qr?format=gif`, { key: a.key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("format");
    expect((await call(h.url, "GET", `/v1/invoices/${r.body.id}/qr?format=png&size=5000`, { key: a.key })).body.error.details[0].path).toBe("size");
    expect((await call(h.url, "GET", `/v1/invoices/${r.body.id}/qr?colour=red`, { key: a.key })).body.error.details[0].path).toBe("colour");
  });
});

describe("the signing certificate", () => {
  it("signs with the account's certificate: the ZKI verifies against its key", async () => {
    const r = await fiscalize(a.key, receipt());
    const req = sent.find((s) => s.receipt.number === r.body.number)!;
    const zkiInput = { oib: VALID_OIB, issuedAt: new Date(r.body.issued_at), number: r.body.number, premises: r.body.premises, device: r.body.device, total: r.body.total };
    expect(computeZki(zkiInput, req.keyPem!)).toBe(r.body.zki);
    // Stored encrypted only.
    const cert = await h.api.services.db.certificate.findUniqueOrThrow({ where: { accountId: a.id } });
    expect(cert.keyPem).toBeNull();
    expect(cert.keyCiphertext).toBeTruthy();
    expect(cert.keyCiphertext).not.toContain("PRIVATE");
    expect(cert.oib).toBe(VALID_OIB);
  });

  it("refuses a receipt of another issuer than the certificate's, and an expired certificate", async () => {
    await fiscalize(a.key, receipt());
    const before = await count();
    const other = await fiscalize(a.key, receipt({ oib: "12345678903" }));
    expect(other.status).toBe(400);
    expect(other.body.error.details[0]).toMatchObject({ path: "oib", reason: "oib_mismatch" });
    expect(other.body.error.message).toMatch(/12345678903/);

    await h.api.services.db.certificate.update({ where: { accountId: a.id }, data: { notAfter: new Date(Date.now() - 60_000) } });
    try {
      const expired = await fiscalize(a.key, receipt());
      expect(expired.status).toBe(400);
      expect(expired.body.error.details[0]).toMatchObject({ path: "certificate", reason: "expired" });
      expect(expired.body.error.message).toMatch(/istekao/);
    } finally {
      await h.api.services.db.certificate.update({ where: { accountId: a.id }, data: { notAfter: new Date(Date.now() + 365 * 86_400_000) } });
    }
    expect(await count()).toBe(before);
  });
});
