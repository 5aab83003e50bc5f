// Stacked bar chart (admitted + refused) drawn as inline SVG on the server.
import { labelIndexes, niceScale } from "~/lib/chart";
import { formatInt } from "~/lib/format";

export type Bar = { label: string; title: string; admitted: number; refused: number };

const W = 560;
const H = 240;
const PAD_TOP = 12;
const PAD_RIGHT = 6;
const PAD_BOTTOM = 30;

export function BarChart({ bars, caption, maxLabels = 10, testId }: { bars: Bar[]; caption: string; maxLabels?: number; testId?: string }) {
  const totals = bars.map((b) => b.admitted + b.refused);
  const scale = niceScale(Math.max(0, ...totals));
  // Room for the widest y-axis label (about 8 px per character at 13 px).
  const PAD = { top: PAD_TOP, right: PAD_RIGHT, bottom: PAD_BOTTOM, left: 14 + 8 * formatInt(scale.max).length };
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, bars.length);
  const barW = Math.max(2, slot * 0.68);
  const y = (v: number) => PAD.top + innerH - (v / scale.max) * innerH;
  const shown = labelIndexes(bars.length, maxLabels);
  const total = totals.reduce((a, b) => a + b, 0);

  return (
    <figure style={{ margin: 0 }} data-testid={testId}>
      <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${caption}: ukupno ${formatInt(total)} zahtjeva`}>
        {scale.ticks.map((t) => (
          <g key={t}>
            <line className="grid-line" x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
            <text className="axis-label" x={PAD.left - 8} y={y(t) + 4} textAnchor="end">
              {formatInt(t)}
            </text>
          </g>
        ))}
        {bars.map((b, i) => {
          const x = PAD.left + i * slot + (slot - barW) / 2;
          const hOk = (b.admitted / scale.max) * innerH;
          const hRef = (b.refused / scale.max) * innerH;
          const base = PAD.top + innerH;
          return (
            <g key={b.label + i} className="slot">
              <title>{`${b.title}: ${formatInt(b.admitted)} propušteno, ${formatInt(b.refused)} odbijeno (429)`}</title>
              <rect className="bar-hit" x={PAD.left + i * slot} y={PAD.top} width={slot} height={innerH} />
              {hOk > 0 ? <rect className="bar-ok" x={x} y={base - hOk} width={barW} height={hOk} rx={Math.min(2, barW / 3)} /> : null}
              {hRef > 0 ? <rect className="bar-refused" x={x} y={base - hOk - hRef} width={barW} height={hRef} rx={Math.min(2, barW / 3)} /> : null}
              {shown.has(i) ? (
                <text
                  className="axis-label"
                  x={i === bars.length - 1 && slot < 30 ? W - PAD.right : PAD.left + i * slot + slot / 2}
                  y={H - 8}
                  textAnchor={i === bars.length - 1 && slot < 30 ? "end" : "middle"}
                >
                  {b.label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="legend" style={{ marginTop: 6 }}>
        <span>Propušteni</span>
        <span className="refused">Odbijeni (429)</span>
      </figcaption>
    </figure>
  );
}
