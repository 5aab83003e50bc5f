"use client";
// The operator's switch: every account owner must sign in with two factors.
import { useRef, useState } from "react";
import { errorMessage, trpc } from "~/lib/trpc-client";
import { Outcome } from "~/components/Outcome";

export function TotpPolicy({ initial }: { initial: boolean }) {
  const [required, setRequired] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const outcome = useRef<HTMLDivElement>(null);

  async function change(next: boolean) {
    // Shown at once; put back if the server refuses.
    setRequired(next);
    setBusy(true);
    try {
      const saved = await trpc.security.setTotpPolicy.mutate({ requireTotpForOwners: next });
      setRequired(saved.requireTotpForOwners);
      setNotice({ kind: "ok", text: saved.requireTotpForOwners ? "Vlasnici računa moraju uključiti dvofaktorsku prijavu." : "Dvofaktorska prijava više nije obavezna." });
    } catch (err) {
      setRequired(!next);
      setNotice({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(false);
      requestAnimationFrame(() => outcome.current?.focus());
    }
  }

  return (
    <section className="card section" aria-labelledby="totp-policy-title">
      <h2 id="totp-policy-title">Dvofaktorska prijava</h2>
      <div className="field">
        <label>
          <input type="checkbox" checked={required} disabled={busy} onChange={(e) => void change(e.currentTarget.checked)} data-testid="require-totp" />{" "}
          Obavezna za sve vlasnike računa
        </label>
        <span className="help">Vlasnik bez nje nakon prijave mora je uključiti prije bilo čega drugog u portalu.</span>
      </div>
      <Outcome ref={outcome} label="Ishod promjene" testId="totp-policy-outcome" notice={notice} noticeTestId="totp-policy-notice" />
    </section>
  );
}
