// One page of the Dokumenti list: issued e-invoices and receipts (buyer, delivery, fiscalization) or
// received e-invoices (issuer, the recipient's decision, validation, Fiscalization 2.0 type U).
import Link from "next/link";
import type { PortalOutputs } from "~/lib/portal-types";
import { FISCALIZATION_LABELS, label, RECEIVED_FISCALIZATION_LABELS, RECEIVED_STATUS_LABELS, STATUS_LABELS, VALIDATION_LABELS, type Kind } from "./labels";

type Row = PortalOutputs["documents"]["list"]["items"][number];

export function DocumentsTable({ kind, items }: { kind: Kind; items: Row[] }) {
  const received = kind === "received";
  return (
    <div className="table-wrap" style={{ marginTop: 12 }} tabIndex={0} role="region" aria-label="Dokumenti, tablica">
      <table className="data stack" data-testid="documents-table">
        <thead>
          <tr>
            <th>Broj</th>
            <th>Datum izdavanja</th>
            <th>{received ? "Izdavatelj" : "OIB kupca"}</th>
            <th className="num">Iznos (EUR)</th>
            <th>{received ? "Odluka" : "Stanje"}</th>
            {received ? <th>Provjera</th> : null}
            <th>Fiskalizacija</th>
          </tr>
        </thead>
        <tbody>
          {items.map((d) => (
            <tr key={d.id} data-testid="documents-row">
              <td data-label="Broj" style={{ overflowWrap: "anywhere" }}>
                <Link href={`/documents/${kind}/${d.id}`}>{d.number}</Link>
              </td>
              <td data-label="Datum izdavanja" style={{ whiteSpace: "nowrap" }}>
                {d.issued}
              </td>
              {received ? (
                <td data-label="Izdavatelj" style={{ overflowWrap: "anywhere" }}>
                  {d.sellerName ? `${d.sellerName}, ` : ""}
                  <span className="mono">{d.sellerOib ?? "—"}</span>
                </td>
              ) : (
                <td data-label="OIB kupca" className="mono">
                  {d.buyerOib ?? "—"}
                </td>
              )}
              <td data-label="Iznos (EUR)" className="num">
                {d.total}
              </td>
              <td data-label={received ? "Odluka" : "Stanje"} data-testid="documents-row-status">
                {label(received ? RECEIVED_STATUS_LABELS : STATUS_LABELS, d.status)}
              </td>
              {received ? <td data-label="Provjera">{label(VALIDATION_LABELS, d.validation)}</td> : null}
              <td data-label="Fiskalizacija">{label(received ? RECEIVED_FISCALIZATION_LABELS : FISCALIZATION_LABELS, d.fiscalization)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
