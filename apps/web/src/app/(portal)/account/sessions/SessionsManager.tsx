"use client";
// The signed-in user's sessions: end one, or every other one. After a dialog the focus goes to the
// outcome (or back to the list), never to <body>.
import { useEffect, useRef, useState } from "react";
import { formatDateTime, formatRelative } from "~/lib/format";
import { plural } from "~/lib/plural";
import type { PortalOutputs } from "~/lib/portal-types";
import { errorMessage, trpc } from "~/lib/trpc-client";
import { DataTable } from "~/components/DataTable";
import { Outcome } from "~/components/Outcome";
import { DialogActions } from "~/components/DialogActions";

type SessionRow = PortalOutputs["security"]["sessions"][number];
type Pending = { kind: "one"; session: SessionRow } | { kind: "others" };

const sesija = (n: number) => plural(n, "sesija", "sesije", "sesija");

export function SessionsManager({ initial }: { initial: SessionRow[] }) {
  const [sessions, setSessions] = useState(initial);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const outcome = useRef<HTMLDivElement>(null);
  const focusOutcome = useRef(false);

  useEffect(() => {
    if (!focusOutcome.current || busy) return;
    focusOutcome.current = false;
    outcome.current?.focus();
  }, [busy, notice, sessions]);

  const others = sessions.filter((s) => !s.current);

  function ask(p: Pending) {
    setPending(p);
    dialog.current?.showModal();
  }

  async function confirm() {
    if (!pending) return;
    setBusy(true);
    try {
      if (pending.kind === "one") {
        await trpc.security.endSession.mutate({ id: pending.session.id });
        setNotice({ kind: "ok", text: `Sesija (${pending.session.device}) je završena.` });
      } else {
        const { ended } = await trpc.security.endOtherSessions.mutate();
        setNotice({ kind: "ok", text: ended === 0 ? "Nema drugih sesija." : `Završeno: ${ended} ${sesija(ended)}.` });
      }
      setSessions(await trpc.security.sessions.query());
    } catch (err) {
      setNotice({ kind: "error", text: errorMessage(err) });
    } finally {
      focusOutcome.current = true;
      dialog.current?.close();
      setBusy(false);
    }
  }

  return (
    <section className="card flush section" aria-labelledby="sessions-title">
      <div className="card-head">
        <h2 id="sessions-title">Aktivne sesije</h2>
        <button type="button" className="btn secondary small" onClick={() => ask({ kind: "others" })} disabled={others.length === 0} data-testid="end-other-sessions">
          Završi sve ostale
        </button>
      </div>
      <Outcome ref={outcome} label="Ishod zadnje radnje" testId="sessions-outcome" notice={notice} noticeTestId="sessions-notice" />
      <DataTable columns={["Uređaj", "IP adresa", "Prijava", "Zadnja aktivnost", { label: "Radnje", num: true }]} testId="sessions-table">
        {sessions.map((s) => (
          <tr key={s.id} data-testid="session-row" data-current={s.current ? "true" : "false"} data-session-id={s.id}>
            <td data-label="Uređaj">
              {s.device}
              {s.current ? (
                <>
                  {" "}
                  <span className="badge ok">ova sesija</span>
                </>
              ) : null}
            </td>
            <td data-label="IP adresa" className="mono" data-testid="session-ip">
              {s.ip ?? "nepoznata"}
            </td>
            <td data-label="Prijava">{formatDateTime(s.createdAt)}</td>
            <td data-label="Zadnja aktivnost" title={formatDateTime(s.lastSeenAt)}>
              {formatRelative(s.lastSeenAt)}
            </td>
            <td data-label="Radnje" className="num">
              {s.current ? (
                <span className="hint">odjavom</span>
              ) : (
                <button
                  type="button"
                  className="btn ghost-danger small"
                  onClick={() => ask({ kind: "one", session: s })}
                  data-testid="end-session"
                  aria-label={`Završi sesiju: ${s.device}, prijava ${formatDateTime(s.createdAt)}`}
                >
                  Završi
                </button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      <dialog ref={dialog} aria-labelledby="end-session-title" aria-describedby="end-session-text" onClose={() => setPending(null)} data-testid="end-session-dialog">
        <h2 id="end-session-title">{pending?.kind === "others" ? "Završiti sve ostale sesije?" : "Završiti sesiju?"}</h2>
        <p id="end-session-text">
          {pending?.kind === "one"
            ? `Preglednik „${pending.session.device}” (prijava ${formatDateTime(pending.session.createdAt)}) bit će odjavljen pri sljedećem zahtjevu.`
            : "Svi ostali preglednici i uređaji bit će odjavljeni pri sljedećem zahtjevu. Ova sesija ostaje prijavljena."}
        </p>
        <DialogActions onCancel={() => dialog.current?.close()} onConfirm={() => void confirm()} disabled={busy} testId="confirm-end-session" confirm={busy ? "Završavanje…" : "Završi"} />
      </dialog>
    </section>
  );
}
