// The audit log as a table: when (Zagreb time), who, what, on what, from which address.
import Link from "next/link";
import { formatDateTime } from "~/lib/format";
import type { PortalOutputs } from "~/lib/portal-types";
import css from "./usage.module.css";

type Page = PortalOutputs["audit"]["list"];

const AUDIT_ACTIONS: Record<string, string> = {
  "key.created": "Ključ stvoren",
  "key.rotated": "Ključ rotiran",
  "key.revoked": "Ključ opozvan",
  "plan.requested": "Zatražen paket",
  "plan.approved": "Paket odobren",
  "plan.refused": "Zahtjev za paket odbijen",
  "plan.limits_set": "Postavljena Enterprise ograničenja",
  "plan.set": "Paket promijenjen",
  "plan.cancelled": "Zahtjev za paket povučen",
  "webhook.created": "Webhook adresa dodana",
  "webhook.updated": "Webhook adresa promijenjena",
  "webhook.enabled": "Webhook adresa uključena",
  "webhook.disabled": "Webhook adresa isključena",
  "webhook.deleted": "Webhook adresa obrisana",
  "webhook.secret_rotated": "Webhook tajna zamijenjena",
  "certificate.uploaded": "Certifikat učitan",
};

export const AUDIT_GROUPS: { value: string; label: string }[] = [
  { value: "", label: "Sve promjene" },
  { value: "key.", label: "API ključevi" },
  { value: "plan.", label: "Paket" },
  { value: "webhook.", label: "Webhooks" },
  { value: "certificate.", label: "Certifikat" },
];

const DETAIL_LABELS: Record<string, string> = {
  name: "naziv",
  expiresAt: "istječe",
  overlapSeconds: "preklapanje (s)",
  oldKeyEndsAt: "stari ključ vrijedi do",
  newPrefix: "novi ključ",
  from: "s paketa",
  to: "na paket",
  note: "napomena",
  expectedVolume: "očekivani volumen",
};

function detailText(detail: Record<string, unknown> | null): string {
  if (!detail) return "";
  return Object.entries(detail)
    .filter(([k, v]) => DETAIL_LABELS[k] && v !== null && v !== undefined && v !== "")
    .map(([k, v]) => `${DETAIL_LABELS[k]}: ${typeof v === "string" && /^\d{4}-\d\d-\d\dT/.test(v) ? formatDateTime(v) : String(v)}`)
    .join(" · ");
}

export function AuditTable({ page, showAccount, nextHref }: { page: Page; showAccount: boolean; nextHref: string | null }) {
  if (page.items.length === 0) {
    return (
      <div className="empty" data-testid="audit-empty">
        <strong>Nema zapisa</strong>
        Ovdje se bilježi svaka promjena ključeva, paketa, webhook adresa i certifikata: tko, kada i s koje adrese.
      </div>
    );
  }
  return (
    <>
      {/* Focusable, so that a keyboard can scroll a table wider than a phone. */}
      <div className="table-wrap" style={{ marginTop: 12 }} tabIndex={0} role="region" aria-label="Zapisnik promjena, tablica">
        <table className="data" data-testid="audit-table">
          <thead>
            <tr>
              <th>Vrijeme (Zagreb)</th>
              {showAccount ? <th>Račun</th> : null}
              <th>Tko</th>
              <th>Promjena</th>
              <th>Predmet</th>
              <th>IP adresa</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((i) => (
              <tr key={i.id} data-testid="audit-row" data-action={i.action}>
                <td style={{ whiteSpace: "nowrap" }}>{formatDateTime(i.at)}</td>
                {showAccount ? <td>{i.accountName}</td> : null}
                <td style={{ overflowWrap: "anywhere" }}>{i.actor === "api" ? "API" : i.actor === "cli" ? "naredbeni redak (CLI)" : i.actor}</td>
                <td>
                  {AUDIT_ACTIONS[i.action] ?? i.action}
                  {detailText(i.detail) ? <div className={css.explain}>{detailText(i.detail)}</div> : null}
                </td>
                <td className="mono" style={{ overflowWrap: "anywhere" }}>{i.target ?? "—"}</td>
                <td className="mono">{i.ip ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div style={{ padding: "12px 20px 16px" }}>
        {nextHref ? (
          <Link className="btn secondary small" href={nextHref} data-testid="audit-older">
            Starije promjene
          </Link>
        ) : (
          <span style={{ color: "var(--muted)", fontSize: "0.86rem" }}>To su sve zabilježene promjene.</span>
        )}
      </div>
    </>
  );
}

/** Filter by kind of change; `keep` holds other parameters of the view (e.g. the operator's account). */
export function AuditFilter({ action, path, keep = {} }: { action: string; path: string; keep?: Record<string, string> }) {
  return (
    <form className={css.filters} action={path} method="get" data-testid="audit-filter">
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label>
        Vrsta promjene
        <select name="action" defaultValue={action} data-testid="audit-action">
          {AUDIT_GROUPS.map((g) => (
            <option key={g.value} value={g.value}>
              {g.label}
            </option>
          ))}
        </select>
      </label>
      <div className={css.filterActions}>
        <button type="submit" className="btn small">
          Prikaži
        </button>
      </div>
    </form>
  );
}
