"use client";
// Accepting an invitation: a new user chooses a name and password, an existing one confirms with
// theirs; then they are signed in. Checked in the page, in Croatian (no browser validation bubbles).
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Alert } from "~/components/Alert";
import { errorMessage, trpc } from "~/lib/trpc-client";

export function AcceptForm({ token, email, existing }: { token: string; email: string; existing: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const errorBox = useRef<HTMLDivElement>(null);

  const show = (text: string) => {
    setError(text);
    setPending(false);
    requestAnimationFrame(() => errorBox.current?.focus());
  };

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get("password") ?? "");
    if (!password) return show("Unesite lozinku.");
    if (!existing) {
      if (password.length < 10) return show("Lozinka mora imati barem 10 znakova.");
      if (password !== String(form.get("password2") ?? "")) return show("Lozinke se ne podudaraju.");
    }
    setPending(true);
    setError(null);
    try {
      const r = await trpc.team.accept.mutate({ token, password, name: String(form.get("name") ?? "") || undefined });
      if (!r.ok) return show(r.message);
      const res = await signIn("credentials", { email, password, redirect: false });
      router.replace(!res || res.error ? "/login" : "/team");
      router.refresh();
    } catch (err) {
      show(errorMessage(err));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate data-testid="accept-form">
      <div ref={errorBox} tabIndex={-1} style={{ outline: "none" }}>
        {error ? (
          <Alert kind="error" testId="accept-error">
            {error}
          </Alert>
        ) : null}
      </div>
      {existing ? (
        <p>Za adresu {email} već postoji račun. Potvrdite poziv lozinkom tog računa.</p>
      ) : (
        <div className="field">
          <label htmlFor="ac-name">
            Vaše ime <span className="help">(neobavezno)</span>
          </label>
          <input id="ac-name" name="name" autoComplete="name" maxLength={100} data-testid="accept-name" />
        </div>
      )}
      <div className="field">
        <label htmlFor="ac-password">{existing ? "Lozinka" : "Nova lozinka"}</label>
        <input
          id="ac-password"
          name="password"
          type="password"
          autoComplete={existing ? "current-password" : "new-password"}
          maxLength={200}
          aria-describedby={existing ? undefined : "ac-password-help"}
          data-testid="accept-password"
        />
        {existing ? null : (
          <span className="help" id="ac-password-help">
            Barem 10 znakova.
          </span>
        )}
      </div>
      {existing ? null : (
        <div className="field">
          <label htmlFor="ac-password2">Ponovite lozinku</label>
          <input id="ac-password2" name="password2" type="password" autoComplete="new-password" maxLength={200} data-testid="accept-password2" />
        </div>
      )}
      <button className="btn block" type="submit" disabled={pending} data-testid="accept-submit">
        {pending ? "Prihvaćanje…" : "Prihvati poziv"}
      </button>
    </form>
  );
}
