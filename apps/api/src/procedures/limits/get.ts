// GET /v1/limits — where the account stands in every window; reading it consumes no quota.
import { z } from "zod";
import { ENDPOINT_LIMITS, endpointLimit, type EndpointGroup } from "@fiskal/limits";
import { apiKeyProcedure } from "../../trpc.ts";

const Window = z.object({
  name: z.string(),
  policy: z.string(),
  limit: z.number().int(),
  remaining: z.number().int(),
  reset: z.number().int().describe("Unix sekunde kada prozor ponovno propušta zahtjeve ili se obnavlja."),
  window_seconds: z.number().int(),
});

export const getLimits = apiKeyProcedure
  .meta({
    free: true,
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
    const { limiter } = ctx.services;
    const { accountId, limits, plan } = ctx.principal;
    const identity = `acct:${accountId}`;
    const toWindow = (w: { name: string; policy: string; limit: number; remaining: number; reset: number; windowSeconds: number }) => ({
      name: w.name,
      policy: w.policy,
      limit: w.limit,
      remaining: w.remaining,
      reset: Math.ceil(w.reset / 1000),
      window_seconds: w.windowSeconds,
    });
    const groups = Object.keys(ENDPOINT_LIMITS) as EndpointGroup[];
    const [base, ...perGroup] = await Promise.all([
      limiter.peek({ identity, limits }),
      ...groups.map((endpoint) => limiter.peek({ identity, limits, endpoint })),
    ]);
    return {
      plan,
      limits: { burst: limits.burst, per_minute: limits.perMinute, per_day: limits.perDay },
      windows: base!.map(toWindow),
      endpoints: groups.map((group, i) => {
        const w = perGroup[i]!.find((x) => x.name === "endpoint")!;
        return { group, label: ENDPOINT_LIMITS[group].label, per_minute: endpointLimit(limits, group), window: toWindow(w) };
      }),
    };
  });
