"use client";
// The account's certificate (subject, OIB, validity, a warning 30 days before expiry) and the form
// that uploads a FINA application certificate: the .p12/.pfx file and its password.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "~/components/Alert";
import { formatDate, formatDateTime } from "~/lib/format";
import { plural } from "~/lib/plural";
import { errorMessage, trpc } from "~/lib/trpc-client";
import type { CertificateInfo, CertificateState } from "~/server/trpc/routers/certificates";
import styles from "./certificates.module.css";

const STATE_LABEL: Record<CertificateState, { text: string; badge: string }> = {
  valid: { text: "Važeći", badge: "ok" },
  expiring: { text: "Uskoro ističe", badge: "warn" },
  expired: { text: "Istekao", badge: "danger" },
  not_yet_valid: { text: "Još ne vrijedi", badge: "warn" },
};

/** The file as base64, for the upload. */
async function fileToBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function CertificateManager({ initial, accountOib, warningDays }: { initial: CertificateInfo | null; accountOib: string | null; warningDays: number }) {
  const router = useRouter();
  const [cert, setCert] = useState<CertificateInfo | null>(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: "file" | "password" | null; message: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const file = data.get("file");
    const password = String(data.get("password") ?? "");
    setError(null);
    setDone(null);
    if (!(file instanceof File) || file.size === 0) return setError({ field: "file", message: "Odaberite datoteku certifikata (.p12 ili .pfx)." });
    if (file.size > 64 * 1024) return setError({ field: "file", message: "Datoteka certifikata smije imati najviše 64 KB." });
    setBusy(true);
    try {
      const r = await trpc.certificates.upload.mutate({ pkcs12: await fileToBase64(file), password });
      if (!r.ok) return setError({ field: r.field, message: r.message });
      setCert(r.certificate);
      setDone(`Certifikat je učitan: ${r.certificate.subject}.`);
      form.reset();
      setFileName(null);
      router.refresh();
    } catch (err) {
      setError({ field: null, message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  const days = cert?.daysLeft ?? 0;
  const daysText = `${days} ${plural(days, "dan", "dana", "dana")}`;
  return (
    <>
      {cert?.state === "expiring" ? (
        <Alert kind="warn" title="Certifikat uskoro ističe" testId="certificate-expiring">
          Certifikat ističe za {daysText} ({formatDate(cert.notAfter)}). Na vrijeme zatražite novi kod FINA-e i učitajte ga ovdje: s isteklim
          certifikatom računi se ne mogu fiskalizirati. Upozorenje se prikazuje {warningDays} dana prije isteka.
        </Alert>
      ) : null}
      {cert?.state === "expired" ? (
        <Alert kind="error" title="Certifikat je istekao" testId="certificate-expired">
          Istekao je {formatDateTime(cert.notAfter)}. Računi se ne mogu fiskalizirati dok ne učitate važeći certifikat.
        </Alert>
      ) : null}

      <section className="card section" aria-labelledby="cert-current-title">
        <div className="card-head">
          <h2 id="cert-current-title">Trenutni certifikat</h2>
          {cert ? (
            <span className="row-actions">
              <span className={`badge ${STATE_LABEL[cert.state].badge}`} data-testid="certificate-state">
                {STATE_LABEL[cert.state].text}
              </span>
              {cert.test ? <span className="badge">Testni</span> : <span className="badge primary">FINA</span>}
            </span>
          ) : null}
        </div>
        {cert ? (
          <dl className={styles.facts} data-testid="certificate-facts">
            <dt>Subjekt</dt>
            <dd className="mono">{cert.subject}</dd>
            <dt>OIB</dt>
            <dd className="mono" data-testid="certificate-oib">
              {cert.oib ?? "—"}
            </dd>
            <dt>Izdavatelj</dt>
            <dd>{cert.issuer ?? "—"}</dd>
            <dt>Vrijedi do</dt>
            <dd data-testid="certificate-expiry">
              {formatDateTime(cert.notAfter)} {cert.state === "expired" ? null : <span className="hint">(još {daysText})</span>}
            </dd>
            {cert.fingerprint ? (
              <>
                <dt>SHA-256 otisak</dt>
                <dd className="mono">{cert.fingerprint}</dd>
              </>
            ) : null}
            <dt>Učitan</dt>
            <dd>{formatDateTime(cert.uploadedAt)}</dd>
          </dl>
        ) : (
          <p className="hint" data-testid="certificate-none">
            Još nema certifikata. Prvi fiskalizirani račun dobit će generirani testni certifikat za OIB izdavatelja, dovoljan za simulator i demo
            okolinu Porezne uprave.
          </p>
        )}
      </section>

      <section className="card section" aria-labelledby="cert-upload-title">
        <div className="card-head">
          <h2 id="cert-upload-title">{cert && !cert.test ? "Zamjena certifikata" : "Učitavanje FINA certifikata"}</h2>
        </div>
        <form className={styles.form} onSubmit={onSubmit} noValidate aria-describedby="cert-upload-help">
          <p id="cert-upload-help" className="hint">
            Aplikacijski certifikat za fiskalizaciju (datoteka .p12 ili .pfx) s privatnim ključem
            {accountOib ? (
              <>
                , izdan za OIB <span className="mono">{accountOib}</span>
              </>
            ) : null}
            . Certifikat mora biti važeći; novi zamjenjuje dosadašnji.
          </p>
          <div className="field">
            <span className={styles.label} id="cert-file-label">
              Datoteka certifikata
            </span>
            {/* The browser's own file button speaks the browser's language: ours is Croatian. */}
            <div className={styles.picker}>
              <input
                id="cert-file"
                name="file"
                type="file"
                className={styles.fileInput}
                accept=".p12,.pfx,application/x-pkcs12"
                required
                aria-labelledby="cert-file-label cert-file-button"
                aria-invalid={error?.field === "file" ? true : undefined}
                aria-describedby={error?.field === "file" ? "cert-error cert-file-name" : "cert-file-name"}
                onChange={(e) => setFileName(e.currentTarget.files?.[0]?.name ?? null)}
                data-testid="certificate-file"
              />
              <label htmlFor="cert-file" id="cert-file-button" className="btn secondary">
                Odaberi datoteku
              </label>
              <span id="cert-file-name" className={styles.fileName} aria-live="polite">
                {fileName ?? "Datoteka nije odabrana"}
              </span>
            </div>
          </div>
          <div className="field">
            <label htmlFor="cert-password">Lozinka certifikata</label>
            <input
              id="cert-password"
              name="password"
              type="password"
              autoComplete="off"
              maxLength={200}
              aria-invalid={error?.field === "password" ? true : undefined}
              aria-describedby={error?.field === "password" ? "cert-error" : "cert-password-help"}
              data-testid="certificate-password"
            />
            <span id="cert-password-help" className="help">
              Lozinku koristimo samo za otvaranje datoteke i ne pohranjujemo je.
            </span>
          </div>
          {error ? (
            <div id="cert-error">
              <Alert kind="error" testId="certificate-error">
                {error.message}
              </Alert>
            </div>
          ) : null}
          {done ? (
            <Alert kind="ok" testId="certificate-done">
              {done}
            </Alert>
          ) : null}
          <div>
            <button type="submit" className="btn" disabled={busy} data-testid="certificate-upload">
              {busy ? "Učitavanje…" : "Učitaj certifikat"}
            </button>
          </div>
        </form>
      </section>

      <section className="card section" aria-labelledby="cert-prod-title">
        <div className="card-head">
          <h2 id="cert-prod-title">Od testnog certifikata do produkcije</h2>
        </div>
        <ol className={styles.steps}>
          <li>Zatražite od FINA-e demo aplikacijski certifikat za fiskalizaciju i isprobajte fiskalizaciju u demo okolini Porezne uprave.</li>
          <li>
            Poslovne prostore prijavite kroz aplikaciju Porezne uprave za prijavu poslovnih prostora; oznake prostora i naplatnih uređaja na
            računima moraju biti upravo te
            (<span className="mono">premises</span>, <span className="mono">device</span>).
          </li>
          <li>Zatražite produkcijski aplikacijski certifikat i učitajte ga ovdje (ili <span className="mono">PUT /v1/certificate</span>).</li>
          <li>Na svakom računu ispišite ZKI, JIR i QR kod (<span className="mono">qr_url</span>, slika s <span className="mono">GET /v1/invoices/&#123;id&#125;/qr</span>).</li>
        </ol>
        <p className="hint">
          Više u dokumentaciji: <Link href="/docs/fiscalization#produkcija">Fiskalizacija računa</Link>.
        </p>
      </section>
    </>
  );
}
