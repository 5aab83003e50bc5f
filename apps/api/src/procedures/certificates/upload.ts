// PUT /v1/certificate — upload the account's FINA application certificate (PKCS#12 + password).
// The private key is encrypted before it is stored; neither it nor the password is returned or logged.
import { z } from "zod";
import { recordAudit } from "@fiskal/db";
import { CertificateError, decodePkcs12Base64 } from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { clientIp } from "../../http/gate.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { CertificateSchema } from "./schemas.ts";
import { certificateView, storeUploadedCertificate } from "./store.ts";

const UploadInput = z.strictObject(
  {
    pkcs12: z.string().min(1).max(200_000).describe("Datoteka certifikata (.p12 / .pfx) kao base64."),
    password: z.string().max(200).describe("Lozinka datoteke certifikata. Ne pohranjuje se."),
  },
  { error: (iss) => (iss.code === "unrecognized_keys" ? `Nepoznato polje: ${iss.keys.map((k) => `"${k}"`).join(", ")}.` : undefined) },
);

export const uploadCertificate = apiKeyProcedure
  .meta({
    openapi: {
      method: "PUT",
      path: "/v1/certificate",
      tags: ["certificates"],
      summary: "Učitavanje FINA certifikata",
      description:
        "Zamjenjuje certifikat računa tvrtke. Certifikat mora biti valjan i izdan za OIB tvrtke (ako je zadan). Prema produkcijskoj Poreznoj upravi mora ga izdati FINA " +
        "(lanac do Fina Root CA), prema demo okolini (cistest) FINA demo CA; inače 400 s reason untrusted_issuer. Privatni ključ pohranjuje se šifriran (AES-256-GCM).",
      protect: true,
    },
  })
  .input(UploadInput)
  .output(CertificateSchema)
  .mutation(async ({ input, ctx }) => {
    const { db, certificateKeys } = ctx.services;
    const accountId = ctx.principal.accountId;
    let row;
    try {
      row = await storeUploadedCertificate(db, certificateKeys, {
        accountId,
        pkcs12: decodePkcs12Base64(input.pkcs12),
        password: input.password,
        accept: ctx.services.taxAuthority.certificates ?? "any",
      });
    } catch (err) {
      if (err instanceof CertificateError) {
        const path = err.reason === "wrong_password" ? "password" : "pkcs12";
        throw new ApiError("validation_error", err.message, [{ path, message: err.message, reason: err.reason }]);
      }
      throw err;
    }
    await recordAudit(db, {
      accountId,
      actor: "api",
      action: "certificate.uploaded",
      target: row.fingerprint ?? row.subject,
      ip: clientIp(ctx.req, ctx.services.trustProxyHops),
      detail: { subject: row.subject, oib: row.oib, not_after: row.notAfter.toISOString(), api_key_id: ctx.principal.apiKeyId },
    });
    return certificateView(row);
  });
