// Usage of the signed-in account: the quota, the chosen period (totals, chart, endpoints) and the
// request log with its filters.
import { limitsFor } from "@fiskal/limits";
import { accountEndpoints, recentRequests, requestsToday, usageRange } from "@fiskal/usage";
import type { TRPCRouterRecord } from "@trpc/server";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { quotaProgress } from "~/lib/chart";
import { logFilter, parseView, TIME_ZONE } from "~/lib/usage-view";
import { monthUsage } from "~/server/month-usage";
import { countRequests, findRequest } from "~/server/request-log";
import { developerProcedure, memberProcedure } from "../trpc";

/**
 * A view parameter as it comes from the URL: any string is accepted (cut to 256 characters) and
 * parseView decides, so that a bad value falls back with a Croatian notice instead of failing the page.
 */
const param = z
  .string()
  .optional()
  .catch(undefined)
  .transform((v) => v?.slice(0, 256));
const viewInput = z.object({ range: param, from: param, to: param, status: param, endpoint: param, key: param, request: param });

export const usageRouter = {
  overview: memberProcedure.input(viewInput.optional()).query(async ({ ctx, input }) => {
    const account = await ctx.db.account.findUnique({ where: { id: ctx.accountId } });
    if (!account) throw new TRPCError({ code: "NOT_FOUND", message: "Račun nije pronađen." });
    const limits = limitsFor(account);
    const view = parseView(input ?? {});
    const [range, admittedToday, endpoints, keys, month, logCount] = await Promise.all([
      usageRange(ctx.db, ctx.accountId, { from: view.from, to: view.to, bucket: view.bucket, timeZone: TIME_ZONE }),
      requestsToday(ctx.db, ctx.accountId),
      accountEndpoints(ctx.db, ctx.accountId),
      ctx.db.apiKey.findMany({ where: { accountId: ctx.accountId }, orderBy: { createdAt: "desc" }, select: { id: true, name: true, prefix: true } }),
      monthUsage(ctx.db, ctx.accountId),
      view.request ? findRequest(ctx.db, ctx.accountId, view.request).then((r) => r.length) : countRequests(ctx.db, ctx.accountId, logFilter(view)),
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
      logCount,
      month: { today: month.today, current: month.month, previous: month.previous, monthStart: month.monthStart, previousStart: month.previousStart },
      quota: { used: admittedToday, limit: limits.perDay, ...quotaProgress(admittedToday, limits.perDay) },
    };
  }),

  recent: developerProcedure
    .input(
      viewInput.extend({
        limit: z.number().int().min(1).max(100).default(25),
        before: z.string().regex(/^\d{1,19}$/, "Neispravan pokazivač stranice.").optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const view = parseView(input);
      // A search by id answers on one page.
      if (view.request) return input.before ? [] : (await findRequest(ctx.db, ctx.accountId, view.request)).map((r) => ({ ...r, at: r.at.toISOString() }));
      const rows = await recentRequests(ctx.db, ctx.accountId, { limit: input.limit, before: input.before, filter: logFilter(view) });
      return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
    }),
} satisfies TRPCRouterRecord;
