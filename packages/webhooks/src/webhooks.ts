import type { Db } from "@fiskal/db";
import pg from "pg";
import type PgBoss from "pg-boss";
import { z } from "zod";
import { createEndpointStore } from "./endpoints.ts";
import type { EventData, SubscribableEventType, WebhookEventType, WebhookPayload } from "./events.ts";
import { messageId, uuidv7 } from "./ids.ts";
import { createDeliveryLog } from "./log.ts";
import { createBoss, DELIVERY_QUEUE, enqueueDelivery, prepareQueue, type DeliveryJob, type QueueSettings } from "./queue.ts";
import { DEFAULT_RETRY_DELAYS_MS } from "./schedule.ts";
import { withTransaction } from "./sql.ts";
import { runDeliveryJob, type DeliveryContext } from "./worker.ts";

export type WebhooksOptions = {
  db: Db;
  /** The same database as `db`; the queue (pg-boss, schema `queueSchema`) and the delivery state use it directly. */
  databaseUrl: string;
  /** Allow loopback, private, link-local and CGNAT targets. Development and tests only. */
  allowPrivate: boolean;
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

export type WorkerOptions = {
  /** Deliveries sent at the same time by this process, default 4. */
  concurrency?: number;
  /** How often an idle worker looks for due jobs, default 1000 ms (at least 500). */
  pollIntervalMs?: number;
  /** How often abandoned jobs are swept back into the queue, default 30 s (at least 1). */
  maintenanceIntervalSeconds?: number;
  /** Infrastructure errors (database unreachable, …); delivery failures are recorded, not reported here. */
  onError?: (err: unknown) => void;
};

export type WebhookWorker = { stop(): Promise<void> };

export type EmitResult = { eventId: string; deliveries: number } | null;

/**
 * Decides whether a portal-triggered send (test event, redeliver) may go out now; called only once
 * the request is known to be valid, so refused and no-op calls use up nothing.
 */
export type SendAdmission = () => Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;

export type RateLimitedResult = { ok: false; error: "rate_limited"; message: string; retryAfterSeconds: number };

export type RedeliverResult =
  /** `alreadyQueued`: a manual attempt for this delivery was waiting to run, so nothing was added. */
  | { ok: true; alreadyQueued?: true }
  | { ok: false; error: "not_found"; message: string }
  | { ok: false; error: "endpoint_disabled"; message: string }
  | RateLimitedResult;

export type TestEventResult =
  | { ok: true; eventId: string; deliveryId: string }
  | { ok: false; error: "not_found"; message: string }
  | { ok: false; error: "endpoint_disabled"; message: string }
  | RateLimitedResult;

function rateLimited(retryAfterSeconds: number): RateLimitedResult {
  return { ok: false, error: "rate_limited", message: `too many sends, retry in ${retryAfterSeconds} s`, retryAfterSeconds };
}

const uuid = z.uuid();

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function createWebhooks(options: WebhooksOptions) {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const queue: QueueSettings = {
    schema: options.queueSchema ?? "pgboss",
    jobExpireSeconds: options.jobExpireSeconds ?? Math.ceil(timeoutMs / 1000) + 30,
    jobRetryDelaySeconds: options.jobRetryDelaySeconds ?? 5,
  };
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (retryDelaysMs.some((d) => !Number.isFinite(d) || d < 0)) throw new Error("retryDelaysMs must be non-negative numbers");
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 5 });
  // Enqueueing only: no maintenance or cron timers in processes that merely emit.
  const boss = createBoss(pool, queue, { supervise: false, schedule: false, migrate: true });
  const reportError = options.onError ?? ((err: unknown) => console.error("webhooks:", err));
  boss.on("error", reportError);
  // An idle pooled connection that drops must not crash the process; the next query reconnects.
  pool.on("error", reportError);
  const workers = new Set<WebhookWorker>();
  let ready: Promise<void> | undefined;
  let closed = false;

  function prepared(): Promise<void> {
    if (closed) return Promise.reject(new Error("webhooks were closed"));
    ready ??= prepareQueue(boss).catch((err: unknown) => {
      ready = undefined;
      throw err;
    });
    return ready;
  }

  async function record<T extends WebhookEventType>(
    accountId: string,
    type: T,
    data: EventData[T],
    dedupeKey: string | null,
    endpointIds: string[] | null,
  ): Promise<{ eventId: string; deliveryIds: string[] } | null> {
    await prepared();
    const now = new Date();
    const eventId = messageId(now.getTime());
    const payload: WebhookPayload<T> = { type, timestamp: now.toISOString(), data };
    return withTransaction(pool, async (client) => {
      const inserted = await client.query(
        `INSERT INTO "WebhookEvent" (id, "accountId", type, payload, "dedupeKey", "createdAt")
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT ("accountId", "dedupeKey") DO NOTHING RETURNING id`,
        [eventId, accountId, type, JSON.stringify(payload), dedupeKey, now],
      );
      if (inserted.rowCount === 0) return null;
      // FOR SHARE keeps an endpoint from being deleted between choosing it and referencing it.
      const endpoints = await client.query<{ id: string }>(
        endpointIds === null
          ? `SELECT id FROM "WebhookEndpoint" WHERE "accountId" = $1 AND enabled AND $2 = ANY("eventTypes") ORDER BY "createdAt" FOR SHARE`
          : `SELECT id FROM "WebhookEndpoint" WHERE "accountId" = $1 AND id = ANY($2::uuid[]) ORDER BY "createdAt" FOR SHARE`,
        [accountId, endpointIds ?? type],
      );
      const deliveryIds: string[] = [];
      for (const endpoint of endpoints.rows) {
        const deliveryId = uuidv7(now.getTime());
        await client.query(
          `INSERT INTO "WebhookDelivery" (id, "eventId", "endpointId", status, "attemptCount", "nextAttemptAt", "createdAt", "updatedAt")
           VALUES ($1, $2, $3, 'pending', 0, $4, $4, $4)`,
          [deliveryId, eventId, endpoint.id, now],
        );
        const job: DeliveryJob = { deliveryId, mode: "auto", scheduledFor: now.toISOString() };
        await enqueueDelivery(boss, queue, job, now, client);
        deliveryIds.push(deliveryId);
      }
      return { eventId, deliveryIds };
    });
  }

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
    const result = await record(accountId, type, data, dedupeKey ?? null, null);
    return result && { eventId: result.eventId, deliveries: result.deliveryIds.length };
  }

  /**
   * Queues one more attempt now, outside the retry schedule. A success ends any pending schedule.
   * While a manual attempt for the delivery is still waiting to run, another one is not queued.
   */
  async function redeliver(accountId: string, deliveryId: string, opts: { admit?: SendAdmission } = {}): Promise<RedeliverResult> {
    if (!uuid.safeParse(accountId).success || !uuid.safeParse(deliveryId).success) {
      return { ok: false, error: "not_found", message: "no such delivery" };
    }
    const delivery = await options.db.webhookDelivery.findFirst({
      where: { id: deliveryId, event: { accountId } },
      select: { endpoint: { select: { enabled: true } } },
    });
    if (!delivery) return { ok: false, error: "not_found", message: "no such delivery" };
    if (!delivery.endpoint.enabled) {
      return { ok: false, error: "endpoint_disabled", message: "enable the endpoint before redelivering" };
    }
    await prepared();
    return withTransaction(pool, async (client): Promise<RedeliverResult> => {
      // Serializes redelivers of one delivery, so two at once cannot both see "nothing queued".
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`webhook-redeliver:${deliveryId}`]);
      const waiting = await client.query(
        `SELECT 1 FROM ${quoteIdent(queue.schema)}.job
          WHERE name = $1 AND state IN ('created', 'retry') AND data->>'deliveryId' = $2 AND data->>'mode' = 'manual'
          LIMIT 1`,
        [DELIVERY_QUEUE, deliveryId],
      );
      if (waiting.rowCount) return { ok: true, alreadyQueued: true };
      const admission = opts.admit ? await opts.admit() : { allowed: true as const };
      if (!admission.allowed) return rateLimited(admission.retryAfterSeconds);
      await enqueueDelivery(boss, queue, { deliveryId, mode: "manual" }, new Date(), client);
      return { ok: true };
    });
  }

  /** Sends a `webhook.test` event to one endpoint, whatever it subscribes to. */
  async function sendTestEvent(accountId: string, endpointId: string, opts: { admit?: SendAdmission } = {}): Promise<TestEventResult> {
    if (!uuid.safeParse(accountId).success || !uuid.safeParse(endpointId).success) {
      return { ok: false, error: "not_found", message: "no such webhook endpoint" };
    }
    const endpoint = await options.db.webhookEndpoint.findFirst({
      where: { id: endpointId, accountId },
      select: { enabled: true },
    });
    if (!endpoint) return { ok: false, error: "not_found", message: "no such webhook endpoint" };
    if (!endpoint.enabled) return { ok: false, error: "endpoint_disabled", message: "enable the endpoint before testing it" };
    if (opts.admit) {
      const admission = await opts.admit();
      if (!admission.allowed) return rateLimited(admission.retryAfterSeconds);
    }
    const data = { endpoint_id: endpointId, message: "Ovo je testni događaj iz Fiskala." };
    const result = await record(accountId, "webhook.test", data, null, [endpointId]);
    const deliveryId = result?.deliveryIds[0];
    if (!result || !deliveryId) return { ok: false, error: "not_found", message: "no such webhook endpoint" };
    return { ok: true, eventId: result.eventId, deliveryId };
  }

  /**
   * Starts delivering in this process. Any number of workers in any number of processes may run;
   * each job is taken by one of them, and jobs of a worker that died are taken up again after
   * `jobExpireSeconds`.
   */
  async function startWorker(opts: WorkerOptions = {}): Promise<WebhookWorker> {
    await prepared();
    const onError = opts.onError ?? reportError;
    const workerBoss: PgBoss = createBoss(pool, queue, {
      supervise: true,
      schedule: false,
      migrate: false,
      maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds ?? 30,
    });
    workerBoss.on("error", onError);
    await workerBoss.start();
    const ctx: DeliveryContext = { pool, boss, queue, retryDelaysMs, timeoutMs, allowPrivate: options.allowPrivate };
    const pollingIntervalSeconds = Math.max(500, opts.pollIntervalMs ?? 1000) / 1000;
    for (let i = 0; i < Math.max(1, opts.concurrency ?? 4); i++) {
      await workerBoss.work<DeliveryJob>(DELIVERY_QUEUE, { batchSize: 1, pollingIntervalSeconds }, async ([job]) => {
        if (job) await runDeliveryJob(ctx, job.data);
      });
    }
    let stopping: Promise<void> | undefined;
    const worker: WebhookWorker = {
      stop() {
        stopping ??= (async () => {
          workers.delete(worker);
          // Waits for deliveries in flight; what is still unfinished at the timeout is retried later.
          await workerBoss.stop({ graceful: true, close: false, wait: true, timeout: timeoutMs + 5_000 });
        })();
        return stopping;
      },
    };
    workers.add(worker);
    return worker;
  }

  /** Stops this instance's workers and closes its connections. */
  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    await Promise.all([...workers].map((w) => w.stop()));
    if (ready) {
      await ready.catch(() => undefined);
      await boss.stop({ graceful: false, close: false, wait: true });
    }
    await pool.end();
  }

  return {
    /** Installs or checks the queue schema; optional, every call does it on first use. */
    ready: prepared,
    emit,
    redeliver,
    sendTestEvent,
    startWorker,
    endpoints: createEndpointStore(options.db, options.allowPrivate),
    ...createDeliveryLog(options.db),
    close,
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
