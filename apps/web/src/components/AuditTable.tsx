// The audit log as a table: when (Zagreb time), who, what, on what, from which address.
import { FilterSubmit } from "./FilterField";
import { MoreLink } from "./MoreLink";
import { formatDateTime, formatDuration } from "~/lib/format";
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
  "einvoice.accepted": "Primljeni e-račun prihvaćen",
  "einvoice.rejected": "Primljeni e-račun odbijen",
  "session.ended": "Sesija završena",
  "account.password_changed": "Lozinka promijenjena",
  "account.totp_enabled": "Dvofaktorska prijava uključena",
  "account.totp_disabled": "Dvofaktorska prijava isključena",
  "portal.totp_policy": "Pravilo dvofaktorske prijave promijenjeno",
};

export const AUDIT_GROUPS: { value: string; label: string }[] = [
  { value: "", label: "Sve promjene" },
  { value: "key.", label: "API ključevi" },
  { value: "plan.", label: "Paket" },
  { value: "webhook.", label: "Webhooks" },
  { value: "certificate.", label: "Certifikat" },
  { value: "einvoice.", label: "Primljeni e-računi" },
];

const DETAIL_LABELS: Record<string, string> = {
  name: "naziv",
  expiresAt: "istječe",
  overlapSeconds: "preklapanje",
  oldKeyEndsAt: "stari ključ vrijedi do",
  newPrefix: "novi ključ",
  from: "s paketa",
  to: "na paket",
  note: "napomena",
  expectedVolume: "očekivani volumen",
  sessions: "završenih sesija",
  eventTypes: "događaji",
  reasonType: "vrsta razloga",
  reason: "razlog",
};

function detailValue(key: string, v: unknown): string {
  if (key === "overlapSeconds" && typeof v === "number") return v === 0 ? "bez preklapanja" : formatDuration(v);
  if (typeof v === "string" && /^\d{4}-\d\d-\d\dT/.test(v)) return formatDateTime(v);
  if (Array.isArray(v)) return v.join(", ");
  return String(v);
}

function detailText(detail: Record<string, unknown> | null): string {
  if (!detail) return "";
  return Object.entries(detail)
    .filter(([k, v]) => DETAIL_LABELS[k] && v !== null && v !== undefined && v !== "")
    .map(([k, v]) => `${DETAIL_LABELS[k]}: ${detailValue(k, v)}`)
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
      <MoreLink href={nextHref} label="Starije promjene" testId="audit-older" end="To su sve zabilježene promjene." />
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
      <FilterSubmit />
    </form>
  );
}
