// The team of the signed-in account: members with roles (OWNER, DEVELOPER, ACCOUNTANT), invitations
// by e-mail, role changes and removal. An account always keeps at least one owner: the checks run
// under the account's row lock, so two owners demoting each other at once cannot leave none.
// Every change is written to the audit log.
import { createHash, randomBytes } from "node:crypto";
import { hashPassword, verifyPassword } from "@fiskal/accounts";
import type { Db, Prisma } from "@fiskal/db";
import { invitationMail } from "@fiskal/mail";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { env } from "~/env";
import { audit } from "~/server/audit";
import { sendMail } from "~/server/mail";
import { memberProcedure, ownerProcedure, protectedProcedure, publicProcedure } from "../trpc";

/** How long an invitation can be accepted. */
const INVITATION_DAYS = 7;
const MAX_PENDING_INVITATIONS = 50;

const roleInput = z.enum(["OWNER", "DEVELOPER", "ACCOUNTANT"], "Odaberite ulogu: vlasnik, programer ili računovođa.");
const emailInput = z.string().trim().toLowerCase().pipe(z.email("Unesite ispravnu e-mail adresu.").max(254, "E-mail adresa je predugačka."));
const tokenInput = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, "Neispravna poveznica poziva.");

type Fail = { ok: false; message: string };
const fail = (message: string): Fail => ({ ok: false, message });
const LAST_OWNER = "Račun mora imati barem jednog vlasnika. Prvo dodijelite ulogu vlasnika drugom članu.";

function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

async function lockAccount(tx: Prisma.TransactionClient, accountId: string) {
  await tx.$executeRaw`SELECT 1 FROM "Account" WHERE id = ${accountId}::uuid FOR UPDATE`;
}

async function ownerCount(tx: Prisma.TransactionClient, accountId: string): Promise<number> {
  return tx.membership.count({ where: { accountId, role: "OWNER" } });
}

/**
 * After a user left `accountId`: if they worked in it, move them to another team of theirs (the
 * oldest); with none left they can still sign in but see nothing until invited again.
 */
async function moveAway(tx: Prisma.TransactionClient, userId: string, accountId: string) {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { accountId: true } });
  if (user?.accountId !== accountId) return;
  const other = await tx.membership.findFirst({ where: { userId, accountId: { not: accountId } }, orderBy: { createdAt: "asc" }, select: { accountId: true } });
  if (other) await tx.user.update({ where: { id: userId }, data: { accountId: other.accountId } });
}

async function invitationByToken(db: Db, token: string) {
  return db.invitation.findUnique({
    where: { tokenHash: tokenHash(token) },
    include: { account: { select: { name: true } } },
  });
}

function invitationState(inv: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }): "open" | "accepted" | "revoked" | "expired" {
  if (inv.acceptedAt) return "accepted";
  if (inv.revokedAt) return "revoked";
  if (inv.expiresAt.getTime() <= Date.now()) return "expired";
  return "open";
}

const STATE_MESSAGE = {
  accepted: "Ovaj poziv je već prihvaćen. Prijavite se.",
  revoked: "Ovaj poziv je povučen. Zatražite novi od vlasnika računa.",
  expired: "Ovaj poziv je istekao. Zatražite novi od vlasnika računa.",
} as const;

export const teamRouter = {
  /** Members and open invitations (owners only). */
  overview: ownerProcedure.query(async ({ ctx }) => {
    const [members, invitations] = await Promise.all([
      ctx.db.membership.findMany({
        where: { accountId: ctx.accountId },
        orderBy: [{ createdAt: "asc" }],
        select: { id: true, role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
      }),
      ctx.db.invitation.findMany({
        where: { accountId: ctx.accountId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
        orderBy: { createdAt: "desc" },
        select: { id: true, email: true, role: true, expiresAt: true, createdAt: true },
      }),
    ]);
    return {
      members: members.map((m) => ({
        id: m.id,
        email: m.user.email,
        name: m.user.name,
        role: m.role,
        since: m.createdAt.toISOString(),
        you: m.user.id === ctx.user.id,
      })),
      invitations: invitations.map((i) => ({ ...i, expiresAt: i.expiresAt.toISOString(), createdAt: i.createdAt.toISOString() })),
    };
  }),

  /** The teams the user belongs to, to work in another one. */
  accounts: protectedProcedure.query(async ({ ctx }) => {
    const rows = await ctx.db.membership.findMany({
      where: { userId: ctx.user.id },
      orderBy: { createdAt: "asc" },
      select: { role: true, account: { select: { id: true, name: true } } },
    });
    return rows.map((r) => ({ id: r.account.id, name: r.account.name, role: r.role, current: r.account.id === ctx.accountId }));
  }),

  switchAccount: protectedProcedure.input(z.object({ accountId: z.uuid("Neispravan račun.") })).mutation(async ({ ctx, input }) => {
    const m = await ctx.db.membership.findUnique({ where: { userId_accountId: { userId: ctx.user.id, accountId: input.accountId } }, select: { id: true } });
    if (!m) return fail("Niste član tima tog računa.");
    await ctx.db.user.update({ where: { id: ctx.user.id }, data: { accountId: input.accountId } });
    return { ok: true as const };
  }),

  invite: ownerProcedure.input(z.object({ email: emailInput, role: roleInput })).mutation(async ({ ctx, input }) => {
    const existing = await ctx.db.membership.findFirst({ where: { accountId: ctx.accountId, user: { email: input.email } }, select: { id: true } });
    if (existing) return fail("Korisnik s tom e-mail adresom već je član tima.");
    const token = randomBytes(24).toString("base64url");
    const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000);
    const created = await ctx.db.$transaction(async (tx) => {
      await lockAccount(tx, ctx.accountId);
      const open = await tx.invitation.count({ where: { accountId: ctx.accountId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } } });
      if (open >= MAX_PENDING_INVITATIONS) return null;
      // A new invitation to the same address replaces the open one (its link stops working).
      await tx.invitation.updateMany({
        where: { accountId: ctx.accountId, email: input.email, acceptedAt: null, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      const inv = await tx.invitation.create({
        data: { accountId: ctx.accountId, email: input.email, role: input.role, tokenHash: tokenHash(token), invitedById: ctx.user.id, expiresAt },
        select: { id: true },
      });
      await audit(ctx, { action: "team.invited", target: input.email, detail: { invitationId: inv.id, role: input.role, expiresAt: expiresAt.toISOString() } }, tx);
      return inv;
    });
    if (!created) return fail(`Račun može imati najviše ${MAX_PENDING_INVITATIONS} otvorenih poziva. Povucite one koji više ne trebaju.`);
    const account = await ctx.db.account.findUniqueOrThrow({ where: { id: ctx.accountId }, select: { name: true } });
    const sent = await sendMail(
      input.email,
      invitationMail({
        accountName: account.name,
        invitedBy: ctx.user.name ? `${ctx.user.name} (${ctx.user.email})` : ctx.user.email,
        role: input.role,
        url: `${env().portalUrl}/invite/${token}`,
        expiresAt,
      }),
      "invitation",
    );
    return { ok: true as const, id: created.id, sent };
  }),

  revokeInvitation: ownerProcedure.input(z.object({ id: z.uuid("Neispravan poziv.") })).mutation(async ({ ctx, input }) => {
    const inv = await ctx.db.invitation.findFirst({ where: { id: input.id, accountId: ctx.accountId, acceptedAt: null, revokedAt: null }, select: { email: true } });
    if (!inv) return fail("Poziv više nije otvoren.");
    await ctx.db.$transaction(async (tx) => {
      await tx.invitation.update({ where: { id: input.id }, data: { revokedAt: new Date() } });
      await audit(ctx, { action: "team.invitation_revoked", target: inv.email, detail: { invitationId: input.id } }, tx);
    });
    return { ok: true as const };
  }),

  changeRole: ownerProcedure.input(z.object({ memberId: z.uuid("Neispravan član."), role: roleInput })).mutation(async ({ ctx, input }) => {
    return ctx.db.$transaction(async (tx) => {
      await lockAccount(tx, ctx.accountId);
      const m = await tx.membership.findFirst({ where: { id: input.memberId, accountId: ctx.accountId }, select: { role: true, user: { select: { email: true } } } });
      if (!m) return fail("Član nije pronađen.");
      if (m.role === input.role) return { ok: true as const };
      if (m.role === "OWNER" && (await ownerCount(tx, ctx.accountId)) <= 1) return fail(LAST_OWNER);
      await tx.membership.update({ where: { id: input.memberId }, data: { role: input.role } });
      await audit(ctx, { action: "team.role_changed", target: m.user.email, detail: { memberId: input.memberId, from: m.role, to: input.role } }, tx);
      return { ok: true as const };
    });
  }),

  remove: ownerProcedure.input(z.object({ memberId: z.uuid("Neispravan član.") })).mutation(async ({ ctx, input }) => {
    return ctx.db.$transaction(async (tx) => {
      await lockAccount(tx, ctx.accountId);
      const m = await tx.membership.findFirst({ where: { id: input.memberId, accountId: ctx.accountId }, select: { role: true, userId: true, user: { select: { email: true } } } });
      if (!m) return fail("Član nije pronađen.");
      if (m.role === "OWNER" && (await ownerCount(tx, ctx.accountId)) <= 1) return fail(LAST_OWNER);
      await tx.membership.delete({ where: { id: input.memberId } });
      await moveAway(tx, m.userId, ctx.accountId);
      await audit(ctx, { action: "team.removed", target: m.user.email, detail: { memberId: input.memberId, role: m.role } }, tx);
      return { ok: true as const };
    });
  }),

  /** The signed-in user leaves the account's team (not the last owner). */
  leave: memberProcedure.mutation(async ({ ctx }) => {
    return ctx.db.$transaction(async (tx) => {
      await lockAccount(tx, ctx.accountId);
      const m = await tx.membership.findUnique({ where: { userId_accountId: { userId: ctx.user.id, accountId: ctx.accountId } }, select: { id: true, role: true } });
      if (!m) return fail("Više niste član ovog tima.");
      if (m.role === "OWNER" && (await ownerCount(tx, ctx.accountId)) <= 1) return fail(LAST_OWNER);
      await tx.membership.delete({ where: { id: m.id } });
      await moveAway(tx, ctx.user.id, ctx.accountId);
      await audit(ctx, { action: "team.left", target: ctx.user.email, detail: { role: m.role } }, tx);
      return { ok: true as const };
    });
  }),

  /** What the accept page shows for a link (no session needed). */
  invitation: publicProcedure.input(z.object({ token: tokenInput })).query(async ({ ctx, input }) => {
    const inv = await invitationByToken(ctx.db, input.token);
    if (!inv) return { found: false as const };
    const state = invitationState(inv);
    const userExists = state === "open" ? (await ctx.db.user.count({ where: { email: inv.email } })) > 0 : false;
    return { found: true as const, state, email: inv.email, role: inv.role, accountName: inv.account.name, expiresAt: inv.expiresAt.toISOString(), userExists };
  }),

  /**
   * Accepts an invitation: a new user sets a name and password; an existing user confirms with their
   * password (the link alone does not move a known account into another team). Either way the user
   * then works in the inviting account.
   */
  accept: publicProcedure
    .input(
      z.object({
        token: tokenInput,
        name: z.string().trim().max(100, "Ime može imati najviše 100 znakova.").optional(),
        password: z.string().min(1, "Unesite lozinku.").max(200, "Lozinka može imati najviše 200 znakova."),
      }),
    )
    .mutation(async ({ ctx, input }): Promise<{ ok: true; email: string } | Fail> => {
      const inv = await invitationByToken(ctx.db, input.token);
      if (!inv) return fail("Poziv nije pronađen. Provjerite poveznicu iz e-poruke.");
      const state = invitationState(inv);
      if (state !== "open") return fail(STATE_MESSAGE[state]);
      const user = await ctx.db.user.findUnique({ where: { email: inv.email }, select: { id: true, passwordHash: true, email: true } });
      if (user) {
        if (!(await verifyPassword(user.passwordHash, input.password))) return fail("Lozinka nije ispravna. Upišite lozinku svojeg postojećeg računa.");
      } else if (input.password.length < 10) return fail("Lozinka mora imati barem 10 znakova.");
      const passwordHash = user ? null : await hashPassword(input.password);
      return ctx.db.$transaction(async (tx) => {
        // Only one acceptance wins: the row is claimed while still open.
        const claimed = await tx.invitation.updateMany({ where: { id: inv.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } }, data: { acceptedAt: new Date() } });
        if (claimed.count !== 1) return fail("Ovaj poziv više nije otvoren.");
        let userId: string;
        if (user) {
          userId = user.id;
          await tx.membership.upsert({
            where: { userId_accountId: { userId, accountId: inv.accountId } },
            create: { userId, accountId: inv.accountId, role: inv.role },
            update: {},
          });
          await tx.user.update({ where: { id: userId }, data: { accountId: inv.accountId } });
        } else {
          // The database makes a new user OWNER of the account it is created in; the invited role replaces that.
          const created = await tx.user.create({ data: { email: inv.email, name: input.name || null, passwordHash: passwordHash!, accountId: inv.accountId }, select: { id: true } });
          userId = created.id;
          await tx.membership.update({ where: { userId_accountId: { userId, accountId: inv.accountId } }, data: { role: inv.role } });
        }
        await audit(
          { db: ctx.db, headers: ctx.headers, user: { id: userId, email: inv.email }, accountId: inv.accountId },
          { action: "team.joined", target: inv.email, detail: { invitationId: inv.id, role: inv.role, newUser: !user } },
          tx,
        );
        return { ok: true as const, email: inv.email };
      });
    }),
} satisfies TRPCRouterRecord;
