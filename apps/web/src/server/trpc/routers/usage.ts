// Usage of the signed-in account: the quota, the chosen period (totals, chart, endpoints) and the
// request log with its filters.
import { limitsFor } from "@fiskal/limits";
import { accountEndpoints, recentRequests, requestsToday, usageRange } from "@fiskal/usage";
import type { TRPCRouterRecord } from "@trpc/server";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { quotaProgress } from "~/lib/chart";
import { logFilter, parseView, TIME_ZONE } from "~/lib/usage-view";
import { protectedProcedure } from "../trpc";

/** The view parameters as they come from the URL; parseView checks them further. */
const viewInput = z.object({
  range: z.string().max(16).optional(),
  from: z.string().max(10).optional(),
  to: z.string().max(10).optional(),
  status: z.string().max(8).optional(),
  endpoint: z.string().max(200).optional(),
  key: z.string().max(36).optional(),
});

export const usageRouter = {
  overview: protectedProcedure.input(viewInput.default({})).query(async ({ ctx, input }) => {
    const account = await ctx.db.account.findUnique({ where: { id: ctx.accountId } });
    if (!account) throw new TRPCError({ code: "NOT_FOUND", message: "Račun nije pronađen." });
    const limits = limitsFor(account);
    const view = parseView(input);
    const [range, admittedToday, endpoints, keys] = await Promise.all([
      usageRange(ctx.db, ctx.accountId, { from: view.from, to: view.to, bucket: view.bucket, timeZone: TIME_ZONE }),
      requestsToday(ctx.db, ctx.accountId),
      accountEndpoints(ctx.db, ctx.accountId),
      ctx.db.apiKey.findMany({ where: { accountId: ctx.accountId }, orderBy: { createdAt: "desc" }, select: { id: true, name: true, prefix: true } }),
    ]);
    return {
      plan: account.plan,
      limits,
      view: { ...view, from: view.from.toISOString(), to: view.to.toISOString() },
      totals: range.totals,
      series: range.series.map((b) => ({ ...b, start: b.start.toISOString() })),
      endpoints: range.endpoints,
      knownEndpoints: endpoints,
      keys,
      quota: { used: admittedToday, limit: limits.perDay, ...quotaProgress(admittedToday, limits.perDay) },
    };
  }),

  recent: protectedProcedure
    .input(
      viewInput.extend({
        limit: z.number().int().min(1).max(100).default(25),
        before: z.string().regex(/^\d{1,19}$/, "Neispravan pokazivač stranice.").optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const rows = await recentRequests(ctx.db, ctx.accountId, { limit: input.limit, before: input.before, filter: logFilter(parseView(input)) });
      return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
    }),
} satisfies TRPCRouterRecord;
