import { execFileSync } from "node:child_process";
import { generateKeyPairSync, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import forge from "node-forge";
import { describe, expect, it, vi } from "vitest";
import { generateTestCertificate } from "./certificate.ts";
import {
  buildPkcs12,
  CertificateError,
  certificateOib,
  certificateProblem,
  createKeyring,
  decodePkcs12Base64,
  decryptPrivateKey,
  encryptPrivateKey,
  generateEncryptionKey,
  keyIdOf,
  needsReencryption,
  parseEncryptionKey,
  parsePkcs12,
  prepareCertificateUpload,
} from "./certificate-store.ts";
import { computeZki } from "./cis.ts";

// RSA key generation takes a second or more on a busy machine; several tests make a few keys.
vi.setConfig({ testTimeout: 60_000 });

const OIB = "69435151530";
const demo = generateTestCertificate({ oib: OIB, name: "Primjer d.o.o." });

/** A certificate shaped like a FINA application certificate: the OIB after "HR" in O, CN "FISKAL 1". */
function finaLike(oib: string, validity?: { notBefore: Date; notAfter: Date }) {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  cert.serialNumber = "0a1b2c";
  cert.validity.notBefore = validity?.notBefore ?? new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = validity?.notAfter ?? new Date(Date.now() + 365 * 86_400_000);
  const attrs = [
    { shortName: "C", value: "HR" },
    { shortName: "O", value: `FIRMA D.O.O. HR${oib}` },
    { shortName: "L", value: "ZAGREB" },
    { shortName: "CN", value: "FISKAL 1" },
  ];
  cert.setSubject(attrs);
  cert.setIssuer([{ shortName: "C", value: "HR" }, { shortName: "O", value: "Financijska agencija" }, { shortName: "CN", value: "Fina Demo CA 2020" }]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem };
}

const createPublicKeyPem = (certPem: string) => new X509Certificate(certPem).publicKey.export({ type: "spki", format: "pem" }).toString();

const reason = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CertificateError);
    return (err as CertificateError).reason;
  }
  throw new Error("expected a CertificateError");
};

describe("parsePkcs12", () => {
  it("reads the certificate, its key and the OIB of a generated test certificate", () => {
    const p = parsePkcs12(buildPkcs12(demo.certPem, demo.keyPem, "tajna"), "tajna");
    expect(p.oib).toBe(OIB);
    expect(p.subject).toBe(demo.subject);
    expect(p.issuer).toBe("CN=FISKAL TEST,O=Fiskal,C=HR");
    expect(new X509Certificate(p.certPem).fingerprint256).toBe(p.fingerprint);
    expect(p.notAfter.getTime()).toBe(demo.notAfter.getTime());
    // The key signs exactly as the original does.
    const zki = { oib: OIB, issuedAt: new Date("2026-03-15T09:30:05Z"), number: "1", premises: "P1", device: "1", total: "1.00" };
    expect(computeZki(zki, p.keyPem)).toBe(computeZki(zki, demo.keyPem));
  });

  it("finds the OIB where FINA puts it (organization name)", () => {
    const fina = finaLike("94577403194");
    const p = parsePkcs12(buildPkcs12(fina.certPem, fina.keyPem, "x"), "x");
    expect(p.oib).toBe("94577403194");
    expect(p.subject).toBe("CN=FISKAL 1,L=ZAGREB,O=FIRMA D.O.O. HR94577403194,C=HR");
    expect(certificateOib(new X509Certificate(fina.certPem))).toBe("94577403194");
  });

  it("reads what OpenSSL writes: its current default (AES-256, SHA-256 MAC) and the legacy format (3DES, SHA-1)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fiskal-p12-"));
    const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
    openssl("req", "-x509", "-newkey", "rsa:2048", "-subj", `/C=HR/O=FIRMA D.O.O. HR${OIB}/L=ZAGREB/CN=FISKAL 1`, "-days", "30", "-nodes", "-keyout", "k.pem", "-out", "c.pem");
    openssl("pkcs12", "-export", "-in", "c.pem", "-inkey", "k.pem", "-passout", "pass:tajna", "-out", "modern.p12");
    openssl("pkcs12", "-export", "-legacy", "-in", "c.pem", "-inkey", "k.pem", "-passout", "pass:tajna", "-out", "legacy.p12");
    for (const file of ["modern.p12", "legacy.p12"]) {
      const bytes = readFileSync(path.join(dir, file));
      const p = parsePkcs12(bytes, "tajna");
      expect(p.oib).toBe(OIB);
      expect(p.subject).toBe(`CN=FISKAL 1,L=ZAGREB,O=FIRMA D.O.O. HR${OIB},C=HR`);
      expect(createPublicKeyPem(p.certPem)).toBe(createPublicKeyPem(readFileSync(path.join(dir, "c.pem"), "utf8")));
      expect(reason(() => parsePkcs12(bytes, "kriva"))).toBe("wrong_password");
    }
  });

  it("refuses a wrong password, a file that is not PKCS#12, and a certificate without an OIB", () => {
    const p12 = buildPkcs12(demo.certPem, demo.keyPem, "tajna");
    expect(reason(() => parsePkcs12(p12, "kriva"))).toBe("wrong_password");
    expect(reason(() => parsePkcs12(Buffer.from("not a certificate"), "x"))).toBe("unreadable");
    expect(reason(() => parsePkcs12(Buffer.alloc(0), "x"))).toBe("unreadable");
    expect(reason(() => parsePkcs12(Buffer.alloc(70 * 1024, 1), "x"))).toBe("too_large");
    const noOib = finaLike("12345678901"); // check digit wrong: not an OIB
    expect(reason(() => parsePkcs12(buildPkcs12(noOib.certPem, noOib.keyPem, "x"), "x"))).toBe("no_oib");
  });

  it("refuses a file whose key belongs to no certificate in it, or that has no key", () => {
    const other = generateTestCertificate({ oib: OIB, name: "Drugi" });
    expect(reason(() => parsePkcs12(buildPkcs12(demo.certPem, other.keyPem, "x"), "x"))).toBe("key_mismatch");
    const certOnly = forge.pkcs12.toPkcs12Asn1(null, [forge.pki.certificateFromPem(demo.certPem)], "x", { algorithm: "3des" });
    expect(reason(() => parsePkcs12(Buffer.from(forge.asn1.toDer(certOnly).getBytes(), "binary"), "x"))).toBe("no_private_key");
  });
});

describe("certificateProblem", () => {
  const at = (iso: string) => new Date(iso);
  const cert = { notBefore: at("2026-01-01T00:00:00Z"), notAfter: at("2027-01-01T00:00:00Z"), oib: OIB };
  it("refuses an expired or not yet valid certificate and another OIB's", () => {
    expect(certificateProblem(cert, { now: at("2026-06-01T00:00:00Z") })).toBeNull();
    expect(certificateProblem(cert, { now: at("2027-01-01T00:00:01Z") })?.reason).toBe("expired");
    expect(certificateProblem(cert, { now: at("2027-01-01T00:00:01Z") })?.message).toBe("Certifikat je istekao 1. 1. 2027. u 01:00.");
    expect(certificateProblem(cert, { now: at("2025-12-31T23:00:00Z") })?.reason).toBe("not_yet_valid");
    expect(certificateProblem(cert, { now: at("2026-06-01T00:00:00Z"), expectedOib: "94577403194" })?.reason).toBe("oib_mismatch");
    expect(certificateProblem(cert, { now: at("2026-06-01T00:00:00Z"), expectedOib: OIB })).toBeNull();
  });
});

describe("encryption at rest", () => {
  const k1 = generateEncryptionKey();
  const k2 = generateEncryptionKey();
  const account = "0190d1a8-0000-7000-8000-000000000001";

  it("round-trips under AES-256-GCM, with a fresh IV each time and the key's id beside it", () => {
    const ring = createKeyring(k1);
    const a = encryptPrivateKey(ring, account, demo.keyPem);
    const b = encryptPrivateKey(ring, account, demo.keyPem);
    expect(a.keyId).toBe(keyIdOf(parseEncryptionKey(k1)));
    expect(a.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(a.ciphertext).not.toContain("PRIVATE KEY");
    expect(Buffer.from(a.ciphertext, "base64").toString("latin1")).not.toContain("PRIVATE KEY");
    expect(decryptPrivateKey(ring, account, a)).toBe(demo.keyPem);
  });

  it("refuses another account's ciphertext, a tampered one and an unknown key", () => {
    const ring = createKeyring(k1);
    const enc = encryptPrivateKey(ring, account, demo.keyPem);
    expect(() => decryptPrivateKey(ring, "0190d1a8-0000-7000-8000-000000000002", enc)).toThrow();
    const raw = Buffer.from(enc.ciphertext, "base64");
    raw.writeUInt8(raw.readUInt8(raw.length - 1) ^ 1, raw.length - 1);
    expect(() => decryptPrivateKey(ring, account, { ...enc, ciphertext: raw.toString("base64") })).toThrow();
    expect(() => decryptPrivateKey(createKeyring(k2), account, enc)).toThrow(/CERT_ENCRYPTION_PREVIOUS_KEYS/);
  });

  it("rotates: the new key encrypts, the previous still decrypts until re-encrypted", () => {
    const old = encryptPrivateKey(createKeyring(k1), account, demo.keyPem);
    const ring = createKeyring(k2, ` ${k1} `);
    expect(ring.currentId).toBe(keyIdOf(parseEncryptionKey(k2)));
    expect(needsReencryption(ring, old)).toBe(true);
    expect(decryptPrivateKey(ring, account, old)).toBe(demo.keyPem);
    const fresh = encryptPrivateKey(ring, account, decryptPrivateKey(ring, account, old));
    expect(needsReencryption(ring, fresh)).toBe(false);
    expect(decryptPrivateKey(createKeyring(k2), account, fresh)).toBe(demo.keyPem);
  });

  it("takes keys of exactly 32 bytes, base64 or hex", () => {
    expect(parseEncryptionKey("ab".repeat(32)).length).toBe(32);
    expect(parseEncryptionKey(k1).length).toBe(32);
    expect(() => parseEncryptionKey("short")).toThrow(/32 random bytes/);
    expect(() => parseEncryptionKey(Buffer.alloc(16).toString("base64"))).toThrow();
    expect(() => createKeyring(k1, "nope")).toThrow(/CERT_ENCRYPTION_PREVIOUS_KEYS/);
  });
});

describe("prepareCertificateUpload", () => {
  const ring = createKeyring(generateEncryptionKey());
  const account = "0190d1a8-0000-7000-8000-000000000003";

  it("returns the row to store: no plaintext key, the key encrypted for the account", () => {
    const row = prepareCertificateUpload({ accountId: account, pkcs12: buildPkcs12(demo.certPem, demo.keyPem, "pw"), password: "pw", keyring: ring, expectedOib: OIB });
    // A generated (self-signed) certificate is not FINA's: stored as a test certificate.
    expect(row).toMatchObject({ oib: OIB, subject: demo.subject, keyId: ring.currentId, test: true });
    expect(JSON.stringify(row)).not.toContain("PRIVATE KEY");
    expect(decryptPrivateKey(ring, account, { keyId: row.keyId, ciphertext: row.keyCiphertext })).toBe(
      parsePkcs12(buildPkcs12(demo.certPem, demo.keyPem, "pw"), "pw").keyPem,
    );
  });

  it("refuses an expired certificate, one not yet valid, and another company's", () => {
    const expired = finaLike(OIB, { notBefore: new Date("2020-01-01T00:00:00Z"), notAfter: new Date("2021-01-01T00:00:00Z") });
    const future = finaLike(OIB, { notBefore: new Date(Date.now() + 86_400_000), notAfter: new Date(Date.now() + 400 * 86_400_000) });
    const upload = (c: { certPem: string; keyPem: string }, expectedOib: string | null = OIB) =>
      reason(() => prepareCertificateUpload({ accountId: account, pkcs12: buildPkcs12(c.certPem, c.keyPem, "x"), password: "x", keyring: ring, expectedOib }));
    expect(upload(expired)).toBe("expired");
    expect(upload(future)).toBe("not_yet_valid");
    expect(upload(finaLike("94577403194"))).toBe("oib_mismatch");
    // An account without an OIB takes the certificate's.
    expect(prepareCertificateUpload({ accountId: account, pkcs12: buildPkcs12(demo.certPem, demo.keyPem, "x"), password: "x", keyring: ring }).oib).toBe(OIB);
  });

  it("decodes base64 uploads, with or without a data: prefix and line breaks", () => {
    const p12 = buildPkcs12(demo.certPem, demo.keyPem, "x");
    const b64 = p12.toString("base64");
    expect(decodePkcs12Base64(b64).equals(p12)).toBe(true);
    expect(decodePkcs12Base64(`data:application/x-pkcs12;base64,${b64.replace(/(.{64})/g, "$1\n")}`).equals(p12)).toBe(true);
    expect(reason(() => decodePkcs12Base64("not base64!"))).toBe("unreadable");
  });
});
