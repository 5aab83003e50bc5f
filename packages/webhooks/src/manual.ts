// Sends a portal user asks for: one more attempt of a delivery (redeliver) and a `webhook.test`
// event to one endpoint. Each is refused before it uses anything up when the delivery or endpoint is
// not the account's or is disabled; then the caller's admission decides whether it goes out now.
import type { Db } from "@fiskal/db";
import { z } from "zod";
import { DELIVERY_QUEUE, enqueueDelivery } from "./queue.ts";
import { recordEvent, type RecordContext } from "./record.ts";
import { withTransaction } from "./sql.ts";

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

export type ManualSendContext = RecordContext & {
  db: Db;
  /** Resolves once the queue is prepared. */
  prepared: () => Promise<void>;
};

export function rateLimited(retryAfterSeconds: number): RateLimitedResult {
  return { ok: false, error: "rate_limited", message: `too many sends, retry in ${retryAfterSeconds} s`, retryAfterSeconds };
}

const uuid = z.uuid();

/** `name` as a PostgreSQL identifier in double quotes. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Queues one more attempt now, outside the retry schedule. A success ends any pending schedule.
 * While a manual attempt for the delivery is still waiting to run, another one is not queued.
 */
export async function redeliver(ctx: ManualSendContext, accountId: string, deliveryId: string, opts: { admit?: SendAdmission } = {}): Promise<RedeliverResult> {
  if (!uuid.safeParse(accountId).success || !uuid.safeParse(deliveryId).success) {
    return { ok: false, error: "not_found", message: "no such delivery" };
  }
  const delivery = await ctx.db.webhookDelivery.findFirst({
    where: { id: deliveryId, event: { accountId } },
    select: { endpoint: { select: { enabled: true } } },
  });
  if (!delivery) return { ok: false, error: "not_found", message: "no such delivery" };
  if (!delivery.endpoint.enabled) {
    return { ok: false, error: "endpoint_disabled", message: "enable the endpoint before redelivering" };
  }
  await ctx.prepared();
  return withTransaction(ctx.pool, async (client): Promise<RedeliverResult> => {
    // Serializes redelivers of one delivery, so two at once cannot both see "nothing queued".
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`webhook-redeliver:${deliveryId}`]);
    const waiting = await client.query(
      `SELECT 1 FROM ${quoteIdent(ctx.queue.schema)}.job
        WHERE name = $1 AND state IN ('created', 'retry') AND data->>'deliveryId' = $2 AND data->>'mode' = 'manual'
        LIMIT 1`,
      [DELIVERY_QUEUE, deliveryId],
    );
    if (waiting.rowCount) return { ok: true, alreadyQueued: true };
    const admission = opts.admit ? await opts.admit() : { allowed: true as const };
    if (!admission.allowed) return rateLimited(admission.retryAfterSeconds);
    await enqueueDelivery(ctx.boss, ctx.queue, { deliveryId, mode: "manual" }, new Date(), client);
    return { ok: true };
  });
}

/** Sends a `webhook.test` event to one endpoint, whatever it subscribes to. */
export async function sendTestEvent(ctx: ManualSendContext, accountId: string, endpointId: string, opts: { admit?: SendAdmission } = {}): Promise<TestEventResult> {
  if (!uuid.safeParse(accountId).success || !uuid.safeParse(endpointId).success) {
    return { ok: false, error: "not_found", message: "no such webhook endpoint" };
  }
  const endpoint = await ctx.db.webhookEndpoint.findFirst({
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
  await ctx.prepared();
  const result = await recordEvent(ctx, accountId, "webhook.test", data, null, [endpointId]);
  const deliveryId = result?.deliveryIds[0];
  if (!result || !deliveryId) return { ok: false, error: "not_found", message: "no such webhook endpoint" };
  return { ok: true, eventId: result.eventId, deliveryId };
}
