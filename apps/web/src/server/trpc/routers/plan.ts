// Plan of the signed-in account: limits per plan and endpoint, upgrade and Enterprise requests.
import { Prisma, type Plan } from "@fiskal/db";
import { ENDPOINT_GROUPS, ENDPOINT_LIMITS, endpointLimit, limitsFor, PLANS } from "@fiskal/limits";
import type { TRPCRouterRecord } from "@trpc/server";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { protectedProcedure } from "../trpc";

export const PLAN_ORDER = ["SANDBOX", "STARTER", "BUSINESS", "ENTERPRISE"] as const satisfies readonly Plan[];

/** True when `requested` is a higher plan than `current`. */
export function isUpgrade(current: Plan, requested: Plan): boolean {
  return PLAN_ORDER.indexOf(requested) > PLAN_ORDER.indexOf(current);
}

export type RequestResult = { ok: true } | { ok: false; reason: "pending_exists" | "not_an_upgrade"; message: string };

async function pendingRequest(ctx: { db: import("@fiskal/db").Db; accountId: string }) {
  return ctx.db.upgradeRequest.findFirst({ where: { accountId: ctx.accountId, status: "PENDING" }, select: { id: true } });
}

const PENDING_EXISTS: RequestResult = {
  ok: false,
  reason: "pending_exists",
  message: "Već imate zahtjev na čekanju. Operater će ga uskoro obraditi.",
};

/**
 * Inserts a pending request. The check before it answers the common case; the partial unique index
 * on ("accountId") WHERE status = 'PENDING' decides between concurrent calls.
 */
async function createPending(
  ctx: { db: import("@fiskal/db").Db; accountId: string },
  data: Omit<Prisma.UpgradeRequestUncheckedCreateInput, "accountId" | "status">,
): Promise<RequestResult> {
  if (await pendingRequest(ctx)) return PENDING_EXISTS;
  try {
    await ctx.db.upgradeRequest.create({ data: { ...data, accountId: ctx.accountId } });
    return { ok: true };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return PENDING_EXISTS;
    throw error;
  }
}

export const planRouter = {
  overview: protectedProcedure.query(async ({ ctx }) => {
    const account = await ctx.db.account.findUnique({ where: { id: ctx.accountId } });
    if (!account) throw new TRPCError({ code: "NOT_FOUND", message: "Račun nije pronađen." });
    const requests = await ctx.db.upgradeRequest.findMany({
      where: { accountId: ctx.accountId },
      orderBy: { createdAt: "desc" },
      take: 20,
      select: { id: true, requestedPlan: true, status: true, expectedVolume: true, message: true, createdAt: true, decidedAt: true, decisionNote: true },
    });
    const current = limitsFor(account);
    return {
      accountName: account.name,
      plan: account.plan,
      current,
      currentEndpoints: Object.fromEntries(ENDPOINT_GROUPS.map((g) => [g, endpointLimit(current, g)])) as Record<string, number>,
      plans: PLANS,
      endpoints: ENDPOINT_LIMITS,
      requests: requests.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), decidedAt: r.decidedAt?.toISOString() ?? null })),
    };
  }),

  requestUpgrade: protectedProcedure
    .input(z.object({ plan: z.enum(["STARTER", "BUSINESS"], "Odaberite paket Starter ili Business.") }))
    .mutation(async ({ ctx, input }): Promise<RequestResult> => {
      const account = await ctx.db.account.findUniqueOrThrow({ where: { id: ctx.accountId }, select: { plan: true } });
      if (!isUpgrade(account.plan, input.plan)) {
        return { ok: false, reason: "not_an_upgrade", message: "Taj paket nije viši od vašeg trenutnog paketa." };
      }
      return createPending(ctx, { requestedPlan: input.plan, requestedById: ctx.user.id });
    }),

  contactEnterprise: protectedProcedure
    .input(
      z.object({
        expectedVolume: z.string().trim().min(1, "Navedite očekivani broj zahtjeva.").max(200, "Očekivani volumen može imati najviše 200 znakova."),
        message: z.string().trim().min(10, "Poruka mora imati barem 10 znakova.").max(2000, "Poruka može imati najviše 2000 znakova."),
      }),
    )
    .mutation(async ({ ctx, input }): Promise<RequestResult> => {
      return createPending(ctx, {
        requestedPlan: "ENTERPRISE",
        expectedVolume: input.expectedVolume,
        message: input.message,
        requestedById: ctx.user.id,
      });
    }),
} satisfies TRPCRouterRecord;
