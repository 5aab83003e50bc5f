import { TRPCError } from "@trpc/server";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { PortalSidebar } from "~/components/PortalSidebar";
import { SignOutButton } from "~/components/SignOutButton";
import { loginPath, REQUEST_PATH_HEADER } from "~/lib/auth-messages";
import { PLAN_LABELS } from "~/lib/format";
import { pageAllowed } from "~/lib/roles";
import { serverApi } from "~/server/api";
import { currentSession } from "~/server/auth";
import { db } from "~/server/db";
import { mustEnableTotp } from "~/server/totp-policy";

export const dynamic = "force-dynamic";

export default async function PortalLayout({ children }: { children: ReactNode }) {
  // The proxy already sends a request without a valid token to sign-in; this catches a session whose
  // user no longer exists. Either way the page asked for is where sign-in returns to.
  const back = loginPath((await headers()).get(REQUEST_PATH_HEADER) ?? "/dashboard");
  const session = await currentSession();
  if (!session) redirect(back);
  // The operator requires two-factor sign-in of owners: one without it sets it up before anything else.
  const path = (await headers()).get(REQUEST_PATH_HEADER) ?? "";
  if (!path.startsWith("/account/security") && (await mustEnableTotp(db(), session.user))) redirect("/account/security");
  const api = await serverApi();
  const me = await api.account.me().catch((err: unknown) => {
    if (err instanceof TRPCError && err.code === "UNAUTHORIZED") redirect(back);
    throw err;
  });
  const operator = me.role === "OPERATOR";
  // A page the team role may not open answers 403 before anything streams (a page with a loading
  // skeleton would otherwise start its answer with 200).
  if (!operator && !pageAllowed(me.memberRole, (await headers()).get(REQUEST_PATH_HEADER) ?? "")) forbidden();
  const pending = operator ? await api.admin.pendingCount() : 0;
  return (
    <div className="shell">
      <PortalSidebar operator={operator} pendingRequests={pending} memberRole={me.memberRole}>
        <div className="sidebar-foot">
          <div className="who" title={me.email} data-testid="user-email">
            {me.name || me.email}
          </div>
          <div className="acct">
            {me.accountName} · <span data-testid="account-plan">{PLAN_LABELS[me.plan]}</span>
          </div>
          <SignOutButton />
        </div>
      </PortalSidebar>
      <main className="main" id="sadrzaj">
        <div className="main-inner">{children}</div>
      </main>
    </div>
  );
}
