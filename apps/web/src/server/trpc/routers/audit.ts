// The audit log: the customer sees their own account's entries, the operator every account's.
import type { Db, Prisma } from "@fiskal/db";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { accountantProcedure, operatorProcedure } from "../trpc";

const PAGE = 50;

const pageInput = z.object({
  before: z.uuid("Neispravan pokazivač stranice.").optional(),
  action: z.string().trim().max(64, "Radnja može imati najviše 64 znaka.").regex(/^[a-z._]*$/, "Neispravna radnja.").optional(),
});

async function page(db: Db, where: Prisma.AuditLogWhereInput, before: string | undefined) {
  // uuid v7 ids grow with time: keyset paging on the id alone is newest-first.
  const rows = await db.auditLog.findMany({
    where: before ? { AND: [where, { id: { lt: before } }] } : where,
    orderBy: { id: "desc" },
    take: PAGE + 1,
    include: { account: { select: { name: true } } },
  });
  const more = rows.length > PAGE;
  const items = rows.slice(0, PAGE).map((r) => ({
    id: r.id,
    at: r.createdAt.toISOString(),
    accountId: r.accountId,
    accountName: r.account.name,
    actor: r.actor,
    action: r.action,
    target: r.target,
    ip: r.ip,
    detail: (r.detail ?? null) as Record<string, unknown> | null,
  }));
  return { items, nextBefore: more ? (items[items.length - 1]?.id ?? null) : null };
}

export const auditRouter = {
  /** The signed-in user's own account. */
  list: accountantProcedure.input(pageInput).query(({ ctx, input }) => {
    const where: Prisma.AuditLogWhereInput = { accountId: ctx.accountId, ...(input.action ? { action: { startsWith: input.action } } : {}) };
    return page(ctx.db, where, input.before);
  }),

  /** Every account (operators only), optionally one. */
  all: operatorProcedure.input(pageInput.extend({ accountId: z.uuid("Neispravan račun.").optional() })).query(({ ctx, input }) => {
    const where: Prisma.AuditLogWhereInput = {
      ...(input.accountId ? { accountId: input.accountId } : {}),
      ...(input.action ? { action: { startsWith: input.action } } : {}),
    };
    return page(ctx.db, where, input.before);
  }),
} satisfies TRPCRouterRecord;
