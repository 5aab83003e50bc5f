// Stacked bar chart (2xx, other, errors, 429) with HTML axes: the labels keep a readable size (12 px)
// however narrow the screen, and every bar names its period and counts in a tooltip and in a table
// below the chart (for the keyboard and touch).
import { niceScale } from "~/lib/chart";
import { formatInt } from "~/lib/format";
import css from "./usage.module.css";

/** `hour`: the local hour of an hourly bar; labels then fall on round hours (0, 2, 4 … or 0, 3, 6 …). */
export type Bar = { label: string; title: string; ok: number; other: number; errors: number; refused: number; hour?: number };

/** Every how many bars a label fits, for a plot `width` px wide and labels of `chars` characters. */
function labelEvery(count: number, width: number, chars: number, hourly: boolean): number {
  const labelPx = chars * 7 + 5;
  const every = Math.max(1, Math.ceil(labelPx / (width / Math.max(1, count))));
  return hourly ? ([1, 2, 3, 4, 6, 12].find((d) => d >= every) ?? 24) : every;
}

export function BarChart({ bars, caption, note, testId }: { bars: Bar[]; caption: string; note?: string; testId?: string }) {
  const totals = bars.map((b) => b.ok + b.other + b.errors + b.refused);
  const scale = niceScale(Math.max(0, ...totals));
  const total = totals.reduce((a, b) => a + b, 0);
  const n = Math.max(1, bars.length);
  const chars = Math.max(1, ...bars.map((b) => b.label.length));
  // The plot is about 560 px wide or more on a wide screen, about 290 px on a 390 px phone.
  const hourly = bars.every((b) => b.hour !== undefined);
  const every = labelEvery(n, 560, chars, hourly);
  const everyNarrow = labelEvery(n, 290, chars, hourly);
  const h = (v: number) => (v / scale.max) * 100;

  return (
    <figure className={css.figure} data-testid={testId}>
      <div className={css.plot}>
        <div className={css.yaxis} aria-hidden="true">
          {scale.ticks.map((t) => (
            <span key={t} style={{ bottom: `${(t / scale.max) * 100}%` }}>
              {formatInt(t)}
            </span>
          ))}
        </div>
        <svg className={css.bars} viewBox={`0 0 ${n} 100`} preserveAspectRatio="none" role="img" aria-label={`${caption}: ukupno ${formatInt(total)} zahtjeva`}>
          {scale.ticks.map((t) => (
            <line key={t} x1={0} x2={n} y1={100 - h(t)} y2={100 - h(t)} />
          ))}
          {bars.map((b, i) => {
            let y = 100;
            const seg = (v: number, cls: string | undefined) => {
              if (v <= 0) return null;
              y -= h(v);
              return <rect key={cls} className={cls} x={i + 0.16} width={0.68} y={y} height={h(v)} />;
            };
            return (
              <g key={i} data-testid="chart-bar" data-total={totals[i]}>
                <title>{`${b.title}: ${formatInt(totals[i]!)} zahtjeva — ${formatInt(b.ok)} uspješnih (2xx), ${formatInt(b.other)} ostalih (3xx), ${formatInt(b.errors)} grešaka (4xx/5xx), ${formatInt(b.refused)} odbijenih (429)`}</title>
                <rect className={css.hit} x={i} width={1} y={0} height={100} />
                {seg(b.ok, css.ok)}
                {seg(b.other, css.other)}
                {seg(b.errors, css.errors)}
                {seg(b.refused, css.refused)}
              </g>
            );
          })}
        </svg>
      </div>
      <div className={css.xaxis} aria-hidden="true" data-testid="chart-x-labels">
        {bars.map((b, i) => {
          // Hourly: round hours; daily: counted back from the latest day, which is always labelled.
          const pos = hourly ? b.hour! : bars.length - 1 - i;
          const show = pos % every === 0;
          const narrow = pos % everyNarrow === 0;
          return (
            <span key={i} className={show && !narrow ? css.wideOnly : undefined}>
              {show ? b.label : ""}
            </span>
          );
        })}
      </div>
      {note ? <p className={css.axisNote}>{note}</p> : null}
      <figcaption className={css.legend}>
        <span className={css.lOk}>Uspješni (2xx)</span>
        <span className={css.lOther}>Ostali (3xx, npr. 304)</span>
        <span className={css.lErrors}>Greške (4xx, 5xx)</span>
        <span className={css.lRefused}>Odbijeni zbog ograničenja (429)</span>
      </figcaption>
      {/* The numbers of every bar, for the keyboard, touch and screen readers (a tooltip needs a pointer). */}
      <details className={css.chartTable} data-testid="chart-table">
        <summary>Brojke grafa u tablici</summary>
        <div className="table-wrap">
          <table className="data">
            <caption className="sr-only">{caption}</caption>
            <thead>
              <tr>
                <th>Razdoblje</th>
                <th className="num">Ukupno</th>
                <th className="num">2xx</th>
                <th className="num">3xx</th>
                <th className="num">4xx, 5xx</th>
                <th className="num">429</th>
              </tr>
            </thead>
            <tbody>
              {bars.map((b, i) => (
                <tr key={i} data-testid="chart-table-row">
                  <td>{b.title}</td>
                  <td className="num">{formatInt(totals[i]!)}</td>
                  <td className="num">{formatInt(b.ok)}</td>
                  <td className="num">{formatInt(b.other)}</td>
                  <td className="num">{formatInt(b.errors)}</td>
                  <td className="num">{formatInt(b.refused)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
