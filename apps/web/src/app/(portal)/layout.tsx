import { TRPCError } from "@trpc/server";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Logo } from "~/components/Logo";
import { PortalNav } from "~/components/PortalNav";
import { SignOutButton } from "~/components/SignOutButton";
import { PLAN_LABELS } from "~/lib/format";
import { serverApi } from "~/server/api";
import { currentSession } from "~/server/auth";

export const dynamic = "force-dynamic";

export default async function PortalLayout({ children }: { children: ReactNode }) {
  if (!(await currentSession())) redirect("/login");
  const api = await serverApi();
  const me = await api.account.me().catch((err: unknown) => {
    // A session whose user was deleted is treated like no session.
    if (err instanceof TRPCError && err.code === "UNAUTHORIZED") redirect("/login");
    throw err;
  });
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="sidebar-inner">
          <Logo href="/dashboard" tagline="portal" />
          <PortalNav operator={me.role === "OPERATOR"} />
          <div className="sidebar-foot">
            <div className="who" title={me.email} data-testid="user-email">
              {me.name || me.email}
            </div>
            <div className="acct">
              {me.accountName} · <span data-testid="account-plan">{PLAN_LABELS[me.plan]}</span>
            </div>
            <SignOutButton />
          </div>
        </div>
      </aside>
      <main className="main" id="sadrzaj">
        <div className="main-inner">{children}</div>
      </main>
    </div>
  );
}
