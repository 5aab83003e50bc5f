// Today's daily quota exactly as the API's day window counts it (UTC day, free calls left out).
import { ZAGREB_TIME_ZONE } from "@fiskal/fiscal/zagreb";
import Link from "next/link";
import { Alert } from "~/components/Alert";
import { formatInt, formatPercent } from "~/lib/format";
import type { PortalOutputs } from "~/lib/portal-types";

type Overview = PortalOutputs["usage"]["overview"];

function untilUtcMidnight(now: Date): string {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const minutes = Math.ceil((next - now.getTime()) / 60_000);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const resetLocal = new Intl.DateTimeFormat("hr-HR", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: ZAGREB_TIME_ZONE });

export function Quota({ quota, limits }: Pick<Overview, "quota" | "limits">) {
  const now = new Date();
  const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const cls = quota.exceeded ? "progress over" : quota.warn ? "progress warn" : "progress";
  return (
    <>
      {quota.warn ? (
        <Alert kind={quota.exceeded ? "error" : "warn"} testId="quota-warning" title={quota.exceeded ? "Dnevna kvota je potrošena" : `Iskorišteno je ${formatPercent(quota.used / quota.limit)} današnje kvote`}>
          {quota.exceeded ? "Novi zahtjevi dobivaju odgovor 429 do obnove kvote. " : `Nakon ${formatInt(quota.limit)} zahtjeva API će odbijati zahtjeve do obnove kvote. `}
          <Link href="/plan">Zatražite veći paket</Link> ako vam ovo postaje redovito.
        </Alert>
      ) : null}
      <section className="card section" aria-labelledby="quota-title">
        <div className="quota-row">
          <h2 id="quota-title" style={{ margin: 0 }}>
            Dnevna kvota
          </h2>
          <span style={{ color: "var(--muted)", fontSize: "0.86rem" }}>
            obnavlja se u 00:00 UTC, tj. u {resetLocal.format(reset)} po zagrebačkom vremenu (za {untilUtcMidnight(now)})
          </span>
        </div>
        <div className="quota-row">
          <span>
            <span className="big" data-testid="quota-used">{formatInt(quota.used)}</span>
            <span style={{ color: "var(--muted)" }}>
              {" "}
              / <span data-testid="quota-limit">{formatInt(quota.limit)}</span> zahtjeva danas uračunato u kvotu
            </span>
          </span>
          <strong data-testid="quota-percent">{quota.ratio > 0 && quota.ratio < 0.001 ? "< 0,1 %" : formatPercent(quota.ratio)}</strong>
        </div>
        <div className={cls} role="progressbar" aria-label="Potrošnja dnevne kvote" aria-valuemin={0} aria-valuemax={quota.limit} aria-valuenow={Math.min(quota.used, quota.limit)}>
          <span style={{ width: `${(quota.ratio * 100).toFixed(2)}%` }} />
        </div>
        <p style={{ color: "var(--muted)", fontSize: "0.86rem", margin: "10px 0 0" }} data-testid="quota-explain">
          U kvotu se broje svi zahtjevi koje je API primio na obradu, i oni s odgovorom 4xx ili 5xx. Ne broje se odbijeni (429) ni besplatni pozivi{" "}
          <code>GET /v1/limits</code>, kao i u API-ju. Uz dnevnu kvotu vrijede i {formatInt(limits.perMinute)} zahtjeva u minuti te{" "}
          {formatInt(limits.burst)} u sekundi.
        </p>
      </section>
    </>
  );
}
