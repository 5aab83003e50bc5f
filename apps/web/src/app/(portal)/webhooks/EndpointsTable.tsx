"use client";
// The account's webhook addresses with their actions; below 640 px each row is a card.
import { CopyButton } from "~/components/CopyButton";
import { formatDateTime } from "~/lib/format";
import { disabledReasonText } from "~/lib/request-labels";
import { EVENT_CHOICES, EVENT_LABELS } from "./event-types";
import type { Endpoint } from "./types";
import { ACTIONS_COLUMN, DataTable } from "~/components/DataTable";

type Props = {
  endpoints: Endpoint[];
  secrets: Record<string, string>;
  busy: string | null;
  onTest: (e: Endpoint) => void;
  onShowSecret: (e: Endpoint) => void;
  onAsk: (kind: "remove" | "rotate", e: Endpoint) => void;
  onToggle: (e: Endpoint) => void;
  onEventTypes: (e: Endpoint, eventTypes: string[]) => void;
};

export function EndpointsTable({ endpoints, secrets, busy, onTest, onShowSecret, onAsk, onToggle, onEventTypes }: Props) {
  return (
    <section className="card flush section" aria-labelledby="wh-list-title">
      <div className="card-head">
        <h2 id="wh-list-title">Adrese</h2>
      </div>
      {endpoints.length === 0 ? (
        <div className="empty" data-testid="webhooks-empty">
          <strong>Još nemate webhook adresu</strong>
          Dodajte adresu iznad i pošaljite testni događaj da provjerite prijem.
        </div>
      ) : (
        <DataTable columns={["Adresa", "Događaji", "Stanje", ACTIONS_COLUMN]} testId="webhooks-table" style={{ marginTop: 12 }} wrap={null}>
          {endpoints.map((e) => (
            <tr key={e.id} data-testid="webhook-row">
              <td data-label="Adresa" style={{ maxWidth: 360 }}>
                <div className="mono break-anywhere">{e.url}</div>
                <div style={{ color: "var(--muted)", fontSize: "0.82rem" }}>
                  {e.description ? `${e.description} · ` : ""}dodano {formatDateTime(e.createdAt)}
                </div>
                {secrets[e.id] ? (
                  <div className="key-line" style={{ marginTop: 6, display: "flex", gap: 8, alignItems: "center", flexWrap: "wrap" }}>
                    <code className="break-anywhere">{secrets[e.id]}</code>
                    <CopyButton text={secrets[e.id] ?? ""} label="Kopiraj" />
                  </div>
                ) : null}
              </td>
              <td data-label="Događaji">
                <fieldset className="event-choice" data-testid="webhook-row-events">
                  <legend className="sr-only">Događaji za {e.url}</legend>
                  {EVENT_CHOICES.map((t) => {
                    const on = e.eventTypes.includes(t);
                    return (
                      <label key={t} title={t}>
                        <input
                          type="checkbox"
                          checked={on}
                          disabled={busy !== null || (on && e.eventTypes.length === 1)}
                          onChange={() => onEventTypes(e, on ? e.eventTypes.filter((x) => x !== t) : [...e.eventTypes, t])}
                          data-testid={`row-event-${t}`}
                        />{" "}
                        {EVENT_LABELS[t]}
                      </label>
                    );
                  })}
                </fieldset>
              </td>
              <td data-label="Stanje">
                {e.enabled ? <span className="badge ok">Aktivna</span> : <span className="badge">Isključena</span>}
                {e.disabledReason ? <div style={{ color: "var(--muted)", fontSize: "0.8rem" }}>{disabledReasonText(e.disabledReason)}</div> : null}
              </td>
              <td>
                <div className="row-actions" style={{ justifyContent: "flex-end" }}>
                  <button type="button" className="btn secondary small" disabled={busy !== null || !e.enabled} onClick={() => onTest(e)} data-testid="send-test-event" aria-label={`Testni događaj za ${e.url}`}>
                    {busy === `test-${e.id}` ? "Slanje…" : "Testni događaj"}
                  </button>
                  {secrets[e.id] ? null : (
                    <button type="button" className="btn secondary small" disabled={busy !== null} onClick={() => onShowSecret(e)} aria-label={`Prikaži tajnu za ${e.url}`}>
                      Prikaži tajnu
                    </button>
                  )}
                  <button type="button" className="btn secondary small" disabled={busy !== null} onClick={() => onAsk("rotate", e)} aria-label={`Nova tajna za ${e.url}`}>
                    Nova tajna
                  </button>
                  <button type="button" className="btn secondary small" disabled={busy !== null} onClick={() => onToggle(e)} aria-label={`${e.enabled ? "Isključi" : "Uključi"} ${e.url}`}>
                    {e.enabled ? "Isključi" : "Uključi"}
                  </button>
                  <button type="button" className="btn ghost-danger small" disabled={busy !== null} onClick={() => onAsk("remove", e)} aria-label={`Obriši ${e.url}`}>
                    Obriši
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
