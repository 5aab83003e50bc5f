// next-auth: email + password (argon2id), JWT sessions, login attempts limited per email and per IP.
import { verifyPassword } from "@fiskal/db";
import { getServerSession, type NextAuthOptions, type Session } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { env } from "~/env";
import { clientIp } from "~/lib/client-ip";
import { db } from "~/server/db";
import { checkLoginAttempt, loginRefusedMessage } from "~/server/login-limits";

const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()),
  password: z.string().min(1).max(200),
});

export const INVALID_CREDENTIALS = "Neispravan e-mail ili lozinka.";

let options: NextAuthOptions | undefined;

export function authOptions(): NextAuthOptions {
  if (options) return options;
  const config = env();
  options = {
    secret: config.authSecret,
    session: { strategy: "jwt", maxAge: 60 * 60 * 24 * 7 },
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

          const verdict = await checkLoginAttempt({ email, ip: clientIp(req?.headers, env().trustProxyHops) });
          if (!verdict.allowed) throw new Error(loginRefusedMessage(verdict.retryAfterSeconds));

          const user = await db().user.findUnique({ where: { email } });
          if (!user || !(await verifyPassword(user.passwordHash, password))) throw new Error(INVALID_CREDENTIALS);
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

/** The signed-in session, or null; only trusted for routing — procedures re-read the user. */
export async function currentSession(): Promise<Session | null> {
  const session = await getServerSession(authOptions());
  return session?.user?.id ? session : null;
}
