// The dashboard's period: 24 h, 7 d, 30 d or chosen dates (Europe/Zagreb), kept in the URL.
import Link from "next/link";
import css from "~/components/usage.module.css";
import type { PortalOutputs } from "~/lib/portal-types";
import { croatianDay, DAY_HINT, DAY_PLACEHOLDER } from "~/lib/days";
import { RANGE_LABELS, RANGES, viewQuery, MAX_CUSTOM_DAYS } from "~/lib/usage-view";

/** Days are typed as the portal shows them, "20. 11. 2026."; the page checks them (lib/days.ts). */
const DAY_PATTERN = "\\s*\\d{1,2}\\.\\s*\\d{1,2}\\.\\s*\\d{4}\\.?\\s*";

type View = PortalOutputs["usage"]["overview"]["view"];

export function PeriodSelector({ view, today }: { view: View; today: string }) {
  const v = { ...view, from: new Date(view.from), to: new Date(view.to) };
  return (
    <section className="card section" aria-labelledby="period-title" data-testid="period-selector">
      <h2 id="period-title" style={{ fontSize: "1rem", margin: "0 0 8px" }}>
        Razdoblje <span style={{ fontWeight: 400, color: "var(--muted)" }}>· vrijeme Europe/Zagreb</span>
      </h2>
      <nav className={css.tabs} aria-label="Razdoblje prikaza">
        {RANGES.filter((r) => r !== "custom").map((r) => (
          <Link key={r} className={css.tab} href={`/dashboard${viewQuery(v, { range: r, from: undefined, to: undefined })}`} aria-current={view.range === r ? "page" : undefined} data-testid={`range-${r}`}>
            {RANGE_LABELS[r]}
          </Link>
        ))}
      </nav>
      <form className={css.periodForm} action="/dashboard" method="get" data-testid="custom-range">
        <input type="hidden" name="range" value="custom" />
        {view.status ? <input type="hidden" name="status" value={view.status} /> : null}
        {view.endpoint ? <input type="hidden" name="endpoint" value={view.endpoint} /> : null}
        {view.key ? <input type="hidden" name="key" value={view.key} /> : null}
        <label>
          Od
          <input type="text" inputMode="numeric" name="from" required pattern={DAY_PATTERN} title={DAY_HINT} placeholder={DAY_PLACEHOLDER} size={13} defaultValue={view.fromDay ? croatianDay(view.fromDay) : undefined} data-testid="range-from" />
        </label>
        <label>
          Do (uključivo)
          <input type="text" inputMode="numeric" name="to" required pattern={DAY_PATTERN} title={DAY_HINT} placeholder={DAY_PLACEHOLDER} size={13} defaultValue={view.toDay ? croatianDay(view.toDay) : croatianDay(today)} data-testid="range-to" />
        </label>
        <button type="submit" className={view.range === "custom" ? "btn small" : "btn secondary small"} data-testid="range-apply">
          Prikaži razdoblje
        </button>
      </form>
      <p className={css.explain}>Odabrano razdoblje može imati najviše {MAX_CUSTOM_DAYS} dana; dani počinju u ponoć po zagrebačkom vremenu.</p>
    </section>
  );
}
