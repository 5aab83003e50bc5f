// The dashboard's period: 24 h, 7 d, 30 d or chosen dates (Europe/Zagreb), kept in the URL.
import Link from "next/link";
import css from "~/components/usage.module.css";
import type { PortalOutputs } from "~/lib/portal-types";
import { RANGE_LABELS, RANGES, viewQuery, MAX_CUSTOM_DAYS, type UsageView } from "~/lib/usage-view";

type View = PortalOutputs["usage"]["overview"]["view"];

export function PeriodSelector({ view, today }: { view: View; today: string }) {
  const v = { ...view, from: new Date(view.from), to: new Date(view.to) } as UsageView;
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
          <input type="date" name="from" required max={today} defaultValue={view.fromDay ?? undefined} data-testid="range-from" />
        </label>
        <label>
          Do (uključivo)
          <input type="date" name="to" required max={today} defaultValue={view.toDay ?? undefined} data-testid="range-to" />
        </label>
        <button type="submit" className={view.range === "custom" ? "btn small" : "btn secondary small"} data-testid="range-apply">
          Prikaži razdoblje
        </button>
      </form>
      <p className={css.explain}>Odabrano razdoblje može imati najviše {MAX_CUSTOM_DAYS} dana; dani počinju u ponoć po zagrebačkom vremenu.</p>
    </section>
  );
}
