// A portal page answered 403 (forbidden()): a heading of its own, why, and the way back.
import Link from "next/link";
import type { ReactNode } from "react";
import { Alert } from "./Alert";

export function ForbiddenNotice({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <>
      <div className="page-head">
        <div>
          <h1 data-testid="forbidden-title">Nemate pristup</h1>
        </div>
      </div>
      <div className="card" style={{ maxWidth: 620 }}>
        <Alert kind="error" testId={testId}>
          {children}
        </Alert>
        <p style={{ margin: "12px 0 0" }}>
          <Link className="btn secondary" href="/dashboard" data-testid="forbidden-back">
            ← Natrag na pregled
          </Link>
        </p>
      </div>
    </>
  );
}
