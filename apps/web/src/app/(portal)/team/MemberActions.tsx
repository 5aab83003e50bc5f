"use client";
// A member who is not an owner can leave the team; anyone in several teams can switch between them.
import { useRef } from "react";
import { Alert } from "~/components/Alert";
import type { PortalOutputs } from "~/lib/portal-types";
import { trpc } from "~/lib/trpc-client";
import { useAction } from "~/lib/use-action";
import { ROLE_LABELS } from "./roles";

export function LeaveTeam() {
  const { busy, message, run } = useAction();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const close = () => {
    if (dialog.current?.open) dialog.current.close();
    opener.current?.focus();
  };
  return (
    <>
      {message ? (
        <Alert kind={message.kind === "ok" ? "ok" : "error"} testId="leave-outcome">
          {message.text}
        </Alert>
      ) : null}
      <button ref={opener} type="button" className="btn ghost-danger" onClick={() => dialog.current?.showModal()} disabled={busy !== null} data-testid="leave-team">
        Napusti tim
      </button>
      <dialog ref={dialog} aria-labelledby="leave-dialog-title" onClose={close} data-testid="leave-dialog">
        <h2 id="leave-dialog-title">Napustiti tim?</h2>
        <p>Nakon toga više nemate pristup ovom računu dok vas netko ponovno ne pozove.</p>
        <div className="row-actions">
          <button type="button" className="btn secondary" onClick={close} autoFocus>
            Odustani
          </button>
          <button
            type="button"
            className="btn danger"
            data-testid="confirm-leave"
            onClick={() => {
              dialog.current?.close();
              void run("leave", () => trpc.team.leave.mutate(), "Napustili ste tim.");
            }}
          >
            Napusti tim
          </button>
        </div>
      </dialog>
    </>
  );
}

export function SwitchAccount({ accounts }: { accounts: PortalOutputs["team"]["accounts"] }) {
  const { busy, message, run } = useAction();
  return (
    <section className="card section" aria-labelledby="accounts-title">
      <h2 id="accounts-title">Vaši timovi</h2>
      {message?.kind === "error" ? <Alert kind="error">{message.text}</Alert> : null}
      <ul style={{ paddingLeft: 18 }}>
        {accounts.map((a) => (
          <li key={a.id} style={{ marginBottom: 8 }}>
            {a.name} ({ROLE_LABELS[a.role]}){" "}
            {a.current ? (
              <span className="badge ok">trenutni</span>
            ) : (
              <button type="button" className="btn small secondary" disabled={busy !== null} onClick={() => void run(a.id, () => trpc.team.switchAccount.mutate({ accountId: a.id }), `Radite u računu ${a.name}.`)}>
                Prijeđi<span className="sr-only"> u račun {a.name}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
