import { PLANS } from "@fiskal/limits";
import { formatInt, PLAN_LABELS } from "~/lib/format";

/** The plan limits straight from @fiskal/limits, as the landing page and the docs show them. */
export function PlansTable({ enterprise, burstLabel = "U sekundi (burst)" }: { enterprise: string; burstLabel?: string }) {
  return (
    <table className="data">
      <thead>
        <tr>
          <th>Paket</th>
          <th className="num">{burstLabel}</th>
          <th className="num">U minuti</th>
          <th className="num">Dnevno</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(PLANS).map(([plan, l]) => (
          <tr key={plan}>
            <td>{PLAN_LABELS[plan]}</td>
            <td className="num">{formatInt(l.burst)}</td>
            <td className="num">{formatInt(l.perMinute)}</td>
            <td className="num">{formatInt(l.perDay)}</td>
          </tr>
        ))}
        <tr>
          <td>Enterprise</td>
          <td className="num" colSpan={3} style={{ textAlign: "center" }}>
            {enterprise}
          </td>
        </tr>
      </tbody>
    </table>
  );
}
