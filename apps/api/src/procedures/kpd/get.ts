// GET /v1/kpd/{code} — one KPD 2025 code with its ancestors.
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { kpdEtag } from "./etag.ts";
import { KpdCodeSchema, toKpdCode } from "./schemas.ts";

export const getKpd = apiKeyProcedure
  .meta({
    group: "kpd",
    etag: kpdEtag,
    openapi: { method: "GET", path: "/v1/kpd/{code}", tags: ["kpd"], summary: "Dohvat KPD 2025 šifre", protect: true },
  })
  .input(z.object({ code: z.string().min(1).max(16).describe("npr. 62.10.11, 62.10, 62 ili J") }))
  .output(KpdCodeSchema)
  .query(({ input, ctx }) => {
    const entry = ctx.services.kpd.get(input.code);
    if (!entry) throw new ApiError("not_found", `KPD šifra ${input.code} ne postoji u klasifikaciji KPD 2025.`);
    return toKpdCode(entry);
  });
