import Link from "next/link";
import { currentSessionOrNull } from "~/server/session";
import { Logo } from "./Logo";

export async function PublicHeader({ active }: { active?: "limits" | "api" }) {
  const session = await currentSessionOrNull();
  return (
    <header className="topbar">
      <div className="topbar-inner">
        <Logo />
        <nav aria-label="Glavna navigacija">
          <Link href="/docs/rate-limits" aria-current={active === "limits" ? "page" : undefined}>
            Ograničenja zahtjeva
          </Link>
          <Link href="/docs/api" aria-current={active === "api" ? "page" : undefined}>
            API referenca
          </Link>
        </nav>
        <span className="spacer" />
        {session ? (
          <Link className="btn small" href="/dashboard">
            Na portal
          </Link>
        ) : (
          <>
            <Link href="/login">Prijava</Link>
            <Link className="btn small" href="/signup">
              Besplatni Sandbox
            </Link>
          </>
        )}
      </div>
    </header>
  );
}
