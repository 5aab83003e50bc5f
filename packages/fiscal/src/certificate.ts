// Self-signed test certificates for sandbox accounts (stand-ins for FINA fiscal certificates).
import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";
import { checkOib } from "./oib.ts";

export interface TestCertificate {
  certPem: string;
  /** PKCS#8 PEM, unencrypted: treat as a secret. */
  keyPem: string;
  notAfter: Date;
  /** RFC 4514 order (most specific first), e.g. "CN=FISKAL TEST 69435151530,serialNumber=69435151530,O=Firma d.o.o.,C=HR". */
  subject: string;
}

const VALIDITY_YEARS = 5;

/**
 * RSA 2048 self-signed X.509, issuer "CN=FISKAL TEST,O=Fiskal,C=HR", valid 5 years, SHA-256.
 * The OIB goes in the subject's serialNumber and CN, where CIS looks for it.
 * The key comes from node:crypto (native, ~50–200 ms) because forge's pure-JS keygen takes seconds.
 */
export function generateTestCertificate(
  subject: { oib: string; name: string },
  /** Validity other than "from a minute ago for five years" (tests of expired or future certificates). */
  validity?: { notBefore: Date; notAfter: Date },
): TestCertificate {
  const oib = checkOib(subject.oib);
  if (!oib.valid) throw new RangeError(`generateTestCertificate: OIB ${JSON.stringify(subject.oib)} is not valid (${oib.reason})`);
  const trimmed = typeof subject.name === "string" ? subject.name.trim() : "";
  if (trimmed === "") throw new RangeError("generateTestCertificate: name is required");
  // X.520 caps organizationName at 64 characters; a longer account name is cut rather than refused.
  const name = [...trimmed].slice(0, 64).join("").trim();

  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();

  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicPem);
  // Positive 127-bit serial: the high bit cleared keeps the DER INTEGER positive.
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  cert.serialNumber = serial.toString("hex");
  const now = new Date();
  cert.validity.notBefore = validity?.notBefore ?? new Date(now.getTime() - 60_000);
  const notAfter = new Date(validity?.notAfter ?? now);
  if (!validity) notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALIDITY_YEARS);
  notAfter.setUTCMilliseconds(0);
  cert.validity.notAfter = notAfter;
  const cn = `FISKAL TEST ${subject.oib}`;
  // Without the UTF8String tag forge writes values as Latin-1 bytes and "Šime" is mangled.
  // (@types/node-forge declares valueTagClass as an asn1.Class; forge reads it as an asn1.Type.)
  const utf8 = (value: string) => ({ value, valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class });
  cert.setSubject([
    { shortName: "C", value: "HR" },
    { shortName: "O", ...utf8(name) },
    { name: "serialNumber", value: subject.oib },
    { shortName: "CN", ...utf8(cn) },
  ]);
  cert.setIssuer([
    { shortName: "C", value: "HR" },
    { shortName: "O", value: "Fiskal" },
    { shortName: "CN", value: "FISKAL TEST" },
  ]);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());

  return {
    certPem: forge.pki.certificateToPem(cert),
    keyPem,
    notAfter,
    subject: `CN=${escapeRdn(cn)},serialNumber=${subject.oib},O=${escapeRdn(name)},C=HR`,
  };
}

/** RFC 4514 escaping of an attribute value. */
function escapeRdn(v: string): string {
  return v.replace(/[,+"\\<>;=]/g, (c) => `\\${c}`).replace(/^[ #]|[ ]$/g, (c) => `\\${c}`);
}
