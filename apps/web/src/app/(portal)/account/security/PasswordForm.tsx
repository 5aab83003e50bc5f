"use client";
// Password change, validated in the page in Croatian; the server checks the current password and
// ends every other session.
import { useRef, useState } from "react";
import { plural } from "~/lib/plural";
import { errorMessage, trpc } from "~/lib/trpc-client";
import { Outcome } from "~/components/Outcome";

const sesija = (n: number) => plural(n, "sesija", "sesije", "sesija");

export function PasswordForm() {
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  const outcome = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);

  function show(kind: "ok" | "error", text: string) {
    setNotice({ kind, text });
    // After the render that shows it: the button was disabled, focus must not fall to <body>.
    requestAnimationFrame(() => outcome.current?.focus());
  }

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const current = String(data.get("current") ?? "");
    const next = String(data.get("next") ?? "");
    const repeat = String(data.get("repeat") ?? "");
    if (!current) return show("error", "Unesite trenutačnu lozinku.");
    if (next.length < 10) return show("error", "Nova lozinka mora imati barem 10 znakova.");
    if (next !== repeat) return show("error", "Nove lozinke se ne podudaraju.");
    setPending(true);
    try {
      const { endedSessions } = await trpc.security.changePassword.mutate({ current, next });
      form.current?.reset();
      show(
        "ok",
        endedSessions > 0
          ? `Lozinka je promijenjena. Odjavljeno: ${endedSessions} ${sesija(endedSessions)} na drugim uređajima.`
          : "Lozinka je promijenjena.",
      );
    } catch (err) {
      show("error", errorMessage(err));
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card section" aria-labelledby="password-title">
      <h2 id="password-title">Promjena lozinke</h2>
      <Outcome ref={outcome} label="Ishod promjene lozinke" testId="password-outcome" notice={notice} noticeTestId="password-notice" />
      <form ref={form} onSubmit={(e) => void onSubmit(e)} noValidate data-testid="password-form" style={{ maxWidth: 420 }}>
        <div className="field">
          <label htmlFor="pw-current">Trenutačna lozinka</label>
          <input id="pw-current" name="current" type="password" autoComplete="current-password" maxLength={200} data-testid="password-current" />
        </div>
        <div className="field">
          <label htmlFor="pw-next">Nova lozinka</label>
          <input id="pw-next" name="next" type="password" autoComplete="new-password" maxLength={200} aria-describedby="pw-next-help" data-testid="password-next" />
          <span className="help" id="pw-next-help">
            Barem 10 znakova.
          </span>
        </div>
        <div className="field">
          <label htmlFor="pw-repeat">Ponovite novu lozinku</label>
          <input id="pw-repeat" name="repeat" type="password" autoComplete="new-password" maxLength={200} data-testid="password-repeat" />
        </div>
        <button className="btn" type="submit" disabled={pending} data-testid="password-submit">
          {pending ? "Spremanje…" : "Promijeni lozinku"}
        </button>
      </form>
    </section>
  );
}
