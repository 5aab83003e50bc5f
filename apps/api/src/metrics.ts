// Prometheus metrics: HTTP traffic, malformed requests, rate-limit decisions, store fallbacks,
// authentication failures, metering backlog.
//
// The request path only adds to plain numbers (a Map of label values → count, a bucket array per
// histogram): no label validation, hashing or object spread per call. prom-client reads them when
// /metrics is scraped, through the `get()` of the metrics registered here, and formats them with the
// process's default metrics: the text is what prom-client's own Counter, Gauge and Histogram would
// print for the same calls (test/metrics.test.ts compares the two).
import { Registry, collectDefaultMetrics } from "prom-client";

export type Metrics = ReturnType<typeof createMetrics>;

type Labels<L extends string> = Record<L, string>;

/** One exported value, as prom-client's registry reads it from a metric's `get()`. */
interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
  sharedLabels?: Record<string, string>;
}

/** The part of prom-client's metric interface that its Registry reads. */
interface Exported {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  aggregator: "sum";
  get(): Promise<{ name: string; help: string; type: string; values: MetricValue[]; aggregator: "sum" }>;
}

/**
 * Label sets by their values, one Map level per label in the order of `labelNames`: a lookup per
 * label, no key string built per call. `order` keeps the series in the order first seen, as
 * prom-client prints them.
 */
class Series<L extends string, T> {
  readonly order: T[] = [];
  #root = new Map<string, unknown>();
  constructor(
    readonly labelNames: readonly L[],
    readonly make: (labels: Record<L, string>) => T,
  ) {}
  get(labels: Record<L, string>): T {
    let level = this.#root;
    const last = this.labelNames.length - 1;
    for (let i = 0; i < last; i++) {
      const value = labels[this.labelNames[i]!];
      let next = level.get(value) as Map<string, unknown> | undefined;
      if (!next) level.set(value, (next = new Map()));
      level = next;
    }
    const value = labels[this.labelNames[last]!];
    let series = level.get(value) as T | undefined;
    if (series === undefined) {
      series = this.make(labels);
      level.set(value, series);
      this.order.push(series);
    }
    return series;
  }
}

abstract class PlainMetric<L extends string> implements Exported {
  readonly aggregator = "sum" as const;
  abstract readonly type: Exported["type"];
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }
  protected abstract values(): MetricValue[];
  get() {
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values: this.values(), aggregator: this.aggregator });
  }
}

/** A counter: `inc(labels)` adds 1 (or `value`). Label sets appear in the order first counted. */
export class PlainCounter<L extends string = never> extends PlainMetric<L> {
  readonly type = "counter";
  #series = new Series<L, { labels: Labels<L>; value: number }>(this.labelNames, (labels) => ({ labels: { ...labels }, value: 0 }));
  #unlabelled = 0;

  inc(...args: [L] extends [never] ? [value?: number] : [labels: Labels<L>, value?: number]): void {
    if (this.labelNames.length === 0) {
      this.#unlabelled += (args[0] as number | undefined) ?? 1;
      return;
    }
    this.#series.get(args[0] as Labels<L>).value += args[1] ?? 1;
  }

  protected values(): MetricValue[] {
    if (this.labelNames.length === 0) return [{ labels: {}, value: this.#unlabelled }];
    return this.#series.order.map(({ labels, value }) => ({ labels: { ...labels }, value }));
  }
}

/** A gauge without labels: the value last set. */
export class PlainGauge extends PlainMetric<never> {
  readonly type = "gauge";
  #value = 0;
  set(value: number): void {
    this.#value = value;
  }
  protected values(): MetricValue[] {
    return [{ labels: {}, value: this.#value }];
  }
}

interface Buckets<L extends string> {
  labels: Labels<L> | Record<string, never>;
  /** Observations per bucket (not cumulative), the last entry for those above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

/** A histogram with fixed upper bounds: `observe(labels, seconds)` or, without labels, `observe(seconds)`. */
export class PlainHistogram<L extends string = never> extends PlainMetric<L> {
  readonly type = "histogram";
  #bounds: readonly number[];
  #series: Series<L, Buckets<L>>;
  #unlabelled: Buckets<L> | null;

  constructor(name: string, help: string, labelNames: readonly L[], bounds: readonly number[], registry: Registry) {
    super(name, help, labelNames, registry);
    this.#bounds = bounds;
    this.#series = new Series(labelNames, (labels) => this.#buckets({ ...labels }));
    this.#unlabelled = labelNames.length === 0 ? this.#buckets({}) : null;
  }

  #buckets(labels: Buckets<L>["labels"]): Buckets<L> {
    return { labels, counts: new Array<number>(this.#bounds.length + 1).fill(0), sum: 0, count: 0 };
  }

  observe(...args: [L] extends [never] ? [value: number] : [labels: Labels<L>, value: number]): void {
    const unlabelled = this.labelNames.length === 0;
    const value = (unlabelled ? args[0] : args[1]) as number;
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const series = this.#unlabelled ?? this.#series.get(args[0] as Labels<L>);
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    series.counts[i]!++;
    series.sum += value;
    series.count += 1;
  }

  protected values(): MetricValue[] {
    const out: MetricValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.#unlabelled ? [this.#unlabelled] : this.#series.order) {
      const shared = { ...s.labels } as Record<string, string>;
      let acc = 0;
      this.#bounds.forEach((le, i) => {
        acc += s.counts[i]!;
        out.push({ labels: { le }, value: acc, metricName: bucket, sharedLabels: shared });
      });
      out.push(
        { labels: { le: "+Inf" }, value: s.count, metricName: bucket, sharedLabels: shared },
        { labels: {}, value: s.sum, metricName: `${this.name}_sum`, sharedLabels: shared },
        { labels: {}, value: s.count, metricName: `${this.name}_count`, sharedLabels: shared },
      );
    }
    return out;
  }
}

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "fiskal_" });
  return {
    registry,
    httpRequests: new PlainCounter("fiskal_http_requests_total", "HTTP requests by route template and status.", ["route", "status"], registry),
    httpDuration: new PlainHistogram(
      "fiskal_http_request_duration_seconds",
      "HTTP request duration by route template.",
      ["route"],
      [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registry,
    ),
    decisions: new PlainCounter(
      "fiskal_ratelimit_decisions_total",
      "Rate-limit decisions; refusals carry the refusing window.",
      ["outcome", "window", "degraded"],
      registry,
    ),
    decisionDuration: new PlainHistogram(
      "fiskal_ratelimit_decision_duration_seconds",
      "Time to reach a rate-limit decision.",
      [],
      [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.1],
      registry,
    ),
    storeFallbacks: new PlainCounter("fiskal_ratelimit_store_fallbacks_total", "Times the limiter fell back from the shared store to the local one.", [], registry),
    storeDegraded: new PlainGauge("fiskal_ratelimit_store_degraded", "1 while decisions are taken by the per-instance fallback limiter.", [], registry),
    meterBuffered: new PlainGauge("fiskal_usage_events_buffered", "Usage events waiting to be written.", [], registry),
    meterDropped: new PlainGauge("fiskal_usage_events_dropped", "Usage events dropped because the buffer was full.", [], registry),
    clientErrors: new PlainCounter(
      "fiskal_http_client_errors_total",
      "Requests the HTTP parser rejected or that timed out before they were complete, by Node's error code (e.g. HPE_INVALID_METHOD, ERR_HTTP_REQUEST_TIMEOUT).",
      ["code"],
      registry,
    ),
    connectionsDropped: new PlainCounter(
      "fiskal_http_connections_dropped_total",
      "Connections closed on arrival because the server already held its maximum (HTTP_MAX_CONNECTIONS).",
      [],
      registry,
    ),
    lateDeliveryWaiting: new PlainGauge("fiskal_receipts_late_delivery_waiting", "Receipts issued without a JIR that the late-delivery job still has to deliver (art. 21).", [], registry),
    lateDeliveryNearDeadline: new PlainGauge(
      "fiskal_receipts_late_delivery_near_deadline",
      "Receipts without a JIR whose legal late-delivery deadline (end of the second working day) is less than 24 hours away.",
      [],
      registry,
    ),
    lateDeliveryPastDeadline: new PlainGauge("fiskal_receipts_late_delivery_past_deadline", "Receipts without a JIR past their legal late-delivery deadline.", [], registry),
    authFailures: new PlainCounter(
      "fiskal_auth_failures_total",
      "Requests whose API key was not accepted: missing, malformed, unknown, revoked, or unavailable (the database could not be asked).",
      ["reason"],
      registry,
    ),
  };
}
