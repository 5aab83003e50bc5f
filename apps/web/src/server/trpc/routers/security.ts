// The signed-in user's own security: their portal sessions ("Sesije"), their password and
// two-factor sign-in (TOTP with recovery codes); and the operator's rule that owners must use it.
import { hashPassword, verifyPassword } from "@fiskal/accounts";
import { receiptQrSvg } from "@fiskal/fiscal";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { env } from "~/env";
import { clientIp } from "~/lib/client-ip";
import { audit } from "~/server/audit";
import { checkLoginAttempt, loginRefusedMessage } from "~/server/login-limits";
import { describeDevice, endOtherPortalSessions, endPortalSession } from "~/server/portal-sessions";
import { totpRequiredFor } from "~/server/totp-policy";
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, otpauthUri, verifyTotp } from "~/server/totp";
import { operatorProcedure, protectedProcedure } from "../trpc";

const QR_LABEL = "QR kod za aplikaciju za autentifikaciju";

/** The otpauth URI as an inline SVG QR code (the receipts' QR renderer, relabelled). */
async function qrSvg(uri: string): Promise<string> {
  const svg = await receiptQrSvg(uri);
  return svg
    .replace(/width="[^"]*mm" height="[^"]*mm"/, 'width="180" height="180"')
    .replace(/aria-label="[^"]*"/, `aria-label="${QR_LABEL}"`)
    .replace(/<title>[\s\S]*?<\/title>/, `<title>${QR_LABEL}</title>`);
}

/** Password checks here count with the sign-in limits: a signed-in session cannot guess the password faster. */
async function limitPasswordCheck(ctx: { headers: Headers; user: { email: string } }): Promise<void> {
  const verdict = await checkLoginAttempt({ email: ctx.user.email, ip: clientIp(ctx.headers, env().trustProxyHops) });
  if (!verdict.allowed) throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: loginRefusedMessage(verdict.retryAfterSeconds) });
}

const passwordInput = z
  .object({
    current: z.string().min(1, "Unesite trenutačnu lozinku.").max(200, "Lozinka može imati najviše 200 znakova."),
    next: z.string().min(10, "Nova lozinka mora imati barem 10 znakova.").max(200, "Lozinka može imati najviše 200 znakova."),
  })
  .refine((v) => v.current !== v.next, { message: "Nova lozinka mora se razlikovati od trenutačne.", path: ["next"] });

export const securityRouter = {
  sessions: protectedProcedure.query(async ({ ctx }) => {
    const rows = await ctx.db.portalSession.findMany({
      where: { userId: ctx.user.id, expiresAt: { gt: new Date() } },
      orderBy: [{ lastSeenAt: "desc" }, { id: "desc" }],
      select: { id: true, userAgent: true, ip: true, createdAt: true, lastSeenAt: true, expiresAt: true },
    });
    const current = ctx.session?.sid;
    return rows.map((r) => ({
      id: r.id,
      device: describeDevice(r.userAgent),
      ip: r.ip,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      current: r.id === current,
    }));
  }),

  endSession: protectedProcedure.input(z.object({ id: z.uuid("Neispravna sesija.") })).mutation(async ({ ctx, input }) => {
    if (input.id === ctx.session?.sid) {
      throw new TRPCError({ code: "BAD_REQUEST", message: "Trenutačnu sesiju završava odjava." });
    }
    const ended = await endPortalSession(ctx.user.id, input.id);
    if (!ended) throw new TRPCError({ code: "NOT_FOUND", message: "Ta sesija više ne postoji." });
    await audit(ctx, { action: "session.ended", detail: { sessions: 1 } });
    return { ended: 1 };
  }),

  endOtherSessions: protectedProcedure.mutation(async ({ ctx }) => {
    const ended = await endOtherPortalSessions(ctx.user.id, ctx.session?.sid);
    if (ended > 0) await audit(ctx, { action: "session.ended", detail: { sessions: ended } });
    return { ended };
  }),

  /** A new password ends every other session of the user; this one stays signed in. */
  changePassword: protectedProcedure.input(passwordInput).mutation(async ({ ctx, input }) => {
    await limitPasswordCheck(ctx);
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: ctx.user.id }, select: { passwordHash: true } });
    if (!(await verifyPassword(user.passwordHash, input.current))) {
      throw new TRPCError({ code: "BAD_REQUEST", message: "Trenutačna lozinka nije ispravna." });
    }
    const passwordHash = await hashPassword(input.next);
    await ctx.db.user.update({ where: { id: ctx.user.id }, data: { passwordHash } });
    const ended = await endOtherPortalSessions(ctx.user.id, ctx.session?.sid);
    await audit(ctx, { action: "account.password_changed", detail: { sessions: ended } });
    return { endedSessions: ended };
  }),

  totpStatus: protectedProcedure.query(async ({ ctx }) => {
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: ctx.user.id }, select: { totpEnabledAt: true } });
    const left = user.totpEnabledAt ? await ctx.db.totpRecoveryCode.count({ where: { userId: ctx.user.id, usedAt: null } }) : 0;
    return { enabled: user.totpEnabledAt !== null, enabledAt: user.totpEnabledAt?.toISOString() ?? null, recoveryCodesLeft: left, required: await totpRequiredFor(ctx.db, ctx.user) };
  }),

  /** A new secret to scan; stays unused until a code from it confirms (totpEnable). */
  totpBegin: protectedProcedure.mutation(async ({ ctx }) => {
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: ctx.user.id }, select: { totpEnabledAt: true } });
    if (user.totpEnabledAt) throw new TRPCError({ code: "BAD_REQUEST", message: "Dvofaktorska prijava je već uključena." });
    const secret = newTotpSecret();
    await ctx.db.user.update({ where: { id: ctx.user.id }, data: { totpSecret: secret, totpLastStep: null } });
    const uri = otpauthUri(secret, ctx.user.email);
    return { secret, uri, qrSvg: await qrSvg(uri) };
  }),

  /** Confirms the new secret with a code from the app; answers the ten recovery codes, shown once. */
  totpEnable: protectedProcedure.input(z.object({ code: z.string().trim().regex(/^\d{6}$/, "Unesite 6 znamenki iz aplikacije.") })).mutation(async ({ ctx, input }) => {
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: ctx.user.id }, select: { totpSecret: true, totpEnabledAt: true } });
    if (user.totpEnabledAt) throw new TRPCError({ code: "BAD_REQUEST", message: "Dvofaktorska prijava je već uključena." });
    if (!user.totpSecret) throw new TRPCError({ code: "BAD_REQUEST", message: "Najprije započnite uključivanje." });
    const step = verifyTotp(user.totpSecret, input.code, null);
    if (step === null) throw new TRPCError({ code: "BAD_REQUEST", message: "Kôd nije ispravan. Provjerite vrijeme na uređaju i pokušajte ponovno." });
    const codes = newRecoveryCodes();
    await ctx.db.$transaction([
      ctx.db.totpRecoveryCode.deleteMany({ where: { userId: ctx.user.id } }),
      ctx.db.totpRecoveryCode.createMany({ data: codes.map((c) => ({ userId: ctx.user.id, codeHash: hashRecoveryCode(c) })) }),
      ctx.db.user.update({ where: { id: ctx.user.id }, data: { totpEnabledAt: new Date(), totpLastStep: step } }),
    ]);
    await audit(ctx, { action: "account.totp_enabled" });
    return { recoveryCodes: codes };
  }),

  /** Turns two-factor sign-in off, with the password; not while the operator requires it. */
  totpDisable: protectedProcedure.input(z.object({ password: z.string().min(1, "Unesite lozinku.").max(200) })).mutation(async ({ ctx, input }) => {
    if (await totpRequiredFor(ctx.db, ctx.user)) {
      throw new TRPCError({ code: "FORBIDDEN", message: "Operater zahtijeva dvofaktorsku prijavu za vlasnike računa: ne može se isključiti." });
    }
    await limitPasswordCheck(ctx);
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: ctx.user.id }, select: { passwordHash: true } });
    if (!(await verifyPassword(user.passwordHash, input.password))) throw new TRPCError({ code: "BAD_REQUEST", message: "Lozinka nije ispravna." });
    await ctx.db.$transaction([
      ctx.db.totpRecoveryCode.deleteMany({ where: { userId: ctx.user.id } }),
      ctx.db.user.update({ where: { id: ctx.user.id }, data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null } }),
    ]);
    await audit(ctx, { action: "account.totp_disabled" });
    return { ok: true as const };
  }),

  totpPolicy: operatorProcedure.query(async ({ ctx }) => {
    const row = await ctx.db.portalSettings.findUnique({ where: { id: 1 } });
    return { requireTotpForOwners: row?.requireTotpForOwners ?? false };
  }),

  setTotpPolicy: operatorProcedure.input(z.object({ requireTotpForOwners: z.boolean() })).mutation(async ({ ctx, input }) => {
    await ctx.db.portalSettings.upsert({ where: { id: 1 }, create: { id: 1, ...input }, update: input });
    await audit(ctx, { action: "portal.totp_policy", detail: { note: input.requireTotpForOwners ? "obavezna za vlasnike računa" : "nije obavezna" } });
    return input;
  }),
} satisfies TRPCRouterRecord;
