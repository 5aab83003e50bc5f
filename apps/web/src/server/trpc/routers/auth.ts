// Sign-up: a new user always gets a new account on the Sandbox plan. An e-mail that already has an
// account gets the same answer, after the same work (a password hash), so sign-up does not tell
// anyone which addresses have accounts; the owner of that address is told instead (by e-mail when
// the portal has SMTP_URL; see notifyExistingOwner).
import { createAccount, hashPassword } from "@fiskal/accounts";
import { signupExistingAccountMail } from "@fiskal/mail";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { env } from "~/env";
import { clientIp } from "~/lib/client-ip";
import { sendMail } from "~/server/mail";
import { checkSignUpAttempt, loginRefusedMessage } from "~/server/login-limits";
import { publicProcedure } from "../trpc";

const signUpInput = z.object({
  name: z.string().trim().max(100, "Ime može imati najviše 100 znakova.").optional(),
  company: z.string().trim().min(2, "Unesite naziv tvrtke (barem 2 znaka).").max(120, "Naziv tvrtke može imati najviše 120 znakova."),
  email: z.string().trim().toLowerCase().pipe(z.email("Unesite ispravnu e-mail adresu.")),
  password: z
    .string()
    .min(10, "Lozinka mora imati barem 10 znakova.")
    .max(200, "Lozinka može imati najviše 200 znakova."),
});

export type SignUpResult = { ok: true } | { ok: false; reason: "rate_limited"; message: string };

function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "P2002";
}

export const authRouter = {
  signUp: publicProcedure.input(signUpInput).mutation(async ({ ctx, input }): Promise<SignUpResult> => {
    const verdict = await checkSignUpAttempt(clientIp(ctx.headers, env().trustProxyHops));
    if (!verdict.allowed) return { ok: false, reason: "rate_limited", message: loginRefusedMessage(verdict.retryAfterSeconds) };

    const existing = await ctx.db.user.findUnique({ where: { email: input.email }, select: { id: true } });
    // Hashed either way: an answer for a taken address must not come back sooner.
    const passwordHash = await hashPassword(input.password);
    if (existing) {
      await notifyExistingOwner(input.email);
      return { ok: true };
    }
    const account = await createAccount(ctx.db, { name: input.company });
    try {
      await ctx.db.user.create({
        data: { email: input.email, name: input.name || null, passwordHash, accountId: account.id },
      });
    } catch (err) {
      // Two sign-ups raced for the same e-mail: leave no orphaned account behind.
      await ctx.db.account.delete({ where: { id: account.id } });
      if (isUniqueViolation(err)) {
        await notifyExistingOwner(input.email);
        return { ok: true };
      }
      throw err;
    }
    return { ok: true };
  }),
} satisfies TRPCRouterRecord;

/**
 * Tells the owner of `email` that someone tried to open an account with it. Not awaited: the answer
 * must not wait for (or reveal) a mail server; sendMail logs a failure and never throws.
 */
async function notifyExistingOwner(email: string): Promise<void> {
  void sendMail(email, signupExistingAccountMail({ email, loginUrl: `${env().portalUrl}/login` }), "signup-existing");
}
