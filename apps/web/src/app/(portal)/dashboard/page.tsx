import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "~/components/Alert";
import { BarChart } from "~/components/BarChart";
import { formatInt, plural, PLAN_LABELS } from "~/lib/format";
import { COUNT_CAP } from "~/server/request-log";
import { paramsFrom, TIME_ZONE, viewQuery } from "~/lib/usage-view";
import { localDate } from "@fiskal/usage";
import { apiUrl } from "~/env";
import { serverApi } from "~/server/api";
import { Endpoints } from "./Endpoints";
import { seriesBars, periodText } from "./labels";
import { LogFilters } from "./LogFilters";
import { MonthUsage } from "./Month";
import { PeriodSelector } from "./PeriodSelector";
import { Quota } from "./Quota";
import { RecentRequests } from "./RecentRequests";
import { Stats } from "./Stats";
import { ReportingNotice } from "../documents/ReportingNotice";

export const metadata: Metadata = { title: "Pregled" };

const RECENT_PAGE = 25;

export default async function DashboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = paramsFrom(await searchParams);
  const api = await serverApi();
  // The request log belongs to owners and developers; an accountant sees the usage figures only.
  const me = await api.account.me();
  const showLog = me.memberRole === "OWNER" || me.memberRole === "DEVELOPER" || me.role === "OPERATOR";
  const [o, recent] = await Promise.all([api.usage.overview(params), showLog ? api.usage.recent({ ...params, limit: RECENT_PAGE }) : []]);
  const view = { ...o.view, from: new Date(o.view.from), to: new Date(o.view.to) };
  const period = periodText(o);
  const hasData = o.totals.requests > 0;
  const logView = { range: o.view.range, from: o.view.fromDay ?? undefined, to: o.view.toDay ?? undefined, status: o.view.status ?? undefined, endpoint: o.view.endpoint ?? undefined, key: o.view.key ?? undefined, request: o.view.request ?? undefined };

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Pregled</h1>
          <p>
            Potrošnja vašeg računa · paket <strong>{PLAN_LABELS[o.plan]}</strong> · vrijeme prikazano po zagrebačkom vremenu (Europe/Zagreb)
          </p>
        </div>
        {showLog ? (
          <Link className="btn secondary" href="/keys">
            Upravljanje ključevima
          </Link>
        ) : null}
      </div>

      <ReportingNotice />
      {o.view.problems.map((p) => (
        <Alert key={p} kind="warn" testId="view-problem">
          {p}
        </Alert>
      ))}

      <Quota quota={o.quota} limits={o.limits} />
      <MonthUsage month={o.month} />
      <PeriodSelector view={o.view} today={localDate(new Date(), TIME_ZONE)} />
      <p style={{ color: "var(--muted)", margin: "0 0 10px" }} data-testid="period-text">
        Prikazano razdoblje: {period}
      </p>
      <Stats totals={o.totals} />

      {hasData ? (
        <section className="card section" aria-labelledby="chart-title">
          <div className="card-head">
            <h2 id="chart-title">{o.view.bucket === "hour" ? "Zahtjevi po satima" : "Zahtjevi po danima"}</h2>
            <span className="hint">{o.view.bucket === "hour" ? "sat po zagrebačkom vremenu" : "dan po zagrebačkom vremenu"}</span>
          </div>
          <BarChart
            testId="usage-chart"
            caption={`Zahtjevi ${period}`}
            note={o.view.bucket === "hour" ? "Sati po zagrebačkom vremenu (Europe/Zagreb). Točne brojke: zadržite pokazivač na stupcu ili otvorite tablicu ispod grafa." : "Dani po zagrebačkom vremenu (Europe/Zagreb). Točne brojke su u tablici ispod grafa."}
            bars={seriesBars(o)}
          />
        </section>
      ) : (
        <section className="card section" data-testid="usage-empty">
          <h2>Nema zahtjeva u ovom razdoblju</h2>
          <p style={{ color: "var(--muted)" }}>
            Grafovi i tablice pojavit će se čim vaš račun pošalje zahtjev. Napravite ključ na stranici <Link href="/keys">API ključevi</Link> i
            isprobajte, na primjer, provjeru OIB-a:
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
          <span className="hint">odabrano razdoblje</span>
        </div>
        <Endpoints endpoints={o.endpoints} hrefFor={(endpoint) => `/dashboard${viewQuery(view, { endpoint })}#log-title`} />
      </section>

      {showLog ? (
      <section className="card flush section" aria-labelledby="log-title">
        <div className="card-head">
          <h2 id="log-title">Zapisnik zahtjeva</h2>
          <span className="hint" data-testid="log-count">
            {o.view.request
              ? `traženi ID: ${o.logCount === 0 ? "nije pronađen" : `${formatInt(o.logCount)} ${plural(o.logCount, "zahtjev", "zahtjeva", "zahtjeva")}`}`
              : o.logCount > COUNT_CAP
                ? `više od ${formatInt(COUNT_CAP)} zahtjeva u ovom prikazu`
                : `${formatInt(o.logCount)} ${plural(o.logCount, "zahtjev", "zahtjeva", "zahtjeva")} u ovom prikazu`}{" "}
            · najnoviji prvi · bilježe se unutar nekoliko sekundi
          </span>
        </div>
        <LogFilters
          o={o}
          clearHref={`/dashboard${viewQuery(view, { status: undefined, endpoint: undefined, key: undefined, request: undefined })}#log-title`}
          exportHref={`/dashboard/export${viewQuery(view)}`}
        />
        <RecentRequests key={JSON.stringify(logView)} initial={recent} pageSize={RECENT_PAGE} view={logView} />
      </section>
      ) : null}
    </>
  );
}
