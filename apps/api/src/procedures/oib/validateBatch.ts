// POST /v1/validate/oib/batch — up to 100 OIBs in one request that counts as one.
import { z } from "zod";
import { checkOib } from "@fiskal/fiscal";
import { apiKeyProcedure } from "../../trpc.ts";
import { OibResult } from "./validate.ts";

const MAX_BATCH = 100;

export const validateOibBatch = apiKeyProcedure
  .meta({
    group: "oib",
    openapi: {
      method: "POST",
      path: "/v1/validate/oib/batch",
      tags: ["oib"],
      summary: "Provjera do 100 OIB-a (broji se kao jedan zahtjev)",
      protect: true,
    },
  })
  .input(z.object({ oibs: z.array(z.string().max(64)).min(1).max(MAX_BATCH) }))
  .output(z.object({ results: z.array(OibResult), valid: z.number().int(), invalid: z.number().int() }))
  .mutation(({ input }) => {
    const results = input.oibs.map(checkOib);
    const valid = results.filter((r) => r.valid).length;
    return { results, valid, invalid: results.length - valid };
  });
