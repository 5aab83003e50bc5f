"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Fragment, useState } from "react";
import { Alert } from "~/components/Alert";
import { formatDate, formatInt, PLAN_LABELS } from "~/lib/format";
import { errorMessage, trpc } from "~/lib/trpc-client";
import { LimitsFields, readLimits, type EndpointLimitTable, type LimitBounds } from "./LimitsFields";
import { ACTIONS_COLUMN, DataTable } from "~/components/DataTable";

type Acct = {
  id: string;
  name: string;
  plan: string;
  emails: string[];
  limits: { burst: number; perMinute: number; perDay: number };
  createdAt: string;
};

export function AccountsTable({ accounts, search, endpoints, bounds }: { accounts: Acct[]; search: string; endpoints: EndpointLimitTable; bounds: LimitBounds }) {
  const router = useRouter();
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  async function save(e: React.FormEvent<HTMLFormElement>, a: Acct) {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const r = await trpc.admin.setCustomLimits.mutate({ accountId: a.id, ...readLimits(new FormData(e.currentTarget), Object.keys(endpoints)) });
      if (r.ok) {
        setMessage({ kind: "ok", text: `Račun ${a.name} sada ima Enterprise ograničenja.` });
        setEditing(null);
        router.refresh();
      } else {
        setMessage({ kind: "error", text: r.message });
      }
    } catch (err) {
      setMessage({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card flush section" aria-labelledby="accounts-title">
      <div className="card-head">
        <h2 id="accounts-title">Računi</h2>
        <form role="search" method="get" className="inline-form" style={{ minWidth: 320 }}>
          <div className="field">
            <label htmlFor="acct-search" className="sr-only">
              Traži račun po nazivu ili e-mailu
            </label>
            <input id="acct-search" name="q" type="search" defaultValue={search} placeholder="Naziv ili e-mail" />
          </div>
          <button className="btn secondary small" type="submit">
            Traži
          </button>
        </form>
      </div>
      <div style={{ padding: "0 20px" }}>{message ? <Alert kind={message.kind} testId="accounts-message">{message.text}</Alert> : null}</div>
      {accounts.length === 0 ? (
        <div className="empty">
          <strong>Nijedan račun ne odgovara pretrazi</strong>
        </div>
      ) : (
        <DataTable columns={["Račun", "Paket", { label: "U sekundi", num: true }, { label: "U minuti", num: true }, { label: "Dnevno", num: true }, "Otvoren", ACTIONS_COLUMN]} testId="accounts-table" wrap={{ style: { marginTop: 12 } }}>
          {accounts.map((a) => (
            <Fragment key={a.id}>
              <tr data-testid="account-row" data-account={a.name}>
                <td data-label="Račun">
                  <Link href={`/admin/accounts/${a.id}`} data-testid="account-link">
                    {a.name}
                  </Link>
                  <div style={{ color: "var(--muted)", fontSize: "0.82rem" }}>{a.emails.join(", ") || "bez korisnika"}</div>
                </td>
                <td data-label="Paket">
                  <span className={a.plan === "ENTERPRISE" ? "badge primary" : "badge"}>{PLAN_LABELS[a.plan]}</span>
                </td>
                <td data-label="U sekundi" className="num">{formatInt(a.limits.burst)}</td>
                <td data-label="U minuti" className="num">{formatInt(a.limits.perMinute)}</td>
                <td data-label="Dnevno" className="num">{formatInt(a.limits.perDay)}</td>
                <td data-label="Otvoren" style={{ whiteSpace: "nowrap" }}>{formatDate(a.createdAt)}</td>
                <td className="num">
                  <button
                    type="button"
                    className="btn secondary small"
                    aria-expanded={editing === a.id}
                    onClick={() => {
                      // A message belongs to the form it came from: opening or closing one clears it.
                      setMessage(null);
                      setEditing(editing === a.id ? null : a.id);
                    }}
                    data-testid="edit-limits"
                    aria-label={`Enterprise ograničenja za ${a.name}`}
                  >
                    {editing === a.id ? "Zatvori" : "Ograničenja"}
                  </button>
                </td>
              </tr>
              {editing === a.id ? (
                <tr>
                  <td colSpan={7} style={{ background: "var(--surface-2)" }}>
                    <form
                      onSubmit={(e) => save(e, a)}
                      onInput={() => setMessage((m) => (m?.kind === "error" ? null : m))}
                      aria-label={`Enterprise ograničenja za ${a.name}`}
                    >
                      <LimitsFields idPrefix={`acct-${a.id}`} defaults={a.limits} endpoints={endpoints} bounds={bounds} />
                      <div className="row-actions" style={{ marginTop: 10 }}>
                        <button type="submit" className="btn" disabled={busy} data-testid="save-limits">
                          {busy ? "Spremanje…" : "Postavi Enterprise paket s ovim ograničenjima"}
                        </button>
                      </div>
                    </form>
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </DataTable>
      )}
    </section>
  );
}
