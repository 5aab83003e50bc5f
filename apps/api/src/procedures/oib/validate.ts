// POST /v1/validate/oib — OIB check digit (ISO 7064 MOD 11,10); an invalid OIB is a result, not an error.
import { z } from "zod";
import { checkOib } from "@fiskal/fiscal";
import { apiKeyProcedure } from "../../trpc.ts";

export const OibResult = z.object({
  oib: z.string(),
  valid: z.boolean(),
  reason: z.enum(["format", "checksum"]).optional().describe("Zašto nije ispravan: pogrešan oblik ili pogrešna kontrolna znamenka."),
});

export const validateOib = apiKeyProcedure
  .meta({
    group: "oib",
    openapi: { method: "POST", path: "/v1/validate/oib", tags: ["oib"], summary: "Provjera OIB-a", protect: true },
  })
  .input(z.object({ oib: z.string().max(64).describe("OIB za provjeru, npr. 69435151530.") }))
  .output(OibResult)
  .mutation(({ input }) => checkOib(input.oib));
