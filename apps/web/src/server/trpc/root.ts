// The portal's tRPC router, served at /api/trpc.
import { accountRouter } from "./routers/account";
import { adminRouter } from "./routers/admin";
import { auditRouter } from "./routers/audit";
import { authRouter } from "./routers/auth";
import { certificatesRouter } from "./routers/certificates";
import { documentsRouter } from "./routers/documents";
import { keysRouter } from "./routers/keys";
import { planRouter } from "./routers/plan";
import { securityRouter } from "./routers/security";
import { teamRouter } from "./routers/team";
import { usageRouter } from "./routers/usage";
import { webhooksRouter } from "./routers/webhooks";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  auth: authRouter,
  account: accountRouter,
  keys: keysRouter,
  usage: usageRouter,
  plan: planRouter,
  webhooks: webhooksRouter,
  admin: adminRouter,
  audit: auditRouter,
  certificates: certificatesRouter,
  documents: documentsRouter,
  security: securityRouter,
  team: teamRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
