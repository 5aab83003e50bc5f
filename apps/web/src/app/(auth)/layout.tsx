import type { ReactNode } from "react";
import { Logo } from "~/components/Logo";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="auth-wrap" id="sadrzaj">
      <div className="auth-card">
        <Logo />
        <div className="card" style={{ padding: 28 }}>
          {children}
        </div>
      </div>
    </main>
  );
}
