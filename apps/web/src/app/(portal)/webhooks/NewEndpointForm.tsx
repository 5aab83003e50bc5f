"use client";
// Adding a webhook address; the signing secret is shown once, right below.
import { useEffect, useRef } from "react";
import { CopyButton } from "~/components/CopyButton";
import { EVENT_CHOICES, EVENT_LABELS } from "./event-types";

export function NewEndpointForm({ busy, onCreate, newSecret }: { busy: string | null; onCreate: (e: React.FormEvent<HTMLFormElement>) => void; newSecret: string | null }) {
  // The new secret takes the focus: the submit button was disabled while adding, and focus must not fall to <body>.
  const secretPanel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (newSecret) secretPanel.current?.focus();
  }, [newSecret]);
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
        <fieldset className="event-choice" data-testid="webhook-event-types">
          <legend>Događaji</legend>
          {EVENT_CHOICES.map((t) => (
            <label key={t}>
              <input type="checkbox" name="eventTypes" value={t} defaultChecked data-testid={`new-event-${t}`} /> {EVENT_LABELS[t]} <code>{t}</code>
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn" disabled={busy !== null} data-testid="create-webhook">
          {busy === "create" ? "Dodavanje…" : "Dodaj adresu"}
        </button>
      </form>
      {newSecret ? (
        <div ref={secretPanel} tabIndex={-1} className="key-reveal focus-target" style={{ marginTop: 16, marginBottom: 0 }} data-testid="webhook-secret-panel" role="group" aria-label="Tajna nove adrese">
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
