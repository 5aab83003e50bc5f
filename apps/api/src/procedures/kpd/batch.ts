// GET /v1/kpd/batch?codes=a,b,c — up to 100 codes in one request that counts as one.
import { z } from "zod";
import { apiKeyProcedure } from "../../trpc.ts";
import { kpdEtag } from "./etag.ts";
import { KpdCodeSchema, toKpdCode } from "./schemas.ts";

export const batchKpd = apiKeyProcedure
  .meta({
    group: "kpd",
    etag: kpdEtag,
    openapi: { method: "GET", path: "/v1/kpd/batch", tags: ["kpd"], summary: "Dohvat do 100 KPD šifri (broji se kao jedan zahtjev)", protect: true },
  })
  .input(
    z.object({
      codes: z
        .string()
        .min(1)
        .max(2000)
        .describe("Šifre odvojene zarezom, najviše 100.")
        .transform((s) => s.split(",").map((c) => c.trim()).filter(Boolean))
        .pipe(z.array(z.string().max(16)).min(1).max(100)),
    }),
  )
  .output(
    z.object({
      results: z.array(z.object({ code: z.string(), found: z.boolean(), entry: KpdCodeSchema.nullable() })),
      found: z.number().int(),
      missing: z.array(z.string()),
    }),
  )
  .query(({ input, ctx }) => {
    const results = input.codes.map((code) => {
      const e = ctx.services.kpd.get(code);
      return { code, found: !!e, entry: e ? toKpdCode(e) : null };
    });
    return { results, found: results.filter((r) => r.found).length, missing: results.filter((r) => !r.found).map((r) => r.code) };
  });
