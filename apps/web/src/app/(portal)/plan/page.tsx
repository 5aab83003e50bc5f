import type { Metadata } from "next";
import Link from "next/link";
import { PLAN_NAMES, SELF_SERVICE_PLANS } from "@fiskal/limits/plans";
import { formatDateTime, formatInt, PLAN_LABELS, UPGRADE_STATUS_LABELS } from "~/lib/format";
import { serverApi } from "~/server/api";
import { PlanActions } from "./PlanActions";

export const metadata: Metadata = { title: "Paket i ograničenja" };

const PLAN_COLUMNS = PLAN_NAMES;

export default async function PlanPage() {
  const api = await serverApi();
  const o = await api.plan.overview();
  const pending = o.requests.find((r) => r.status === "PENDING") ?? null;

  const cell = (plan: (typeof PLAN_COLUMNS)[number], field: "burst" | "perMinute" | "perDay") => {
    if (plan === "ENTERPRISE") return o.plan === "ENTERPRISE" ? formatInt(o.current[field]) : "po dogovoru";
    return formatInt(o.plans[plan][field]);
  };
  const colClass = (plan: string) => (plan === o.plan ? "num current-col" : "num");

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Paket i ograničenja</h1>
          <p>
            Trenutačni paket: <strong data-testid="current-plan">{PLAN_LABELS[o.plan]}</strong> · sva ograničenja vrijede za cijeli račun,
            zajedno za sve ključeve. <Link href="/docs/rate-limits">Kako se broje?</Link>
          </p>
        </div>
      </div>

      <div className="grid stats">
        <div className="card stat">
          <span className="label">U sekundi (burst)</span>
          <span className="value" data-testid="limit-burst">{formatInt(o.current.burst)}</span>
          <span className="sub">klizni prozor od 1 s</span>
        </div>
        <div className="card stat">
          <span className="label">U minuti</span>
          <span className="value" data-testid="limit-minute">{formatInt(o.current.perMinute)}</span>
          <span className="sub">klizni prozor od 60 s</span>
        </div>
        <div className="card stat">
          <span className="label">Dnevno</span>
          <span className="value" data-testid="limit-day">{formatInt(o.current.perDay)}</span>
          <span className="sub">kalendarski dan, UTC</span>
        </div>
      </div>

      <section className="card flush section" aria-labelledby="limits-title">
        <div className="card-head">
          <h2 id="limits-title">Ograničenja po paketu i endpointu</h2>
          <span className="hint">broj zahtjeva; vaš paket je istaknut</span>
        </div>
        <div className="table-wrap" style={{ marginTop: 12 }}>
          <table className="data plan-table" data-testid="limits-table">
            <thead>
              <tr>
                <th>Ograničenje</th>
                {PLAN_COLUMNS.map((p) => (
                  <th key={p} className={colClass(p)} scope="col">
                    {PLAN_LABELS[p]}
                    {p === o.plan ? " (vaš)" : ""}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>U sekundi (burst, klizno 1 s)</td>
                {PLAN_COLUMNS.map((p) => (
                  <td key={p} className={colClass(p)}>{cell(p, "burst")}</td>
                ))}
              </tr>
              <tr>
                <td>U minuti (klizno 60 s)</td>
                {PLAN_COLUMNS.map((p) => (
                  <td key={p} className={colClass(p)}>{cell(p, "perMinute")}</td>
                ))}
              </tr>
              <tr>
                <td>Dnevno (UTC dan)</td>
                {PLAN_COLUMNS.map((p) => (
                  <td key={p} className={colClass(p)}>{cell(p, "perDay")}</td>
                ))}
              </tr>
              {Object.entries(o.endpoints).map(([group, e]) => (
                <tr key={group}>
                  <td>
                    <span className="mono">{e.label}</span>
                  </td>
                  {o.plan === "ENTERPRISE" ? (
                    <>
                      <td colSpan={PLAN_COLUMNS.length - 1} className="num" style={{ textAlign: "center" }}>
                        {formatInt(e.perMinute)} u minuti
                      </td>
                      <td className={colClass("ENTERPRISE")} data-testid={`endpoint-limit-${group}`}>
                        {formatInt(o.currentEndpoints[group] ?? e.perMinute)}
                      </td>
                    </>
                  ) : (
                    <td colSpan={PLAN_COLUMNS.length} className="num" style={{ textAlign: "center" }} data-testid={`endpoint-limit-${group}`}>
                      {formatInt(e.perMinute)} u minuti, u svim paketima
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p style={{ color: "var(--muted)", fontSize: "0.86rem", padding: "12px 20px 16px", margin: 0 }}>
          Namjenska ograničenja endpointa vrijede uz ograničenja paketa; zahtjev prolazi samo ako ga propuste svi prozori, pa je stvarni
          strop manji od to dvoje. Skupni zahtjevi (<code>/batch</code>, do 100 vrijednosti) broje se kao jedan.
        </p>
      </section>

      <PlanActions plan={o.plan} order={PLAN_NAMES} selfService={SELF_SERVICE_PLANS} pending={pending ? { id: pending.id, plan: pending.requestedPlan, createdAt: pending.createdAt } : null} />

      <section className="card flush section" aria-labelledby="requests-title">
        <div className="card-head">
          <h2 id="requests-title">Vaši zahtjevi</h2>
          <span className="hint">promjena paketa vrijedi odmah nakon odobrenja</span>
        </div>
        {o.requests.length === 0 ? (
          <div className="empty">
            <strong>Nema zahtjeva</strong>
            Kad zatražite veći paket, ovdje ćete pratiti njegovo stanje.
          </div>
        ) : (
          <div className="table-wrap" style={{ marginTop: 12 }}>
            <table className="data" data-testid="upgrade-requests">
              <thead>
                <tr>
                  <th>Zatraženo</th>
                  <th>Paket</th>
                  <th>Stanje</th>
                  <th>Odluka</th>
                  <th>Napomena</th>
                </tr>
              </thead>
              <tbody>
                {o.requests.map((r) => (
                  <tr key={r.id}>
                    <td style={{ whiteSpace: "nowrap" }}>{formatDateTime(r.createdAt)}</td>
                    <td>{PLAN_LABELS[r.requestedPlan]}</td>
                    <td>
                      <span
                        className={r.status === "APPROVED" ? "badge ok" : r.status === "REJECTED" ? "badge danger" : r.status === "CANCELLED" ? "badge" : "badge warn"}
                        data-testid="upgrade-status"
                        data-status={r.status}
                      >
                        {UPGRADE_STATUS_LABELS[r.status]}
                      </span>
                    </td>
                    <td style={{ whiteSpace: "nowrap" }}>{formatDateTime(r.decidedAt)}</td>
                    <td>{r.decisionNote ?? (r.expectedVolume ? `Očekivani volumen: ${r.expectedVolume}` : "—")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
