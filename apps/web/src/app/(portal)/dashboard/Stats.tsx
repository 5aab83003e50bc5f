// Totals of the chosen period, each saying what it counts.
import css from "~/components/usage.module.css";
import { formatInt, formatMs, formatPercent } from "~/lib/format";
import type { PortalOutputs } from "~/lib/portal-types";

type Totals = PortalOutputs["usage"]["overview"]["totals"];

export function Stats({ totals }: { totals: Totals }) {
  return (
    <div className="grid stats" data-testid="stats">
      <div className="card stat">
        <span className="label">Zahtjevi</span>
        <span className="value" data-testid="stat-requests">{formatInt(totals.requests)}</span>
        <span className={css.statSub}>svi zahtjevi u razdoblju, i odbijeni</span>
      </div>
      <div className="card stat">
        <span className="label">Odbijeni zbog ograničenja (429)</span>
        <span className={totals.refused > 0 ? "value danger" : "value"} data-testid="stat-refused">{formatInt(totals.refused)}</span>
        <span className={css.statSub}>ne troše kvotu</span>
      </div>
      <div className="card stat">
        <span className="label">Greške (4xx, 5xx)</span>
        <span className="value" data-testid="stat-errors">{formatInt(totals.errors)}</span>
        <span className={css.statSub}>odgovori sa statusom 400 ili višim, bez 429</span>
      </div>
      <div className="card stat">
        <span className="label">Uspješnost</span>
        <span className="value" data-testid="stat-success-rate">{formatPercent(totals.successRate)}</span>
        <span className={css.statSub} data-testid="stat-success-explain">
          udio odgovora 2xx među {formatInt(totals.handled)} obrađenih zahtjeva; odbijeni (429) se ne računaju
        </span>
      </div>
      <div className="card stat">
        <span className="label">Prosječno vrijeme odgovora</span>
        <span className="value" data-testid="stat-avg-ms">{formatMs(totals.avgMs)}</span>
        <span className={css.statSub} data-testid="stat-avg-explain">
          svih zahtjeva, i odbijenih (429); mjereno na našem poslužitelju, bez mreže
        </span>
      </div>
    </div>
  );
}
