// Plan of the signed-in account: limits per plan and endpoint, upgrade and Enterprise requests.
import { Prisma } from "@fiskal/db";
import { ENDPOINT_GROUPS, ENDPOINT_LIMITS, endpointLimit, isUpgrade, limitsFor, PLANS, SELF_SERVICE_PLANS } from "@fiskal/limits";
import type { TRPCRouterRecord } from "@trpc/server";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { audit } from "~/server/audit";
import { memberProcedure, ownerProcedure } from "../trpc";

/** Plan order and the upgrade rule live in @fiskal/limits (plans.ts). */
export { isUpgrade };

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
  overview: memberProcedure.query(async ({ ctx }) => {
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
      currentEndpoints: Object.fromEntries(ENDPOINT_GROUPS.map((g) => [g, endpointLimit(current, g)])),
      plans: PLANS,
      endpoints: ENDPOINT_LIMITS,
      requests: requests.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), decidedAt: r.decidedAt?.toISOString() ?? null })),
    };
  }),

  requestUpgrade: ownerProcedure
    .input(z.object({ plan: z.enum(SELF_SERVICE_PLANS, "Odaberite paket Starter ili Business.") }))
    .mutation(async ({ ctx, input }): Promise<RequestResult> => {
      const account = await ctx.db.account.findUniqueOrThrow({ where: { id: ctx.accountId }, select: { plan: true } });
      if (!isUpgrade(account.plan, input.plan)) {
        return { ok: false, reason: "not_an_upgrade", message: "Taj paket nije viši od vašeg trenutnog paketa." };
      }
      const result = await createPending(ctx, { requestedPlan: input.plan, requestedById: ctx.user.id });
      if (result.ok) await audit(ctx, { action: "plan.requested", target: input.plan, detail: { from: account.plan, to: input.plan } });
      return result;
    }),

  /** Withdraws the account's pending request before an operator decides; a decided one stays as it is. */
  cancelRequest: ownerProcedure
    .input(z.object({ requestId: z.uuid("Neispravan zahtjev.") }))
    .mutation(async ({ ctx, input }): Promise<{ ok: true } | { ok: false; message: string }> => {
      const pending = await ctx.db.upgradeRequest.findFirst({
        where: { id: input.requestId, accountId: ctx.accountId, status: "PENDING" },
        select: { requestedPlan: true },
      });
      if (!pending) return { ok: false, message: "Zahtjev više nije na čekanju: operater ga je već obradio ili je otkazan." };
      return ctx.db.$transaction(async (tx) => {
        const won = await tx.upgradeRequest.updateMany({
          where: { id: input.requestId, accountId: ctx.accountId, status: "PENDING" },
          data: { status: "CANCELLED", decidedAt: new Date() },
        });
        if (won.count !== 1) return { ok: false as const, message: "Zahtjev više nije na čekanju: operater ga je već obradio ili je otkazan." };
        await audit(ctx, { action: "plan.cancelled", target: pending.requestedPlan, detail: { requestId: input.requestId } }, tx);
        return { ok: true as const };
      });
    }),

  contactEnterprise: ownerProcedure
    .input(
      z.object({
        expectedVolume: z.string().trim().min(1, "Navedite očekivani broj zahtjeva.").max(200, "Očekivani volumen može imati najviše 200 znakova."),
        message: z.string().trim().min(10, "Poruka mora imati barem 10 znakova.").max(2000, "Poruka može imati najviše 2000 znakova."),
      }),
    )
    .mutation(async ({ ctx, input }): Promise<RequestResult> => {
      const result = await createPending(ctx, {
        requestedPlan: "ENTERPRISE",
        expectedVolume: input.expectedVolume,
        message: input.message,
        requestedById: ctx.user.id,
      });
      if (result.ok) await audit(ctx, { action: "plan.requested", target: "ENTERPRISE", detail: { to: "ENTERPRISE", expectedVolume: input.expectedVolume } });
      return result;
    }),
} satisfies TRPCRouterRecord;
