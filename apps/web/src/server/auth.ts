// next-auth: email + password (argon2id), JWT sessions, login attempts limited per email and per IP.
import { hashPassword, verifyPassword } from "@fiskal/accounts";
import { randomBytes } from "node:crypto";
import { getServerSession, type NextAuthOptions, type Session } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { env } from "~/env";
import { clientIp } from "~/lib/client-ip";
import { isHttps } from "~/lib/security-headers";
import { db } from "~/server/db";
import { logError, requestIdOf } from "~/server/log";
import { checkLoginAttempt, loginRefusedMessage } from "~/server/login-limits";
import { INVALID_CREDENTIALS, SIGN_IN_UNAVAILABLE } from "~/lib/auth-messages";

const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()),
  password: z.string().min(1).max(200),
});


// Verifying against this when the email is unknown keeps both answers equally slow.
let dummyHash: Promise<string> | undefined;

let options: NextAuthOptions | undefined;

export function authOptions(): NextAuthOptions {
  if (options) return options;
  const config = env();
  options = {
    secret: config.authSecret,
    session: { strategy: "jwt", maxAge: 60 * 60 * 24 * 7 },
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
        },
        async authorize(raw, req) {
          const parsed = credentialsSchema.safeParse(raw);
          if (!parsed.success) throw new Error(INVALID_CREDENTIALS);
          const { email, password } = parsed.data;

          // next-auth shows a thrown message to the user: only our own Croatian messages may get there.
          let outcome: { ok: true; user: { id: string; email: string; name: string | null; role: "CUSTOMER" | "OPERATOR"; accountId: string } } | { ok: false; message: string };
          try {
            const verdict = await checkLoginAttempt({ email, ip: clientIp(req?.headers, env().trustProxyHops) });
            if (!verdict.allowed) {
              outcome = { ok: false, message: loginRefusedMessage(verdict.retryAfterSeconds) };
            } else {
              const user = await db().user.findUnique({ where: { email } });
              const valid = user
                ? await verifyPassword(user.passwordHash, password)
                : await verifyPassword(await (dummyHash ??= hashPassword(randomBytes(16).toString("hex"))), password).then(() => false);
              outcome = user && valid ? { ok: true, user } : { ok: false, message: INVALID_CREDENTIALS };
            }
          } catch (err) {
            logError("sign-in failed", err, requestIdOf(req?.headers));
            outcome = { ok: false, message: SIGN_IN_UNAVAILABLE };
          }
          if (!outcome.ok) throw new Error(outcome.message);
          const user = outcome.user;
          return { id: user.id, email: user.email, name: user.name, role: user.role, accountId: user.accountId };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.uid = user.id;
          token.role = user.role;
          token.accountId = user.accountId;
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
        }
        return session;
      },
    },
  };
  return options;
}

/**
 * The signed-in session, or null. The user must still exist: a session that outlived its user
 * (deleted, database reset) counts as signed out, so /login shows the form instead of bouncing back.
 */
export async function currentSession(): Promise<Session | null> {
  const session = await getServerSession(authOptions());
  if (!session?.user?.id) return null;
  const exists = await db().user.findUnique({ where: { id: session.user.id }, select: { id: true } });
  return exists ? session : null;
}
