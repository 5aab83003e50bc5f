// Every window of an account as it stands now: limit, remaining and when its quota next grows.
import { formatDuration, formatInt } from "~/lib/format";

type Window = { name: string; policy: string; limit: number; remaining: number; resetInMs: number; windowSeconds: number };

const NAMES: Record<string, string> = { burst: "U sekundi (burst)", minute: "U minuti", day: "Dnevno (UTC)" };

function windowName(w: Window): string {
  if (w.policy.startsWith("endpoint:")) return `Endpoint ${w.policy.slice("endpoint:".length)} (u minuti)`;
  return NAMES[w.name] ?? w.policy;
}

export function WindowsTable({ windows }: { windows: Window[] }) {
  return (
    <section className="card flush section" aria-labelledby="acct-windows-title">
      <div className="card-head">
        <h2 id="acct-windows-title">Prozori ograničenja sada</h2>
        <span className="hint">isto što bi odgovorio GET /v1/limits; čitanje ne troši kvotu</span>
      </div>
      <table className="data stack" style={{ marginTop: 12 }} data-testid="account-windows">
        <thead>
          <tr>
            <th>Prozor</th>
            <th className="num">Ograničenje</th>
            <th className="num">Preostalo</th>
            <th className="num">Iskorišteno</th>
            <th>Kvota raste za</th>
          </tr>
        </thead>
        <tbody>
          {windows.map((w) => (
            <tr key={w.policy} data-testid="account-window" data-policy={w.policy}>
              <td data-label="Prozor">{windowName(w)}</td>
              <td data-label="Ograničenje" className="num">{formatInt(w.limit)}</td>
              <td data-label="Preostalo" className="num" data-testid="window-remaining">{formatInt(w.remaining)}</td>
              <td data-label="Iskorišteno" className="num">{formatInt(w.limit - w.remaining)}</td>
              <td data-label="Kvota raste za">{w.remaining === w.limit ? "—" : formatDuration(Math.max(1, Math.ceil(w.resetInMs / 1000)))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
