"use client";
import { signIn } from "next-auth/react";
import { useEffect, useRef, useState } from "react";
import { Alert } from "~/components/Alert";
import { displayableSignInError, safeCallbackPath, TOTP_INVALID, TOTP_REQUIRED } from "~/lib/auth-messages";

export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // After the right password of an account with two-factor sign-in: the code field.
  const [needCode, setNeedCode] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (needCode && !pending) codeInput.current?.focus();
  }, [needCode, pending, error]);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    try {
      const res = await signIn("credentials", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        ...(needCode ? { code: String(form.get("code") ?? "") } : {}),
        redirect: false,
      });
      if (!res || res.error) {
        const message = displayableSignInError(res?.error);
        if (message === TOTP_REQUIRED || message === TOTP_INVALID) setNeedCode(true);
        setError(message);
        setPending(false);
        return;
      }
      // A full page load: the client router may still hold the redirect to sign-in it was given for
      // the page while signed out. No page to return to: the landing page sends each role to its own
      // start page.
      window.location.assign(callbackUrl ? safeCallbackPath(callbackUrl) : "/");
    } catch {
      setError("Poslužitelj nije dostupan. Pokušajte ponovno.");
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate={false} data-testid="login-form" aria-describedby={error ? "login-error" : undefined}>
      {error ? (
        <div id="login-error">
          <Alert kind="error" testId="login-error">
            {error}
          </Alert>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="login-email">E-mail</label>
        <input id="login-email" name="email" type="email" autoComplete="email" required data-testid="login-email" />
      </div>
      <div className="field">
        <label htmlFor="login-password">Lozinka</label>
        <input id="login-password" name="password" type="password" autoComplete="current-password" required data-testid="login-password" />
      </div>
      {needCode ? (
        <div className="field">
          <label htmlFor="login-code">Kôd za prijavu</label>
          <input
            ref={codeInput}
            id="login-code"
            name="code"
            inputMode="text"
            autoComplete="one-time-code"
            maxLength={20}
            aria-describedby="login-code-help"
            data-testid="login-code"
          />
          <span className="help" id="login-code-help">
            6 znamenki iz aplikacije za autentifikaciju ili kôd za oporavak (xxxx-xxxx-xxxx).
          </span>
        </div>
      ) : null}
      <button className="btn block" type="submit" disabled={pending} data-testid="login-submit">
        {pending ? "Prijava u tijeku…" : "Prijavi se"}
      </button>
    </form>
  );
}
