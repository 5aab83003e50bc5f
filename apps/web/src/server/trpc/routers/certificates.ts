// The signed-in account's signing certificate: what may be shown of it, and uploading a FINA
// application certificate (PKCS#12 + password). The private key is encrypted before it is stored
// (CERT_ENCRYPTION_KEY, shared with the API); neither it nor the password is returned or logged.
import type { Certificate } from "@fiskal/db";
import {
  CERTIFICATE_WARNING_DAYS,
  CertificateError,
  certificateOib,
  createKeyring,
  daysUntilExpiry,
  decodePkcs12Base64,
  prepareCertificateUpload,
  type CertificateKeyring,
} from "@fiskal/fiscal/certificates";
import type { TRPCRouterRecord } from "@trpc/server";
import { X509Certificate } from "node:crypto";
import { z } from "zod";
import { env } from "~/env";
import { audit } from "~/server/audit";
import { developerProcedure } from "../trpc";

export type CertificateState = "valid" | "expiring" | "expired" | "not_yet_valid";

export interface CertificateInfo {
  subject: string;
  issuer: string | null;
  oib: string | null;
  serialNumber: string | null;
  fingerprint: string | null;
  notBefore: string | null;
  notAfter: string;
  daysLeft: number;
  state: CertificateState;
  test: boolean;
  uploadedAt: string;
}

function certificateInfo(row: Certificate, now: Date = new Date()): CertificateInfo {
  const daysLeft = daysUntilExpiry(row.notAfter, now);
  const state: CertificateState =
    now > row.notAfter ? "expired" : row.notBefore && now < row.notBefore ? "not_yet_valid" : daysLeft < CERTIFICATE_WARNING_DAYS ? "expiring" : "valid";
  return {
    subject: row.subject,
    issuer: row.issuer,
    oib: row.oib ?? certificateOib(new X509Certificate(row.certPem)),
    serialNumber: row.serialNumber,
    fingerprint: row.fingerprint,
    notBefore: row.notBefore?.toISOString() ?? null,
    notAfter: row.notAfter.toISOString(),
    daysLeft,
    state,
    test: row.test,
    uploadedAt: row.createdAt.toISOString(),
  };
}

/** The portal's keyring, or null when CERT_ENCRYPTION_KEY is not configured (uploads are then refused). */
function keyring(): CertificateKeyring | null {
  const e = env();
  return e.certEncryptionKey ? createKeyring(e.certEncryptionKey, e.certEncryptionPreviousKeys) : null;
}

/** ~64 KB of PKCS#12 as base64, with room for a data: prefix. */
const MAX_BASE64 = 90_000;

export type UploadOutcome = { ok: true; certificate: CertificateInfo } | { ok: false; field: "file" | "password" | null; message: string };

export const certificatesRouter = {
  get: developerProcedure.query(async ({ ctx }) => {
    const row = await ctx.db.certificate.findUnique({ where: { accountId: ctx.accountId } });
    const account = await ctx.db.account.findUniqueOrThrow({ where: { id: ctx.accountId }, select: { oib: true } });
    return { certificate: row ? certificateInfo(row) : null, accountOib: account.oib, warningDays: CERTIFICATE_WARNING_DAYS };
  }),

  upload: developerProcedure
    .input(
      z.object({
        pkcs12: z.string().min(1, "Odaberite datoteku certifikata (.p12 ili .pfx).").max(MAX_BASE64, "Datoteka certifikata smije imati najviše 64 KB."),
        password: z.string().max(200, "Lozinka je predugačka."),
      }),
    )
    .mutation(async ({ ctx, input }): Promise<UploadOutcome> => {
      const ring = keyring();
      if (!ring) {
        return {
          ok: false,
          field: null,
          message: "Portal nema postavljen ključ za šifriranje certifikata (CERT_ENCRYPTION_KEY). Javite se administratoru.",
        };
      }
      const account = await ctx.db.account.findUniqueOrThrow({ where: { id: ctx.accountId }, select: { oib: true } });
      let data;
      try {
        data = prepareCertificateUpload({ accountId: ctx.accountId, pkcs12: decodePkcs12Base64(input.pkcs12), password: input.password, keyring: ring, expectedOib: account.oib });
      } catch (err) {
        if (err instanceof CertificateError) return { ok: false, field: err.reason === "wrong_password" ? "password" : "file", message: err.message };
        throw err;
      }
      const stored = { ...data, keyPem: null, createdAt: new Date() };
      const row = await ctx.db.$transaction(async (tx) => {
        const saved = await tx.certificate.upsert({ where: { accountId: ctx.accountId }, create: { accountId: ctx.accountId, ...stored }, update: stored });
        await audit(
          ctx,
          { action: "certificate.uploaded", target: saved.fingerprint ?? saved.subject, detail: { subject: saved.subject, oib: saved.oib, not_after: saved.notAfter.toISOString() } },
          tx,
        );
        return saved;
      });
      return { ok: true, certificate: certificateInfo(row) };
    }),
} satisfies TRPCRouterRecord;
