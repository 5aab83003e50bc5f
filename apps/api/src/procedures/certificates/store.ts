// The account's signing certificate: the one it uploaded, or a generated test certificate (sandbox
// and embedded trials). Private keys are only ever stored encrypted; they are decrypted in memory
// to sign, and never returned or logged.
import { X509Certificate } from "node:crypto";
import { Prisma, type Certificate, type Db } from "@fiskal/db";
import {
  CERTIFICATE_WARNING_DAYS,
  certificateOib,
  certificateProblem,
  daysUntilExpiry,
  decryptPrivateKey,
  encryptPrivateKey,
  certificateTrustProblem,
  finaChain,
  generateTestCertificate,
  prepareCertificateUpload,
  type CertificateAcceptance,
  type CertificateKeyring,
  type CertificateTrust,
} from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";

export interface SigningCertificate {
  id: string;
  certPem: string;
  /** Decrypted PKCS#8 PEM: keep in memory only. */
  keyPem: string;
  oib: string;
  test: boolean;
}

/** The OIB of a stored certificate (read from the certificate itself on rows stored before it was recorded). */
function storedOib(row: Pick<Certificate, "oib" | "certPem">): string | null {
  return row.oib ?? certificateOib(new X509Certificate(row.certPem));
}

/**
 * The certificate that signs a receipt of `oib`. An account without one gets a generated test
 * certificate for that OIB where the endpoint takes any certificate (the simulator, a local CIS).
 * Refused with validation_error: an expired or not yet valid certificate, one issued to another
 * OIB, or one the endpoint does not take (`accept`: FINA production / FINA demo only).
 */
export async function signingCertificate(
  db: Db,
  keyring: CertificateKeyring,
  accountId: string,
  issuer: { oib: string; name: string },
  now: Date = new Date(),
  accept: CertificateAcceptance = "any",
): Promise<SigningCertificate> {
  let row = await db.certificate.findUnique({ where: { accountId } });
  if (!row && accept !== "any") {
    const message = "Račun tvrtke nema učitan FINA certifikat, a Porezna uprava prima samo njega. Učitajte ga (portal: Certifikat, ili PUT /v1/certificate).";
    throw new ApiError("validation_error", message, [{ path: "certificate", message, reason: "no_certificate" }]);
  }
  if (!row) row = await createTestCertificate(db, keyring, accountId, issuer);
  const untrusted = certificateTrustProblem(finaChain(row.certPem, now).trust, row.issuer ?? "", accept);
  if (untrusted) {
    const message = `${untrusted.message} Učitajte odgovarajući certifikat (portal: Certifikat, ili PUT /v1/certificate).`;
    throw new ApiError("validation_error", message, [{ path: "certificate", message, reason: untrusted.reason }]);
  }
  const oib = storedOib(row);
  const problem = certificateProblem({ notBefore: row.notBefore ?? new Date(0), notAfter: row.notAfter, oib: oib ?? "" }, { now, expectedOib: issuer.oib });
  if (problem) {
    const message =
      problem.reason === "oib_mismatch"
        ? `Certifikat računa tvrtke izdan je za OIB ${oib}, a račun ima OIB izdavatelja ${issuer.oib}. Račun se potpisuje certifikatom izdavatelja.`
        : `${problem.message} Učitajte važeći certifikat (portal: Certifikat, ili PUT /v1/certificate).`;
    throw new ApiError("validation_error", message, [{ path: problem.reason === "oib_mismatch" ? "oib" : "certificate", message, reason: problem.reason }]);
  }
  return { id: row.id, certPem: row.certPem, keyPem: await privateKeyOf(db, keyring, row), oib: oib!, test: row.test };
}

async function createTestCertificate(db: Db, keyring: CertificateKeyring, accountId: string, issuer: { oib: string; name: string }): Promise<Certificate> {
  const cert = generateTestCertificate(issuer);
  const enc = encryptPrivateKey(keyring, accountId, cert.keyPem);
  const x509 = new X509Certificate(cert.certPem);
  try {
    return await db.certificate.create({
      data: {
        accountId,
        subject: cert.subject,
        issuer: "CN=FISKAL TEST,O=Fiskal,C=HR",
        oib: issuer.oib,
        serialNumber: x509.serialNumber,
        fingerprint: x509.fingerprint256,
        certPem: cert.certPem,
        keyCiphertext: enc.ciphertext,
        keyId: enc.keyId,
        notBefore: new Date(x509.validFrom),
        notAfter: cert.notAfter,
        test: true,
      },
    });
  } catch (err) {
    // Two first receipts at once: one certificate wins, both use it.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") return db.certificate.findUniqueOrThrow({ where: { accountId } });
    throw err;
  }
}

/** Decrypts the row's key; a legacy plaintext key is encrypted in place on first use. */
async function privateKeyOf(db: Db, keyring: CertificateKeyring, row: Certificate): Promise<string> {
  if (row.keyCiphertext && row.keyId) return decryptPrivateKey(keyring, row.accountId, { keyId: row.keyId, ciphertext: row.keyCiphertext });
  if (!row.keyPem) throw new Error(`certificate ${row.id} has no private key`);
  const enc = encryptPrivateKey(keyring, row.accountId, row.keyPem);
  await db.certificate.updateMany({ where: { id: row.id, keyCiphertext: null }, data: { keyCiphertext: enc.ciphertext, keyId: enc.keyId, keyPem: null } });
  return row.keyPem;
}

/**
 * Re-encrypts every stored private key that is not under the keyring's current key (and encrypts
 * legacy plaintext ones). Returns how many rows changed. Idempotent; safe while the API runs.
 */
export async function reencryptCertificateKeys(db: Db, keyring: CertificateKeyring): Promise<{ reencrypted: number; failed: { id: string; accountId: string; error: string }[] }> {
  const rows = await db.certificate.findMany({
    where: { OR: [{ keyId: { not: keyring.currentId } }, { keyId: null }] },
    select: { id: true, accountId: true, keyId: true, keyCiphertext: true, keyPem: true },
  });
  let reencrypted = 0;
  const failed: { id: string; accountId: string; error: string }[] = [];
  for (const row of rows) {
    try {
      const pem =
        row.keyCiphertext && row.keyId ? decryptPrivateKey(keyring, row.accountId, { keyId: row.keyId, ciphertext: row.keyCiphertext }) : row.keyPem;
      if (!pem) throw new Error("no private key stored");
      const enc = encryptPrivateKey(keyring, row.accountId, pem);
      // Only if nobody replaced the certificate meanwhile.
      const { count } = await db.certificate.updateMany({
        where: { id: row.id, keyId: row.keyId, keyCiphertext: row.keyCiphertext },
        data: { keyCiphertext: enc.ciphertext, keyId: enc.keyId, keyPem: null },
      });
      reencrypted += count;
    } catch (err) {
      failed.push({ id: row.id, accountId: row.accountId, error: (err as Error).message });
    }
  }
  return { reencrypted, failed };
}

/** What may be shown about a certificate: never the key. */
export interface CertificateView {
  subject: string;
  issuer: string | null;
  oib: string | null;
  serial_number: string | null;
  fingerprint_sha256: string | null;
  not_before: string | null;
  not_after: string;
  /** Whole days until it expires (negative once expired). */
  days_left: number;
  /** "valid", "expiring" (within 30 days), "expired" or "not_yet_valid". */
  state: "valid" | "expiring" | "expired" | "not_yet_valid";
  /** Not a FINA production certificate: generated, FINA demo, or another issuer. */
  test: boolean;
  /** Where the certificate chains among the FINA CAs shipped with Fiskal. */
  trust: CertificateTrust;
  /** The CAs above it, issuer first, e.g. ["Fina RDC 2020", "Fina Root CA"]; empty when it does not chain to FINA. */
  chain: string[];
  uploaded_at: string;
}

export function certificateView(row: Certificate, now: Date = new Date()): CertificateView {
  const days = daysUntilExpiry(row.notAfter, now);
  const fina = finaChain(row.certPem, now);
  const state: CertificateView["state"] =
    now > row.notAfter ? "expired" : row.notBefore && now < row.notBefore ? "not_yet_valid" : days < CERTIFICATE_WARNING_DAYS ? "expiring" : "valid";
  return {
    subject: row.subject,
    issuer: row.issuer,
    oib: storedOib(row),
    serial_number: row.serialNumber,
    fingerprint_sha256: row.fingerprint,
    not_before: row.notBefore?.toISOString() ?? null,
    not_after: row.notAfter.toISOString(),
    days_left: days,
    state,
    test: row.test || fina.trust !== "fina_production",
    trust: fina.trust,
    chain: fina.chain,
    uploaded_at: row.createdAt.toISOString(),
  };
}

/**
 * Stores an uploaded PKCS#12 as the account's certificate (replacing the previous one). Throws
 * CertificateError for anything wrong with the file, the password, the dates or the OIB (the
 * account's OIB, when it has one).
 */
export async function storeUploadedCertificate(
  db: Db,
  keyring: CertificateKeyring,
  input: { accountId: string; pkcs12: Buffer; password: string; now?: Date; accept?: CertificateAcceptance },
): Promise<Certificate> {
  const account = await db.account.findUniqueOrThrow({ where: { id: input.accountId }, select: { oib: true } });
  const data = prepareCertificateUpload({ ...input, keyring, expectedOib: account.oib });
  const stored = { ...data, keyPem: null, createdAt: input.now ?? new Date() };
  return db.certificate.upsert({ where: { accountId: input.accountId }, create: { accountId: input.accountId, ...stored }, update: stored });
}
