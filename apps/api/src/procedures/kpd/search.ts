// GET /v1/kpd/search — ranked, diacritic-insensitive search over names and codes.
import { z } from "zod";
import { apiKeyProcedure } from "../../trpc.ts";
import { kpdEtag } from "./etag.ts";
import { KpdCodeSchema, toKpdCode } from "./schemas.ts";

export const searchKpd = apiKeyProcedure
  .meta({
    group: "kpd",
    etag: kpdEtag,
    openapi: { method: "GET", path: "/v1/kpd/search", tags: ["kpd"], summary: "Pretraživanje KPD 2025 šifri", protect: true },
  })
  .input(
    z.object({
      q: z.string().trim().min(1).max(200).describe("Riječi ili početak šifre; dijakritici nisu obavezni (psenica pronalazi Pšenica)."),
      limit: z.coerce.number().int().min(1).max(100).default(20),
      offset: z.coerce.number().int().min(0).max(10_000).default(0).describe("Koliko rezultata preskočiti u poretku (straničenje): sljedeća stranica je offset + limit."),
      level: z.coerce.number().int().min(0).max(5).describe("Samo šifre ove razine (5 = potkategorija, koristi se na stavkama računa).").optional(),
      section: z.string().regex(/^[A-Va-v]$/).optional(),
    }),
  )
  .output(
    z.object({
      query: z.string(),
      total: z.number().int().describe("Koliko šifri ukupno odgovara upitu i filtrima, na svim stranicama."),
      offset: z.number().int(),
      results: z.array(KpdCodeSchema.extend({ score: z.number() })),
    }),
  )
  .query(({ input, ctx }) => {
    const { total, hits } = ctx.services.kpd.searchPage(input.q, {
      limit: input.limit,
      offset: input.offset,
      level: input.level,
      section: input.section?.toUpperCase(),
    });
    return { query: input.q, total, offset: input.offset, results: hits.map((h) => ({ ...toKpdCode(h.entry), score: h.score })) };
  });
