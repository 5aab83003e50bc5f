// Art. 51 supply reports, checked by independent tools: valid per eIzvjestavanjeSchema.xsd (xmllint)
// and signed so that xmlsec1 verifies it; a changed amount fails the signature.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateTestCertificate, type TestCertificate } from "../certificate.ts";
import { SIGNATURE_PROFILES, signEnveloped } from "../cis/sign.ts";
import { EIZV_XSD, forLibxml2 } from "../../test-support/local-cis.ts";
import { isporukaZahtjevXml, type Isporuka } from "./isporuka.ts";
import { EIZV_NS } from "./messages.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const ELEMENT = "EvidentirajIsporukuZaKojuNijeIzdanERacunZahtjev";
let cert: TestCertificate;
let work: string;

beforeAll(() => {
  cert = generateTestCertificate({ oib: "69435151530", name: "Prodavatelj d.o.o." });
  work = mkdtempSync(path.join(tmpdir(), "isporuka-"));
  mkdirSync(path.join(work, "schema"));
  copyFileSync(path.join(REPO, "reference/ubl-xsd/common/UBL-xmldsig-core-schema-2.1.xsd"), path.join(work, "schema", "xmldsig-core-schema.xsd"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const supply: Isporuka = {
  brojDokumenta: "R-2026-17",
  datumIzdavanja: "2026-11-20",
  vrstaDokumenta: "380",
  valutaRacuna: "EUR",
  datumDospijecaPlacanja: "2026-12-05",
  vrstaPoslovnogProcesa: "P1",
  datumIsporuke: "2026-11-19",
  izdavatelj: { ime: "Prodavatelj d.o.o.", oibPorezniBroj: "69435151530", oibOperatera: "94577403194" },
  primatelj: { ime: "Kupac & sin d.o.o.", oibPorezniBroj: "94577403194" },
  iban: "HR1210010051863000160",
  ukupno: { neto: "150.00", iznosBezPdv: "150.00", pdv: "32.50", iznosSPdv: "182.50", iznosKojiDospijevaZaPlacanje: "182.50" },
  raspodjelaPdv: [
    { kategorijaPdv: "S", oporeziviIznos: "100.00", iznosPoreza: "25.00", stopa: "25" },
    { kategorijaPdv: "S", oporeziviIznos: "50.00", iznosPoreza: "6.50", stopa: "13" },
  ],
  stavke: [
    { kolicina: "2", jedinicaMjere: "H87", neto: "100.00", artiklNetoCijena: "50.00", artiklKategorijaPdv: "S", artiklStopaPdv: "25", artiklNaziv: "Usluga održavanja", kpd: "62.10.11" },
    { kolicina: "1", jedinicaMjere: "HUR", neto: "50.00", artiklNetoCijena: "50.00", artiklKategorijaPdv: "S", artiklStopaPdv: "13", artiklNaziv: "Smještaj" },
  ],
  indikatorKopije: false,
};

const sign = (xml: string) => signEnveloped(xml, { certPem: cert.certPem, keyPem: cert.keyPem, profile: SIGNATURE_PROFILES.fiskalizacija2 });

function independentCheck(signed: string) {
  const file = path.join(work, `${Math.random().toString(16).slice(2)}.xml`);
  writeFileSync(file, signed);
  writeFileSync(`${file}.schema.xml`, forLibxml2(signed));
  writeFileSync(`${file}.pem`, cert.certPem);
  execFileSync("xmllint", ["--noout", "--path", path.join(work, "schema"), "--schema", EIZV_XSD, `${file}.schema.xml`], { stdio: "pipe" });
  execFileSync("xmlsec1", ["--verify", "--id-attr:id", `${EIZV_NS}:${ELEMENT}`, "--pubkey-cert-pem", `${file}.pem`, file], { stdio: "pipe" });
}

describe("EvidentirajIsporukuZaKojuNijeIzdanERacunZahtjev", { timeout: 30_000 }, () => {
  it("is valid per eIzvjestavanjeSchema.xsd and its signature verifies with xmlsec1", () => {
    const signed = sign(isporukaZahtjevXml(crypto.randomUUID(), new Date(), [supply, { ...supply, brojDokumenta: "R-2026-18", datumIsporuke: undefined, iban: undefined, prethodniRacuni: [{ brojDokumenta: "R-2026-1", datumIzdavanja: "2026-10-01" }] }]));
    expect(signed).toContain("<eizv:vrstaRacuna>IR</eizv:vrstaRacuna>");
    expect(signed).toContain("Kupac &amp; sin d.o.o.");
    independentCheck(signed);
  });

  it("fails xmlsec1 when an amount is changed after signing, and xmllint when a mandatory element is missing", () => {
    const signed = sign(isporukaZahtjevXml(crypto.randomUUID(), new Date(), [supply]));
    expect(() => independentCheck(signed.replace(">182.50<", ">1.00<"))).toThrow();
    const noLines = sign(isporukaZahtjevXml(crypto.randomUUID(), new Date(), [{ ...supply, stavke: [] }]));
    expect(() => independentCheck(noLines)).toThrow();
  });

  it("holds 1 to 100 invoices", () => {
    expect(() => isporukaZahtjevXml("x", new Date(), [])).toThrow();
    expect(() => isporukaZahtjevXml("x", new Date(), Array.from({ length: 101 }, () => supply))).toThrow();
  });
});
