// GET /v1/certificate — the account's signing certificate (never its private key).
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { CertificateSchema } from "./schemas.ts";
import { certificateView } from "./store.ts";

export const getCertificate = apiKeyProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/certificate",
      tags: ["certificates"],
      summary: "Certifikat za potpisivanje računa",
      description: "Podaci o certifikatu računa tvrtke: subjekt, OIB, rok valjanosti. Privatni ključ se nikad ne vraća.",
      protect: true,
    },
  })
  .input(z.strictObject({}).optional())
  .output(CertificateSchema)
  .query(async ({ ctx }) => {
    const row = await ctx.services.db.certificate.findUnique({ where: { accountId: ctx.principal.accountId } });
    if (!row) {
      throw new ApiError(
        "not_found",
        "Račun tvrtke još nema certifikat. Učitajte FINA aplikacijski certifikat (PUT /v1/certificate); do tada se računi potpisuju generiranim testnim certifikatom.",
      );
    }
    return certificateView(row);
  });
