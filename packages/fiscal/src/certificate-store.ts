// An account's signing certificate: reading a FINA application certificate (PKCS#12 + password),
// checking it, and keeping its private key encrypted at rest (AES-256-GCM under a key from the
// environment, with the key's id stored beside the ciphertext so that keys can be rotated).
import { X509Certificate, createCipheriv, createDecipheriv, createHash, createPrivateKey, randomBytes } from "node:crypto";
import forge from "node-forge";
import { acceptsCertificate, finaChain, type CertificateAcceptance, type CertificateTrust } from "./fina-trust.ts";
import { isValidOib } from "./oib.ts";
import { croatianDateTime } from "./zagreb.ts";

/** Why a certificate upload was refused; `message` is Croatian, for the customer. */
export type CertificateProblemReason =
  | "unreadable"
  | "wrong_password"
  | "no_private_key"
  | "no_certificate"
  | "key_mismatch"
  | "not_rsa"
  | "no_oib"
  | "oib_mismatch"
  | "expired"
  | "not_yet_valid"
  | "too_large"
  | "untrusted_issuer";

export class CertificateError extends Error {
  override readonly name = "CertificateError";
  constructor(
    readonly reason: CertificateProblemReason,
    message: string,
  ) {
    super(message);
  }
}

/** Largest PKCS#12 file accepted (a FINA certificate with its chain is a few KB). */
export const MAX_PKCS12_BYTES = 64 * 1024;
/** Days before expiry from which the portal and the API warn. */
export const CERTIFICATE_WARNING_DAYS = 30;

export interface ParsedCertificate {
  certPem: string;
  /** PKCS#8 PEM, unencrypted: a secret — encrypt it before it is stored, never log or return it. */
  keyPem: string;
  /** RFC 4514 order (most specific first), e.g. "CN=FISKAL 1,L=ZAGREB,O=FIRMA D.O.O. HR69435151530,C=HR". */
  subject: string;
  issuer: string;
  /** The OIB the certificate was issued to. */
  oib: string;
  /** Where it chains among the bundled FINA CAs (production, demo) or `untrusted`. */
  trust: CertificateTrust;
  serialNumber: string;
  /** SHA-256 of the DER certificate, hex, colon-separated. */
  fingerprint: string;
  notBefore: Date;
  notAfter: Date;
}

/**
 * The OIB a certificate was issued to. FINA puts it in the organization name ("FIRMA D.O.O.
 * HR69435151530"), newer certificates in organizationIdentifier ("VATHR-69435151530") or
 * serialNumber; the generated test certificates in serialNumber and CN. The first valid OIB found,
 * in that order of attributes, wins.
 */
export function certificateOib(x509: X509Certificate): string | null {
  const attrs = parseDn(x509.subject);
  const order = ["organizationIdentifier", "2.5.4.97", "serialNumber", "O", "CN", "OU"];
  for (const name of order) {
    for (const value of attrs.get(name) ?? []) {
      for (const m of value.matchAll(/(?<!\d)(\d{11})(?!\d)/g)) if (isValidOib(m[1]!)) return m[1]!;
    }
  }
  return null;
}

/** Node's multi-line subject ("C=HR\nO=Firma\n…") as attribute → values. */
function parseDn(dn: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of dn.split("\n")) {
    const i = line.indexOf("=");
    if (i <= 0) continue;
    const k = line.slice(0, i);
    out.set(k, [...(out.get(k) ?? []), line.slice(i + 1)]);
  }
  return out;
}

function rfc4514(dn: string): string {
  return dn
    .split("\n")
    .filter(Boolean)
    .reverse()
    .join(",");
}

/**
 * Reads a PKCS#12 file: the certificate whose public key matches the private key, both as PEM.
 * Throws CertificateError (Croatian message) for a wrong password, a file that is not PKCS#12, or
 * one without a matching key and certificate. Validity dates and the OIB are checked by
 * `certificateProblem`.
 */
export function parsePkcs12(bytes: Buffer, password: string): ParsedCertificate {
  if (bytes.length === 0) throw new CertificateError("unreadable", "Datoteka certifikata je prazna.");
  if (bytes.length > MAX_PKCS12_BYTES) throw new CertificateError("too_large", `Datoteka certifikata smije imati najviše ${MAX_PKCS12_BYTES / 1024} KB.`);
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(bytes.toString("binary")));
  } catch {
    throw new CertificateError("unreadable", "Datoteka nije certifikat u obliku PKCS#12 (.p12 ili .pfx).");
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (err) {
    const msg = (err as Error).message ?? "";
    if (/password|MAC|decrypt/i.test(msg)) throw new CertificateError("wrong_password", "Lozinka certifikata nije ispravna.");
    throw new CertificateError("unreadable", "Datoteka nije certifikat u obliku PKCS#12 (.p12 ili .pfx) ili je oštećena.");
  }
  const keys = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ].filter((b) => b.key);
  if (keys.length === 0) throw new CertificateError("no_private_key", "Datoteka ne sadrži privatni ključ: izvezite certifikat zajedno s privatnim ključem.");
  const certs = (p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? []).filter((b) => b.cert);
  if (certs.length === 0) throw new CertificateError("no_certificate", "Datoteka ne sadrži certifikat.");

  for (const keyBag of keys) {
    const rsaKey = keyBag.key as forge.pki.rsa.PrivateKey;
    if (!rsaKey.n) continue;
    const keyPem = createPrivateKey(forge.pki.privateKeyToPem(rsaKey)).export({ type: "pkcs8", format: "pem" }).toString();
    for (const certBag of certs) {
      const pub = certBag.cert!.publicKey as forge.pki.rsa.PublicKey;
      if (!pub.n || pub.n.compareTo(rsaKey.n) !== 0 || pub.e.compareTo(rsaKey.e) !== 0) continue;
      const certPem = forge.pki.certificateToPem(certBag.cert!);
      const x509 = new X509Certificate(certPem);
      const oib = certificateOib(x509);
      if (!oib) throw new CertificateError("no_oib", "Certifikat ne sadrži OIB obveznika; za fiskalizaciju je potreban FINA aplikacijski certifikat.");
      return {
        certPem,
        keyPem,
        subject: rfc4514(x509.subject),
        issuer: rfc4514(x509.issuer),
        oib,
        trust: finaChain(certPem).trust,
        serialNumber: x509.serialNumber,
        fingerprint: x509.fingerprint256,
        notBefore: new Date(x509.validFrom),
        notAfter: new Date(x509.validTo),
      };
    }
  }
  if (keys.every((k) => !(k.key as forge.pki.rsa.PrivateKey).n)) throw new CertificateError("not_rsa", "Privatni ključ mora biti RSA ključ.");
  throw new CertificateError("key_mismatch", "Privatni ključ u datoteci ne pripada nijednom certifikatu u njoj.");
}

/**
 * A certificate an endpoint that takes `acceptance` would refuse: one that does not chain to FINA's
 * production CAs where production certificates are required, or to FINA's demo CAs where the CIS
 * test endpoint is used. The Croatian reason names the issuer, or null.
 */
export function certificateTrustProblem(trust: CertificateTrust, issuer: string, acceptance: CertificateAcceptance): CertificateError | null {
  if (acceptsCertificate(acceptance, trust)) return null;
  const what = trust === "fina_demo" ? "FINA demo certifikat" : trust === "fina_production" ? "FINA produkcijski certifikat" : `certifikat koji ne izdaje FINA (izdavatelj: ${issuer})`;
  const need =
    acceptance === "fina_production"
      ? "Porezna uprava u produkciji prima samo aplikacijske certifikate koje izdaje FINA (Fina RDC 2020 ili Fina RDC 2025, korijen Fina Root CA)"
      : "demo okolina Porezne uprave (cistest) prima samo FINA demo certifikate (Fina Demo CA 2020, korijen Fina Demo Root CA)";
  return new CertificateError("untrusted_issuer", `Ovo je ${what}, a ${need}.`);
}

/** Expired or not yet valid at `now`, or issued to another OIB than `expectedOib`: the Croatian reason, or null. */
export function certificateProblem(
  cert: Pick<ParsedCertificate, "notBefore" | "notAfter" | "oib">,
  opts: { now?: Date; expectedOib?: string | null } = {},
): CertificateError | null {
  const now = opts.now ?? new Date();
  if (now > cert.notAfter) return new CertificateError("expired", `Certifikat je istekao ${croatianDateTime(cert.notAfter)}.`);
  if (now < cert.notBefore) return new CertificateError("not_yet_valid", `Certifikat vrijedi tek od ${croatianDateTime(cert.notBefore)}.`);
  if (opts.expectedOib && cert.oib !== opts.expectedOib) {
    return new CertificateError("oib_mismatch", `Certifikat je izdan za OIB ${cert.oib}, a račun tvrtke ima OIB ${opts.expectedOib}.`);
  }
  return null;
}

/** Whole days from `now` until the certificate expires (negative once expired). */
export function daysUntilExpiry(notAfter: Date, now: Date = new Date()): number {
  return Math.floor((notAfter.getTime() - now.getTime()) / 86_400_000);
}

// ---------------------------------------------------------------------------------------------
// Encryption at rest

/** The keys private keys are encrypted under: the current one encrypts, every one listed decrypts. */
export interface CertificateKeyring {
  currentId: string;
  keys: ReadonlyMap<string, Buffer>;
}

/** A private key as stored: the id of the key it is encrypted under, and base64(iv ‖ tag ‖ ciphertext). */
export interface EncryptedKey {
  keyId: string;
  ciphertext: string;
}

/**
 * A key's id: the first 16 hex characters of SHA-256 over "fiskal-cert-key:" and the key. It names
 * the key in the database without revealing it.
 */
export function keyIdOf(key: Buffer): string {
  return createHash("sha256").update("fiskal-cert-key:").update(key).digest("hex").slice(0, 16);
}

/** A 32-byte key from base64 (44 characters) or hex (64 characters); throws on anything else. */
export function parseEncryptionKey(text: string, name = "CERT_ENCRYPTION_KEY"): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, "hex") : /^[A-Za-z0-9+/_-]{43}=?$/.test(t) ? Buffer.from(t, "base64") : null;
  if (!key || key.length !== 32) throw new Error(`${name} must be 32 random bytes, base64 (e.g. \`openssl rand -base64 32\`) or 64 hex characters`);
  return key;
}

/** The keyring from the current key and any previous ones (comma-separated), as the environment gives them. */
export function createKeyring(current: string, previous?: string): CertificateKeyring {
  const cur = parseEncryptionKey(current);
  const keys = new Map<string, Buffer>([[keyIdOf(cur), cur]]);
  for (const part of (previous ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const k = parseEncryptionKey(part, "CERT_ENCRYPTION_PREVIOUS_KEYS");
    keys.set(keyIdOf(k), k);
  }
  return { currentId: keyIdOf(cur), keys };
}

/** A fresh random key in the form CERT_ENCRYPTION_KEY takes (base64). */
export function generateEncryptionKey(): string {
  return randomBytes(32).toString("base64");
}

/** The associated data binds a ciphertext to its account: a row copied to another account does not decrypt. */
function aad(accountId: string): Buffer {
  return Buffer.from(`fiskal-certificate-key:${accountId}`, "utf8");
}

/** AES-256-GCM under the keyring's current key, bound to the account. */
export function encryptPrivateKey(keyring: CertificateKeyring, accountId: string, keyPem: string): EncryptedKey {
  const key = keyring.keys.get(keyring.currentId)!;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(aad(accountId));
  const body = Buffer.concat([cipher.update(keyPem, "utf8"), cipher.final()]);
  return { keyId: keyring.currentId, ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64") };
}

/** Decrypts a stored private key; throws if its key is not in the keyring or the ciphertext was altered. */
export function decryptPrivateKey(keyring: CertificateKeyring, accountId: string, stored: EncryptedKey): string {
  const key = keyring.keys.get(stored.keyId);
  if (!key) {
    throw new Error(`certificate key is encrypted under key ${stored.keyId}, which is neither CERT_ENCRYPTION_KEY nor in CERT_ENCRYPTION_PREVIOUS_KEYS`);
  }
  const raw = Buffer.from(stored.ciphertext, "base64");
  if (raw.length < 29) throw new Error("certificate key ciphertext is truncated");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAAD(aad(accountId));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

/** True when the stored key should be re-encrypted under the keyring's current key. */
export function needsReencryption(keyring: CertificateKeyring, stored: { keyId: string }): boolean {
  return stored.keyId !== keyring.currentId;
}

// ---------------------------------------------------------------------------------------------
// What an upload stores

/** The columns of a Certificate row for an uploaded certificate (no plaintext key among them). */
export interface CertificateRowData {
  subject: string;
  issuer: string;
  oib: string;
  serialNumber: string;
  fingerprint: string;
  certPem: string;
  keyCiphertext: string;
  keyId: string;
  notBefore: Date;
  notAfter: Date;
  /** Not a FINA production certificate (FINA demo, self-signed or another CA): CIS in production refuses it. */
  test: boolean;
}

/**
 * Reads, checks and encrypts an uploaded PKCS#12: throws CertificateError (Croatian message) when
 * it cannot be read, the password is wrong, it is expired or not yet valid, it belongs to another
 * OIB than the account's (`expectedOib`, when the account has one), or it does not chain to the
 * FINA CAs the tax authority's endpoint takes (`accept`, default `any`).
 */
export function prepareCertificateUpload(input: {
  accountId: string;
  pkcs12: Buffer;
  password: string;
  keyring: CertificateKeyring;
  expectedOib?: string | null;
  now?: Date;
  accept?: CertificateAcceptance;
}): CertificateRowData {
  const parsed = parsePkcs12(input.pkcs12, input.password);
  const problem = certificateProblem(parsed, { now: input.now, expectedOib: input.expectedOib });
  if (problem) throw problem;
  const untrusted = certificateTrustProblem(parsed.trust, parsed.issuer, input.accept ?? "any");
  if (untrusted) throw untrusted;
  const enc = encryptPrivateKey(input.keyring, input.accountId, parsed.keyPem);
  return {
    subject: parsed.subject,
    issuer: parsed.issuer,
    oib: parsed.oib,
    serialNumber: parsed.serialNumber,
    fingerprint: parsed.fingerprint,
    certPem: parsed.certPem,
    keyCiphertext: enc.ciphertext,
    keyId: enc.keyId,
    notBefore: parsed.notBefore,
    notAfter: parsed.notAfter,
    test: parsed.trust !== "fina_production",
  };
}

/**
 * Decodes a PKCS#12 sent as base64 (standard or URL-safe, whitespace and a data: URL prefix
 * allowed); throws CertificateError on anything else.
 */
export function decodePkcs12Base64(text: string): Buffer {
  const t = text.replace(/^data:[^,]*;base64,/, "").replace(/\s+/g, "");
  if (t === "" || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) throw new CertificateError("unreadable", "Certifikat mora biti poslan kao base64 zapis datoteke .p12/.pfx.");
  const bytes = Buffer.from(t, "base64");
  if (bytes.length > MAX_PKCS12_BYTES) throw new CertificateError("too_large", `Datoteka certifikata smije imati najviše ${MAX_PKCS12_BYTES / 1024} KB.`);
  return bytes;
}

/**
 * A PKCS#12 file for tests and demos: `certPem` + `keyPem` bundled under `password` (3DES, as FINA
 * ships them).
 */
export function buildPkcs12(certPem: string, keyPem: string, password: string): Buffer {
  const p12 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(keyPem), [forge.pki.certificateFromPem(certPem)], password, {
    algorithm: "3des",
    friendlyName: "fiskal",
  });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), "binary");
}
