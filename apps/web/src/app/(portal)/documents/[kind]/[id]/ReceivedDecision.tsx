"use client";
// The recipient's decision on a received e-invoice: accept it, or reject it (art. 52) with a reason
// type (N, U, O) and a reason. Both are confirmed in a dialog; the reasons are checked here in
// Croatian (no browser bubbles) and again on the server, whose messages land on the same fields.
// After a decision the focus goes to its outcome; a cancelled dialog returns it to its button.
import { useRef, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { Alert } from "~/components/Alert";
import { errorMessage, trpc } from "~/lib/trpc-client";
import { REJECTION_REASONS } from "../../labels";
import { Outcome } from "~/components/Outcome";
import { DialogActions } from "~/components/DialogActions";

const MAX_REASON = 1024;

type Mode = "accept" | "reject";
type Errors = { reasonType?: string; reason?: string; form?: string };

function check(reasonType: string, reason: string): Errors {
  const errors: Errors = {};
  if (!REJECTION_REASONS.some((r) => r.value === reasonType)) errors.reasonType = "Odaberite vrstu razloga odbijanja.";
  const text = reason.trim();
  if (!text) errors.reason = "Navedite razlog odbijanja.";
  else if (text.length > MAX_REASON) errors.reason = `Razlog može imati najviše ${MAX_REASON} znakova (sada ${text.length}).`;
  return errors;
}

export function ReceivedDecision({ id, number, decidable, canDecide, again }: { id: string; number: string; decidable: boolean; canDecide: boolean; again: boolean }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const outcome = useRef<HTMLDivElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const firstType = useRef<HTMLInputElement>(null);
  const [mode, setMode] = useState<Mode | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  // Where the focus goes when the dialog closes: back to the button that opened it, or to the outcome.
  const opener = useRef<HTMLElement | null>(null);
  const toOutcome = useRef(false);

  function open(m: Mode) {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    toOutcome.current = false;
    setMode(m);
    setErrors({});
    dialog.current?.showModal();
  }

  function closed() {
    setMode(null);
    (toOutcome.current ? outcome.current : opener.current)?.focus();
  }

  function finish(n: { kind: "ok" | "error"; text: string }) {
    setNotice(n);
    toOutcome.current = true;
    dialog.current?.close();
  }

  function showErrors(e: Errors) {
    setErrors(e);
    // The first wrong field takes the focus (after React has drawn the messages).
    requestAnimationFrame(() => (e.reasonType ? firstType.current : e.reason ? reasonRef.current : null)?.focus());
  }

  async function decide(event?: FormEvent<HTMLFormElement>) {
    event?.preventDefault();
    let input: { id: string; decision: "accepted" | "rejected"; reasonType?: string; reason?: string } = { id, decision: "accepted" };
    if (mode === "reject" && event) {
      const data = new FormData(event.currentTarget);
      const reasonType = String(data.get("reasonType") ?? "");
      const reason = String(data.get("reason") ?? "");
      const found = check(reasonType, reason);
      if (found.reasonType || found.reason) return showErrors(found);
      input = { id, decision: "rejected", reasonType, reason };
    }
    setBusy(true);
    try {
      const r = await trpc.documents.decide.mutate(input);
      if (!r.ok && r.reason === "invalid_input") {
        const byPath = (p: string) => r.problems.find((x) => x.path === p)?.message;
        const other = r.problems.filter((x) => x.path !== "reason_type" && x.path !== "reason").map((x) => x.message);
        return showErrors({ reasonType: byPath("reason_type"), reason: byPath("reason"), form: other.length ? other.join(" ") : undefined });
      }
      finish(
        r.ok
          ? { kind: "ok", text: r.status === "accepted" ? `E-račun ${number} je prihvaćen.` : `E-račun ${number} je odbijen; odbijanje se prijavljuje Poreznoj upravi.` }
          : { kind: "error", text: r.message },
      );
      router.refresh();
    } catch (err) {
      finish({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  const typeError = errors.reasonType ? "reject-type-error" : undefined;
  const reasonError = errors.reason ? "reject-reason-error" : undefined;
  return (
    <>
      <Outcome ref={outcome} label="Ishod odluke" testId="decision-outcome" notice={notice} noticeTestId="decision-notice" />
      {decidable && canDecide ? (
        <div className="row-actions" data-testid="decision-actions">
          {again ? null : (
            <button type="button" className="btn" onClick={() => open("accept")} data-testid="accept-received">
              Prihvati
            </button>
          )}
          <button type="button" className="btn ghost-danger" onClick={() => open("reject")} data-testid="reject-received">
            {again ? "Odbij ponovno" : "Odbij"}
          </button>
        </div>
      ) : decidable ? (
        <p className="hint" data-testid="decision-read-only">
          Prihvatiti ili odbiti e-račun mogu vlasnik i programer računa tvrtke; vaša uloga ga samo pregledava.
        </p>
      ) : null}
      <dialog ref={dialog} aria-labelledby="decision-title" aria-describedby="decision-text" onClose={closed} data-testid="decision-dialog">
        <h2 id="decision-title">{mode === "reject" ? "Odbiti e-račun?" : "Prihvatiti e-račun?"}</h2>
        {mode === "reject" ? (
          <form noValidate onSubmit={(e) => void decide(e)} data-testid="reject-form">
            <p id="decision-text">
              Odbijanje e-računa {number} prijavljuje se Poreznoj upravi (čl. 52. Zakona o fiskalizaciji) s današnjim datumom i ne može se povući.
            </p>
            <fieldset className="event-choice" aria-describedby={typeError} style={{ marginBottom: 14 }}>
              <legend>Vrsta razloga</legend>
              {REJECTION_REASONS.map((r, i) => (
                <label key={r.value}>
                  <input ref={i === 0 ? firstType : undefined} type="radio" name="reasonType" value={r.value} aria-invalid={typeError ? true : undefined} data-testid={`reject-type-${r.value}`} />
                  {r.label}
                </label>
              ))}
              {errors.reasonType ? (
                <span id="reject-type-error" className="field-error" data-testid="reject-type-error">
                  {errors.reasonType}
                </span>
              ) : null}
            </fieldset>
            <div className="field">
              <label htmlFor="reject-reason">Razlog odbijanja</label>
              <textarea id="reject-reason" ref={reasonRef} name="reason" rows={4} aria-invalid={reasonError ? true : undefined} aria-describedby={reasonError} data-testid="reject-reason" />
              {errors.reason ? (
                <span id="reject-reason-error" className="field-error" data-testid="reject-reason-error">
                  {errors.reason}
                </span>
              ) : null}
            </div>
            {errors.form ? <Alert kind="error">{errors.form}</Alert> : null}
            <DialogActions onCancel={() => dialog.current?.close()} focusCancel={false} disabled={busy} testId="confirm-reject" confirm={busy ? "Odbijanje…" : "Odbij e-račun"} />
          </form>
        ) : (
          <>
            <p id="decision-text">E-račun {number} bit će označen kao prihvaćen. Prihvaćeni e-račun više se ne može odbiti.</p>
            <DialogActions onCancel={() => dialog.current?.close()} onConfirm={() => void decide()} danger={false} disabled={busy} testId="confirm-accept" confirm={busy ? "Prihvaćanje…" : "Prihvati e-račun"} />
          </>
        )}
      </dialog>
    </>
  );
}
