// A delivery worker in this process: its own pg-boss (supervising abandoned jobs), a number of
// handlers that each run one queued attempt at a time, and a graceful stop that waits for the
// attempts in flight.
import type PgBoss from "pg-boss";
import { createBoss, DELIVERY_QUEUE, type DeliveryJob } from "./queue.ts";
import { workerSettings } from "./settings.ts";
import { runDeliveryJob, type DeliveryContext } from "./worker.ts";

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

/**
 * Starts delivering (the queue must be prepared). `workers` holds the worker until it is stopped;
 * errors go to `opts.onError`, else to `reportError`.
 */
export async function startDeliveryWorker(
  ctx: DeliveryContext,
  opts: WorkerOptions,
  reportError: (err: unknown) => void,
  workers: Set<WebhookWorker>,
): Promise<WebhookWorker> {
  const settings = workerSettings(opts);
  const workerBoss: PgBoss = createBoss(ctx.pool, ctx.queue, {
    supervise: true,
    schedule: false,
    migrate: false,
    maintenanceIntervalSeconds: settings.maintenanceIntervalSeconds,
  });
  workerBoss.on("error", opts.onError ?? reportError);
  await workerBoss.start();
  for (let i = 0; i < settings.concurrency; i++) {
    await workerBoss.work<DeliveryJob>(DELIVERY_QUEUE, { batchSize: 1, pollingIntervalSeconds: settings.pollingIntervalSeconds }, async ([job]) => {
      if (job) await runDeliveryJob(ctx, job.data);
    });
  }
  let stopping: Promise<void> | undefined;
  const worker: WebhookWorker = {
    stop() {
      stopping ??= (async () => {
        workers.delete(worker);
        // Waits for deliveries in flight; what is still unfinished at the timeout is retried later.
        await workerBoss.stop({ graceful: true, close: false, wait: true, timeout: ctx.timeoutMs + 5_000 });
      })();
      return stopping;
    },
  };
  workers.add(worker);
  return worker;
}
