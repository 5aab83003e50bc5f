"use client";
// The request log of the current view: newest first, a detail panel per request, older pages on demand.
import { Fragment, useState } from "react";
import { formatDateTime, formatMs, formatShortDateTime } from "~/lib/format";
import type { PortalInputs } from "~/lib/portal-types";
import { endpointLabel } from "~/lib/request-labels";
import { errorMessage, trpc } from "~/lib/trpc-client";
import { RequestDetail, type LogRow } from "./RequestDetail";
import { DataTable } from "~/components/DataTable";

type ViewInput = Omit<PortalInputs["usage"]["recent"], "limit" | "before">;

function StatusBadge({ status }: { status: number }) {
  if (status === 429) return <span className="badge warn">429 odbijen</span>;
  if (status >= 200 && status < 300) return <span className="badge ok">{status}</span>;
  if (status < 400) return <span className="badge">{status}</span>;
  return <span className="badge danger">{status}</span>;
}

export function RecentRequests({ initial, pageSize, view }: { initial: LogRow[]; pageSize: number; view: ViewInput }) {
  const [rows, setRows] = useState(initial);
  const [done, setDone] = useState(initial.length < pageSize);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  async function loadOlder() {
    const last = rows[rows.length - 1];
    if (!last) return;
    setPending(true);
    setError(null);
    try {
      const more = await trpc.usage.recent.query({ ...view, limit: pageSize, before: last.id });
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
        <strong>Nema zahtjeva za ovaj prikaz</strong>
        Promijenite razdoblje ili filtre. Zahtjevi se pojavljuju ovdje nekoliko sekundi nakon slanja.
      </div>
    );
  }

  return (
    <>
      <DataTable columns={["Vrijeme (Zagreb)", "Zahtjev", "Status", { label: "Trajanje", num: true }, "Ključ", "Detalji"]} testId="recent-table" wrap={{ className: "table-wrap", style: { marginTop: 12 } }}>
        {rows.map((r) => (
          <Fragment key={r.id}>
            <tr data-testid="log-row" data-status={r.status}>
              <td data-label="Vrijeme (Zagreb)" style={{ whiteSpace: "nowrap" }} title={formatDateTime(r.at)}>
                {formatShortDateTime(r.at)}
              </td>
              <td data-label="Zahtjev" className="mono break-anywhere">{endpointLabel(r.endpoint.includes(" ") ? r.endpoint : `${r.method} ${r.endpoint}`)}</td>
              <td data-label="Status">
                <StatusBadge status={r.status} />
              </td>
              <td data-label="Trajanje" className="num">{formatMs(r.durationMs)}</td>
              <td data-label="Ključ" className="mono">{r.keyPrefix ? `${r.keyPrefix}…` : "—"}</td>
              <td data-label="Detalji">
                <button
                  type="button"
                  className="btn secondary small"
                  aria-expanded={open === r.id}
                  aria-controls={`detail-${r.id}`}
                  onClick={() => setOpen(open === r.id ? null : r.id)}
                  data-testid="log-detail-toggle"
                >
                  {open === r.id ? "Sakrij" : "Detalji"}
                </button>
              </td>
            </tr>
            {open === r.id ? (
              <tr id={`detail-${r.id}`}>
                <td colSpan={6}>
                  <RequestDetail r={r} />
                </td>
              </tr>
            ) : null}
          </Fragment>
        ))}
      </DataTable>
      <div style={{ padding: "12px 20px 16px", display: "flex", gap: 12, alignItems: "center" }}>
        {error ? <span role="alert" style={{ color: "var(--danger)" }}>{error}</span> : null}
        {done ? (
          <span style={{ color: "var(--muted)", fontSize: "0.86rem" }}>To su svi zahtjevi ovog prikaza.</span>
        ) : (
          <button type="button" className="btn secondary small" onClick={loadOlder} disabled={pending} data-testid="recent-load-more">
            {pending ? "Učitavanje…" : "Učitaj starije"}
          </button>
        )}
      </div>
    </>
  );
}
