// The account's keys: state (active, in rotation overlap, expired, revoked), expiry and usage per key.
import Link from "next/link";
import { formatDateTime, formatInt, formatRelative } from "~/lib/format";
import type { PortalOutputs } from "~/lib/portal-types";

export type KeyRow = PortalOutputs["keys"]["list"][number];

function StateBadge({ k }: { k: KeyRow }) {
  switch (k.state) {
    case "revoked":
      return <span className="badge" title={formatDateTime(k.revokedAt)}>Opozvan</span>;
    case "expired":
      return <span className="badge" title={formatDateTime(k.expiresAt)}>Istekao</span>;
    case "rotating":
      // The end of the overlap is in the expiry column; the badge stays short so that the table keeps its width.
      return <span className="badge warn">Rotiran</span>;
    default:
      return <span className="badge ok">Aktivan</span>;
  }
}

export function KeysTable({ keys, onRotate, onRevoke }: { keys: KeyRow[]; onRotate: (k: KeyRow) => void; onRevoke: (k: KeyRow) => void }) {
  return (
    <div className="table-wrap" style={{ marginTop: 12 }}>
      <table className="data stack" data-testid="keys-table">
        <thead>
          <tr>
            <th>Naziv</th>
            <th>Ključ</th>
            <th>Stanje</th>
            <th>Istječe</th>
            <th className="num">Zahtjevi (30 dana)</th>
            <th>Zadnje korištenje</th>
            <th className="num">Radnje</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => {
            const usable = k.state === "active" || k.state === "rotating";
            return (
              <tr key={k.id} className={usable ? undefined : "muted"} data-testid="key-row" data-key-prefix={k.prefix} data-state={k.state}>
                <td data-label="Naziv" className="break-anywhere">
                  {k.name}
                  {k.replacedByPrefix ? <div style={{ color: "var(--muted)", fontSize: "0.8rem" }}>zamijenjen ključem {k.replacedByPrefix}…</div> : null}
                </td>
                <td data-label="Ključ" className="mono">{k.prefix}…</td>
                <td data-label="Stanje">
                  <StateBadge k={k} />
                </td>
                <td data-label="Istječe" data-testid="key-expires">
                  {k.expiresAt ? `${k.state === "rotating" ? "vrijedi do " : ""}${formatDateTime(k.expiresAt)}` : "ne istječe"}
                </td>
                <td data-label="Zahtjevi (30 dana)" className="num" data-testid="key-usage">
                  <Link href={`/dashboard?range=30d&key=${k.id}#log-title`} aria-label={`Zahtjevi ključa ${k.name} u zadnjih 30 dana: ${formatInt(k.usage.requests)}`}>
                    {formatInt(k.usage.requests)}
                  </Link>
                  {k.usage.refused > 0 || k.usage.errors > 0 ? (
                    <div style={{ color: "var(--muted)", fontSize: "0.8rem" }}>
                      429: {formatInt(k.usage.refused)} · greške: {formatInt(k.usage.errors)}
                    </div>
                  ) : null}
                </td>
                <td data-label="Zadnje korištenje" title={k.lastUsedAt ? formatDateTime(k.lastUsedAt) : undefined}>{formatRelative(k.lastUsedAt)}</td>
                <td data-label="Radnje" className="num">
                  {usable ? (
                    <div className="row-actions" style={{ justifyContent: "flex-end" }}>
                      {k.state === "active" ? (
                        <button type="button" className="btn secondary small" onClick={() => onRotate(k)} data-testid="rotate-key" aria-label={`Rotiraj ključ ${k.name}`}>
                          Rotiraj
                        </button>
                      ) : null}
                      <button type="button" className="btn ghost-danger small" onClick={() => onRevoke(k)} data-testid="revoke-key" aria-label={`Opozovi ključ ${k.name}`}>
                        Opozovi
                      </button>
                    </div>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
