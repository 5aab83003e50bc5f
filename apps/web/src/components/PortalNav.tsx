"use client";
// Sidebar navigation; marks the current page for screen readers and styling. Operators see how many
// upgrade requests wait for a decision.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { IconBell, IconBook, IconChart, IconCode, IconKey, IconLayers, IconShield } from "./Icons";
import { zahtjeva } from "~/lib/plural";

/** Links a team role cannot use are left out (the server refuses them anyway; docs/portal.md, "Uloge"). */
export function PortalNav({ operator, pendingRequests = 0, memberRole = "OWNER" }: { operator: boolean; pendingRequests?: number; memberRole?: "OWNER" | "DEVELOPER" | "ACCOUNTANT" | null }) {
  const developer = memberRole === "OWNER" || memberRole === "DEVELOPER";
  const accountant = memberRole === "OWNER" || memberRole === "ACCOUNTANT";
  const pathname = usePathname();
  const link = (href: string, label: string, icon: React.ReactNode, testId: string, extra?: React.ReactNode) => (
    <Link href={href} aria-current={pathname === href || pathname.startsWith(`${href}/`) ? "page" : undefined} data-testid={testId}>
      {icon}
      {label}
      {extra}
    </Link>
  );
  return (
    <nav className="nav" aria-label="Glavna navigacija">
      {operator ? (
        <>
          <div className="nav-section">Operateri</div>
          {link(
            "/admin",
            "Administracija",
            <IconShield />,
            "nav-admin",
            pendingRequests > 0 ? (
              <span className="nav-count" data-testid="pending-badge">
                {pendingRequests}
                <span className="sr-only"> {zahtjeva(pendingRequests)} na čekanju</span>
              </span>
            ) : null,
          )}
          {link("/admin/audit", "Zapisnik promjena", <IconBook />, "nav-admin-audit")}
          <div className="nav-section">Vaš račun</div>
        </>
      ) : null}
      {link("/dashboard", "Pregled", <IconChart />, "nav-dashboard")}
      {link("/documents", "Dokumenti", <IconBook />, "nav-documents")}
      {developer ? link("/keys", "API ključevi", <IconKey />, "nav-keys") : null}
      {link("/plan", "Paket i ograničenja", <IconLayers />, "nav-plan")}
      {developer ? link("/webhooks", "Webhooks", <IconBell />, "nav-webhooks") : null}
      {developer ? link("/certificates", "Certifikat", <IconShield />, "nav-certificates") : null}
      {accountant ? link("/audit", "Zapisnik promjena", <IconBook />, "nav-audit") : null}
      {link("/team", "Tim", <IconLayers />, "nav-team")}
      {link("/account/security", "Lozinka i prijava", <IconShield />, "nav-account-security")}
      {link("/account/sessions", "Sesije", <IconShield />, "nav-account-sessions")}
      <div className="nav-section">Dokumentacija</div>
      {link("/docs/rate-limits", "Ograničenja zahtjeva", <IconBook />, "nav-docs-limits")}
      {link("/docs/fiscalization", "Fiskalizacija", <IconBook />, "nav-docs-fiscalization")}
      {link("/docs/api", "API referenca", <IconCode />, "nav-docs-api")}
    </nav>
  );
}
