// Scale helpers for the inline SVG charts.

/** A "nice" axis maximum (1, 2, 2.5, 5 × 10^n) at or above `max`, with evenly spaced ticks. */
export function niceScale(max: number, tickCount = 4): { max: number; ticks: number[] } {
  if (!Number.isFinite(max) || max <= 0) return { max: tickCount, ticks: range(tickCount + 1) };
  const rawStep = max / tickCount;
  const magnitude = 10 ** Math.floor(Math.log10(rawStep));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= rawStep) ?? 10 * magnitude;
  const niceStep = step < 1 ? 1 : step;
  const top = Math.ceil(max / niceStep) * niceStep;
  const ticks: number[] = [];
  for (let v = 0; v <= top + niceStep / 2; v += niceStep) ticks.push(Math.round(v * 100) / 100);
  return { max: top, ticks };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** Indexes of labels to print on an x axis of `count` slots so that at most `maxLabels` appear. */
export function labelIndexes(count: number, maxLabels: number): Set<number> {
  const out = new Set<number>();
  if (count <= 0) return out;
  const every = Math.max(1, Math.ceil(count / maxLabels));
  for (let i = count - 1; i >= 0; i -= every) out.add(i);
  return out;
}

/** Quota progress: used/limit clamped to 0..1, plus the warning threshold used by the banner. */
export function quotaProgress(used: number, limit: number): { ratio: number; warn: boolean; exceeded: boolean } {
  if (limit <= 0) return { ratio: 1, warn: true, exceeded: true };
  const ratio = Math.min(1, Math.max(0, used / limit));
  return { ratio, warn: used >= limit * 0.8, exceeded: used >= limit };
}
