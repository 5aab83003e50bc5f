"use client";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Alert } from "~/components/Alert";
import { CopyButton } from "~/components/CopyButton";
import { formatDateTime, formatRelative } from "~/lib/format";
import { errorMessage, trpc } from "~/lib/trpc-client";

export type KeyRow = {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

export function KeysManager({ initial, sandbox }: { initial: KeyRow[]; sandbox: boolean }) {
  const router = useRouter();
  const [keys, setKeys] = useState(initial);
  const [name, setName] = useState("");
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ id: string; name: string; key: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [toRevoke, setToRevoke] = useState<KeyRow | null>(null);
  const [revoking, setRevoking] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  async function refresh() {
    setKeys(await trpc.keys.list.query());
    router.refresh();
  }

  async function onCreate(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setCreating(true);
    setError(null);
    setNotice(null);
    try {
      const result = await trpc.keys.create.mutate({ name });
      if (!result.ok) {
        setError(result.message);
      } else {
        setCreated({ id: result.id, name: result.name, key: result.key });
        setName("");
        await refresh();
      }
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setCreating(false);
    }
  }

  function askRevoke(k: KeyRow) {
    setToRevoke(k);
    dialog.current?.showModal();
  }

  async function confirmRevoke() {
    if (!toRevoke) return;
    setRevoking(true);
    setError(null);
    try {
      const { revoked } = await trpc.keys.revoke.mutate({ id: toRevoke.id });
      if (created?.id === toRevoke.id) setCreated(null);
      setNotice(revoked ? `Ključ „${toRevoke.name}” je opozvan. Prestaje raditi u roku od nekoliko sekundi.` : "Ključ je već bio opozvan.");
      await refresh();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setRevoking(false);
      dialog.current?.close();
      setToRevoke(null);
    }
  }

  const active = keys.filter((k) => !k.revokedAt);

  return (
    <>
      {created ? (
        <div className="key-reveal" role="status" data-testid="new-key-panel">
          <strong>Ključ „{created.name}” je stvoren.</strong>
          <div style={{ color: "#0f5132", fontSize: "0.9rem" }}>
            Kopirajte ga sada i spremite na sigurno mjesto — cijeli ključ prikazujemo samo ovaj put.
          </div>
          <div className="key-line">
            <code data-testid="new-key-value">{created.key}</code>
            <CopyButton text={created.key} label="Kopiraj ključ" testId="copy-key" />
            <button type="button" className="btn secondary small" onClick={() => setCreated(null)} data-testid="dismiss-key">
              Spremio sam ga
            </button>
          </div>
        </div>
      ) : null}
      {notice ? <Alert kind="ok" testId="keys-notice">{notice}</Alert> : null}
      {error ? <Alert kind="error" testId="keys-error">{error}</Alert> : null}

      <section className="card section" aria-labelledby="new-key-title">
        <div className="card-head">
          <h2 id="new-key-title">Novi ključ</h2>
          <span className="hint">{sandbox ? "Sandbox ključevi počinju s fsk_test_" : "Produkcijski ključevi počinju s fsk_live_"}</span>
        </div>
        <form className="inline-form" onSubmit={onCreate}>
          <div className="field">
            <label htmlFor="key-name">Naziv ključa</label>
            <input
              id="key-name"
              name="name"
              required
              maxLength={64}
              placeholder="npr. Blagajna 1 ili ERP produkcija"
              value={name}
              onChange={(e) => setName(e.target.value)}
              data-testid="key-name"
            />
          </div>
          <button type="submit" className="btn" disabled={creating || !name.trim()} data-testid="create-key">
            {creating ? "Stvaranje…" : "Stvori ključ"}
          </button>
        </form>
      </section>

      <section className="card flush section" aria-labelledby="keys-title">
        <div className="card-head">
          <h2 id="keys-title">Ključevi računa</h2>
          <span className="hint" data-testid="active-key-count">
            aktivnih: {active.length}
          </span>
        </div>
        {keys.length === 0 ? (
          <div className="empty" data-testid="keys-empty">
            <strong>Još nemate nijedan ključ</strong>
            Stvorite prvi ključ iznad i pošaljite njime svoj prvi zahtjev.
          </div>
        ) : (
          <div className="table-wrap" style={{ marginTop: 12 }}>
            <table className="data" data-testid="keys-table">
              <thead>
                <tr>
                  <th>Naziv</th>
                  <th>Ključ</th>
                  <th>Stvoren</th>
                  <th>Zadnje korištenje</th>
                  <th>Stanje</th>
                  <th>
                    <span className="sr-only">Radnje</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr key={k.id} className={k.revokedAt ? "muted" : undefined} data-testid="key-row" data-key-prefix={k.prefix}>
                    <td>{k.name}</td>
                    <td className="mono">{k.prefix}…</td>
                    <td style={{ whiteSpace: "nowrap" }}>{formatDateTime(k.createdAt)}</td>
                    <td title={k.lastUsedAt ? formatDateTime(k.lastUsedAt) : undefined}>{formatRelative(k.lastUsedAt)}</td>
                    <td>
                      {k.revokedAt ? (
                        <span className="badge" title={formatDateTime(k.revokedAt)}>Opozvan</span>
                      ) : (
                        <span className="badge ok">Aktivan</span>
                      )}
                    </td>
                    <td className="num">
                      {k.revokedAt ? null : (
                        <button
                          type="button"
                          className="btn ghost-danger small"
                          onClick={() => askRevoke(k)}
                          data-testid="revoke-key"
                          aria-label={`Opozovi ključ ${k.name}`}
                        >
                          Opozovi
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <dialog ref={dialog} aria-labelledby="revoke-title" onClose={() => setToRevoke(null)} data-testid="revoke-dialog">
        <h2 id="revoke-title">Opozvati ključ?</h2>
        <p>
          Ključ <strong>{toRevoke?.name}</strong> (<span className="mono">{toRevoke?.prefix}…</span>) prestat će raditi u roku od nekoliko
          sekundi. Aplikacije koje ga koriste dobit će odgovor 401. Ovo se ne može poništiti.
        </p>
        <div className="row-actions">
          <button type="button" className="btn secondary" onClick={() => dialog.current?.close()} autoFocus>
            Odustani
          </button>
          <button type="button" className="btn danger" onClick={confirmRevoke} disabled={revoking} data-testid="confirm-revoke">
            {revoking ? "Opozivanje…" : "Opozovi ključ"}
          </button>
        </div>
      </dialog>
    </>
  );
}
