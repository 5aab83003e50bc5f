import Link from "next/link";
import { Logo } from "~/components/Logo";

// 403 for a portal page the signed-in user's team role may not open (docs/portal.md, "Uloge"); the
// portal layout decides before anything streams, so the answer is a real 403 with a way back.
export default function Forbidden() {
  return (
    <main className="auth-wrap" id="sadrzaj">
      <div className="auth-card" style={{ textAlign: "center" }}>
        <Logo />
        <div className="card" style={{ padding: 28, marginTop: 12 }}>
          <h1 data-testid="forbidden-title">Nemate pristup</h1>
          <p style={{ color: "var(--muted)" }} data-testid="role-forbidden">
            Vaša uloga u timu nema pristup ovoj stranici. Pristup dodjeljuje vlasnik računa na stranici Tim.
          </p>
          <Link className="btn" href="/dashboard" data-testid="forbidden-back">
            ← Natrag na pregled
          </Link>
        </div>
      </div>
    </main>
  );
}
