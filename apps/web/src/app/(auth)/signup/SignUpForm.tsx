"use client";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "~/components/Alert";
import { errorMessage, trpc } from "~/lib/trpc-client";

export function SignUpForm() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    if (password !== String(form.get("password2") ?? "")) {
      setError("Lozinke se ne podudaraju.");
      return;
    }
    setPending(true);
    setError(null);
    try {
      const result = await trpc.auth.signUp.mutate({
        name: String(form.get("name") ?? "") || undefined,
        company: String(form.get("company") ?? ""),
        email,
        password,
      });
      if (!result.ok) {
        setError(result.message);
        setPending(false);
        return;
      }
      const res = await signIn("credentials", { email, password, redirect: false });
      if (!res || res.error) {
        router.replace("/login");
        return;
      }
      // A full page load, as after sign-in: the server may send the new owner elsewhere first
      // (two-factor sign-in required by the operator), which a client-side navigation showed blank.
      window.location.assign("/dashboard");
    } catch (err) {
      setError(errorMessage(err));
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} data-testid="signup-form">
      {error ? <Alert kind="error" testId="signup-error">{error}</Alert> : null}
      <div className="field">
        <label htmlFor="su-company">Naziv tvrtke</label>
        <input id="su-company" name="company" autoComplete="organization" required minLength={2} maxLength={120} data-testid="signup-company" />
      </div>
      <div className="field">
        <label htmlFor="su-name">Vaše ime <span className="help">(neobavezno)</span></label>
        <input id="su-name" name="name" autoComplete="name" maxLength={100} data-testid="signup-name" />
      </div>
      <div className="field">
        <label htmlFor="su-email">E-mail</label>
        <input id="su-email" name="email" type="email" autoComplete="email" required data-testid="signup-email" />
      </div>
      <div className="field">
        <label htmlFor="su-password">Lozinka</label>
        <input id="su-password" name="password" type="password" autoComplete="new-password" required minLength={10} maxLength={200} aria-describedby="su-password-help" data-testid="signup-password" />
        <span className="help" id="su-password-help">Barem 10 znakova.</span>
      </div>
      <div className="field">
        <label htmlFor="su-password2">Ponovite lozinku</label>
        <input id="su-password2" name="password2" type="password" autoComplete="new-password" required minLength={10} maxLength={200} data-testid="signup-password2" />
      </div>
      <button className="btn block" type="submit" disabled={pending} data-testid="signup-submit">
        {pending ? "Otvaranje računa…" : "Otvori račun"}
      </button>
    </form>
  );
}
