// Per-endpoint breakdown of the chosen period; each row links to the request log filtered by it.
import Link from "next/link";
import { formatInt, formatMs, formatPercent } from "~/lib/format";
import type { PortalOutputs } from "~/lib/portal-types";
import { endpointLabel } from "~/lib/request-labels";

type Endpoint = PortalOutputs["usage"]["overview"]["endpoints"][number];

export function Endpoints({ endpoints, hrefFor }: { endpoints: Endpoint[]; hrefFor: (endpoint: string) => string }) {
  if (endpoints.length === 0) {
    return (
      <div className="empty">
        <strong>Nema zahtjeva u ovom razdoblju</strong>
        Ovdje ćete vidjeti broj zahtjeva, odbijene zahtjeve, greške i vrijeme odgovora za svaki endpoint.
      </div>
    );
  }
  return (
    <div className="table-wrap" style={{ marginTop: 12 }}>
      <table className="data" data-testid="endpoint-table">
        <thead>
          <tr>
            <th>Endpoint</th>
            <th className="num">Zahtjevi</th>
            <th className="num">Odbijeni (429)</th>
            <th className="num">Greške (4xx, 5xx)</th>
            <th className="num">Prosj. vrijeme</th>
            <th className="num">Uspješnost</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.map((e) => (
            <tr key={e.endpoint}>
              <td className="mono">
                <Link href={hrefFor(e.endpoint)}>{endpointLabel(e.endpoint)}</Link>
              </td>
              <td className="num">{formatInt(e.requests)}</td>
              <td className="num">{formatInt(e.refused)}</td>
              <td className="num">{formatInt(e.errors)}</td>
              <td className="num">{formatMs(e.avgMs)}</td>
              <td className="num">{formatPercent(e.successRate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
