"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const SECTIONS = [
  { href: "/docs/rate-limits", label: "Ograničenja zahtjeva", anchors: [
    ["#paketi", "Paketi"],
    ["#endpointi", "Ograničenja endpointa"],
    ["#prozori", "Prozori"],
    ["#zaglavlja", "Zaglavlja"],
    ["#odgovor-429", "Odgovor 429"],
    ["#preporuke", "Preporučeno ponašanje"],
    ["#povecanje", "Veća ograničenja"],
    ["#upozorenje", "Webhook upozorenja"],
  ] },
  { href: "/docs/errors", label: "Pogreške", anchors: [] },
  { href: "/docs/fiscalization", label: "Fiskalizacija", anchors: [] },
  { href: "/docs/api", label: "API referenca", anchors: [] },
] as const;

export function DocsNav() {
  const pathname = usePathname();
  return (
    <nav className="docs-nav" aria-label="Sadržaj dokumentacije">
      <div className="nav-section">Dokumentacija</div>
      {SECTIONS.map((s) => (
        <div key={s.href} style={{ display: "flex", flexDirection: "column" }}>
          <Link href={s.href} aria-current={pathname === s.href ? "page" : undefined}>
            {s.label}
          </Link>
          {pathname === s.href
            ? s.anchors.map(([href, label]) => (
                <a key={href} href={href} style={{ paddingLeft: 12, fontSize: "0.85rem" }}>
                  {label}
                </a>
              ))
            : null}
        </div>
      ))}
    </nav>
  );
}
