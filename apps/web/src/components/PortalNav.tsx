"use client";
// Sidebar navigation; marks the current page for screen readers and styling. Operators see how many
// upgrade requests wait for a decision.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { IconBell, IconBook, IconChart, IconCode, IconKey, IconLayers, IconShield } from "./Icons";
import { zahtjeva } from "~/lib/plural";

export function PortalNav({ operator, pendingRequests = 0 }: { operator: boolean; pendingRequests?: number }) {
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
      {link("/keys", "API ključevi", <IconKey />, "nav-keys")}
      {link("/plan", "Paket i ograničenja", <IconLayers />, "nav-plan")}
      {link("/webhooks", "Webhooks", <IconBell />, "nav-webhooks")}
      {link("/certificates", "Certifikat", <IconShield />, "nav-certificates")}
      {link("/audit", "Zapisnik promjena", <IconBook />, "nav-audit")}
      <div className="nav-section">Dokumentacija</div>
      {link("/docs/rate-limits", "Ograničenja zahtjeva", <IconBook />, "nav-docs-limits")}
      {link("/docs/fiscalization", "Fiskalizacija", <IconBook />, "nav-docs-fiscalization")}
      {link("/docs/api", "API referenca", <IconCode />, "nav-docs-api")}
    </nav>
  );
}
