"use client";
// The portal's sidebar. Below 900 px it folds into a bar with a menu button: the button says whether
// the menu is open (aria-expanded), opening moves focus to the first link, Escape or a chosen page
// closes it and focus returns to the button.
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Logo } from "./Logo";
import { PortalNav } from "./PortalNav";

export function PortalSidebar({
  operator,
  pendingRequests,
  memberRole,
  children,
}: {
  operator: boolean;
  pendingRequests: number;
  memberRole?: "OWNER" | "DEVELOPER" | "ACCOUNTANT" | null;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const pathname = usePathname();

  // A page chosen from the menu closes it.
  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>("a, button")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <aside className="sidebar" data-open={open ? "true" : "false"}>
      <div className="sidebar-inner">
        <div className="sidebar-top">
          <Logo href={operator ? "/admin" : "/dashboard"} tagline="portal" />
          <button
            ref={button}
            type="button"
            className="menu-button"
            aria-expanded={open}
            aria-controls="portal-menu"
            onClick={() => setOpen((o) => !o)}
            data-testid="menu-button"
          >
            <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              {open ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
            {open ? "Zatvori" : "Izbornik"}
          </button>
        </div>
        <div className="sidebar-menu" id="portal-menu" ref={menu}>
          <PortalNav operator={operator} pendingRequests={pendingRequests} memberRole={memberRole} />
          {children}
        </div>
      </div>
    </aside>
  );
}
