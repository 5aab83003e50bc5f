import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "~/components/Alert";
import { BarChart } from "~/components/BarChart";
import { formatDayLabel, formatInt, formatMs, formatPercent, PLAN_LABELS } from "~/lib/format";
import { apiUrl } from "~/env";
import { serverApi } from "~/server/api";
import { RecentRequests } from "./RecentRequests";

export const metadata: Metadata = { title: "Pregled" };

const RECENT_PAGE = 25;

function untilUtcMidnight(now: Date): string {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const minutes = Math.ceil((next - now.getTime()) / 60_000);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export default async function DashboardPage() {
  const api = await serverApi();
  const [overview, recent] = await Promise.all([api.usage.overview(), api.usage.recent({ limit: RECENT_PAGE })]);
  const { summary, quota, limits } = overview;
  const hasData = summary.daily.some((d) => d.requests > 0);
  const quotaClass = quota.exceeded ? "progress over" : quota.warn ? "progress warn" : "progress";

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Pregled</h1>
          <p>
            Potrošnja vašeg računa · paket <strong>{PLAN_LABELS[overview.plan]}</strong> · dani se računaju po UTC-u
          </p>
        </div>
        <Link className="btn secondary" href="/keys">
          Upravljanje ključevima
        </Link>
      </div>

      {quota.warn ? (
        <Alert
          kind={quota.exceeded ? "error" : "warn"}
          testId="quota-warning"
          title={quota.exceeded ? "Dnevna kvota je potrošena" : `Iskorišteno je ${formatPercent(quota.used / quota.limit)} današnje kvote`}
        >
          {quota.exceeded
            ? "Novi zahtjevi dobivaju odgovor 429 do ponoći po UTC-u. "
            : `Nakon ${formatInt(quota.limit)} zahtjeva API će odbijati zahtjeve do ponoći po UTC-u. `}
          <Link href="/plan">Zatražite veći paket</Link> ako vam ovo postaje redovito.
        </Alert>
      ) : null}

      <div className="grid stats">
        <div className="card stat">
          <span className="label">Zahtjevi danas</span>
          <span className="value" data-testid="stat-requests-today">{formatInt(summary.today.requests)}</span>
          <span className="sub">od ponoći UTC</span>
        </div>
        <div className="card stat">
          <span className="label">Ovaj mjesec</span>
          <span className="value" data-testid="stat-requests-month">{formatInt(summary.month.requests)}</span>
          <span className="sub">zahtjeva, mjesec po UTC-u</span>
        </div>
        <div className="card stat">
          <span className="label">Odbijeni danas (429)</span>
          <span className={summary.today.refused > 0 ? "value danger" : "value"} data-testid="stat-refused-today">
            {formatInt(summary.today.refused)}
          </span>
          <span className="sub">ovaj mjesec: {formatInt(summary.month.refused)}</span>
        </div>
        <div className="card stat">
          <span className="label">Prosječni odziv</span>
          <span className="value" data-testid="stat-avg-ms">{formatMs(summary.today.avgMs)}</span>
          <span className="sub">danas · mjesec: {formatMs(summary.month.avgMs)}</span>
        </div>
        <div className="card stat">
          <span className="label">Uspješnost (2xx)</span>
          <span className="value" data-testid="stat-success-rate">{formatPercent(summary.today.successRate)}</span>
          <span className="sub">danas · mjesec: {formatPercent(summary.month.successRate)}</span>
        </div>
      </div>

      <section className="card section" aria-labelledby="quota-title">
        <div className="quota-row">
          <h2 id="quota-title" style={{ margin: 0 }}>
            Dnevna kvota
          </h2>
          <span className="hint" style={{ color: "var(--muted)", fontSize: "0.86rem" }}>
            obnavlja se u 00:00 UTC (za {untilUtcMidnight(new Date())})
          </span>
        </div>
        <div className="quota-row">
          <span>
            <span className="big" data-testid="quota-used">{formatInt(quota.used)}</span>
            <span style={{ color: "var(--muted)" }}> / <span data-testid="quota-limit">{formatInt(quota.limit)}</span> propuštenih zahtjeva</span>
          </span>
          <strong data-testid="quota-percent">{quota.ratio > 0 && quota.ratio < 0.001 ? "< 0,1 %" : formatPercent(quota.ratio)}</strong>
        </div>
        <div
          className={quotaClass}
          role="progressbar"
          aria-label="Potrošnja dnevne kvote"
          aria-valuemin={0}
          aria-valuemax={quota.limit}
          aria-valuenow={Math.min(quota.used, quota.limit)}
        >
          <span style={{ width: `${(quota.ratio * 100).toFixed(2)}%` }} />
        </div>
        <p style={{ color: "var(--muted)", fontSize: "0.86rem", margin: "10px 0 0" }}>
          Uz dnevnu kvotu vrijede i {formatInt(limits.perMinute)} zahtjeva u minuti te {formatInt(limits.burst)} u sekundi.
          Odbijeni zahtjevi ne troše kvotu.
        </p>
      </section>

      {hasData ? (
        <div className="grid two">
          <section className="card" aria-labelledby="daily-title">
            <div className="card-head">
              <h2 id="daily-title">Zadnjih 30 dana</h2>
              <span className="hint">zahtjeva po danu (UTC)</span>
            </div>
            <BarChart
              testId="chart-daily"
              caption="Zahtjevi po danu u zadnjih 30 dana"
              maxLabels={8}
              bars={summary.daily.map((d) => ({
                label: formatDayLabel(d.date),
                title: d.date,
                admitted: d.requests - d.refused,
                refused: d.refused,
              }))}
            />
          </section>
          <section className="card" aria-labelledby="hourly-title">
            <div className="card-head">
              <h2 id="hourly-title">Danas po satima</h2>
              <span className="hint">sat (UTC)</span>
            </div>
            <BarChart
              testId="chart-hourly"
              caption="Današnji zahtjevi po satima"
              maxLabels={12}
              bars={summary.hourly.map((h) => ({
                label: String(h.hour),
                title: `${String(h.hour).padStart(2, "0")}:00–${String(h.hour).padStart(2, "0")}:59 UTC`,
                admitted: h.requests - h.refused,
                refused: h.refused,
              }))}
            />
          </section>
        </div>
      ) : (
        <section className="card section" data-testid="usage-empty">
          <h2>Još nema zahtjeva</h2>
          <p style={{ color: "var(--muted)" }}>
            Grafovi i tablice pojavit će se čim vaš račun pošalje prvi zahtjev. Napravite ključ na stranici{" "}
            <Link href="/keys">API ključevi</Link> i isprobajte, na primjer, provjeru OIB-a:
          </p>
          <pre>{`curl -X POST ${apiUrl()}/v1/validate/oib \\
  -H "Authorization: Bearer <vaš ključ>" \\
  -H "Content-Type: application/json" \\
  -d '{"oib":"69435151530"}'`}</pre>
        </section>
      )}

      <section className="card flush section" aria-labelledby="endpoints-title">
        <div className="card-head">
          <h2 id="endpoints-title">Po endpointima</h2>
          <span className="hint">ovaj mjesec</span>
        </div>
        {summary.endpoints.length === 0 ? (
          <div className="empty">
            <strong>Nema podataka za ovaj mjesec</strong>
            Ovdje ćete vidjeti broj zahtjeva, odbijene zahtjeve i vrijeme odgovora za svaki endpoint.
          </div>
        ) : (
          <div className="table-wrap" style={{ marginTop: 12 }}>
            <table className="data" data-testid="endpoint-table">
              <thead>
                <tr>
                  <th>Endpoint</th>
                  <th className="num">Zahtjevi</th>
                  <th className="num">Odbijeni (429)</th>
                  <th className="num">Prosj. vrijeme</th>
                  <th className="num">Uspješnost</th>
                </tr>
              </thead>
              <tbody>
                {summary.endpoints.map((e) => (
                  <tr key={e.endpoint}>
                    <td className="mono">{e.endpoint}</td>
                    <td className="num">{formatInt(e.requests)}</td>
                    <td className="num">{formatInt(e.refused)}</td>
                    <td className="num">{formatMs(e.avgMs)}</td>
                    <td className="num">{formatPercent(e.successRate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="card flush section" aria-labelledby="recent-title">
        <div className="card-head">
          <h2 id="recent-title">Nedavni zahtjevi</h2>
          <span className="hint">najnoviji prvi · bilježe se unutar nekoliko sekundi</span>
        </div>
        <RecentRequests initial={recent} pageSize={RECENT_PAGE} />
      </section>
    </>
  );
}
