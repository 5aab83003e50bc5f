"use client";
// Sidebar navigation; marks the current page for screen readers and styling.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { IconBell, IconBook, IconChart, IconCode, IconKey, IconLayers, IconShield } from "./Icons";

export function PortalNav({ operator }: { operator: boolean }) {
  const pathname = usePathname();
  const link = (href: string, label: string, icon: React.ReactNode, testId: string) => (
    <Link href={href} aria-current={pathname === href || pathname.startsWith(`${href}/`) ? "page" : undefined} data-testid={testId}>
      {icon}
      {label}
    </Link>
  );
  return (
    <nav className="nav" aria-label="Glavna navigacija">
      {link("/dashboard", "Pregled", <IconChart />, "nav-dashboard")}
      {link("/keys", "API ključevi", <IconKey />, "nav-keys")}
      {link("/plan", "Paket i ograničenja", <IconLayers />, "nav-plan")}
      {link("/webhooks", "Webhooks", <IconBell />, "nav-webhooks")}
      <div className="nav-section">Dokumentacija</div>
      {link("/docs/rate-limits", "Ograničenja zahtjeva", <IconBook />, "nav-docs-limits")}
      {link("/docs/api", "API referenca", <IconCode />, "nav-docs-api")}
      {operator ? (
        <>
          <div className="nav-section">Operateri</div>
          {link("/admin", "Administracija", <IconShield />, "nav-admin")}
        </>
      ) : null}
    </nav>
  );
}
