import { TRPCError } from "@trpc/server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { PortalSidebar } from "~/components/PortalSidebar";
import { SignOutButton } from "~/components/SignOutButton";
import { loginPath, REQUEST_PATH_HEADER } from "~/lib/auth-messages";
import { PLAN_LABELS } from "~/lib/format";
import { serverApi } from "~/server/api";
import { currentSession } from "~/server/auth";

export const dynamic = "force-dynamic";

export default async function PortalLayout({ children }: { children: ReactNode }) {
  // The proxy already sends a request without a valid token to sign-in; this catches a session whose
  // user no longer exists. Either way the page asked for is where sign-in returns to.
  const back = loginPath((await headers()).get(REQUEST_PATH_HEADER) ?? "/dashboard");
  if (!(await currentSession())) redirect(back);
  const api = await serverApi();
  const me = await api.account.me().catch((err: unknown) => {
    if (err instanceof TRPCError && err.code === "UNAUTHORIZED") redirect(back);
    throw err;
  });
  const operator = me.role === "OPERATOR";
  const pending = operator ? await api.admin.pendingCount() : 0;
  return (
    <div className="shell">
      <PortalSidebar operator={operator} pendingRequests={pending}>
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
