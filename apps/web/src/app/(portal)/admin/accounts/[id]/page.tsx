// The operator's view of one customer: plan and limits, usage today and this calendar month (Europe/Zagreb,
// the same figures and success rate as the customer's dashboard, server/month-usage.ts), per endpoint, and
// where the account stands in every window right now (what GET /v1/limits would answer it).
import type { Metadata } from "next";
import Link from "next/link";
import { forbidden, notFound } from "next/navigation";
import { formatDate, formatInt, formatMs, formatPercent, PLAN_LABELS } from "~/lib/format";
import { endpointLabel } from "~/lib/request-labels";
import { serverApi } from "~/server/api";
import { WindowsTable } from "./WindowsTable";

export const metadata: Metadata = { title: "Račun korisnika" };

export default async function AccountView({ params }: { params: Promise<{ id: string }> }) {
  const api = await serverApi();
  const me = await api.account.me();
  if (me.role !== "OPERATOR") forbidden();
  const { id } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(id)) notFound();
  const a = await api.admin.account({ accountId: id });
  if (!a) notFound();
  const stats = [
    { label: "Zahtjevi danas", value: formatInt(a.today.requests), sub: `${formatInt(a.today.refused)} odbijeno (429)` },
    { label: "Zahtjevi ovaj mjesec", value: formatInt(a.month.requests), sub: `${formatInt(a.month.refused)} odbijeno (429); prošli mjesec ${formatInt(a.previousMonth.requests)}` },
    { label: "Prosječno vrijeme odgovora (mjesec)", value: formatMs(a.month.avgMs), sub: "svi odgovori, i odbijeni (429)" },
    { label: "Uspješnost (mjesec)", value: formatPercent(a.month.successRate), sub: "udio odgovora 2xx među obrađenim zahtjevima, bez 429 (kao na korisnikovu pregledu)" },
  ];
  return (
    <>
      <p>
        <Link href="/admin">← Administracija</Link>
      </p>
      <div className="page-head">
        <div>
          <h1 data-testid="account-name">{a.name}</h1>
          <p>
            Paket <strong data-testid="account-view-plan">{PLAN_LABELS[a.plan]}</strong> · {a.emails.join(", ") || "bez korisnika"} · aktivnih ključeva:{" "}
            {a.activeKeys} · otvoren {formatDate(a.createdAt)}
          </p>
        </div>
      </div>
      <div className="grid stats">
        {stats.map((s) => (
          <div key={s.label} className="card stat">
            <span className="label">{s.label}</span>
            <span className="value">{s.value}</span>
            <span className="sub">{s.sub}</span>
          </div>
        ))}
      </div>
      <WindowsTable windows={a.windows} />
      <section className="card flush section" aria-labelledby="acct-endpoints-title">
        <div className="card-head">
          <h2 id="acct-endpoints-title">Po endpointu (danas, po zagrebačkom vremenu)</h2>
        </div>
        {a.endpoints.length === 0 ? (
          <div className="empty">
            <strong>Danas još nema zahtjeva</strong>
          </div>
        ) : (
          <table className="data stack" style={{ marginTop: 12 }} data-testid="account-endpoints">
            <thead>
              <tr>
                <th>Endpoint</th>
                <th className="num">Zahtjevi</th>
                <th className="num">Odbijeno (429)</th>
                <th className="num">Prosj. vrijeme</th>
              </tr>
            </thead>
            <tbody>
              {a.endpoints.map((e) => (
                <tr key={e.endpoint}>
                  <td data-label="Endpoint" className="mono break-anywhere">{endpointLabel(e.endpoint)}</td>
                  <td data-label="Zahtjevi" className="num">{formatInt(e.requests)}</td>
                  <td data-label="Odbijeno (429)" className="num">{formatInt(e.refused)}</td>
                  <td data-label="Prosj. vrijeme" className="num">{formatMs(e.avgMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
