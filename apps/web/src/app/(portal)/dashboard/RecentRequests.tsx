"use client";
import { useState } from "react";
import { formatDateTime, formatMs, formatShortDateTime } from "~/lib/format";
import { errorMessage, trpc } from "~/lib/trpc-client";

export type RecentRow = {
  id: string;
  requestId: string;
  at: string;
  method: string;
  endpoint: string;
  status: number;
  durationMs: number;
  refused: boolean;
  keyPrefix: string | null;
};

function StatusBadge({ status, refused }: { status: number; refused: boolean }) {
  if (refused || status === 429) return <span className="badge warn">429 odbijen</span>;
  if (status >= 200 && status < 300) return <span className="badge ok">{status}</span>;
  return <span className="badge danger">{status}</span>;
}

export function RecentRequests({ initial, pageSize }: { initial: RecentRow[]; pageSize: number }) {
  const [rows, setRows] = useState(initial);
  const [done, setDone] = useState(initial.length < pageSize);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function loadOlder() {
    const last = rows[rows.length - 1];
    if (!last) return;
    setPending(true);
    setError(null);
    try {
      const more = await trpc.usage.recent.query({ limit: pageSize, before: last.id });
      setRows((r) => [...r, ...more]);
      if (more.length < pageSize) setDone(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  }

  if (rows.length === 0) {
    return (
      <div className="empty" data-testid="recent-empty">
        <strong>Još nema zahtjeva</strong>
        Svaki zahtjev vašeg računa pojavit će se ovdje, s vremenom, statusom, trajanjem i ključem.
      </div>
    );
  }

  return (
    <>
      <div className="table-wrap" style={{ marginTop: 12 }}>
        <table className="data" data-testid="recent-table">
          <thead>
            <tr>
              <th>Vrijeme</th>
              <th>Zahtjev</th>
              <th>Status</th>
              <th className="num">Trajanje</th>
              <th>Ključ</th>
              <th>Request ID</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td style={{ whiteSpace: "nowrap" }} title={formatDateTime(r.at)}>
                  {formatShortDateTime(r.at)}
                </td>
                <td className="mono">{r.endpoint.includes(" ") ? r.endpoint : `${r.method} ${r.endpoint}`}</td>
                <td>
                  <StatusBadge status={r.status} refused={r.refused} />
                </td>
                <td className="num">{formatMs(r.durationMs)}</td>
                <td className="mono">{r.keyPrefix ? `${r.keyPrefix}…` : "—"}</td>
                <td className="mono" style={{ color: "var(--faint)", fontSize: "0.78rem" }}>{r.requestId}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div style={{ padding: "12px 20px 16px", display: "flex", gap: 12, alignItems: "center" }}>
        {error ? <span role="alert" style={{ color: "var(--danger)" }}>{error}</span> : null}
        {done ? (
          <span style={{ color: "var(--faint)", fontSize: "0.86rem" }}>To su svi zabilježeni zahtjevi.</span>
        ) : (
          <button type="button" className="btn secondary small" onClick={loadOlder} disabled={pending} data-testid="recent-load-more">
            {pending ? "Učitavanje…" : "Učitaj starije"}
          </button>
        )}
      </div>
    </>
  );
}
