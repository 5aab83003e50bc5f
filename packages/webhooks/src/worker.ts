import type pg from "pg";
import type PgBoss from "pg-boss";
import { serializePayload } from "./events.ts";
import { uuidv7 } from "./ids.ts";
import { enqueueDelivery, type DeliveryJob, type QueueSettings } from "./queue.ts";
import { nextAttemptDelay } from "./schedule.ts";
import { sendSigned, type AttemptOutcome } from "./send.ts";
import { withTransaction } from "./sql.ts";

export type DeliveryContext = {
  pool: pg.Pool;
  boss: PgBoss;
  queue: QueueSettings;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  allowPrivate: boolean;
};

type DeliveryRow = {
  status: string;
  attemptCount: number;
  nextAttemptAt: Date | null;
  eventId: string;
  payload: unknown;
  endpointId: string;
  url: string;
  secret: string;
  enabled: boolean;
};

/** Shown to the customer in the portal (Croatian, as everything a portal user sees). */
const GONE_REASON = "Adresa je odgovorila 410 Gone, pa je isključena.";

function isScheduledFor(row: { status: string; nextAttemptAt: Date | null }, job: DeliveryJob): boolean {
  return job.mode === "auto" && row.status === "pending" && row.nextAttemptAt?.getTime() === Date.parse(job.scheduledFor);
}

// PostgreSQL text cannot hold NUL characters.
function clean(text: string | null): string | null {
  return text === null ? null : text.replaceAll("\u0000", "");
}

/** Runs one queued attempt. Throws only on infrastructure failure, so the queue retries the job. */
export async function runDeliveryJob(ctx: DeliveryContext, job: DeliveryJob): Promise<void> {
  const { rows } = await ctx.pool.query<DeliveryRow>(
    `SELECT d.status, d."attemptCount", d."nextAttemptAt", e.id AS "eventId", e.payload,
            ep.id AS "endpointId", ep.url, ep.secret, ep.enabled
       FROM "WebhookDelivery" d
       JOIN "WebhookEvent" e ON e.id = d."eventId"
       JOIN "WebhookEndpoint" ep ON ep.id = d."endpointId"
      WHERE d.id = $1`,
    [job.deliveryId],
  );
  const row = rows[0];
  if (!row) return; // the endpoint or the account was deleted
  if (job.mode === "auto" && !isScheduledFor(row, job)) return; // superseded by another attempt

  if (!row.enabled) {
    if (job.mode === "auto") {
      await ctx.pool.query(
        `UPDATE "WebhookDelivery" SET status = 'failed', "nextAttemptAt" = NULL, "updatedAt" = now()
          WHERE id = $1 AND status = 'pending' AND "nextAttemptAt" = $2`,
        [job.deliveryId, row.nextAttemptAt],
      );
    }
    return;
  }

  const outcome = await sendSigned({
    url: row.url,
    secret: row.secret,
    msgId: row.eventId,
    body: serializePayload(row.payload),
    timeoutMs: ctx.timeoutMs,
    allowPrivate: ctx.allowPrivate,
  });
  await recordAttempt(ctx, job, row.endpointId, outcome);
}

async function recordAttempt(ctx: DeliveryContext, job: DeliveryJob, endpointId: string, outcome: AttemptOutcome) {
  await withTransaction(ctx.pool, async (client) => {
    const locked = await client.query<{ status: string; attemptCount: number; nextAttemptAt: Date | null }>(
      `SELECT status, "attemptCount", "nextAttemptAt" FROM "WebhookDelivery" WHERE id = $1 FOR UPDATE`,
      [job.deliveryId],
    );
    const current = locked.rows[0];
    if (!current) return;
    const number = current.attemptCount + 1;
    await client.query(
      `INSERT INTO "WebhookAttempt" (id, "deliveryId", number, "startedAt", "durationMs", "statusCode", error, "responseBody", manual)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        uuidv7(),
        job.deliveryId,
        number,
        outcome.startedAt,
        outcome.durationMs,
        outcome.statusCode,
        clean(outcome.error),
        clean(outcome.responseBody),
        job.mode === "manual",
      ],
    );

    const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const gone = outcome.statusCode === 410;
    let status = current.status;
    let nextAttemptAt = current.nextAttemptAt;

    if (succeeded) {
      status = "succeeded";
      nextAttemptAt = null;
    } else if (gone) {
      // A delivery another attempt already answered stays answered; the endpoint is still disabled.
      if (status !== "succeeded") status = "failed";
      nextAttemptAt = null;
      await client.query(
        `UPDATE "WebhookEndpoint" SET enabled = false, "disabledReason" = $2, "updatedAt" = now() WHERE id = $1`,
        [endpointId, GONE_REASON],
      );
    } else if (isScheduledFor(current, job)) {
      // Only the attempt the schedule was waiting for moves it on; a manual failure leaves it alone.
      const auto = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "WebhookAttempt" WHERE "deliveryId" = $1 AND NOT manual`,
        [job.deliveryId],
      );
      const delay = nextAttemptDelay(ctx.retryDelaysMs, auto.rows[0]?.n ?? number, outcome.retryAfterMs);
      if (delay === null) {
        status = "failed";
        nextAttemptAt = null;
      } else {
        nextAttemptAt = new Date(Date.now() + delay);
        const next: DeliveryJob = { deliveryId: job.deliveryId, mode: "auto", scheduledFor: nextAttemptAt.toISOString() };
        await enqueueDelivery(ctx.boss, ctx.queue, next, nextAttemptAt, client);
      }
    }

    await client.query(
      `UPDATE "WebhookDelivery" SET status = $2, "attemptCount" = $3, "nextAttemptAt" = $4, "updatedAt" = now() WHERE id = $1`,
      [job.deliveryId, status, number, nextAttemptAt],
    );
  });
}
