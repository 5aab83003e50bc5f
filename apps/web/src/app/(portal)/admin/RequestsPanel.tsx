"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "~/components/Alert";
import { formatDateTime, PLAN_LABELS, UPGRADE_STATUS_LABELS } from "~/lib/format";
import { errorMessage, trpc } from "~/lib/trpc-client";
import { LimitsFields, readLimits, type EndpointLimitTable, type LimitBounds } from "./LimitsFields";
import { DataTable } from "~/components/DataTable";
import { CardSection } from "~/components/CardSection";

type Req = {
  id: string;
  account: { id: string; name: string; plan: string };
  requestedPlan: string;
  status: string;
  expectedVolume: string | null;
  message: string | null;
  requestedBy: string | null;
  decidedBy: string | null;
  decisionNote: string | null;
  createdAt: string;
  decidedAt: string | null;
};

export function RequestsPanel({ pending, decided, endpoints, bounds }: { pending: Req[]; decided: Req[]; endpoints: EndpointLimitTable; bounds: LimitBounds }) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  async function decide(e: React.FormEvent<HTMLFormElement>, r: Req) {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const action = submitter?.value === "reject" ? "reject" : "approve";
    const form = new FormData(e.currentTarget);
    const note = String(form.get("note") ?? "") || undefined;
    setBusy(r.id);
    setMessage(null);
    try {
      const result =
        action === "reject"
          ? await trpc.admin.reject.mutate({ requestId: r.id, note })
          : await trpc.admin.approve.mutate({
              requestId: r.id,
              note,
              custom: r.requestedPlan === "ENTERPRISE" ? readLimits(form, Object.keys(endpoints)) : undefined,
            });
      setMessage(
        result.ok
          ? { kind: "ok", text: `${action === "reject" ? "Odbijen" : "Odobren"} zahtjev računa ${r.account.name} (${PLAN_LABELS[r.requestedPlan]}).` }
          : { kind: "error", text: result.message },
      );
      router.refresh();
    } catch (err) {
      setMessage({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      {message ? <Alert kind={message.kind} testId="admin-message">{message.text}</Alert> : null}
      <section className="card section" aria-labelledby="pending-title">
        <div className="card-head">
          <h2 id="pending-title">Zahtjevi na čekanju</h2>
          <span className="hint" data-testid="pending-count">{pending.length}</span>
        </div>
        {pending.length === 0 ? (
          <div className="empty" data-testid="pending-empty">
            <strong>Nema zahtjeva na čekanju</strong>
            Novi zahtjevi kupaca za veći paket pojavit će se ovdje.
          </div>
        ) : (
          pending.map((r) => (
            <form
              key={r.id}
              onSubmit={(e) => decide(e, r)}
              // An error is about the values that were sent: changing them clears it.
              onInput={() => setMessage((m) => (m?.kind === "error" ? null : m))}
              className="card"
              style={{ boxShadow: "none", background: "var(--surface-2)", marginTop: 12 }}
              data-testid="pending-request-row"
              data-account={r.account.name}
            >
              <div className="card-head" style={{ marginBottom: 8 }}>
                <h3 style={{ margin: 0 }}>
                  {r.account.name}: {PLAN_LABELS[r.account.plan]} → <span style={{ color: "var(--primary)" }}>{PLAN_LABELS[r.requestedPlan]}</span>
                </h3>
                <span className="hint">
                  {r.requestedBy ?? "nepoznat korisnik"} · {formatDateTime(r.createdAt)}
                </span>
              </div>
              {r.expectedVolume ? (
                <p style={{ margin: "0 0 4px" }}>
                  <strong>Očekivani volumen:</strong> {r.expectedVolume}
                </p>
              ) : null}
              {r.message ? <p style={{ color: "var(--muted)", whiteSpace: "pre-wrap" }}>{r.message}</p> : null}
              {r.requestedPlan === "ENTERPRISE" ? <LimitsFields idPrefix={`req-${r.id}`} endpoints={endpoints} bounds={bounds} /> : null}
              <div className="inline-form" style={{ marginTop: 12 }}>
                <div className="field">
                  <label htmlFor={`note-${r.id}`}>Napomena kupcu (neobavezno)</label>
                  <input id={`note-${r.id}`} name="note" maxLength={500} />
                </div>
                <button className="btn" type="submit" name="action" value="approve" disabled={busy !== null} data-testid="approve-request">
                  {busy === r.id ? "Spremanje…" : "Odobri"}
                </button>
                <button className="btn ghost-danger" type="submit" name="action" value="reject" formNoValidate disabled={busy !== null} data-testid="reject-request">
                  Odbij
                </button>
              </div>
            </form>
          ))
        )}
      </section>

      <CardSection id="decided-title" title="Nedavne odluke">
        {decided.length === 0 ? (
          <div className="empty">
            <strong>Još nema odluka</strong>
          </div>
        ) : (
          <DataTable columns={["Račun", "Paket", "Stanje", "Odlučio", "Kada", "Napomena"]} wrap={{ style: { marginTop: 12 } }}>
            {decided.map((r) => (
              <tr key={r.id}>
                <td data-label="Račun">{r.account.name}</td>
                <td data-label="Paket">{PLAN_LABELS[r.requestedPlan]}</td>
                <td data-label="Stanje">
                  <span className={r.status === "APPROVED" ? "badge ok" : r.status === "CANCELLED" ? "badge" : "badge danger"}>{UPGRADE_STATUS_LABELS[r.status]}</span>
                </td>
                <td data-label="Odlučio">{r.status === "CANCELLED" ? "korisnik (otkazano)" : (r.decidedBy ?? "—")}</td>
                <td data-label="Kada" style={{ whiteSpace: "nowrap" }}>{formatDateTime(r.decidedAt)}</td>
                <td data-label="Napomena">{r.decisionNote ?? "—"}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </CardSection>
    </>
  );
}
