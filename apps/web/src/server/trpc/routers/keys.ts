// API keys of the signed-in account: list, create (full key returned once), revoke.
import { createApiKey, revokeApiKey } from "@fiskal/db";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { protectedProcedure } from "../trpc";

export const MAX_ACTIVE_KEYS = 25;

export const keysRouter = {
  list: protectedProcedure.query(async ({ ctx }) => {
    const keys = await ctx.db.apiKey.findMany({
      where: { accountId: ctx.accountId },
      orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
      select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    });
    return keys.map((k) => ({
      ...k,
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      revokedAt: k.revokedAt?.toISOString() ?? null,
    }));
  }),

  create: protectedProcedure
    .input(z.object({ name: z.string().trim().min(1, "Unesite naziv ključa.").max(64, "Naziv može imati najviše 64 znaka.") }))
    .mutation(async ({ ctx, input }) => {
      // The account row lock serializes concurrent creates, so the count is still true at the insert.
      return ctx.db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT 1 FROM "Account" WHERE id = ${ctx.accountId}::uuid FOR UPDATE`;
        const active = await tx.apiKey.count({ where: { accountId: ctx.accountId, revokedAt: null } });
        if (active >= MAX_ACTIVE_KEYS) {
          return { ok: false as const, message: `Račun može imati najviše ${MAX_ACTIVE_KEYS} aktivnih ključeva. Opozovite ključ koji više ne koristite.` };
        }
        const created = await createApiKey(tx, ctx.accountId, input.name);
        return { ok: true as const, id: created.id, key: created.key, prefix: created.prefix, name: input.name };
      });
    }),

  revoke: protectedProcedure.input(z.object({ id: z.uuid("Neispravan ključ.") })).mutation(async ({ ctx, input }) => {
    return { revoked: await revokeApiKey(ctx.db, ctx.accountId, input.id) };
  }),
} satisfies TRPCRouterRecord;
