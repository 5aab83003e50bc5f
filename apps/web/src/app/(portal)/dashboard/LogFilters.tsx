// Filters of the request log as a plain GET form: the URL holds the view, so it can be shared,
// reloaded and exported as it is.
import Link from "next/link";
import css from "~/components/usage.module.css";
import type { PortalOutputs } from "~/lib/portal-types";
import { endpointLabel } from "~/lib/request-labels";
import { STATUS_LABELS } from "~/lib/usage-view";

type Overview = PortalOutputs["usage"]["overview"];

export function LogFilters({ o, clearHref, exportHref }: { o: Overview; clearHref: string; exportHref: string }) {
  const { view } = o;
  const endpoints = view.endpoint && !o.knownEndpoints.includes(view.endpoint) ? [view.endpoint, ...o.knownEndpoints] : o.knownEndpoints;
  return (
    <form className={css.filters} action="/dashboard#log-title" method="get" data-testid="log-filters">
      {view.range !== "24h" ? <input type="hidden" name="range" value={view.range} /> : null}
      {view.fromDay ? <input type="hidden" name="from" value={view.fromDay} /> : null}
      {view.toDay ? <input type="hidden" name="to" value={view.toDay} /> : null}
      <label>
        ID zahtjeva
        <input
          type="search"
          name="request"
          defaultValue={view.request ?? ""}
          maxLength={128}
          placeholder="iz zaglavlja X-Request-Id"
          spellCheck={false}
          autoComplete="off"
          data-testid="filter-request"
        />
      </label>
      <label>
        Status
        <select name="status" defaultValue={view.status ?? ""} data-testid="filter-status">
          <option value="">Svi statusi</option>
          {Object.entries(STATUS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Endpoint
        <select name="endpoint" defaultValue={view.endpoint ?? ""} data-testid="filter-endpoint">
          <option value="">Svi endpointi</option>
          {endpoints.map((e) => (
            <option key={e} value={e}>
              {endpointLabel(e)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Ključ
        <select name="key" defaultValue={view.key ?? ""} data-testid="filter-key">
          <option value="">Svi ključevi</option>
          {o.keys.map((k) => (
            <option key={k.id} value={k.id}>
              {k.name} ({k.prefix}…)
            </option>
          ))}
        </select>
      </label>
      <div className={css.filterActions}>
        <button type="submit" className="btn small" data-testid="filter-apply">
          Primijeni filtre
        </button>
        <Link className="btn secondary small" href={clearHref} data-testid="filter-clear">
          Poništi filtre
        </Link>
        <a className="btn secondary small" href={exportHref} download data-testid="export-csv">
          Preuzmi CSV
        </a>
      </div>
    </form>
  );
}
