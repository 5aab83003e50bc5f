import Link from "next/link";
import { Logo } from "~/components/Logo";

export default function NotFound() {
  return (
    <main className="auth-wrap" id="sadrzaj">
      <div className="auth-card" style={{ textAlign: "center" }}>
        <Logo />
        <div className="card" style={{ padding: 28, marginTop: 12 }}>
          <h1>Stranica nije pronađena</h1>
          <p style={{ color: "var(--muted)" }}>Adresa možda sadrži pogrešku ili je stranica premještena.</p>
          <Link className="btn" href="/">
            Na početnu
          </Link>
        </div>
      </div>
    </main>
  );
}
