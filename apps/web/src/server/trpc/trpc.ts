// tRPC for the portal: context from the next-auth session, and the base procedures.
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { currentSession } from "~/server/auth";
import { db } from "~/server/db";

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
  return next({ ctx: { ...ctx, user, accountId: user.accountId } });
});

export const operatorProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "OPERATOR") throw new TRPCError({ code: "FORBIDDEN", message: "Samo operateri imaju pristup ovom dijelu." });
  return next();
});
