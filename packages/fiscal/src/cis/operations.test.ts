// napojnica, promijeniNacPlac and provjera: each request signed and valid against the official XSD
// (xmllint) with its signature verified by xmlsec1, and each sent to the local CIS, which checks it
// the same way and answers signed.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { computeZki, TaxAuthorityError, type Receipt } from "../cis.ts";
import { testRacun, useLocalCisClient } from "../../test-support/cis-client.ts";
import { CIS_XSD, forLibxml2 } from "../../test-support/local-cis.ts";
import { createCisClient } from "./client.ts";
import { CIS_OPERATIONS, signedCisOperation, type CisOperationDetail, type CisOperationRequest } from "./operations.ts";

const OIB = "69435151530";
const local = useLocalCisClient(OIB, "cis-operations-test-");

let seq = 0;
function request(detail: CisOperationDetail, oib = OIB): CisOperationRequest {
  const receipt: Receipt = { oib, issuedAt: new Date(Date.now() - 60_000), number: String(++seq), premises: "POSL1", device: "1", total: "125.00", paymentMethod: "K", operatorOib: "94577403194", vatRegistered: true, sequence: "P" };
  const racun = testRacun(receipt, computeZki(receipt, local.cert.keyPem));
  return { racun, detail, messageId: randomUUID(), certPem: local.cert.certPem, keyPem: local.cert.keyPem };
}

const DETAILS: CisOperationDetail[] = [
  { operation: "napojnica", tip: { amount: "5.00", paymentMethod: "G" } },
  { operation: "promijeniNacPlac", paymentMethod: "G" },
  { operation: "provjera" },
];

describe("the signed requests, checked by independent tools", { timeout: 30_000 }, () => {
  for (const detail of DETAILS) {
    it(`${detail.operation}: valid against FiskalizacijaSchema.xsd, signature verified by xmlsec1 on Id="${CIS_OPERATIONS[detail.operation].request}"`, () => {
      const element = CIS_OPERATIONS[detail.operation].request;
      const signed = signedCisOperation(request(detail));
      expect(signed).toContain(`<tns:${element} xmlns:tns="http://www.apis-it.hr/fin/2012/types/f73" Id="${element}">`);
      expect(signed).toContain(`<Reference URI="#${element}">`);
      expect(signed).toMatch(/<X509IssuerSerial><X509IssuerName>/);
      if (detail.operation === "napojnica") expect(signed).toContain("<tns:Napojnica><tns:iznosNapojnice>5.00</tns:iznosNapojnice><tns:nacinPlacanjaNapojnice>G</tns:nacinPlacanjaNapojnice></tns:Napojnica></tns:Racun>");
      if (detail.operation === "promijeniNacPlac") expect(signed).toContain("<tns:PromijenjeniNacinPlac>G</tns:PromijenjeniNacinPlac></tns:Racun>");
      const file = path.join(local.work, `${element}.xml`);
      writeFileSync(file, signed);
      writeFileSync(`${file}.schema.xml`, forLibxml2(signed));
      writeFileSync(`${file}.pem`, local.cert.certPem);
      execFileSync("xmllint", ["--noout", "--path", local.cis.schemaPath, "--schema", CIS_XSD, `${file}.schema.xml`], { stdio: "pipe" });
      execFileSync("xmlsec1", ["--verify", "--id-attr:Id", element, "--pubkey-cert-pem", `${file}.pem`, file], { stdio: "pipe" });
      // Tampered, it no longer verifies.
      writeFileSync(file, signed.replace("<tns:IznosUkupno>125.00<", "<tns:IznosUkupno>1.00<"));
      expect(() => execFileSync("xmlsec1", ["--verify", "--id-attr:Id", element, "--pubkey-cert-pem", `${file}.pem`, file], { stdio: "pipe" })).toThrow();
    });
  }

  it("refuses before signing what the schema refuses: a tip that is not a positive amount, an unknown payment method", () => {
    const tip = () => signedCisOperation(request({ operation: "napojnica", tip: { amount: "-1.00", paymentMethod: "X" } }));
    expect(tip).toThrow(TaxAuthorityError);
    expect(tip).toThrow(/amount .*payment_method/);
    expect(() => signedCisOperation(request({ operation: "promijeniNacPlac", paymentMethod: "C" }))).toThrow(/payment_method/);
  });
});

describe("through the local CIS", { timeout: 30_000 }, () => {
  it("napojnica and promijeniNacPlac are accepted (p001) with a signed answer to the same message, under their SOAPAction", async () => {
    for (const detail of DETAILS.slice(0, 2)) {
      const req = request(detail);
      const answer = await local.client.operation(req);
      expect(answer).toMatchObject({ idPoruke: req.messageId, poruka: { sifra: "p001" }, greske: [] });
      const seen = local.cis.requests.at(-1)!;
      expect(seen).toMatchObject({ element: CIS_OPERATIONS[detail.operation].request, soapAction: `"${CIS_OPERATIONS[detail.operation].soapAction}"` });
      expect(seen.error).toBeUndefined();
    }
  });

  it("provjera answers with the receipt, on the test endpoint; a production address refuses it before sending", async () => {
    const req = request({ operation: "provjera" });
    const answer = await local.client.operation(req);
    expect(answer).toMatchObject({ idPoruke: req.messageId, greske: [] });
    expect(local.cis.requests.at(-1)).toMatchObject({ element: "ProvjeraZahtjev" });
    const production = createCisClient({ url: "https://cis.porezna-uprava.hr:8449/FiskalizacijaService", signer: { pinned: [local.cert.certPem] } });
    const before = local.cis.requests.length;
    await expect(production.operation(request({ operation: "provjera" }))).rejects.toMatchObject({ kind: "rejected", code: "provjera" });
    expect(local.cis.requests.length).toBe(before);
  });

  it("CIS's errors come back as TaxAuthorityError: another OIB's receipt is s005, a system error s006 is retryable", async () => {
    const other = request({ operation: "napojnica", tip: { amount: "2.00", paymentMethod: "K" } }, "94577403194");
    await expect(local.client.operation(other)).rejects.toMatchObject({ kind: "rejected", code: "s005" });
    local.cis.setMode({ kind: "error", code: "s006" }, 1);
    await expect(local.client.operation(request({ operation: "promijeniNacPlac", paymentMethod: "T" }))).rejects.toMatchObject({ kind: "unavailable", code: "s006" });
  });
});
