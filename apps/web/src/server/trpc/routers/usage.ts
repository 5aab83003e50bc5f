// Usage of the signed-in account: dashboard numbers, charts and the recent-requests log.
import { limitsFor } from "@fiskal/limits";
import { recentRequests, requestsToday, usageSummary } from "@fiskal/usage";
import type { TRPCRouterRecord } from "@trpc/server";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { quotaProgress } from "~/lib/chart";
import { protectedProcedure } from "../trpc";

export const usageRouter = {
  overview: protectedProcedure.query(async ({ ctx }) => {
    const account = await ctx.db.account.findUnique({ where: { id: ctx.accountId } });
    if (!account) throw new TRPCError({ code: "NOT_FOUND", message: "Račun nije pronađen." });
    const limits = limitsFor(account);
    const [summary, admittedToday] = await Promise.all([usageSummary(ctx.db, ctx.accountId), requestsToday(ctx.db, ctx.accountId)]);
    return {
      plan: account.plan,
      limits,
      summary,
      quota: { used: admittedToday, limit: limits.perDay, ...quotaProgress(admittedToday, limits.perDay) },
    };
  }),

  recent: protectedProcedure
    .input(z.object({
        limit: z.number().int().min(1).max(100).default(25),
        before: z.string().regex(/^\d{1,19}$/, "Neispravan pokazivač stranice.").optional(),
      }),)
    .query(async ({ ctx, input }) => {
      const rows = await recentRequests(ctx.db, ctx.accountId, {
        limit: input.limit,
        before: input.before,
      });
      return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
    }),
} satisfies TRPCRouterRecord;
