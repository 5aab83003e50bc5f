// One request's decision (the binding or refusing window, what remained, Retry-After) and the
// rate-limit headers it was answered with.
import css from "~/components/usage.module.css";
import { formatDateTime, formatInt, formatMs } from "~/lib/format";
import type { PortalOutputs } from "~/lib/portal-types";
import { windowLabel } from "~/lib/request-labels";

export type LogRow = PortalOutputs["usage"]["recent"][number];


export function RequestDetail({ r }: { r: LogRow }) {
  const d = r.decision;
  return (
    <div className={css.detail} data-testid="request-detail">
      <dl>
        <dt>Vrijeme</dt>
        <dd>{formatDateTime(r.at)} (Europe/Zagreb)</dd>
        <dt>ID zahtjeva</dt>
        <dd className="mono">{r.requestId}</dd>
        <dt>Ključ</dt>
        <dd>{r.keyPrefix ? `${r.keyName ?? ""} (${r.keyPrefix}…)` : "—"}</dd>
        <dt>Status i trajanje</dt>
        <dd>
          {r.status} · {formatMs(r.durationMs)}
        </dd>
        <dt>Odluka</dt>
        <dd data-testid="detail-decision">
          {d === null
            ? "Nije zabilježena (zahtjev je stariji od bilježenja odluka)."
            : r.refused
              ? `Odbijen: prekoračen prozor „${windowLabel(d.window)}” (ograničenje ${formatInt(d.limit)}, preostalo ${formatInt(d.remaining)}).`
              : `Primljen u obradu. Najbliži granici bio je prozor „${windowLabel(d.window)}”: ograničenje ${formatInt(d.limit)}, preostalo ${formatInt(d.remaining)}.`}
        </dd>
        {d && d.retryAfter !== null ? (
          <>
            <dt>Retry-After</dt>
            <dd data-testid="detail-retry-after">{d.retryAfter} s</dd>
          </>
        ) : null}
      </dl>
      <strong style={{ fontSize: "0.86rem" }}>Zaglavlja ograničenja u našem odgovoru</strong>
      {r.headers ? (
        <pre className={css.headers} data-testid="detail-headers">
          {Object.entries(r.headers)
            .map(([k, v]) => `${k}: ${v}`)
            .join("\n")}
        </pre>
      ) : (
        <p className={css.explain}>Nisu zabilježena za ovaj zahtjev.</p>
      )}
    </div>
  );
}
