// POST /v1/validate/oib — OIB check digit (ISO 7064 MOD 11,10); an invalid OIB is a result, not an error.
import { z } from "zod";
import { checkOib } from "@fiskal/fiscal";
import { apiKeyProcedure } from "../../trpc.ts";

export const OibResult = z.object({
  oib: z.string(),
  valid: z.boolean(),
  reason: z.enum(["format", "checksum"]).optional().describe("Why it is invalid: wrong shape, or a wrong check digit."),
});

export const validateOib = apiKeyProcedure
  .meta({
    group: "oib",
    openapi: { method: "POST", path: "/v1/validate/oib", tags: ["oib"], summary: "Validate an OIB", protect: true },
  })
  .input(z.object({ oib: z.string().max(64).describe("The OIB to check, e.g. 69435151530.") }))
  .output(OibResult)
  .mutation(({ input }) => checkOib(input.oib));
