// Enveloped XML-DSig for tax-authority messages (CIS technical specification v2.6, §7 and §8.7):
// the root element carries an Id, the Signature is its last child, the Reference points at "#Id"
// with the enveloped-signature and exclusive c14n transforms, SignedInfo is canonicalised with
// exclusive c14n, and KeyInfo/X509Data holds the signing certificate (with its issuer and serial).
// The algorithms are the ones the specification fixes (RSA-SHA1 with a SHA-1 digest); Fiscalization
// 2.0 messages use the same construction with RSA-SHA256 (see SIGNATURE_PROFILES).
//
// Verification never trusts the document: the certificate that verifies must be one the caller
// trusts (pinned, or issued by a configured CA with the expected name), the Reference must cover
// the root element by its Id, and the caller reads data only from the signed, canonicalised bytes.
import { X509Certificate } from "node:crypto";
import { DOMParser, type Element as XmlElement } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";

const DSIG = "http://www.w3.org/2000/09/xmldsig#";

export interface SignatureProfile {
  signatureAlgorithm: string;
  digestAlgorithm: string;
  canonicalizationAlgorithm: string;
}

export const SIGNATURE_PROFILES = {
  /** CIS (Fiscalization 1.0): "metoda potpisivanja je uvijek RSA-SHA1", exclusive c14n. */
  cis: {
    signatureAlgorithm: "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
    digestAlgorithm: "http://www.w3.org/2000/09/xmldsig#sha1",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  },
  /** Fiscalization 2.0 messages: RSA-SHA256 with SHA-256 digests, exclusive c14n. */
  fiskalizacija2: {
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  },
} as const satisfies Record<string, SignatureProfile>;

function pemBody(certPem: string): string {
  return new X509Certificate(certPem).raw.toString("base64");
}

/** RFC 4514-style issuer name ("CN=…,O=…,C=HR") of a certificate, most specific first. */
function issuerName(cert: X509Certificate): string {
  return cert.issuer
    .split("\n")
    .filter(Boolean)
    .reverse()
    .join(",");
}

function xmlText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Signs the document's root element (or the element at `elementXPath`), which must carry an `Id`,
 * with an enveloped signature appended as its last child. Returns the signed document as a string.
 */
export function signEnveloped(xml: string, opts: { keyPem: string; certPem: string; profile?: SignatureProfile; elementXPath?: string }): string {
  const target = opts.elementXPath ?? "/*";
  const profile = opts.profile ?? SIGNATURE_PROFILES.cis;
  const cert = new X509Certificate(opts.certPem);
  const serial = BigInt(`0x${cert.serialNumber}`).toString(10);
  // X509IssuerSerial beside the certificate, as in the specification's sample, whatever the serial's
  // length (FINA's serials have up to 39 digits; xs:integer has no limit, libxml2's reading of it
  // stops at 24 digits — local-cis.ts allows for that).
  const issuerSerial = `<X509IssuerSerial><X509IssuerName>${xmlText(issuerName(cert))}</X509IssuerName><X509SerialNumber>${serial}</X509SerialNumber></X509IssuerSerial>`;
  const keyInfo = `<X509Data><X509Certificate>${pemBody(opts.certPem)}</X509Certificate>${issuerSerial}</X509Data>`;
  const sig = new SignedXml({
    privateKey: opts.keyPem,
    publicCert: opts.certPem,
    signatureAlgorithm: profile.signatureAlgorithm,
    canonicalizationAlgorithm: profile.canonicalizationAlgorithm,
    getKeyInfoContent: () => keyInfo,
  });
  sig.addReference({
    xpath: target,
    digestAlgorithm: profile.digestAlgorithm,
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", profile.canonicalizationAlgorithm],
  });
  sig.computeSignature(xml, { location: { reference: target, action: "append" } });
  return sig.getSignedXml();
}

/** Who may sign a message the caller accepts. */
export interface SignerTrust {
  /** Certificates trusted as signers as they are (PEM, one or more). */
  pinned?: string[];
  /** CA certificates (PEM) whose direct issuance makes a signer trusted, if its subject CN is in `names`. */
  ca?: string[];
  /** Accepted subject common names for CA-issued signers, e.g. ["fiskalcis"] or ["fiskalcistest"]. */
  names?: string[];
}

export class SignatureError extends Error {
  override readonly name = "SignatureError";
}

/** Splits a PEM bundle into its certificates. */
export function pemCertificates(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

function commonName(cert: X509Certificate): string | undefined {
  for (const line of cert.subject.split("\n")) if (line.startsWith("CN=")) return line.slice(3);
  return undefined;
}

/** Whether `certPem` is a signer the trust settings accept at `now`. */
export function isTrustedSigner(certPem: string, trust: SignerTrust, now: Date = new Date()): boolean {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    return false;
  }
  if (now < new Date(cert.validFrom) || now > new Date(cert.validTo)) return false;
  for (const pinned of trust.pinned ?? []) {
    try {
      if (new X509Certificate(pinned).fingerprint256 === cert.fingerprint256) return true;
    } catch {
      // an unreadable pinned certificate trusts nothing
    }
  }
  const cn = commonName(cert);
  if (!trust.names?.length || cn === undefined || !trust.names.includes(cn)) return false;
  for (const caPem of trust.ca ?? []) {
    try {
      const ca = new X509Certificate(caPem);
      if (cert.checkIssued(ca) && cert.verify(ca.publicKey) && now >= new Date(ca.validFrom) && now <= new Date(ca.validTo)) return true;
    } catch {
      // not this CA
    }
  }
  return false;
}

export interface VerifiedDocument {
  /** The signed root element, canonicalised exactly as its digest covers it (the only bytes to read data from). */
  signedXml: string;
  /** The signer's certificate (PEM). */
  signerPem: string;
}

function toPem(b64: string): string {
  const body = b64.replace(/\s+/g, "");
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`;
}

/**
 * Verifies the enveloped signature of `element` (serialised on its own, namespaces in scope
 * included) and returns the signed bytes. Throws SignatureError when there is no signature, it
 * does not verify, it does not cover the element by its Id, or the signer is not trusted.
 */
export function verifyEnveloped(elementXml: string, trust: SignerTrust, now: Date = new Date()): VerifiedDocument {
  return checkEnveloped(elementXml, (signerPem) => {
    if (!isTrustedSigner(signerPem, trust, now)) throw new SignatureError("the message is signed by a certificate that is not trusted");
  });
}

/**
 * An archived message's integrity: its enveloped signature verifies with the certificate it
 * carries and covers the whole element. Whom that certificate belongs to, and whether it was
 * trusted when the message was exchanged, is not asked: the caller reads the signer from the
 * result. Throws SignatureError as verifyEnveloped does.
 */
export function verifyEnvelopedIntegrity(elementXml: string): VerifiedDocument & { signerSubject: string } {
  let signerSubject = "";
  const verified = checkEnveloped(elementXml, (signerPem) => {
    try {
      signerSubject = new X509Certificate(signerPem).subject.split("\n").join(", ");
    } catch {
      throw new SignatureError("the signature's certificate cannot be read");
    }
  });
  return { ...verified, signerSubject };
}

function checkEnveloped(elementXml: string, acceptSigner: (signerPem: string) => void): VerifiedDocument {
  const doc = new DOMParser({ onError: () => undefined }).parseFromString(elementXml, "text/xml");
  const root = doc.documentElement;
  if (!root) throw new SignatureError("the message is not XML");
  const signatures = Array.from(root.childNodes).filter(
    (n): n is XmlElement => n.nodeType === 1 && (n as XmlElement).localName === "Signature" && (n as XmlElement).namespaceURI === DSIG,
  );
  if (signatures.length !== 1) throw new SignatureError(signatures.length === 0 ? "the message is not signed" : "the message carries more than one signature");
  const signature = signatures[0]!;
  const certNode = signature.getElementsByTagNameNS(DSIG, "X509Certificate")[0];
  if (!certNode?.textContent) throw new SignatureError("the signature carries no certificate");
  const signerPem = toPem(certNode.textContent);
  acceptSigner(signerPem);
  // "Id" on CIS answers; a namespace-qualified "id" on Fiscalization 2.0 answers.
  const idAttr = Array.from(root.attributes).find((a) => ["Id", "ID", "id"].includes(a.localName ?? a.name));
  const id = idAttr?.value;
  if (!id) throw new SignatureError("the signed element has no Id");
  const references = signature.getElementsByTagNameNS(DSIG, "Reference");
  if (references.length !== 1 || references[0]!.getAttribute("URI") !== `#${id}`) {
    throw new SignatureError("the signature does not cover the whole message");
  }
  const sig = new SignedXml({ publicCert: signerPem, getCertFromKeyInfo: () => null });
  // xml-crypto types its argument as a DOM Node: an @xmldom/xmldom Element is one at run time, and the same type
  // without the DOM lib, but not where a program also loads the DOM lib (e2e).
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  sig.loadSignature(signature as unknown as Parameters<SignedXml["loadSignature"]>[0]);
  let valid = false;
  try {
    valid = sig.checkSignature(elementXml);
  } catch (err) {
    throw new SignatureError(`the signature does not verify: ${(err as Error).message}`);
  }
  if (!valid) throw new SignatureError("the signature does not verify");
  const signed = sig.getSignedReferences();
  if (signed.length !== 1) throw new SignatureError("the signature does not cover the whole message");
  return { signedXml: signed[0]!, signerPem };
}
