// One webhooks instance: a connection pool and a queue (pg-boss) in the application's database, and
// the operations on them. The parts live beside it: settings.ts (the options with their defaults),
// readiness.ts (the queue prepared once, on first use), record.ts (an event and its deliveries),
// manual.ts (redeliver, test event), worker-start.ts and worker.ts (delivering), endpoints.ts and
// log.ts (the portal's views).
import type { Db } from "@fiskal/db";
import pg from "pg";
import { createEndpointStore } from "./endpoints.ts";
import type { EventData, SubscribableEventType } from "./events.ts";
import { createDeliveryLog } from "./log.ts";
import { redeliver, sendTestEvent, type ManualSendContext, type SendAdmission } from "./manual.ts";
import { createBoss, prepareQueue } from "./queue.ts";
import { createReadiness } from "./readiness.ts";
import { recordEvent } from "./record.ts";
import { PRIVATE_ADDRESSES_WARNING, webhookSettings, type WebhookSettingsOptions } from "./settings.ts";
import { startDeliveryWorker, type WebhookWorker, type WorkerOptions } from "./worker-start.ts";

export type { RateLimitedResult, RedeliverResult, SendAdmission, TestEventResult } from "./manual.ts";
export type { WebhookWorker, WorkerOptions } from "./worker-start.ts";

export type WebhooksOptions = {
  db: Db;
  /** The same database as `db`; the queue (pg-boss, schema `queueSchema`) and the delivery state use it directly. */
  databaseUrl: string;
  /** Allow loopback, private, link-local and CGNAT targets. Development and tests only. */
  allowPrivate: boolean;
  /** Warnings at start (`allowPrivate` on); default: console.warn. */
  onWarning?: (message: string) => void;
} & WebhookSettingsOptions;

export type EmitResult = { eventId: string; deliveries: number } | null;

export function createWebhooks(options: WebhooksOptions) {
  if (options.allowPrivate) (options.onWarning ?? ((m: string) => console.warn(m)))(PRIVATE_ADDRESSES_WARNING);
  const { timeoutMs, queue, retryDelaysMs, poolSize, reportError } = webhookSettings(options);
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: poolSize });
  // Enqueueing only: no maintenance or cron timers in processes that merely emit.
  const boss = createBoss(pool, queue, { supervise: false, schedule: false, migrate: true });
  boss.on("error", reportError);
  // An idle pooled connection that drops must not crash the process; the next query reconnects.
  pool.on("error", reportError);
  const workers = new Set<WebhookWorker>();
  const readiness = createReadiness(() => prepareQueue(boss));
  const manual: ManualSendContext = { db: options.db, pool, boss, queue, prepared: readiness.prepared };

  /**
   * Records an event and, in the same transaction, one pending delivery and one queued job per enabled
   * endpoint of the account subscribed to `type`. With a `dedupeKey` already used by this account,
   * nothing happens and the result is null.
   */
  async function emit<T extends SubscribableEventType>(
    accountId: string,
    type: T,
    data: EventData[T],
    dedupeKey?: string,
  ): Promise<EmitResult> {
    await readiness.prepared();
    const result = await recordEvent({ pool, boss, queue }, accountId, type, data, dedupeKey ?? null, null);
    return result && { eventId: result.eventId, deliveries: result.deliveryIds.length };
  }

  /**
   * Starts delivering in this process. Any number of workers in any number of processes may run;
   * each job is taken by one of them, and jobs of a worker that died are taken up again after
   * `jobExpireSeconds`.
   */
  async function startWorker(opts: WorkerOptions = {}): Promise<WebhookWorker> {
    await readiness.prepared();
    return startDeliveryWorker({ pool, boss, queue, retryDelaysMs, timeoutMs, allowPrivate: options.allowPrivate }, opts, reportError, workers);
  }

  /** Stops this instance's workers and closes its connections. */
  async function close(): Promise<void> {
    if (readiness.closed) return;
    readiness.close();
    await Promise.all([...workers].map((w) => w.stop()));
    const ready = readiness.current();
    if (ready) {
      await ready.catch(() => undefined);
      await boss.stop({ graceful: false, close: false, wait: true });
    }
    await pool.end();
  }

  return {
    /** Installs or checks the queue schema; optional, every call does it on first use. */
    ready: readiness.prepared,
    emit,
    /**
     * Queues one more attempt now, outside the retry schedule. A success ends any pending schedule.
     * While a manual attempt for the delivery is still waiting to run, another one is not queued.
     */
    redeliver: (accountId: string, deliveryId: string, opts: { admit?: SendAdmission } = {}) => redeliver(manual, accountId, deliveryId, opts),
    /** Sends a `webhook.test` event to one endpoint, whatever it subscribes to. */
    sendTestEvent: (accountId: string, endpointId: string, opts: { admit?: SendAdmission } = {}) => sendTestEvent(manual, accountId, endpointId, opts),
    startWorker,
    endpoints: createEndpointStore(options.db, options.allowPrivate),
    ...createDeliveryLog(options.db),
    close,
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
