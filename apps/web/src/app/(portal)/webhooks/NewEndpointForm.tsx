"use client";
// Adding a webhook address; the signing secret is shown once, right below.
import { CopyButton } from "~/components/CopyButton";

export function NewEndpointForm({ busy, onCreate, newSecret }: { busy: string | null; onCreate: (e: React.FormEvent<HTMLFormElement>) => void; newSecret: string | null }) {
  return (
    <section className="card section" aria-labelledby="wh-new-title">
      <div className="card-head">
        <h2 id="wh-new-title">Nova adresa</h2>
        <span className="hint">samo javne http(s) adrese</span>
      </div>
      <form className="inline-form" onSubmit={onCreate}>
        <div className="field" style={{ flex: "2 1 240px" }}>
          <label htmlFor="wh-url">URL</label>
          <input id="wh-url" name="url" type="url" required maxLength={2048} placeholder="https://primjer.hr/fiskal/webhook" data-testid="webhook-url" />
        </div>
        <div className="field">
          <label htmlFor="wh-desc">Opis (neobavezno)</label>
          <input id="wh-desc" name="description" maxLength={200} placeholder="npr. Produkcija" />
        </div>
        <button type="submit" className="btn" disabled={busy !== null} data-testid="create-webhook">
          {busy === "create" ? "Dodavanje…" : "Dodaj adresu"}
        </button>
      </form>
      {newSecret ? (
        <div className="key-reveal" style={{ marginTop: 16, marginBottom: 0 }} data-testid="webhook-secret-panel">
          <strong>Tajna za provjeru potpisa</strong>
          <div className="key-line">
            <code data-testid="webhook-secret">{newSecret}</code>
            <CopyButton text={newSecret} label="Kopiraj tajnu" />
          </div>
        </div>
      ) : null}
    </section>
  );
}
