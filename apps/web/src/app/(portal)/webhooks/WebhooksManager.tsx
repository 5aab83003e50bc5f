"use client";
import { useRef, useState } from "react";
import { Alert } from "~/components/Alert";
import { CopyButton } from "~/components/CopyButton";
import { formatDateTime, formatShortDateTime } from "~/lib/format";
import { olderPagesFor, olderPagesOf } from "~/lib/paging";
import { errorMessage, trpc } from "~/lib/trpc-client";
import { useAction } from "~/lib/use-action";

type Endpoint = {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
};

type Attempt = {
  id: string;
  number: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  manual: boolean;
};

type Delivery = {
  id: string;
  endpointId: string;
  endpointUrl: string;
  status: "pending" | "succeeded" | "failed";
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: Attempt[];
};

type EventRow = { id: string; type: string; createdAt: string; payload: string; deliveries: Delivery[] };

const STATUS: Record<Delivery["status"], { label: string; cls: string }> = {
  pending: { label: "U tijeku", cls: "badge warn" },
  succeeded: { label: "Isporučeno", cls: "badge ok" },
  failed: { label: "Neuspjelo", cls: "badge danger" },
};

/** A success may carry its own message (e.g. a redeliver that was already queued). */

export function WebhooksManager({ endpoints, events }: { endpoints: Endpoint[]; events: { items: EventRow[]; nextCursor: string | null } }) {
  const { busy, setBusy, message, setMessage, run, router } = useAction();
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [newSecret, setNewSecret] = useState<{ id: string; secret: string } | null>(null);
  const [pages, setPages] = useState(() => olderPagesOf(events));
  // router.refresh() hands in a new first page; older pages are then dropped and paging starts over.
  const older = olderPagesFor(pages, events);
  const cursor = older.cursor;
  const [confirm, setConfirm] = useState<{ kind: "remove" | "rotate"; endpoint: Endpoint } | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  async function onCreate(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    setBusy("create");
    setMessage(null);
    try {
      const r = await trpc.webhooks.create.mutate({ url: String(form.get("url") ?? ""), description: String(form.get("description") ?? "") || undefined });
      if (r.ok) {
        setNewSecret({ id: r.id, secret: r.secret });
        setMessage({ kind: "ok", text: "Adresa je dodana. Potpise provjeravajte tajnom prikazanom ispod." });
        formEl.reset();
        router.refresh();
      } else {
        setMessage({ kind: "error", text: r.message });
      }
    } catch (err) {
      setMessage({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  }

  async function showSecret(id: string) {
    setBusy(`secret-${id}`);
    try {
      const r = await trpc.webhooks.secret.query({ id });
      if (r.ok) setSecrets((s) => ({ ...s, [id]: r.secret }));
      else setMessage({ kind: "error", text: r.message });
    } catch (err) {
      setMessage({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  }

  function ask(kind: "remove" | "rotate", endpoint: Endpoint) {
    setConfirm({ kind, endpoint });
    dialog.current?.showModal();
  }

  async function onConfirm() {
    if (!confirm) return;
    const { kind, endpoint } = confirm;
    if (kind === "remove") {
      await run("confirm", () => trpc.webhooks.remove.mutate({ id: endpoint.id }), "Adresa je obrisana.");
    } else {
      setBusy("confirm");
      try {
        const r = await trpc.webhooks.rotateSecret.mutate({ id: endpoint.id });
        if (r.ok) {
          setSecrets((s) => ({ ...s, [endpoint.id]: r.secret }));
          setMessage({ kind: "ok", text: "Nova tajna vrijedi odmah; stara više ne prolazi provjeru." });
        } else setMessage({ kind: "error", text: r.message });
      } catch (err) {
        setMessage({ kind: "error", text: errorMessage(err) });
      } finally {
        setBusy(null);
      }
    }
    dialog.current?.close();
  }

  async function loadOlder() {
    if (!cursor) return;
    setBusy("older");
    try {
      const page = await trpc.webhooks.events.query({ cursor });
      setPages({ base: events, items: [...older.items, ...page.items], cursor: page.nextCursor });
    } catch (err) {
      setMessage({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  }

  const allEvents = [...events.items, ...older.items];

  return (
    <>
      {message ? <Alert kind={message.kind} testId="webhooks-message">{message.text}</Alert> : null}

      <section className="card section" aria-labelledby="wh-new-title">
        <div className="card-head">
          <h2 id="wh-new-title">Nova adresa</h2>
          <span className="hint">samo javne http(s) adrese</span>
        </div>
        <form className="inline-form" onSubmit={onCreate}>
          <div className="field" style={{ flex: "2 1 320px" }}>
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
              <code data-testid="webhook-secret">{newSecret.secret}</code>
              <CopyButton text={newSecret.secret} label="Kopiraj tajnu" />
            </div>
          </div>
        ) : null}
      </section>

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
          <div className="table-wrap" style={{ marginTop: 12 }}>
            <table className="data" data-testid="webhooks-table">
              <thead>
                <tr>
                  <th>Adresa</th>
                  <th>Događaji</th>
                  <th>Stanje</th>
                  <th>
                    <span className="sr-only">Radnje</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {endpoints.map((e) => (
                  <tr key={e.id} data-testid="webhook-row">
                    <td style={{ maxWidth: 360 }}>
                      <div className="mono" style={{ wordBreak: "break-all" }}>{e.url}</div>
                      <div style={{ color: "var(--muted)", fontSize: "0.82rem" }}>
                        {e.description ? `${e.description} · ` : ""}dodano {formatDateTime(e.createdAt)}
                      </div>
                      {secrets[e.id] ? (
                        <div className="key-line" style={{ marginTop: 6, display: "flex", gap: 8, alignItems: "center", flexWrap: "wrap" }}>
                          <code style={{ wordBreak: "break-all" }}>{secrets[e.id]}</code>
                          <CopyButton text={secrets[e.id] ?? ""} label="Kopiraj" />
                        </div>
                      ) : null}
                    </td>
                    <td className="mono">{e.eventTypes.join(", ")}</td>
                    <td>
                      {e.enabled ? (
                        <span className="badge ok">Aktivna</span>
                      ) : (
                        <span className="badge" title={e.disabledReason ?? undefined}>
                          Isključena
                        </span>
                      )}
                      {e.disabledReason ? <div style={{ color: "var(--muted)", fontSize: "0.8rem" }}>{e.disabledReason}</div> : null}
                    </td>
                    <td>
                      <div className="row-actions" style={{ justifyContent: "flex-end" }}>
                        <button
                          type="button"
                          className="btn secondary small"
                          disabled={busy !== null || !e.enabled}
                          onClick={() => run(`test-${e.id}`, () => trpc.webhooks.sendTest.mutate({ id: e.id }), "Testni događaj je u redu za slanje; pojavit će se u zapisniku ispod.")}
                          data-testid="send-test-event"
                          aria-label={`Testni događaj za ${e.url}`}
                        >
                          {busy === `test-${e.id}` ? "Slanje…" : "Testni događaj"}
                        </button>
                        {secrets[e.id] ? null : (
                          <button
                            type="button"
                            className="btn secondary small"
                            disabled={busy !== null}
                            onClick={() => showSecret(e.id)}
                            aria-label={`Prikaži tajnu za ${e.url}`}
                          >
                            Prikaži tajnu
                          </button>
                        )}
                        <button
                          type="button"
                          className="btn secondary small"
                          disabled={busy !== null}
                          onClick={() => ask("rotate", e)}
                          aria-label={`Nova tajna za ${e.url}`}
                        >
                          Nova tajna
                        </button>
                        <button
                          type="button"
                          className="btn secondary small"
                          disabled={busy !== null}
                          onClick={() =>
                            run(
                              `toggle-${e.id}`,
                              () => trpc.webhooks.setEnabled.mutate({ id: e.id, enabled: !e.enabled }),
                              e.enabled ? "Adresa je isključena." : "Adresa je ponovno uključena.",
                            )
                          }
                          aria-label={`${e.enabled ? "Isključi" : "Uključi"} ${e.url}`}
                        >
                          {e.enabled ? "Isključi" : "Uključi"}
                        </button>
                        <button type="button" className="btn ghost-danger small" disabled={busy !== null} onClick={() => ask("remove", e)} aria-label={`Obriši ${e.url}`}>
                          Obriši
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="card flush section" aria-labelledby="wh-log-title">
        <div className="card-head">
          <h2 id="wh-log-title">Zapisnik isporuka</h2>
          <span className="hint">svaki pokušaj, s odgovorom primatelja</span>
        </div>
        {allEvents.length === 0 ? (
          <div className="empty" data-testid="webhook-log-empty">
            <strong>Još nema događaja</strong>
            Ovdje ćete vidjeti svaki događaj, njegove isporuke i pokušaje, uz mogućnost ponovnog slanja.
          </div>
        ) : (
          <div className="table-wrap" style={{ marginTop: 12 }}>
            <table className="data top" data-testid="webhook-log">
              <thead>
                <tr>
                  <th>Vrijeme</th>
                  <th>Događaj</th>
                  <th>Adresa</th>
                  <th>Stanje</th>
                  <th className="num">Pokušaji</th>
                  <th>
                    <span className="sr-only">Radnje</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {allEvents.flatMap((ev) =>
                  ev.deliveries.map((d) => (
                    <tr key={d.id} data-testid="webhook-delivery" data-status={d.status}>
                      <td style={{ whiteSpace: "nowrap" }} title={formatDateTime(ev.createdAt)}>
                        {formatShortDateTime(ev.createdAt)}
                      </td>
                      <td>
                        <span className="mono">{ev.type}</span>
                        <details>
                          <summary style={{ cursor: "pointer", color: "var(--muted)", fontSize: "0.82rem" }}>sadržaj i pokušaji</summary>
                          <pre className="wrap" style={{ fontSize: "0.78rem" }}>{ev.payload}</pre>
                          {d.attempts.length === 0 ? (
                            <p style={{ color: "var(--muted)" }}>Još nije bilo pokušaja.</p>
                          ) : (
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
                          )}
                        </details>
                      </td>
                      <td className="mono" style={{ maxWidth: 260, wordBreak: "break-all" }}>{d.endpointUrl}</td>
                      <td>
                        <span className={STATUS[d.status].cls}>{STATUS[d.status].label}</span>
                        {d.status === "pending" && d.nextAttemptAt ? (
                          <div style={{ color: "var(--muted)", fontSize: "0.8rem" }}>sljedeći: {formatShortDateTime(d.nextAttemptAt)}</div>
                        ) : null}
                      </td>
                      <td className="num">{d.attemptCount}</td>
                      <td className="num">
                        <button
                          type="button"
                          className="btn secondary small"
                          disabled={busy !== null}
                          onClick={() => run(`redeliver-${d.id}`, () => trpc.webhooks.redeliver.mutate({ deliveryId: d.id }), "Isporuka je ponovno u redu za slanje.")}
                          data-testid="redeliver"
                          aria-label={`Pošalji ponovno ${ev.type} ${ev.id} na ${d.endpointUrl}`}
                        >
                          {busy === `redeliver-${d.id}` ? "Slanje…" : "Pošalji ponovno"}
                        </button>
                      </td>
                    </tr>
                  )),
                )}
              </tbody>
            </table>
          </div>
        )}
        {cursor ? (
          <div style={{ padding: "12px 20px 16px" }}>
            <button type="button" className="btn secondary small" onClick={loadOlder} disabled={busy !== null}>
              {busy === "older" ? "Učitavanje…" : "Učitaj starije"}
            </button>
          </div>
        ) : null}
      </section>

      <dialog ref={dialog} aria-labelledby="wh-confirm-title" onClose={() => setConfirm(null)}>
        <h2 id="wh-confirm-title">{confirm?.kind === "remove" ? "Obrisati adresu?" : "Zamijeniti tajnu?"}</h2>
        <p style={{ wordBreak: "break-all" }}>
          {confirm?.kind === "remove"
            ? `Adresa ${confirm.endpoint.url} više neće primati događaje, a njezin zapisnik isporuka bit će obrisan.`
            : "Stara tajna odmah prestaje vrijediti. Primatelj mora prijeći na novu tajnu prije sljedećeg događaja."}
        </p>
        <div className="row-actions">
          <button type="button" className="btn secondary" onClick={() => dialog.current?.close()} autoFocus>
            Odustani
          </button>
          <button type="button" className="btn danger" onClick={onConfirm} disabled={busy !== null}>
            {confirm?.kind === "remove" ? "Obriši" : "Zamijeni tajnu"}
          </button>
        </div>
      </dialog>
    </>
  );
}
