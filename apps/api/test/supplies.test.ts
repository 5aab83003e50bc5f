// POST /v1/einvoices/supplies (art. 51): a supply without an e-invoice reported to the tax authority,
// signed with the account's certificate; the message as sent is valid per eIzvjestavanjeSchema.xsd and
// verifies with xmlsec1; recorded once per number; a refusal leaves nothing behind.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createF2Simulator, EIZV_NS, f2Requests, TaxAuthorityError, type FiscalizationService } from "@fiskal/fiscal";
import { call, startHarness, VALID_OIB, type Harness } from "./harness.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const simulator = createF2Simulator();
const sent: { signed: string; certPem: string }[] = [];
let refuse = false;
const recording: FiscalizationService = {
  ...simulator,
  async reportSupply(req) {
    if (refuse) throw new TaxAuthorityError("S004: neispravan OIB primatelja", "rejected", "S004");
    sent.push({ signed: f2Requests.isporuka(req.requestId!, new Date(), req.supplies, req.signer), certPem: req.signer.certPem });
    return simulator.reportSupply!(req);
  },
};

let h: Harness;
let a: { id: string; key: string };
let work: string;
beforeAll(async () => {
  h = await startHarness({ config: { fiscalization: recording } });
  a = await h.account({ plan: "ENTERPRISE", custom: { burst: 100, perMinute: 1_000, perDay: 100_000 }, name: "Isporuke d.o.o." });
  work = mkdtempSync(path.join(tmpdir(), "supplies-"));
  mkdirSync(path.join(work, "schema"));
  copyFileSync(path.join(REPO, "reference/ubl-xsd/common/UBL-xmldsig-core-schema-2.1.xsd"), path.join(work, "schema", "xmldsig-core-schema.xsd"));
});
afterAll(async () => {
  await h.close();
  rmSync(work, { recursive: true, force: true });
});

const supply = (number: string, over: Record<string, unknown> = {}) => ({
  number,
  issue_date: "2026-11-20",
  seller: { oib: VALID_OIB, name: "Isporuke d.o.o." },
  operator_oib: "94577403194",
  buyer: { oib: "94577403194", name: "Kupac d.o.o." },
  totals: { net: "100.00", without_vat: "100.00", vat: "25.00", with_vat: "125.00", payable: "125.00" },
  vat_breakdown: [{ category: "S", taxable_amount: "100.00", tax_amount: "25.00", rate: "25" }],
  lines: [{ description: "Servis klima uređaja", quantity: "1", unit: "H87", unit_price: "100.00", line_total: "100.00", vat_category: "S", vat_rate: "25", kpd: "33.12.11" }],
  ...over,
});
const post = (body: unknown, headers: Record<string, string> = {}) => call(h.url, "POST", "/v1/einvoices/supplies", { key: a.key, body, headers });

function independentCheck(signed: string, certPem: string) {
  const file = path.join(work, `${Math.random().toString(16).slice(2)}.xml`);
  writeFileSync(file, signed.replace(/(<(?:\w+:)?X509SerialNumber>)(\d{25,})(<\/(?:\w+:)?X509SerialNumber>)/g, (_, o: string, d: string, c: string) => `${o}${d.slice(0, 24)}${c}`));
  writeFileSync(`${file}.signed`, signed);
  writeFileSync(`${file}.pem`, certPem);
  execFileSync("xmllint", ["--noout", "--path", path.join(work, "schema"), "--schema", path.join(REPO, "reference/fiskalizacija2/eIzvjestavanjeSchema.xsd"), file], { stdio: "pipe" });
  execFileSync("xmlsec1", ["--verify", "--id-attr:id", `${EIZV_NS}:EvidentirajIsporukuZaKojuNijeIzdanERacunZahtjev`, "--pubkey-cert-pem", `${file}.pem`, `${file}.signed`], { stdio: "pipe" });
}

describe("supplies without an e-invoice", () => {
  it("records the supply, signed with the account's certificate, in a message valid per the schema", async () => {
    const res = await post(supply("S-1"), { "idempotency-key": "supply-s-1" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ number: "S-1", status: "recorded" });
    const row = await h.api.services.db.supplyReport.findFirstOrThrow({ where: { accountId: a.id, number: "S-1" } });
    expect(row.requestId).toBe(res.body.request_id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.signed).toContain(`eizv:id="${row.requestId}"`);
    independentCheck(sent[0]!.signed, sent[0]!.certPem);
    // the same key and body: the stored answer, nothing sent again
    const replay = await post(supply("S-1"), { "idempotency-key": "supply-s-1" });
    expect(replay.body).toEqual(res.body);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(sent).toHaveLength(1);
  });

  it("reports a number once: a second report is 409", async () => {
    const res = await post(supply("S-1"));
    expect(res.status).toBe(409);
    expect(res.body.error.details).toMatchObject({ reason: "reported", status: "recorded" });
    expect(sent).toHaveLength(1);
  });

  it("refuses bad input and a refusal by the tax authority with 400, and stores nothing", async () => {
    const bad = await post(supply("S-2", { buyer: { oib: "12345678901", name: "X" } }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ path: "buyer.oib", message: "OIB nije ispravan (kontrolna znamenka)." }]);
    const early = await post(supply("S-2", { issue_date: "2025-12-31" }));
    expect(early.status).toBe(400);
    refuse = true;
    try {
      const refused = await post(supply("S-2"));
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toEqual({ f2_code: "S004" });
    } finally {
      refuse = false;
    }
    expect(await h.api.services.db.supplyReport.count({ where: { accountId: a.id, number: "S-2" } })).toBe(0);
    expect(sent).toHaveLength(1);
  });
});

describe("supplies on the production Fiscalization 2.0 service", () => {
  it("are refused before anything is stored or signed when the account has no FINA certificate", async () => {
    const before = sent.length;
    const prod = await startHarness({ config: { fiscalization: { ...recording, certificates: "fina_production" } } });
    try {
      const acct = await prod.account({ name: "Produkcija d.o.o." });
      const r = await call(prod.url, "POST", "/v1/einvoices/supplies", { key: acct.key, body: supply("P-1") });
      expect(r.status, r.text).toBe(400);
      expect(r.body.error.details).toEqual([expect.objectContaining({ path: "certificate", reason: "no_certificate" })]);
      expect(await prod.api.services.db.supplyReport.count({ where: { accountId: acct.id } })).toBe(0);
      expect(await prod.api.services.db.certificate.count({ where: { accountId: acct.id } })).toBe(0);
      expect(sent.length).toBe(before);
    } finally {
      await prod.close();
    }
  });
});
