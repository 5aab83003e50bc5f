// tRPC for the portal: context from the next-auth session, and the base procedures.
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { currentSession } from "~/server/auth";
import { db } from "~/server/db";
import { mustEnableTotp } from "~/server/totp-policy";

export async function createContext(opts: { headers: Headers }) {
  const session = await currentSession();
  return { db: db(), session, headers: opts.headers };
}

type Context = Awaited<ReturnType<typeof createContext>>;

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    // Input problems reach the user as one Croatian sentence instead of a JSON dump of issues.
    if (error.cause instanceof ZodError) {
      const first = error.cause.issues[0];
      return { ...shape, message: first?.message ?? "Neispravan unos." };
    }
    return shape;
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;

/** Signed-in customer or operator; the account always comes from the database, never from input. */
export const protectedProcedure = t.procedure.use(async ({ ctx, next }) => {
  const id = ctx.session?.user.id;
  if (!id) throw new TRPCError({ code: "UNAUTHORIZED", message: "Prijavite se za nastavak." });
  const user = await ctx.db.user.findUnique({
    where: { id },
    select: { id: true, email: true, name: true, role: true, accountId: true },
  });
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Korisnik više ne postoji. Prijavite se ponovno." });
  // The role in the team of the account the user works in; null when they were removed from it.
  const membership = await ctx.db.membership.findUnique({
    where: { userId_accountId: { userId: user.id, accountId: user.accountId } },
    select: { role: true },
  });
  return next({ ctx: { ...ctx, user, accountId: user.accountId, memberRole: membership?.role ?? null } });
});

export type MemberRole = "OWNER" | "DEVELOPER" | "ACCOUNTANT";

const ROLE_LABEL: Record<MemberRole, string> = { OWNER: "vlasnik", DEVELOPER: "programer", ACCOUNTANT: "računovođa" };

/**
 * A procedure open to the listed team roles of the caller's account (checked on every call, from the
 * database: a role change or removal takes effect at the next request). See docs/portal.md, "Uloge".
 */
function roleProcedure(...roles: MemberRole[]) {
  return protectedProcedure.use(async ({ ctx, next, path }) => {
    const role = ctx.memberRole;
    if (!role) throw new TRPCError({ code: "FORBIDDEN", message: "Više niste član tima ovog računa." });
    if (!roles.includes(role)) {
      throw new TRPCError({ code: "FORBIDDEN", message: `Uloga „${ROLE_LABEL[role]}” nema pravo na ovu radnju.` });
    }
    // The operator's rule "owners sign in with two factors" holds for every call, not only for pages:
    // an owner without TOTP may only see who they are and set it up (the security procedures).
    if (role === "OWNER" && !TOTP_FREE.has(path) && (await mustEnableTotp(ctx.db, ctx.user))) {
      throw new TRPCError({ code: "FORBIDDEN", message: "Uključite dvofaktorsku prijavu (Račun → Sigurnost) prije nastavka." });
    }
    return next({ ctx: { ...ctx, memberRole: role } });
  });
}

/** What an owner who must still enable TOTP may call besides the security procedures. */
const TOTP_FREE = new Set(["account.me", "team.accounts"]);

/** Every member: owner, developer and accountant (read-only views). */
export const memberProcedure = roleProcedure("OWNER", "DEVELOPER", "ACCOUNTANT");
/** Keys, webhooks, certificates and the request log. */
export const developerProcedure = roleProcedure("OWNER", "DEVELOPER");
/** Usage documents and the audit log. */
export const accountantProcedure = roleProcedure("OWNER", "ACCOUNTANT");
/** The plan and the team. */
export const ownerProcedure = roleProcedure("OWNER");

export const operatorProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "OPERATOR") throw new TRPCError({ code: "FORBIDDEN", message: "Samo operateri imaju pristup ovom dijelu." });
  return next();
});
