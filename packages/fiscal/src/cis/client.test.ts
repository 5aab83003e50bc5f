// The CIS client against the local CIS (HTTPS, its own CA, xmllint + xmlsec1 on every request).
import { execFileSync } from "node:child_process";
import { generateKeyPairSync, X509Certificate } from "node:crypto";
import forge from "node-forge";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateTestCertificate, type TestCertificate } from "../certificate.ts";
import { computeZki, TaxAuthorityError, type FiscalizeRequest, type Receipt } from "../cis.ts";
import { testRacun, useLocalCisClient } from "../../test-support/cis-client.ts";
import { CIS_XSD, forLibxml2 } from "../../test-support/local-cis.ts";
import { CisNoAnswerError, createCisClient, parseCisDateTime, signedRacunZahtjev } from "./client.ts";
import type { RacunType } from "./racun.ts";

const OIB = "69435151530";
const OPERATOR = "94577403194";
const local = useLocalCisClient(OIB, "cis-client-test-");

let seq = 0;
function request(over: Partial<RacunType> = {}, c: TestCertificate = local.cert): FiscalizeRequest {
  const receipt: Receipt = {
    oib: OIB,
    issuedAt: new Date(Date.now() - 60_000),
    number: String(++seq),
    premises: "POSL1",
    device: "1",
    total: "125.00",
    paymentMethod: "K",
    operatorOib: OPERATOR,
    vatRegistered: true,
    sequence: "P",
    vat: [{ rate: "25.00", base: "100.00", amount: "25.00" }],
  };
  const zki = computeZki(receipt, c.keyPem);
  const racun: RacunType = { ...testRacun(receipt, zki), ...over };
  return { receipt, zki, certPem: c.certPem, keyPem: c.keyPem, messageId: crypto.randomUUID(), racun };
}

async function refusal(p: Promise<unknown>): Promise<TaxAuthorityError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TaxAuthorityError);
  return err as TaxAuthorityError;
}

describe("signed RacunZahtjev, checked by independent tools", { timeout: 30_000 }, () => {
  it("validates against the official XSD (xmllint) and its signature verifies (xmlsec1), for a full receipt and a storno", () => {
    const full = request({
      USustPdv: true,
      OznSlijed: "N",
      Pdv: [
        { Stopa: "25.00", Osnovica: "100.00", Iznos: "25.00" },
        { Stopa: "13.00", Osnovica: "10.00", Iznos: "1.30" },
      ],
      Pnp: [{ Stopa: "3.00", Osnovica: "10.00", Iznos: "0.30" }],
      OstaliPor: [{ Naziv: "Porez na luksuz & <ostalo>", Stopa: "15.00", Osnovica: "10.00", Iznos: "1.50" }],
      IznosOslobPdv: "12.00",
      IznosMarza: "13.00",
      IznosNePodlOpor: "1.00",
      Naknade: [{ NazivN: "Povratna naknada", IznosN: "1.00" }],
      IznosUkupno: "175.10",
      NakDost: true,
      ParagonBrRac: "123/458/5",
      SpecNamj: "Navedeno kao primjer",
      OibPrimateljaRacuna: "94577403194",
    });
    const storno = request({ IznosUkupno: "-125.00", Pdv: [{ Stopa: "25.00", Osnovica: "-100.00", Iznos: "-25.00" }] });
    for (const [name, req] of [["full", full], ["storno", storno]] as const) {
      const file = path.join(local.work, `${name}.xml`);
      const certFile = path.join(local.work, `${name}.pem`);
      const signed = signedRacunZahtjev(req);
      writeFileSync(file, signed);
      writeFileSync(`${file}.schema.xml`, forLibxml2(signed));
      writeFileSync(certFile, local.cert.certPem);
      // Both throw (non-zero exit) on failure (xmllint on the form libxml2 can read: see forLibxml2).
      execFileSync("xmllint", ["--noout", "--path", local.cis.schemaPath, "--schema", CIS_XSD, `${file}.schema.xml`], { stdio: "pipe" });
      const out = execFileSync("xmlsec1", ["--verify", "--id-attr:Id", "RacunZahtjev", "--pubkey-cert-pem", certFile, file], { stdio: "pipe" });
      expect(out.toString() + "").toBeDefined();
    }
  });

  it("a tampered request fails the xmlsec1 check", () => {
    const file = path.join(local.work, "tampered.xml");
    const certFile = path.join(local.work, "tampered.pem");
    writeFileSync(file, signedRacunZahtjev(request()).replace("<tns:IznosUkupno>125.00<", "<tns:IznosUkupno>1.00<"));
    writeFileSync(certFile, local.cert.certPem);
    expect(() => execFileSync("xmlsec1", ["--verify", "--id-attr:Id", "RacunZahtjev", "--pubkey-cert-pem", certFile, file], { stdio: "pipe" })).toThrow();
  });

  it("uses the algorithms the CIS specification fixes and references the root by Id", () => {
    const xml = signedRacunZahtjev(request());
    expect(xml).toContain('<tns:RacunZahtjev xmlns:tns="http://www.apis-it.hr/fin/2012/types/f73" Id="RacunZahtjev">');
    expect(xml).toContain('<CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>');
    expect(xml).toContain('<SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/>');
    expect(xml).toContain('<Reference URI="#RacunZahtjev">');
    expect(xml).toContain('<Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>');
    expect(xml).toMatch(/<KeyInfo><X509Data><X509Certificate>MII/);
  });

  it("carries X509IssuerSerial beside the certificate, with the full serial however long (as the specification's sample)", () => {
    const x509 = new X509Certificate(local.cert.certPem);
    const serial = BigInt(`0x${x509.serialNumber}`).toString(10);
    expect(serial.length).toBeGreaterThan(24); // a 127-bit serial, as long as FINA's
    const issuer = x509.issuer.split("\n").filter(Boolean).reverse().join(",");
    expect(signedRacunZahtjev(request())).toContain(
      `</X509Certificate><X509IssuerSerial><X509IssuerName>${issuer}</X509IssuerName><X509SerialNumber>${serial}</X509SerialNumber></X509IssuerSerial></X509Data></KeyInfo>`,
    );
  });

  it("a receipt without an operator OIB is refused before anything is sent (s001)", async () => {
    const before = local.cis.requests.length;
    const req = request({ OibOper: "" });
    const err = await refusal(local.client.fiscalize(req));
    expect(err.kind).toBe("rejected");
    expect(err.code).toBe("s001");
    expect(err.message).toContain("OibOper");
    expect(local.cis.requests.length).toBe(before);
  });
});

describe("CIS answers", { timeout: 30_000 }, () => {
  it("success: the JIR from the signed answer, over TLS with the configured CA", async () => {
    const req = request();
    const answer = await local.client.fiscalize(req);
    expect(answer.jir).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const seen = local.cis.requests.at(-1)!;
    expect(seen.jir).toBe(answer.jir);
    expect(seen.error).toBeUndefined();
    expect(seen.soapAction).toBe('"http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService/racuni"');
    expect(seen.racunZahtjev).toContain(`<tns:IdPoruke>${req.messageId}</tns:IdPoruke>`);
    expect(Math.abs(answer.receivedAt.getTime() - Date.now())).toBeLessThan(5_000);
  });

  it("hands back the call as it went over the wire: the signed request as sent, the answer as received", async () => {
    const req = request();
    const answer = await local.client.fiscalize(req);
    const seen = local.cis.requests.at(-1)!;
    expect(answer.exchange).toBeDefined();
    const sent = answer.exchange!.request.toString("utf8");
    // the RacunZahtjev inside the SOAP Body, byte for byte as the HTTP body carried it
    expect(seen.body).toContain(`<soapenv:Body>${sent}</soapenv:Body>`);
    expect(sent).toMatch(/^<tns:RacunZahtjev [^>]*Id="RacunZahtjev">[\s\S]*<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">[\s\S]*<\/tns:RacunZahtjev>$/);
    expect(answer.exchange!.answer.equals(Buffer.from(seen.answer!, "utf8"))).toBe(true);
    expect(seen.answer).toContain(`<tns:Jir>${answer.jir}</tns:Jir>`);
  });

  it("sends a request signed beforehand as it is (to be recorded before the call)", async () => {
    const req = request();
    const signed = local.client.signRequest!(req);
    const answer = await local.client.fiscalize({ ...req, signedRequest: signed });
    expect(answer.exchange!.request.toString("utf8")).toBe(signed);
    expect(local.cis.requests.at(-1)!.body).toContain(signed);
    expect(() => local.client.signRequest!(request({ OibOper: "" }))).toThrow(TaxAuthorityError);
  });

  it.each(["s001", "s002", "s003", "s004", "s005"])("error %s is a rejection carrying the code", async (code) => {
    local.cis.setMode({ kind: "error", code }, 1);
    const err = await refusal(local.client.fiscalize(request()));
    expect(err.kind).toBe("rejected");
    expect(err.code).toBe(code);
    expect(err).not.toBeInstanceOf(CisNoAnswerError);
  });

  it("error s006 (CIS system error) means unavailable, with the code", async () => {
    local.cis.setMode({ kind: "error", code: "s006" }, 1);
    const err = await refusal(local.client.fiscalize(request()));
    expect(err.kind).toBe("unavailable");
    expect(err.code).toBe("s006");
  });

  it("the local CIS's own checks: a certificate of another OIB is s005, an expired one s002", async () => {
    const other = generateTestCertificate({ oib: "94577403194", name: "Drugi d.o.o." });
    const err = await refusal(local.client.fiscalize(request({}, other)));
    expect([err.kind, err.code]).toEqual(["rejected", "s005"]);

    const e2 = await refusal(local.client.fiscalize(request({}, expiredCertificate())));
    expect([e2.kind, e2.code]).toEqual(["rejected", "s002"]);
  });

  it("a request that breaks the schema reaches CIS only if built by hand; the local CIS answers s001 for it", async () => {
    // The client checks the schema rules itself; the server check is exercised with a hand-made body.
    const signed = signedRacunZahtjev(request()).replace("<tns:OznSlijed>P</tns:OznSlijed>", "<tns:OznSlijed>X</tns:OznSlijed>");
    const res = await postRaw(signed);
    expect(res).toContain("<tns:SifraGreske>s001</tns:SifraGreske>");
  });

  it("a signature that does not verify is s004", async () => {
    const signed = signedRacunZahtjev(request()).replace("<tns:IznosUkupno>125.00<", "<tns:IznosUkupno>1.00<");
    const res = await postRaw(signed);
    expect(res).toContain("<tns:SifraGreske>s004</tns:SifraGreske>");
  });
});

describe("answers that are not accepted, and outages", { timeout: 30_000 }, () => {
  it.each([["bad-signature"], ["untrusted-signer"], ["unsigned"], ["wrong-message"]] as const)("%s: unavailable, the JIR is not taken", async (kind) => {
    local.cis.setMode({ kind }, 1);
    const err = await refusal(local.client.fiscalize(request()));
    expect(err.kind).toBe("unavailable");
    expect(err.code).toBeUndefined();
  });

  it("a SOAP Fault is unavailable", async () => {
    local.cis.setMode({ kind: "soap-fault" }, 1);
    const err = await refusal(local.client.fiscalize(request()));
    expect(err.kind).toBe("unavailable");
    expect(err.message).toContain("HTTP 500");
  });

  it("timeout: unavailable, marked as possibly delivered, within the configured time", async () => {
    local.cis.setMode({ kind: "timeout" }, 1);
    const t0 = Date.now();
    const err = await refusal(local.client.fiscalize(request()));
    expect(err).toBeInstanceOf(CisNoAnswerError);
    expect(err.kind).toBe("unavailable");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_400);
    expect(Date.now() - t0).toBeLessThan(4_000);
  });

  it("down: unavailable and not delivered; up again: a JIR", async () => {
    await local.cis.down();
    try {
      const err = await refusal(local.client.fiscalize(request()));
      expect(err.kind).toBe("unavailable");
      expect(err).not.toBeInstanceOf(CisNoAnswerError);
    } finally {
      await local.cis.up();
    }
    expect((await local.client.fiscalize(request())).jir).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a server certificate outside the configured CA bundle is refused (TLS), nothing delivered", async () => {
    const other = createCisClient({ url: local.cis.url, ca: local.cert.certPem, signer: { ca: [local.cis.caPem], names: ["fiskalcistest"] }, timeoutMs: 1_500 });
    const before = local.cis.requests.length;
    const err = await refusal(other.fiscalize(request()));
    expect(err.kind).toBe("unavailable");
    expect(err.message).toMatch(/certificate|CERT|SELF_SIGNED|UNABLE/i);
    expect(local.cis.requests.length).toBe(before);
  });

  it("a port where nothing listens is unavailable at once", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const dead = createCisClient({ url: `https://127.0.0.1:${port}/x`, ca: local.cis.caPem, signer: { pinned: [local.cis.signerPem] } });
    const err = await refusal(dead.fiscalize(request()));
    expect(err.kind).toBe("unavailable");
    expect(err.message).toContain("ECONNREFUSED");
  });

  it("refuses a plain-http CIS_URL and a trust without signers", () => {
    expect(() => createCisClient({ url: "http://127.0.0.1/x", signer: { pinned: [local.cis.signerPem] } })).toThrow(/https/);
    expect(() => createCisClient({ url: local.cis.url, signer: {} })).toThrow(/signer/);
  });
});

describe("parseCisDateTime", () => {
  it("reads Zagreb local time in winter and summer", () => {
    expect(parseCisDateTime("23.11.2026T17:40:01")?.toISOString()).toBe("2026-11-23T16:40:01.000Z");
    expect(parseCisDateTime("01.07.2026T12:00:00")?.toISOString()).toBe("2026-07-01T10:00:00.000Z");
    expect(parseCisDateTime("2026-07-01")).toBeNull();
  });
});

/** A certificate with the issuer's OIB that expired in 2021. */
function expiredCertificate(): TestCertificate {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const c = forge.pki.createCertificate();
  c.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  c.serialNumber = "01";
  c.validity.notBefore = new Date("2020-01-01T00:00:00Z");
  c.validity.notAfter = new Date("2021-01-01T00:00:00Z");
  const attrs = [{ shortName: "C", value: "HR" }, { name: "serialNumber", value: OIB }, { shortName: "CN", value: `STARI ${OIB}` }];
  c.setSubject(attrs);
  c.setIssuer(attrs);
  const keyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  c.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(c), keyPem, notAfter: c.validity.notAfter, subject: `CN=STARI ${OIB}` };
}

async function postRaw(racunZahtjev: string): Promise<string> {
  const https = await import("node:https");
  const { soapEnvelope } = await import("./xml.ts");
  const body = soapEnvelope(racunZahtjev);
  return new Promise((resolve, reject) => {
    const req = https.request(local.cis.url, { method: "POST", ca: local.cis.caPem, headers: { "Content-Type": "text/xml; charset=utf-8" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    });
    req.on("error", reject);
    req.end(body);
  });
}
