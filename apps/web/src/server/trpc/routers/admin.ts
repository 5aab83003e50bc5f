// Operator area: upgrade requests and custom Enterprise limits for any account.
import { setPlan } from "@fiskal/accounts";
import type { Plan } from "@fiskal/db";
import { CustomLimitsHr, customLimitsSchema, limitsFor } from "@fiskal/limits";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { PLAN_LABELS } from "~/lib/format";
import { operatorProcedure } from "../trpc";
import { currentWindows } from "~/server/limits-state";
import { monthUsage } from "~/server/month-usage";
import { isUpgrade } from "./plan";
import { audit } from "~/server/audit";
import { planApprovedMail } from "@fiskal/mail";
import { env } from "~/env";
import { mailOwners } from "~/server/mail";

/** The bounds of custom limits (one definition, @fiskal/limits plans.ts), with Croatian messages. */
const customLimitsInput = customLimitsSchema("hr", { ordered: false });

type CustomLimitsInput = z.infer<typeof customLimitsInput>;

/** What an operator may grant also needs burst ≤ per minute ≤ per day; answered as a result, not a thrown error. */
function limitsProblem(c: CustomLimitsInput): string | null {
  const checked = CustomLimitsHr.safeParse({ burst: c.burst, perMinute: c.perMinute, perDay: c.perDay, endpoints: c.endpoints });
  return checked.success ? null : (checked.error.issues[0]?.message ?? null);
}

/** Drops empty endpoint overrides so that only real ones are stored. */
function toCustom(c: CustomLimitsInput) {
  const endpoints = Object.fromEntries(Object.entries(c.endpoints ?? {}).filter(([, v]) => v !== undefined)) as Record<string, number>;
  return { burst: c.burst, perMinute: c.perMinute, perDay: c.perDay, ...(Object.keys(endpoints).length ? { endpoints } : {}) };
}

export type DecisionResult = { ok: true } | { ok: false; message: string };

const ALREADY_DECIDED: DecisionResult = { ok: false, message: "Zahtjev je već obrađen ili ne postoji." };

const note = z.string().trim().max(500, "Napomena može imati najviše 500 znakova.").optional();

export const adminRouter = {
  /** Upgrade requests waiting for a decision, for the badge in the operator's navigation. */
  pendingCount: operatorProcedure.query(({ ctx }) => ctx.db.upgradeRequest.count({ where: { status: "PENDING" } })),

  requests: operatorProcedure.query(async ({ ctx }) => {
    const include = {
      account: { select: { id: true, name: true, plan: true } },
      requestedBy: { select: { email: true } },
      decidedBy: { select: { email: true } },
    } as const;
    const [pending, decided] = await Promise.all([
      ctx.db.upgradeRequest.findMany({ where: { status: "PENDING" }, orderBy: { createdAt: "asc" }, include }),
      ctx.db.upgradeRequest.findMany({ where: { status: { not: "PENDING" } }, orderBy: { decidedAt: "desc" }, take: 15, include }),
    ]);
    const shape = (r: (typeof pending)[number]) => ({
      id: r.id,
      account: r.account,
      requestedPlan: r.requestedPlan,
      status: r.status,
      expectedVolume: r.expectedVolume,
      message: r.message,
      requestedBy: r.requestedBy?.email ?? null,
      decidedBy: r.decidedBy?.email ?? null,
      decisionNote: r.decisionNote,
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
    });
    return { pending: pending.map(shape), decided: decided.map(shape) };
  }),

  /** One customer's account for the operator: usage today and this month, per endpoint, and every window now. */
  account: operatorProcedure.input(z.object({ accountId: z.uuid("Neispravan račun.") })).query(async ({ ctx, input }) => {
    const account = await ctx.db.account.findUnique({
      where: { id: input.accountId },
      include: { users: { select: { email: true }, orderBy: { createdAt: "asc" } }, apiKeys: { select: { id: true, revokedAt: true } } },
    });
    if (!account) return null;
    const limits = limitsFor(account);
    const [usage, windows] = await Promise.all([monthUsage(ctx.db, account.id), currentWindows(account.id, limits)]);
    return {
      id: account.id,
      name: account.name,
      plan: account.plan,
      emails: account.users.map((u) => u.email),
      activeKeys: account.apiKeys.filter((k) => !k.revokedAt).length,
      createdAt: account.createdAt.toISOString(),
      limits,
      today: usage.today,
      month: usage.month,
      previousMonth: usage.previous,
      endpoints: usage.todayEndpoints,
      windows: windows.map((w) => ({ name: w.name, policy: w.policy, limit: w.limit, remaining: w.remaining, resetInMs: w.resetInMs, windowSeconds: w.windowSeconds })),
    };
  }),

  accounts: operatorProcedure
    .input(z.object({ search: z.string().trim().max(120).optional() }))
    .query(async ({ ctx, input }) => {
      const q = input.search || undefined;
      const accounts = await ctx.db.account.findMany({
        where: q
          ? { OR: [{ name: { contains: q, mode: "insensitive" } }, { users: { some: { email: { contains: q, mode: "insensitive" } } } }] }
          : undefined,
        orderBy: { createdAt: "desc" },
        take: 50,
        include: { users: { select: { email: true }, take: 3 } },
      });
      return accounts.map((a) => ({
        id: a.id,
        name: a.name,
        plan: a.plan,
        emails: a.users.map((u) => u.email),
        limits: limitsFor(a),
        createdAt: a.createdAt.toISOString(),
      }));
    }),

  approve: operatorProcedure
    .input(z.object({ requestId: z.uuid(), note, custom: customLimitsInput.optional() }))
    .mutation(async ({ ctx, input }): Promise<DecisionResult> => {
      const request = await ctx.db.upgradeRequest.findUnique({ where: { id: input.requestId } });
      if (!request || request.status !== "PENDING") return ALREADY_DECIDED;
      if (request.requestedPlan === "ENTERPRISE") {
        if (!input.custom) return { ok: false, message: "Za Enterprise paket unesite prilagođena ograničenja." };
        const problem = limitsProblem(input.custom);
        if (problem) return { ok: false, message: problem };
      }
      // One transaction: the account row is locked so the plan compared is the plan replaced, the
      // conditional update lets exactly one of two concurrent decisions win, and a failure of either
      // write leaves both undone. setPlan's NOTIFY is delivered when the transaction commits.
      const result = await ctx.db.$transaction(async (tx): Promise<DecisionResult> => {
        const [account] = await tx.$queryRaw<{ plan: Plan }[]>`SELECT plan FROM "Account" WHERE id = ${request.accountId}::uuid FOR UPDATE`;
        if (!account) return ALREADY_DECIDED;
        if (!isUpgrade(account.plan, request.requestedPlan)) {
          return {
            ok: false,
            message: `Račun već ima paket ${PLAN_LABELS[account.plan]}, a traženi paket ${PLAN_LABELS[request.requestedPlan]} nije viši. Odobrenje bi smanjilo ograničenja; odbijte zahtjev.`,
          };
        }
        const won = await tx.upgradeRequest.updateMany({
          where: { id: request.id, status: "PENDING" },
          data: { status: "APPROVED", decidedById: ctx.user.id, decidedAt: new Date(), decisionNote: input.note || null },
        });
        if (won.count !== 1) return ALREADY_DECIDED;
        await setPlan(
          tx,
          request.accountId,
          request.requestedPlan,
          request.requestedPlan === "ENTERPRISE" && input.custom ? toCustom(input.custom) : undefined,
        );
        await audit(ctx, { accountId: request.accountId, action: "plan.approved", target: request.requestedPlan, detail: { from: account.plan, to: request.requestedPlan, requestId: request.id } }, tx);
        return { ok: true };
      });
      // The account's owners hear of it by e-mail (after the commit; a mail failure is logged, the approval stands).
      if (result.ok) await mailOwners(ctx.db, request.accountId, (accountName) => planApprovedMail({ accountName, plan: PLAN_LABELS[request.requestedPlan] ?? request.requestedPlan, portalUrl: env().portalUrl }), "plan_approved");
      return result;
    }),

  reject: operatorProcedure
    .input(z.object({ requestId: z.uuid(), note }))
    .mutation(async ({ ctx, input }): Promise<DecisionResult> => {
      const won = await ctx.db.upgradeRequest.updateMany({
        where: { id: input.requestId, status: "PENDING" },
        data: { status: "REJECTED", decidedById: ctx.user.id, decidedAt: new Date(), decisionNote: input.note || null },
      });
      if (won.count !== 1) return ALREADY_DECIDED;
      const decided = await ctx.db.upgradeRequest.findUniqueOrThrow({ where: { id: input.requestId }, select: { accountId: true, requestedPlan: true } });
      await audit(ctx, { accountId: decided.accountId, action: "plan.refused", target: decided.requestedPlan, detail: { requestId: input.requestId, note: input.note || null } });
      return { ok: true };
    }),

  setCustomLimits: operatorProcedure
    .input(customLimitsInput.extend({ accountId: z.uuid() }))
    .mutation(async ({ ctx, input }): Promise<DecisionResult> => {
      const exists = await ctx.db.account.findUnique({ where: { id: input.accountId }, select: { id: true } });
      if (!exists) return { ok: false, message: "Račun ne postoji." };
      const problem = limitsProblem(input);
      if (problem) return { ok: false, message: problem };
      await setPlan(ctx.db, input.accountId, "ENTERPRISE", toCustom(input));
      await audit(ctx, { accountId: input.accountId, action: "plan.limits_set", target: "ENTERPRISE", detail: { ...toCustom(input) } });
      return { ok: true };
    }),
} satisfies TRPCRouterRecord;
