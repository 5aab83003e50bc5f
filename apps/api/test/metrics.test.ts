// /metrics keeps prom-client's text: the plain counters of metrics.ts, fed the same calls as
// prom-client's own Counter, Gauge and Histogram, print the same lines in the same order.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createMetrics, PlainCounter, PlainGauge, PlainHistogram } from "../src/metrics.ts";

const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

describe("plain metrics", () => {
  it("print exactly what prom-client's metrics print for the same calls", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const t = {
      requests: new Counter({ name: "x_requests_total", help: "Requests.", labelNames: ["route", "status"] as const, registers: [theirs] }),
      plain: new Counter({ name: "x_plain_total", help: "Plain.", registers: [theirs] }),
      empty: new Counter({ name: "x_empty_total", help: "Never counted.", labelNames: ["code"] as const, registers: [theirs] }),
      gauge: new Gauge({ name: "x_gauge", help: "A gauge.", registers: [theirs] }),
      duration: new Histogram({ name: "x_duration_seconds", help: "Duration \\ with \"quotes\".", labelNames: ["route"] as const, buckets: BOUNDS, registers: [theirs] }),
      unlabelled: new Histogram({ name: "x_decide_seconds", help: "Decide.", buckets: [0.0001, 0.001, 0.1], registers: [theirs] }),
    };
    const o = {
      requests: new PlainCounter("x_requests_total", "Requests.", ["route", "status"], ours),
      plain: new PlainCounter("x_plain_total", "Plain.", [], ours),
      empty: new PlainCounter("x_empty_total", "Never counted.", ["code"], ours),
      gauge: new PlainGauge("x_gauge", "A gauge.", [], ours),
      duration: new PlainHistogram("x_duration_seconds", "Duration \\ with \"quotes\".", ["route"], BOUNDS, ours),
      unlabelled: new PlainHistogram("x_decide_seconds", "Decide.", [], [0.0001, 0.001, 0.1], ours),
    };
    const routes = ["POST /v1/validate/oib", 'GET /v1/kpd/{code} "x"\\y\nz', "unmatched"];
    for (let i = 0; i < 500; i++) {
      const route = routes[i % 3]!;
      const status = i % 7 === 0 ? "429" : "200";
      const seconds = (i % 13) * 0.00037 + (i % 50 === 0 ? 3 : 0);
      t.requests.inc({ route, status });
      o.requests.inc({ route, status });
      t.duration.observe({ route }, seconds);
      o.duration.observe({ route }, seconds);
      t.unlabelled.observe(seconds / 10);
      o.unlabelled.observe(seconds / 10);
      if (i % 5 === 0) {
        t.plain.inc();
        o.plain.inc();
      }
    }
    t.requests.inc({ route: "x", status: "500" }, 3);
    o.requests.inc({ route: "x", status: "500" }, 3);
    t.gauge.set(17);
    o.gauge.set(17);
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('x_duration_seconds_bucket{le="+Inf",route="POST /v1/validate/oib"} 167');
  });

  it("the API's registry names every metric it had", async () => {
    const m = createMetrics();
    m.httpRequests.inc({ route: "POST /v1/validate/oib", status: "200" });
    m.httpDuration.observe({ route: "POST /v1/validate/oib" }, 0.002);
    m.decisionDuration.observe(0.0003);
    const text = await m.registry.metrics();
    const names = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => `${name} ${type}`);
    expect(names).toEqual(
      expect.arrayContaining([
        "fiskal_http_requests_total counter",
        "fiskal_http_request_duration_seconds histogram",
        "fiskal_ratelimit_decisions_total counter",
        "fiskal_ratelimit_decision_duration_seconds histogram",
        "fiskal_ratelimit_store_fallbacks_total counter",
        "fiskal_ratelimit_store_degraded gauge",
        "fiskal_usage_events_buffered gauge",
        "fiskal_usage_events_dropped gauge",
        "fiskal_http_client_errors_total counter",
        "fiskal_http_connections_dropped_total counter",
        "fiskal_auth_failures_total counter",
        "fiskal_process_cpu_seconds_total counter",
        "fiskal_nodejs_eventloop_lag_p99_seconds gauge",
      ]),
    );
    expect(text).toContain('fiskal_http_requests_total{route="POST /v1/validate/oib",status="200"} 1\n');
    expect(text).toContain('fiskal_http_request_duration_seconds_bucket{le="0.0025",route="POST /v1/validate/oib"} 1\n');
    expect(text).toContain("fiskal_ratelimit_decision_duration_seconds_count 1\n");
  });
});
