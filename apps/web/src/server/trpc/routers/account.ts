// The signed-in user and their account, for the portal shell.
import type { TRPCRouterRecord } from "@trpc/server";
import { protectedProcedure } from "../trpc";

export const accountRouter = {
  me: protectedProcedure.query(async ({ ctx }) => {
    const account = await ctx.db.account.findUniqueOrThrow({ where: { id: ctx.accountId }, select: { name: true, plan: true } });
    return { email: ctx.user.email, name: ctx.user.name, role: ctx.user.role, memberRole: ctx.memberRole, accountName: account.name, plan: account.plan };
  }),
} satisfies TRPCRouterRecord;
