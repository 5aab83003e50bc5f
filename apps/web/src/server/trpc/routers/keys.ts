// API keys of the signed-in account: list with usage, create (full key returned once, optional
// expiry), rotate with an overlap, revoke. Every change goes to the audit log.
import { activeKeyWhere, createApiKey, MAX_ROTATION_OVERLAP_SECONDS, revokeApiKey, rotateApiKey } from "@fiskal/accounts";
import { usageByKey } from "@fiskal/usage";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { audit } from "~/server/audit";
import { developerProcedure } from "../trpc";

const MAX_ACTIVE_KEYS = 25;
/** Usage per key covers this many days (the request log). */
const KEY_USAGE_DAYS = 30;
const DAY_MS = 86_400_000;
const MAX_EXPIRY_DAYS = 5 * 365;

/** An expiry instant: in the future, at most five years ahead. */
const expiresAtInput = z
  .string()
  .datetime({ offset: true, message: "Neispravan datum isteka." })
  .refine((v) => Date.parse(v) > Date.now() + 60_000, "Datum isteka mora biti u budućnosti (barem minutu od sada).")
  .refine((v) => Date.parse(v) <= Date.now() + MAX_EXPIRY_DAYS * DAY_MS, "Datum isteka može biti najviše pet godina unaprijed.");

type KeyState = "active" | "rotating" | "expired" | "revoked";

export const keysRouter = {
  list: developerProcedure.query(async ({ ctx }) => {
    const now = new Date();
    const [keys, usage] = await Promise.all([
      ctx.db.apiKey.findMany({
        where: { accountId: ctx.accountId },
        orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
        select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true, expiresAt: true, replacedById: true },
      }),
      usageByKey(ctx.db, ctx.accountId, new Date(now.getTime() - KEY_USAGE_DAYS * DAY_MS)),
    ]);
    const byKey = new Map(usage.map((u) => [u.apiKeyId, u]));
    const prefixOf = new Map(keys.map((k) => [k.id, k.prefix]));
    return keys.map((k) => {
      const u = byKey.get(k.id);
      const expired = k.expiresAt !== null && k.expiresAt <= now;
      const state: KeyState = k.revokedAt ? "revoked" : expired ? "expired" : k.replacedById ? "rotating" : "active";
      return {
        id: k.id,
        name: k.name,
        prefix: k.prefix,
        state,
        createdAt: k.createdAt.toISOString(),
        lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
        revokedAt: k.revokedAt?.toISOString() ?? null,
        expiresAt: k.expiresAt?.toISOString() ?? null,
        replacedByPrefix: k.replacedById ? (prefixOf.get(k.replacedById) ?? null) : null,
        usage: { requests: u?.requests ?? 0, refused: u?.refused ?? 0, errors: u?.errors ?? 0 },
      };
    });
  }),

  create: developerProcedure
    .input(
      z.object({
        name: z.string().trim().min(1, "Unesite naziv ključa.").max(64, "Naziv može imati najviše 64 znaka."),
        expiresAt: expiresAtInput.nullish(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      // The account row lock serializes concurrent creates, so the count is still true at the insert.
      return ctx.db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT 1 FROM "Account" WHERE id = ${ctx.accountId}::uuid FOR UPDATE`;
        const active = await tx.apiKey.count({ where: activeKeyWhere(ctx.accountId) });
        if (active >= MAX_ACTIVE_KEYS) {
          return { ok: false as const, message: `Račun može imati najviše ${MAX_ACTIVE_KEYS} aktivnih ključeva. Opozovite ključ koji više ne koristite.` };
        }
        const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
        const created = await createApiKey(tx, ctx.accountId, input.name, { expiresAt });
        await audit(ctx, { action: "key.created", target: created.prefix, detail: { keyId: created.id, name: input.name, expiresAt: expiresAt?.toISOString() ?? null } }, tx);
        return { ok: true as const, id: created.id, key: created.key, prefix: created.prefix, name: input.name, expiresAt: expiresAt?.toISOString() ?? null };
      });
    }),

  rotate: developerProcedure
    .input(
      z.object({
        id: z.uuid("Neispravan ključ."),
        overlapSeconds: z
          .number("Odaberite razdoblje preklapanja.")
          .int("Razdoblje preklapanja mora biti cijeli broj sekundi.")
          .min(0, "Razdoblje preklapanja ne može biti negativno.")
          .max(MAX_ROTATION_OVERLAP_SECONDS, "Stari ključ može vrijediti najviše 7 dana nakon rotacije."),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      // The new key keeps the old key's expiry: a rotation replaces the secret, not the lifetime.
      const current = await ctx.db.apiKey.findFirst({ where: { id: input.id, accountId: ctx.accountId }, select: { expiresAt: true } });
      const expiresAt = current?.expiresAt && current.expiresAt.getTime() > Date.now() ? current.expiresAt : null;
      const result = await rotateApiKey(ctx.db, ctx.accountId, input.id, { overlapSeconds: input.overlapSeconds, expiresAt });
      if (!result.ok) {
        return {
          ok: false as const,
          message: result.reason === "already_rotated" ? "Ovaj ključ je već rotiran." : "Ključ ne postoji, opozvan je ili je istekao.",
        };
      }
      const old = await ctx.db.apiKey.findUniqueOrThrow({ where: { id: input.id }, select: { prefix: true } });
      await audit(ctx, {
        action: "key.rotated",
        target: old.prefix,
        detail: {
          keyId: input.id,
          newKeyId: result.id,
          newPrefix: result.prefix,
          overlapSeconds: input.overlapSeconds,
          oldKeyEndsAt: result.oldKeyEndsAt.toISOString(),
          expiresAt: expiresAt?.toISOString() ?? null,
        },
      });
      return {
        ok: true as const,
        id: result.id,
        key: result.key,
        prefix: result.prefix,
        name: result.name,
        expiresAt: expiresAt?.toISOString() ?? null,
        oldKeyEndsAt: result.oldKeyEndsAt.toISOString(),
      };
    }),

  revoke: developerProcedure.input(z.object({ id: z.uuid("Neispravan ključ.") })).mutation(async ({ ctx, input }) => {
    const revoked = await revokeApiKey(ctx.db, ctx.accountId, input.id);
    if (revoked) {
      const key = await ctx.db.apiKey.findUniqueOrThrow({ where: { id: input.id }, select: { prefix: true, name: true } });
      await audit(ctx, { action: "key.revoked", target: key.prefix, detail: { keyId: input.id, name: key.name } });
    }
    return { revoked };
  }),
} satisfies TRPCRouterRecord;
