// Prometheus metrics: HTTP traffic, malformed requests, rate-limit decisions, store fallbacks,
// authentication failures, metering backlog.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "fiskal_" });
  const httpRequests = new Counter({
    name: "fiskal_http_requests_total",
    help: "HTTP requests by route template and status.",
    labelNames: ["route", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "fiskal_http_request_duration_seconds",
    help: "HTTP request duration by route template.",
    labelNames: ["route"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const decisions = new Counter({
    name: "fiskal_ratelimit_decisions_total",
    help: "Rate-limit decisions; refusals carry the refusing window.",
    labelNames: ["outcome", "window", "degraded"] as const,
    registers: [registry],
  });
  const decisionDuration = new Histogram({
    name: "fiskal_ratelimit_decision_duration_seconds",
    help: "Time to reach a rate-limit decision.",
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.1],
    registers: [registry],
  });
  const storeFallbacks = new Counter({
    name: "fiskal_ratelimit_store_fallbacks_total",
    help: "Times the limiter fell back from the shared store to the local one.",
    registers: [registry],
  });
  const storeDegraded = new Gauge({
    name: "fiskal_ratelimit_store_degraded",
    help: "1 while decisions are taken by the per-instance fallback limiter.",
    registers: [registry],
  });
  const meterBuffered = new Gauge({
    name: "fiskal_usage_events_buffered",
    help: "Usage events waiting to be written.",
    registers: [registry],
  });
  const meterDropped = new Gauge({
    name: "fiskal_usage_events_dropped",
    help: "Usage events dropped because the buffer was full.",
    registers: [registry],
  });
  const clientErrors = new Counter({
    name: "fiskal_http_client_errors_total",
    help: "Requests the HTTP parser rejected or that timed out before they were complete, by Node's error code (e.g. HPE_INVALID_METHOD, ERR_HTTP_REQUEST_TIMEOUT).",
    labelNames: ["code"] as const,
    registers: [registry],
  });
  const connectionsDropped = new Counter({
    name: "fiskal_http_connections_dropped_total",
    help: "Connections closed on arrival because the server already held its maximum (HTTP_MAX_CONNECTIONS).",
    registers: [registry],
  });
  const authFailures = new Counter({
    name: "fiskal_auth_failures_total",
    help: "Requests whose API key was not accepted: missing, malformed, unknown, revoked, or unavailable (the database could not be asked).",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  return {
    registry,
    httpRequests,
    httpDuration,
    decisions,
    decisionDuration,
    storeFallbacks,
    storeDegraded,
    meterBuffered,
    meterDropped,
    clientErrors,
    connectionsDropped,
    authFailures,
  };
}
