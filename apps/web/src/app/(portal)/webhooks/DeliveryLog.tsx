"use client";
// Every event with its deliveries and their attempts, newest first, with a manual redeliver.
import { formatDateTime, formatShortDateTime } from "~/lib/format";
import { deliveryStatus } from "./delivery-status";
import type { Delivery, EventRow } from "./types";
import { ACTIONS_COLUMN, DataTable } from "~/components/DataTable";

type Props = { events: EventRow[]; busy: string | null; hasOlder: boolean; onOlder: () => void; onRedeliver: (ev: EventRow, d: Delivery) => void };

function Attempts({ d }: { d: Delivery }) {
  if (d.attempts.length === 0) return <p style={{ color: "var(--muted)" }}>Još nije bilo pokušaja.</p>;
  return (
    <ul className="schema">
      {d.attempts.map((a) => (
        <li key={a.id}>
          #{a.number} · {formatShortDateTime(a.startedAt)} · {a.durationMs} ms ·{" "}
          {a.statusCode ? <strong>HTTP {a.statusCode}</strong> : <strong>{a.error ?? "bez odgovora"}</strong>}
          {a.manual ? " · ručno" : ""}
          {a.responseBody ? <pre className="wrap" style={{ fontSize: "0.75rem" }}>{a.responseBody}</pre> : null}
        </li>
      ))}
    </ul>
  );
}

export function DeliveryLog({ events, busy, hasOlder, onOlder, onRedeliver }: Props) {
  // An event whose address was deleted since has no deliveries left to show.
  const rows = events.flatMap((ev) => ev.deliveries.map((d) => ({ ev, d })));
  return (
    <section className="card flush section" aria-labelledby="wh-log-title">
      <div className="card-head">
        <h2 id="wh-log-title">Zapisnik isporuka</h2>
        <span className="hint">svaki pokušaj, s odgovorom primatelja</span>
      </div>
      {rows.length === 0 ? (
        <div className="empty" data-testid="webhook-log-empty">
          <strong>Još nema isporuka</strong>
          Ovdje ćete vidjeti svaki događaj poslan na vaše adrese, njegove pokušaje i odgovore primatelja, uz mogućnost ponovnog slanja.
          Pošaljite testni događaj da ga isprobate.
        </div>
      ) : (
        <DataTable columns={["Vrijeme", "Događaj", "Adresa", "Stanje", { label: "Pokušaji", num: true }, ACTIONS_COLUMN]} testId="webhook-log" className="data top stack" style={{ marginTop: 12 }} wrap={null}>
          {rows.map(({ ev, d }) => {
            const status = deliveryStatus(d);
            return (
              <tr key={d.id} data-testid="webhook-delivery" data-status={d.status}>
                <td data-label="Vrijeme" style={{ whiteSpace: "nowrap" }} title={formatDateTime(ev.createdAt)}>
                  {formatShortDateTime(ev.createdAt)}
                </td>
                <td data-label="Događaj">
                  <span className="mono">{ev.type}</span>
                  <details>
                    <summary style={{ cursor: "pointer", color: "var(--muted)", fontSize: "0.82rem" }}>sadržaj i pokušaji</summary>
                    <pre className="wrap" style={{ fontSize: "0.78rem" }}>{ev.payload}</pre>
                    <Attempts d={d} />
                  </details>
                </td>
                <td data-label="Adresa" className="mono break-anywhere" style={{ maxWidth: 260 }}>
                  {d.endpointUrl}
                </td>
                <td data-label="Stanje">
                  <span className={status.cls} data-testid="delivery-status">{status.label}</span>
                  {status.detail === "next" && d.nextAttemptAt ? (
                    <div style={{ color: "var(--muted)", fontSize: "0.8rem" }}>sljedeći pokušaj: {formatShortDateTime(d.nextAttemptAt)}</div>
                  ) : null}
                </td>
                <td data-label="Pokušaji" className="num">{d.attemptCount}</td>
                <td className="num">
                  <button
                    type="button"
                    className="btn secondary small"
                    disabled={busy !== null}
                    onClick={() => onRedeliver(ev, d)}
                    data-testid="redeliver"
                    aria-label={`Pošalji ponovno ${ev.type} ${ev.id} na ${d.endpointUrl}`}
                  >
                    {busy === `redeliver-${d.id}` ? "Slanje…" : "Pošalji ponovno"}
                  </button>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {hasOlder ? (
        <div style={{ padding: "12px 20px 16px" }}>
          <button type="button" className="btn secondary small" onClick={onOlder} disabled={busy !== null}>
            {busy === "older" ? "Učitavanje…" : "Učitaj starije"}
          </button>
        </div>
      ) : null}
    </section>
  );
}
