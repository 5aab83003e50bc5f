"use client";
// Two-factor sign-in on the account page: scan the QR code (or type the secret), confirm with a
// code, keep the ten recovery codes (shown once); turn it off with the password. Focus moves to the
// outcome of every step, never to <body>.
import { useEffect, useRef, useState } from "react";
import { Alert } from "~/components/Alert";
import { formatDateTime } from "~/lib/format";
import type { PortalOutputs } from "~/lib/portal-types";
import { errorMessage, trpc } from "~/lib/trpc-client";
import { Outcome } from "~/components/Outcome";

type Status = PortalOutputs["security"]["totpStatus"];
type Setup = PortalOutputs["security"]["totpBegin"];

export function TotpSection({ initial, mandatory }: { initial: Status; mandatory: boolean }) {
  const [status, setStatus] = useState(initial);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const outcome = useRef<HTMLDivElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  // The secret is shown: the code field is next.
  useEffect(() => {
    if (setup) codeInput.current?.focus();
  }, [setup]);

  function show(kind: "ok" | "error", text: string) {
    setNotice({ kind, text });
    requestAnimationFrame(() => outcome.current?.focus());
  }

  async function run(step: () => Promise<void>) {
    setBusy(true);
    try {
      await step();
    } catch (err) {
      show("error", errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const begin = () =>
    run(async () => {
      setSetup(await trpc.security.totpBegin.mutate());
      setNotice(null);
    });

  const enable = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get("code") ?? "").replace(/\s/g, "");
    if (!/^\d{6}$/.test(code)) return show("error", "Unesite 6 znamenki iz aplikacije.");
    void run(async () => {
      const { recoveryCodes } = await trpc.security.totpEnable.mutate({ code });
      setCodes(recoveryCodes);
      setSetup(null);
      setStatus(await trpc.security.totpStatus.query());
      show("ok", "Dvofaktorska prijava je uključena. Spremite kodove za oporavak: prikazuju se samo sada.");
    });
  };

  const disable = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get("password") ?? "");
    if (!password) return show("error", "Unesite lozinku.");
    void run(async () => {
      await trpc.security.totpDisable.mutate({ password });
      setCodes(null);
      setStatus(await trpc.security.totpStatus.query());
      show("ok", "Dvofaktorska prijava je isključena.");
    });
  };

  return (
    <section className="card section" aria-labelledby="totp-title" data-testid="totp-section">
      <h2 id="totp-title">Dvofaktorska prijava</h2>
      {mandatory && !status.enabled ? (
        <Alert kind="warn" testId="totp-mandatory">
          Operater zahtijeva dvofaktorsku prijavu za vlasnike računa. Uključite je za nastavak rada u portalu.
        </Alert>
      ) : null}
      <Outcome ref={outcome} label="Ishod zadnje radnje" testId="totp-outcome" notice={notice} noticeTestId="totp-notice">
        {codes ? (
          <div data-testid="recovery-codes">
            <p>Kodovi za oporavak (svaki vrijedi jednom, ako izgubite uređaj s aplikacijom):</p>
            <ul className="mono" style={{ columns: 2, listStyle: "none", padding: 0 }}>
              {codes.map((c) => (
                <li key={c} data-testid="recovery-code">
                  {c}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </Outcome>
      {status.enabled ? (
        <>
          <p data-testid="totp-state">
            Uključena od {formatDateTime(status.enabledAt)}. Preostalo kodova za oporavak: {status.recoveryCodesLeft}.
          </p>
          {status.required ? (
            <p className="help">Operater je zahtijeva za vlasnike računa, pa se ne može isključiti.</p>
          ) : (
            <form onSubmit={disable} noValidate style={{ maxWidth: 420 }} data-testid="totp-disable-form">
              <div className="field">
                <label htmlFor="totp-disable-password">Lozinka</label>
                <input id="totp-disable-password" name="password" type="password" autoComplete="current-password" maxLength={200} data-testid="totp-disable-password" />
              </div>
              <button type="submit" className="btn secondary" disabled={busy} data-testid="totp-disable">
                Isključi dvofaktorsku prijavu
              </button>
            </form>
          )}
        </>
      ) : setup ? (
        <form onSubmit={enable} noValidate style={{ maxWidth: 460 }} data-testid="totp-enable-form">
          <p>Skenirajte kôd aplikacijom za autentifikaciju (npr. Google Authenticator, Aegis, 1Password) ili upišite tajni ključ.</p>
          <div dangerouslySetInnerHTML={{ __html: setup.qrSvg }} data-testid="totp-qr" />
          <p>
            Tajni ključ: <code className="mono break-anywhere" data-testid="totp-secret">{setup.secret}</code>
          </p>
          <div className="field">
            <label htmlFor="totp-code">Kôd iz aplikacije</label>
            <input ref={codeInput} id="totp-code" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={7} data-testid="totp-code" />
          </div>
          <button type="submit" className="btn" disabled={busy} data-testid="totp-confirm">
            Potvrdi i uključi
          </button>
        </form>
      ) : (
        <>
          <p data-testid="totp-state">Isključena. Uz lozinku, prijava će tražiti i kôd iz aplikacije na vašem telefonu.</p>
          <button type="button" className="btn" onClick={() => void begin()} disabled={busy} data-testid="totp-begin">
            Uključi dvofaktorsku prijavu
          </button>
        </>
      )}
    </section>
  );
}
