// Requests today and in the calendar month (Europe/Zagreb), beside the whole month before.
import { formatInt, formatPercent } from "~/lib/format";
import type { PortalOutputs } from "~/lib/portal-types";

type Month = PortalOutputs["usage"]["overview"]["month"];

const monthName = new Intl.DateTimeFormat("hr-HR", { month: "long", year: "numeric", timeZone: "UTC" });

/** "2026-11-01" → "studeni 2026." */
function monthLabel(firstDay: string): string {
  return monthName.format(new Date(`${firstDay}T12:00:00Z`));
}

export function MonthUsage({ month }: { month: Month }) {
  const { today, current, previous } = month;
  return (
    <section className="card section" aria-labelledby="month-title" data-testid="month-usage">
      <div className="card-head">
        <h2 id="month-title">Danas i ovaj mjesec</h2>
        <span className="hint">kalendarski dan i mjesec po zagrebačkom vremenu; svi zahtjevi, i odbijeni (429)</span>
      </div>
      <table className="data stack">
        <thead>
          <tr>
            <th>Razdoblje</th>
            <th className="num">Zahtjevi</th>
            <th className="num">Odbijeni (429)</th>
            <th className="num">Uspješnost</th>
          </tr>
        </thead>
        <tbody>
          {[
            { id: "today", label: "Danas", t: today },
            { id: "month", label: `Ovaj mjesec (${monthLabel(month.monthStart)})`, t: current },
            { id: "previous", label: `Prošli mjesec (${monthLabel(month.previousStart)})`, t: previous },
          ].map(({ id, label, t }) => (
            <tr key={id} data-testid={`month-row-${id}`}>
              <td data-label="Razdoblje">{label}</td>
              <td data-label="Zahtjevi" className="num" data-testid="month-requests">
                {formatInt(t.requests)}
              </td>
              <td data-label="Odbijeni (429)" className="num">
                {formatInt(t.refused)}
              </td>
              <td data-label="Uspješnost" className="num" data-testid="month-success">
                {formatPercent(t.successRate)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint" style={{ margin: "10px 0 0" }}>
        Uspješnost je udio odgovora 2xx među obrađenim zahtjevima; odbijeni zbog ograničenja (429) se ne računaju. Isti broj vidi i operater.
      </p>
    </section>
  );
}
