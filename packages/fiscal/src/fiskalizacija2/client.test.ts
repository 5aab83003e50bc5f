// Fiscalization 2.0 messages against the local double (official XSDs via xmllint, xmlsec1 on the
// signature) and checked here again by the same independent tools.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateTestCertificate, type TestCertificate } from "../certificate.ts";
import { TaxAuthorityError } from "../cis.ts";
import { EFIS_XSD, EIZV_XSD, forLibxml2, startLocalCis, type LocalCis } from "../../test-support/local-cis.ts";
import { createF2Client, createF2Simulator, f2Requests, type FiscalizationService, type Signer } from "./client.ts";
import { EFIS_NS, EIZV_NS, f2DateTime, type Naplata, type Odbijanje } from "./messages.ts";

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../reference/examples");
const SELLER = "69435151530";
const BUYER = "94577403194";
let cis: LocalCis;
let cert: TestCertificate;
let signer: Signer;
let client: FiscalizationService;
let work: string;

/** An official example with this decade's dates and valid OIBs (the examples use 2025 and a placeholder OIB). */
function example(name: string): string {
  return readFileSync(path.join(EXAMPLES, name), "utf8")
    .replace(/2025-/g, "2026-")
    .replace(/12345678901/g, SELLER)
    .replace(/11111111119/g, BUYER);
}

beforeAll(async () => {
  cis = await startLocalCis();
  cert = generateTestCertificate({ oib: SELLER, name: "Prodavatelj d.o.o." });
  signer = { certPem: cert.certPem, keyPem: cert.keyPem };
  client = createF2Client({ url: cis.url, ca: cis.caPem, signer: { ca: [cis.caPem], names: ["fiskalcistest"] }, timeoutMs: 1_500 });
  work = mkdtempSync(path.join(tmpdir(), "f2-test-"));
});
afterAll(async () => {
  await cis.close();
  rmSync(work, { recursive: true, force: true });
});
beforeEach(() => cis.setMode({ kind: "check" }));

const payment: Naplata = {
  brojDokumenta: "R-2026-17",
  datumIzdavanja: "2026-11-21",
  oibPorezniBrojIzdavatelja: SELLER,
  oibPorezniBrojPrimatelja: BUYER,
  datumNaplate: "2026-11-22",
  naplaceniIznos: "625.00",
  nacinPlacanja: "T",
};
const rejection: Odbijanje = {
  brojDokumenta: "R-2026-17",
  datumIzdavanja: "2026-11-21",
  oibPorezniBrojIzdavatelja: SELLER,
  oibPorezniBrojPrimatelja: BUYER,
  datumOdbijanja: "2026-11-22",
  vrstaRazlogaOdbijanja: "U",
  razlogOdbijanja: "Iznos PDV-a ne odgovara ugovorenoj stopi & <cijeni>.",
};

function independentCheck(signed: string, xsd: string, ns: string, element: string, certPem = cert.certPem) {
  const file = path.join(work, `${element}-${Math.random().toString(16).slice(2)}.xml`);
  const certFile = `${file}.pem`;
  writeFileSync(file, signed);
  writeFileSync(`${file}.schema.xml`, forLibxml2(signed));
  writeFileSync(certFile, certPem);
  // xmllint on the form libxml2 can read (a serial over 24 digits: see forLibxml2); xmlsec1 on the bytes as signed.
  execFileSync("xmllint", ["--noout", "--path", cis.schemaPath, "--schema", xsd, `${file}.schema.xml`], { stdio: "pipe" });
  execFileSync("xmlsec1", ["--verify", "--id-attr:id", `${ns}:${element}`, "--pubkey-cert-pem", certFile, file], { stdio: "pipe" });
}

describe("signed messages, checked by independent tools", { timeout: 30_000 }, () => {
  it("every official example e-invoice becomes an EvidentirajERacunZahtjev valid per eFiskalizacijaSchema.xsd, signature verified by xmlsec1", () => {
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith(".xml"));
    expect(files.length).toBe(20);
    for (const f of files) {
      const signed = f2Requests.eRacun(crypto.randomUUID(), new Date(), example(f), undefined, signer);
      expect(signed).toContain('<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>');
      independentCheck(signed, EFIS_XSD, EFIS_NS, "EvidentirajERacunZahtjev");
    }
  }, 60_000); // 20 documents, two external tools each

  it("a received e-invoice (vrstaERacuna U), signed by its buyer, is valid per eFiskalizacijaSchema.xsd and verifies", () => {
    const buyer = generateTestCertificate({ oib: BUYER, name: "Kupac d.o.o." });
    const signed = f2Requests.eRacun(crypto.randomUUID(), new Date(), example("eRacun_PDV25.xml"), undefined, { certPem: buyer.certPem, keyPem: buyer.keyPem }, "U");
    expect(signed).toContain("<efis:vrstaERacuna>U</efis:vrstaERacuna>");
    expect(f2Requests.eRacun(crypto.randomUUID(), new Date(), example("eRacun_PDV25.xml"), undefined, signer)).toContain("<efis:vrstaERacuna>I</efis:vrstaERacuna>");
    independentCheck(signed, EFIS_XSD, EFIS_NS, "EvidentirajERacunZahtjev", buyer.certPem);
    // signed by the buyer: the seller's certificate does not verify it
    expect(() => independentCheck(signed, EFIS_XSD, EFIS_NS, "EvidentirajERacunZahtjev")).toThrow();
  });

  it("payments and rejections are valid per eIzvjestavanjeSchema.xsd and verify", () => {
    independentCheck(f2Requests.naplata(crypto.randomUUID(), new Date(), payment, signer), EIZV_XSD, EIZV_NS, "EvidentirajNaplatuZahtjev");
    independentCheck(f2Requests.odbijanje(crypto.randomUUID(), new Date(), rejection, signer), EIZV_XSD, EIZV_NS, "EvidentirajOdbijanjeZahtjev");
  });

  it("a tampered message fails xmlsec1", () => {
    const signed = f2Requests.naplata(crypto.randomUUID(), new Date(), payment, signer).replace(">625.00<", ">1.00<");
    expect(() => independentCheck(signed, EIZV_XSD, EIZV_NS, "EvidentirajNaplatuZahtjev")).toThrow();
  });

  it("datumVrijemeSlanja has the four fraction digits the schema demands, in Zagreb time", () => {
    expect(f2DateTime(new Date("2026-07-01T10:15:00.123Z"))).toBe("2026-07-01T12:15:00.1230");
  });
});

describe("the service's answers", { timeout: 30_000 }, () => {
  it("records an e-invoice, a payment and a rejection; the answer confirms our request id", async () => {
    const e = await client.recordEInvoice({ ubl: example("eRacun_PDV25.xml"), signer });
    expect(cis.requests.at(-1)).toMatchObject({ kind: "f2", element: "EvidentirajERacunZahtjev", jir: e.requestId });
    const p = await client.reportPayment({ payment, signer });
    expect(cis.requests.at(-1)).toMatchObject({ element: "EvidentirajNaplatuZahtjev", jir: p.requestId });
    const r = await client.reportRejection({ rejection, signer });
    expect(cis.requests.at(-1)).toMatchObject({ element: "EvidentirajOdbijanjeZahtjev", jir: r.requestId });
    expect(new Set([e.requestId, p.requestId, r.requestId]).size).toBe(3);
  });

  it.each(["S002", "S003", "S004", "S005", "S006", "S007", "S009", "S010"])("%s is a rejection with the code", async (code) => {
    cis.setMode({ kind: "error", code }, 1);
    const err = await client.reportPayment({ payment, signer }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaxAuthorityError);
    expect((err as TaxAuthorityError).kind).toBe("rejected");
    expect((err as TaxAuthorityError).code).toBe(code);
  });

  it("S001 (system error) is unavailable; S008 on an e-invoice means it is already recorded", async () => {
    cis.setMode({ kind: "error", code: "S001" }, 1);
    const err = (await client.reportRejection({ rejection, signer }).catch((e: unknown) => e)) as TaxAuthorityError;
    expect([err.kind, err.code]).toEqual(["unavailable", "S001"]);
    cis.setMode({ kind: "error", code: "S008" }, 1);
    await expect(client.recordEInvoice({ ubl: example("eRacun_PDV13.xml"), signer })).resolves.toMatchObject({ requestId: expect.any(String) });
  });

  it("a document the schema would refuse never leaves: S005 before sending", async () => {
    const before = cis.requests.length;
    const ubl = example("eRacun_PDV25.xml").replace(/<cac:InvoiceLine>[\s\S]*<\/cac:InvoiceLine>/, "");
    const err = (await client.recordEInvoice({ ubl, signer }).catch((e: unknown) => e)) as TaxAuthorityError;
    expect([err.kind, err.code]).toEqual(["rejected", "S005"]);
    expect(cis.requests.length).toBe(before);
  });

  it.each([["bad-signature"], ["untrusted-signer"], ["wrong-message"], ["soap-fault"], ["timeout"]] as const)("%s: unavailable", async (kind) => {
    cis.setMode({ kind }, 1);
    const err = (await client.reportPayment({ payment, signer }).catch((e: unknown) => e)) as TaxAuthorityError;
    expect(err).toBeInstanceOf(TaxAuthorityError);
    expect(err.kind).toBe("unavailable");
  });

  it("down: unavailable; up: accepted", async () => {
    await cis.down();
    try {
      const err = (await client.reportPayment({ payment, signer }).catch((e: unknown) => e)) as TaxAuthorityError;
      expect(err.kind).toBe("unavailable");
    } finally {
      await cis.up();
    }
    await expect(client.reportPayment({ payment, signer })).resolves.toMatchObject({ requestId: expect.any(String) });
  });

  it("the simulator builds and signs like the client and refuses what cannot be recorded", async () => {
    const sim = createF2Simulator();
    await expect(sim.recordEInvoice({ ubl: example("Odobrenje.xml"), signer })).resolves.toMatchObject({ requestId: expect.any(String) });
    const err = (await sim.recordEInvoice({ ubl: "<Invoice/>", signer }).catch((e: unknown) => e)) as TaxAuthorityError;
    expect([err.kind, err.code]).toEqual(["rejected", "S005"]);
  });
});
