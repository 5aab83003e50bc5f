// GET /v1/limits — where the account stands in every window; reading it consumes no quota.
import { z } from "zod";
import { ENDPOINT_GROUPS, ENDPOINT_LIMITS, endpointLimit, STATUS_LIMITS, type WindowState } from "@fiskal/limits";
import { apiKeyProcedure } from "../../trpc.ts";

const Window = z.object({
  name: z.string(),
  policy: z.string(),
  limit: z.number().int(),
  remaining: z.number().int(),
  reset: z.number().int().describe("Unix sekunde (zaokruženo naviše) kada se kvota prozora sljedeći put povećava: kada najstariji izbrojani zahtjev izađe iz prozora, za dnevni prozor u ponoć UTC. Ako prozor nije ništa izbrojao, sada."),
  window_seconds: z.number().int(),
});

export const getLimits = apiKeyProcedure
  .meta({
    statusLimits: STATUS_LIMITS,
    openapi: {
      method: "GET",
      path: "/v1/limits",
      tags: ["limits"],
      summary: "Trenutno stanje ograničenja (besplatno: ne troši kvotu)",
      protect: true,
    },
  })
  .input(z.object({}).optional())
  .output(
    z.object({
      plan: z.string(),
      limits: z.object({ burst: z.number().int(), per_minute: z.number().int(), per_day: z.number().int() }),
      windows: z.array(Window),
      endpoints: z.array(z.object({ group: z.string(), label: z.string(), per_minute: z.number().int(), window: Window })),
    }),
  )
  .query(async ({ ctx }) => {
    const { accountId, limits, plan } = ctx.principal;
    // the gate read every window of the account in the script execution that counted this call
    // against the status allowance; other callers (tests, internal use) read them here
    const all: WindowState[] =
      ctx.decision?.observed ?? (await ctx.services.limiter.peek({ identity: `acct:${accountId}`, limits, endpoints: ENDPOINT_GROUPS }));
    const toWindow = (w: WindowState) => ({
      name: w.name,
      policy: w.policy,
      limit: w.limit,
      remaining: w.remaining,
      reset: Math.ceil(w.reset / 1000),
      window_seconds: w.windowSeconds,
    });
    return {
      plan,
      limits: { burst: limits.burst, per_minute: limits.perMinute, per_day: limits.perDay },
      windows: all.filter((w) => w.name !== "endpoint").map(toWindow),
      endpoints: ENDPOINT_GROUPS.map((group) => {
        const w = all.find((x) => x.policy === `endpoint:${group}`)!;
        return { group, label: ENDPOINT_LIMITS[group].label, per_minute: endpointLimit(limits, group), window: toWindow(w) };
      }),
    };
  });
