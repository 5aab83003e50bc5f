// The settings a webhooks instance and its workers run with: the caller's options with their
// defaults filled in and checked, decided once before any connection is opened.
import type { QueueSettings } from "./queue.ts";
import { DEFAULT_RETRY_DELAYS_MS } from "./schedule.ts";

/** Logged once by every process that creates the webhooks with `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE=1). */
export const PRIVATE_ADDRESSES_WARNING =
  "webhooks: WEBHOOKS_ALLOW_PRIVATE is on, so the private-address protection is off: webhook addresses may point at loopback, private, link-local and CGNAT networks of this host. Use it for local development and tests only.";

/** The options of `createWebhooks` that have defaults. */
export type WebhookSettingsOptions = {
  /** Waits after each failed automatic attempt; the default is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h. */
  retryDelaysMs?: readonly number[];
  /** Per-attempt request timeout, default 10 000 ms. */
  timeoutMs?: number;
  /** How long a job may stay active before it counts as abandoned by a dead worker. Default: timeout + 30 s. */
  jobExpireSeconds?: number;
  /** First wait before an abandoned or crashed job runs again (pg-boss doubles it per retry). Default 5. */
  jobRetryDelaySeconds?: number;
  /** pg-boss schema, default "pgboss". */
  queueSchema?: string;
  /** Connections for the queue and delivery state, default 5. */
  poolSize?: number;
  /** Errors of the queue's own machinery outside any call; default: console.error. */
  onError?: (err: unknown) => void;
};

export type WebhookSettings = {
  timeoutMs: number;
  queue: QueueSettings;
  retryDelaysMs: readonly number[];
  poolSize: number;
  reportError: (err: unknown) => void;
};

/** Throws on a negative or non-finite retry delay. Defaults: 10 s per attempt, a job abandoned after the timeout + 30 s, retried after 5 s, schema "pgboss", 5 connections. */
export function webhookSettings(options: WebhookSettingsOptions): WebhookSettings {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (retryDelaysMs.some((d) => !Number.isFinite(d) || d < 0)) throw new Error("retryDelaysMs must be non-negative numbers");
  return {
    timeoutMs,
    queue: {
      schema: options.queueSchema ?? "pgboss",
      jobExpireSeconds: options.jobExpireSeconds ?? Math.ceil(timeoutMs / 1000) + 30,
      jobRetryDelaySeconds: options.jobRetryDelaySeconds ?? 5,
    },
    retryDelaysMs,
    poolSize: options.poolSize ?? 5,
    reportError: options.onError ?? ((err: unknown) => console.error("webhooks:", err)),
  };
}

export type WorkerSettingsOptions = { concurrency?: number; pollIntervalMs?: number; maintenanceIntervalSeconds?: number };

/** Defaults: 4 deliveries at once (at least 1), a poll every second (at least every 500 ms), a sweep every 30 s. */
export function workerSettings(opts: WorkerSettingsOptions): { concurrency: number; pollingIntervalSeconds: number; maintenanceIntervalSeconds: number } {
  return {
    concurrency: Math.max(1, opts.concurrency ?? 4),
    pollingIntervalSeconds: Math.max(500, opts.pollIntervalMs ?? 1000) / 1000,
    maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds ?? 30,
  };
}
