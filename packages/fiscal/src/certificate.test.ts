import { X509Certificate, createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { generateTestCertificate } from "./certificate.ts";
import { computeZki } from "./cis.ts";

// RSA key generation takes a second or more on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

describe("generateTestCertificate", () => {
  const cert = generateTestCertificate({ oib: "69435151530", name: "Primjer, d.o.o." });
  const x509 = new X509Certificate(cert.certPem);

  it("is an RSA 2048 certificate signed by its own key, issued by FISKAL TEST", () => {
    const key = createPrivateKey(cert.keyPem);
    expect(key.asymmetricKeyType).toBe("rsa");
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(x509.checkPrivateKey(key)).toBe(true);
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(x509.issuer).toContain("CN=FISKAL TEST");
    expect(x509.subject).toBe("C=HR\nO=Primjer\\, d.o.o.\nserialNumber=69435151530\nCN=FISKAL TEST 69435151530");
    expect(cert.subject).toBe("CN=FISKAL TEST 69435151530,serialNumber=69435151530,O=Primjer\\, d.o.o.,C=HR");
    expect(x509.ca).toBe(false);
  });

  it("is valid now and for five years", () => {
    const from = new Date(x509.validFrom);
    const to = new Date(x509.validTo);
    expect(from.getTime()).toBeLessThanOrEqual(Date.now());
    expect(to.getTime()).toBe(cert.notAfter.getTime());
    const years = (to.getTime() - Date.now()) / (365.25 * 24 * 3600 * 1000);
    expect(years).toBeGreaterThan(4.99);
    expect(years).toBeLessThan(5.01);
  });

  it("signs and verifies, and computes a ZKI", () => {
    const data = Buffer.from("6943515153015.03.2026 10:30:051234POS12125.00");
    const signature = sign("sha1", data, createPrivateKey(cert.keyPem));
    expect(verify("sha1", data, createPublicKey(cert.certPem), signature)).toBe(true);
    expect(verify("sha1", Buffer.from("tampered"), x509.publicKey, signature)).toBe(false);
    const zki = computeZki({ oib: "69435151530", issuedAt: new Date(), number: "1", premises: "P1", device: "1", total: "1.00" }, cert.keyPem);
    expect(zki).toMatch(/^[0-9a-f]{32}$/);
  });

  it("keeps non-ASCII names intact", () => {
    const c = generateTestCertificate({ oib: "94577403194", name: "Obrt Šime Đurđević" });
    expect(new X509Certificate(c.certPem).subject).toContain("O=Obrt Šime Đurđević");
  });

  it("makes a new key and serial each time", () => {
    const other = generateTestCertificate({ oib: "69435151530", name: "Primjer, d.o.o." });
    expect(other.keyPem).not.toBe(cert.keyPem);
    expect(new X509Certificate(other.certPem).serialNumber).not.toBe(x509.serialNumber);
  });

  it("refuses an invalid OIB or name", () => {
    expect(() => generateTestCertificate({ oib: "69435151531", name: "X" })).toThrow(/OIB/);
    expect(() => generateTestCertificate({ oib: "69435151530", name: " " })).toThrow(/name/);
  });

  it("cuts a name longer than the 64 characters X.520 allows", () => {
    const c = generateTestCertificate({ oib: "69435151530", name: "Ž".repeat(70) });
    expect(new X509Certificate(c.certPem).subject).toContain(`O=${"Ž".repeat(64)}\n`);
  });
});
