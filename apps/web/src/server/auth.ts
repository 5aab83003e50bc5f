// next-auth: email + password (argon2id), JWT sessions backed by a server-side PortalSession row
// (see portal-sessions.ts), login attempts limited per IP and per (e-mail, IP) and slowed per e-mail.
import { hashPassword, verifyPassword } from "@fiskal/accounts";
import { newDeviceSignInMail } from "@fiskal/mail";
import { randomBytes } from "node:crypto";
import { getServerSession, type NextAuthOptions, type Session } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { env } from "~/env";
import { clientIp } from "~/lib/client-ip";
import { isHttps } from "~/lib/security-headers";
import { db } from "~/server/db";
import { logError, logWarning, requestIdOf } from "~/server/log";
import { sendMail } from "~/server/mail";
import { createPortalSession, describeDevice, endPortalSession, isNewDevice, isSessionLive, SESSION_MAX_AGE_SECONDS } from "~/server/portal-sessions";
import { checkLoginAttempt, loginRefusedMessage, recordSignInFailure, signInDelayMs } from "~/server/login-limits";
import { INVALID_CREDENTIALS, SIGN_IN_UNAVAILABLE, TOTP_INVALID, TOTP_REQUIRED } from "~/lib/auth-messages";
import { hashRecoveryCode, looksLikeRecoveryCode, verifyTotp } from "~/server/totp";

const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()),
  password: z.string().min(1).max(200),
  // The second factor: a 6-digit TOTP code or a recovery code; empty on the first step.
  code: z.string().trim().max(20).optional(),
});


// Verifying against this when the email is unknown keeps both answers equally slow.
let dummyHash: Promise<string> | undefined;

let options: NextAuthOptions | undefined;

export function authOptions(): NextAuthOptions {
  if (options) return options;
  const config = env();
  options = {
    secret: config.authSecret,
    // Both: next-auth's token keeps its own default of 30 days unless jwt.maxAge is set too.
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    // On https the cookies are Secure and prefixed: __Secure-next-auth.session-token (and the
    // callback URL), __Host-next-auth.csrf-token (no Domain, path /). Decided by the portal's own URL,
    // not by the request, so that a proxy in front cannot downgrade them.
    useSecureCookies: isHttps(config.authUrl),
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "E-mail i lozinka",
        credentials: {
          email: { label: "E-mail", type: "email" },
          password: { label: "Lozinka", type: "password" },
          code: { label: "Kôd", type: "text" },
        },
        async authorize(raw, req) {
          const parsed = credentialsSchema.safeParse(raw);
          if (!parsed.success) throw new Error(INVALID_CREDENTIALS);
          const { email, password, code } = parsed.data;

          // next-auth shows a thrown message to the user: only our own Croatian messages may get there.
          let outcome: { ok: true; user: { id: string; email: string; name: string | null; role: "CUSTOMER" | "OPERATOR"; accountId: string }; sid: string } | { ok: false; message: string };
          try {
            const verdict = await checkLoginAttempt({ email, ip: clientIp(req?.headers, env().trustProxyHops) });
            if (!verdict.allowed) {
              outcome = { ok: false, message: loginRefusedMessage(verdict.retryAfterSeconds) };
            } else {
              // Failed sign-ins of this e-mail from anywhere slow the next check down (never refused).
              const delay = await signInDelayMs(email);
              if (delay > 0) await new Promise((r) => setTimeout(r, delay));
              const user = await db().user.findUnique({ where: { email } });
              const valid = user
                ? await verifyPassword(user.passwordHash, password)
                : await verifyPassword(await (dummyHash ??= hashPassword(randomBytes(16).toString("hex"))), password).then(() => false);
              // The second factor is asked for only after the right password, so it tells nothing
              // to someone who does not know it.
              const second = user && valid ? await checkSecondFactor(user, code) : "ok";
              if (user && valid && second !== "ok") {
                if (second === "wrong") await recordSignInFailure(email);
                outcome = { ok: false, message: second === "missing" ? TOTP_REQUIRED : TOTP_INVALID };
              } else if (user && valid) {
                const userAgent = headerOf(req?.headers, "user-agent");
                const ip = clientIp(req?.headers, env().trustProxyHops);
                const sid = await createPortalSession({ userId: user.id, userAgent, ip: ip === "unknown" ? null : ip });
                const device = describeDevice(userAgent);
                if (await isNewDevice(user.id, device)) {
                  // Not awaited: the sign-in does not wait for the mail server (sendMail logs a failure).
                  void sendMail(user.email, newDeviceSignInMail({ at: new Date(), ip: ip === "unknown" ? "nepoznata" : ip, device, sessionsUrl: `${env().portalUrl}/account/sessions` }), "new-device");
                }
                outcome = { ok: true, user, sid };
              } else {
                await recordSignInFailure(email);
                outcome = { ok: false, message: INVALID_CREDENTIALS };
              }
            }
          } catch (err) {
            logError("sign-in failed", err, requestIdOf(req?.headers));
            outcome = { ok: false, message: SIGN_IN_UNAVAILABLE };
          }
          if (!outcome.ok) throw new Error(outcome.message);
          const user = outcome.user;
          return { id: user.id, email: user.email, name: user.name, role: user.role, accountId: user.accountId, sid: outcome.sid };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.uid = user.id;
          token.role = user.role;
          token.accountId = user.accountId;
          token.sid = user.sid;
        }
        return token;
      },
      session({ session, token }) {
        if (token.uid && token.accountId && token.role) {
          session.user = {
            id: token.uid,
            email: token.email ?? "",
            name: token.name ?? null,
            role: token.role,
            accountId: token.accountId,
          };
          session.sid = token.sid;
        }
        return session;
      },
    },
    events: {
      // "Odjava": the session ends on the server too, so the cookie is worth nothing afterwards.
      async signOut({ token }) {
        if (token?.uid && token.sid) await endPortalSession(token.uid, token.sid);
      },
    },
    // A cookie that does not decrypt (tampered, another secret, cut off) is an everyday event:
    // one line without a stack. Anything else next-auth reports keeps its details.
    logger: {
      error(code, metadata) {
        if (code === "JWT_SESSION_ERROR") {
          logWarning("session cookie rejected", { reason: reasonOf(metadata) });
          return;
        }
        logError(`next-auth ${code}`, metadata, `web_next-auth`);
      },
      warn(code) {
        logWarning(`next-auth ${code}`, {});
      },
      debug() {},
    },
  };
  return options;
}

/**
 * A user with two-factor sign-in on must give a code: a TOTP code (each time step once) or an unused
 * recovery code, which is used up by this sign-in.
 */
async function checkSecondFactor(
  user: { id: string; totpSecret: string | null; totpEnabledAt: Date | null; totpLastStep: number | null },
  code: string | undefined,
): Promise<"ok" | "missing" | "wrong"> {
  if (!user.totpEnabledAt || !user.totpSecret) return "ok";
  if (!code) return "missing";
  if (looksLikeRecoveryCode(code)) {
    const { count } = await db().totpRecoveryCode.updateMany({
      where: { userId: user.id, codeHash: hashRecoveryCode(code), usedAt: null },
      data: { usedAt: new Date() },
    });
    return count === 1 ? "ok" : "wrong";
  }
  const step = verifyTotp(user.totpSecret, code.replace(/\s/g, ""), user.totpLastStep);
  if (step === null) return "wrong";
  // Only one sign-in per time step wins, even when two arrive at once with the same code.
  const { count } = await db().user.updateMany({
    where: { id: user.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  return count === 1 ? "ok" : "wrong";
}

function reasonOf(metadata: unknown): string {
  const err = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | undefined)?.error;
  const message = err instanceof Error ? err.message : typeof (metadata as { message?: unknown })?.message === "string" ? (metadata as { message: string }).message : "unknown";
  return message.slice(0, 200);
}

function headerOf(headers: Record<string, unknown> | undefined, name: string): string | null {
  const raw = headers?.[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === "string" && value ? value : null;
}

/**
 * The signed-in session, or null. Its server-side session must still be live (not signed out, not
 * ended from "Sesije" or by a password change, not expired); the row goes with its user, so a
 * session that outlived its user (deleted, database reset) counts as signed out too and /login
 * shows the form instead of bouncing back.
 */
export async function currentSession(): Promise<Session | null> {
  const session = await getServerSession(authOptions());
  if (!session?.user?.id) return null;
  return (await isSessionLive(session.sid, session.user.id)) ? session : null;
}
