import { readFileSync } from "node:fs";
import forge from "node-forge";
import { describe, expect, it } from "vitest";
import { buildPkcs12, certificateTrustProblem, parsePkcs12, prepareCertificateUpload, createKeyring, generateEncryptionKey } from "./certificate-store.ts";
import { generateTestCertificate } from "./certificate.ts";
import { FINA_DEMO_CA_PEM, FINA_PRODUCTION_CA_PEM } from "./fina-ca-certificates.ts";
import { certificateAcceptanceFor, finaChain } from "./fina-trust.ts";

const pems = (text: string) => text.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
const prodFile = readFileSync(new URL("../certs/fina-production-ca.pem", import.meta.url), "utf8");
const demoFile = readFileSync(new URL("../certs/fina-demo-ca.pem", import.meta.url), "utf8");

describe("the FINA CA certificates shipped", () => {
  it("are the files in certs/, embedded byte for byte", () => {
    expect(FINA_PRODUCTION_CA_PEM.trim()).toBe(prodFile.trim());
    expect(FINA_DEMO_CA_PEM.trim()).toBe(demoFile.trim());
    expect(pems(prodFile)).toHaveLength(3);
    expect(pems(demoFile)).toHaveLength(2);
  });

  it("chain FINA's issuing CAs to their roots: RDC 2020 and 2025 to Fina Root CA, Demo CA 2020 to Fina Demo Root CA", () => {
    const now = new Date("2026-11-26T12:00:00Z");
    const [, rdc2020, rdc2025] = pems(prodFile);
    const [, demo2020] = pems(demoFile);
    expect(finaChain(rdc2020!, now)).toEqual({ trust: "fina_production", chain: ["Fina Root CA"] });
    expect(finaChain(rdc2025!, now)).toEqual({ trust: "fina_production", chain: ["Fina Root CA"] });
    expect(finaChain(demo2020!, now)).toEqual({ trust: "fina_demo", chain: ["Fina Demo Root CA"] });
    // After the root's expiry nothing chains.
    expect(finaChain(rdc2020!, new Date("2036-01-01T00:00:00Z")).trust).toBe("untrusted");
  });

  it("does not trust a self-signed certificate, nor one whose issuer only carries FINA's name", () => {
    const self = generateTestCertificate({ oib: "69435151530", name: "Samopotpisani d.o.o." });
    expect(finaChain(self.certPem)).toEqual({ trust: "untrusted", chain: [] });
    // A look-alike CA: same subject as Fina RDC 2020, another key.
    const keys = forge.pki.rsa.generateKeyPair(1024);
    const fake = forge.pki.createCertificate();
    fake.publicKey = keys.publicKey;
    fake.serialNumber = "01";
    fake.validity.notBefore = new Date(Date.now() - 86_400_000);
    fake.validity.notAfter = new Date(Date.now() + 86_400_000);
    fake.setSubject([{ name: "commonName", value: "FISKAL 1" }, { name: "organizationName", value: "Firma d.o.o. HR69435151530" }, { name: "countryName", value: "HR" }]);
    fake.setIssuer([{ name: "countryName", value: "HR" }, { name: "organizationName", value: "Financijska agencija" }, { name: "commonName", value: "Fina RDC 2020" }]);
    fake.sign(keys.privateKey, forge.md.sha256.create());
    expect(finaChain(forge.pki.certificateToPem(fake)).trust).toBe("untrusted");
  });

  it("knows what each tax authority address takes", () => {
    expect(certificateAcceptanceFor("https://cis.porezna-uprava.hr:8449/FiskalizacijaService")).toBe("fina_production");
    expect(certificateAcceptanceFor("https://cistest.apis-it.hr:8449/FiskalizacijaServiceTest")).toBe("fina_demo");
    expect(certificateAcceptanceFor("https://127.0.0.1:4443/FiskalizacijaService")).toBe("any");
    expect(certificateAcceptanceFor("https://[::1]:4443/x")).toBe("any");
    expect(certificateAcceptanceFor("https://fiskal-egress.internal/cis")).toBe("fina_production");
  });

  it("an upload for production refuses a self-signed certificate; one for any endpoint marks it as not FINA's", () => {
    const self = generateTestCertificate({ oib: "69435151530", name: "Samopotpisani d.o.o." });
    const p12 = buildPkcs12(self.certPem, self.keyPem, "x");
    expect(parsePkcs12(p12, "x").trust).toBe("untrusted");
    const keyring = createKeyring(generateEncryptionKey());
    const base = { accountId: "00000000-0000-7000-8000-000000000001", pkcs12: p12, password: "x", keyring };
    expect(() => prepareCertificateUpload({ ...base, accept: "fina_production" })).toThrow(/ne izdaje FINA \(izdavatelj: CN=FISKAL TEST/);
    expect(() => prepareCertificateUpload({ ...base, accept: "fina_demo" })).toThrow(/demo okolina/);
    expect(prepareCertificateUpload(base).test).toBe(true);
    expect(certificateTrustProblem("fina_demo", "CN=Fina Demo CA 2020", "fina_production")?.message).toMatch(/^Ovo je FINA demo certifikat, a Porezna uprava u produkciji/);
    expect(certificateTrustProblem("fina_production", "CN=Fina RDC 2020", "fina_production")).toBeNull();
  });
});
