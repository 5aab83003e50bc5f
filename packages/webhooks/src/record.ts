// Recording an event: the event row, and in the same transaction one pending delivery and one queued
// job per endpoint that receives it. Nothing is recorded twice for one account's dedupe key.
import type pg from "pg";
import type PgBoss from "pg-boss";
import type { EventData, WebhookEventType, WebhookPayload } from "./events.ts";
import { messageId, uuidv7 } from "./ids.ts";
import { enqueueDelivery, type DeliveryJob, type QueueSettings } from "./queue.ts";
import { withTransaction } from "./sql.ts";

export type RecordContext = { pool: pg.Pool; boss: PgBoss; queue: QueueSettings };

/** The endpoints of `accountId` that receive the event: the enabled ones subscribed to `type`, or exactly `endpointIds`. */
export function endpointsQuery(accountId: string, type: WebhookEventType, endpointIds: string[] | null): { text: string; values: unknown[] } {
  // FOR SHARE keeps an endpoint from being deleted between choosing it and referencing it.
  return endpointIds === null
    ? { text: `SELECT id FROM "WebhookEndpoint" WHERE "accountId" = $1 AND enabled AND $2 = ANY("eventTypes") ORDER BY "createdAt" FOR SHARE`, values: [accountId, type] }
    : { text: `SELECT id FROM "WebhookEndpoint" WHERE "accountId" = $1 AND id = ANY($2::uuid[]) ORDER BY "createdAt" FOR SHARE`, values: [accountId, endpointIds] };
}

/**
 * Records an event of `type` for the account's endpoints (`endpointIds`, or null: every enabled one
 * subscribed to `type`); null when the account already has an event with `dedupeKey`.
 */
export async function recordEvent<T extends WebhookEventType>(
  ctx: RecordContext,
  accountId: string,
  type: T,
  data: EventData[T],
  dedupeKey: string | null,
  endpointIds: string[] | null,
): Promise<{ eventId: string; deliveryIds: string[] } | null> {
  const now = new Date();
  const eventId = messageId(now.getTime());
  const payload: WebhookPayload<T> = { type, timestamp: now.toISOString(), data };
  return withTransaction(ctx.pool, async (client) => {
    const inserted = await client.query(
      `INSERT INTO "WebhookEvent" (id, "accountId", type, payload, "dedupeKey", "createdAt")
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ("accountId", "dedupeKey") DO NOTHING RETURNING id`,
      [eventId, accountId, type, JSON.stringify(payload), dedupeKey, now],
    );
    if (inserted.rowCount === 0) return null;
    const endpoints = await client.query<{ id: string }>(endpointsQuery(accountId, type, endpointIds));
    const deliveryIds: string[] = [];
    for (const endpoint of endpoints.rows) {
      const deliveryId = uuidv7(now.getTime());
      await client.query(
        `INSERT INTO "WebhookDelivery" (id, "eventId", "endpointId", status, "attemptCount", "nextAttemptAt", "createdAt", "updatedAt")
         VALUES ($1, $2, $3, 'pending', 0, $4, $4, $4)`,
        [deliveryId, eventId, endpoint.id, now],
      );
      const job: DeliveryJob = { deliveryId, mode: "auto", scheduledFor: now.toISOString() };
      await enqueueDelivery(ctx.boss, ctx.queue, job, now, client);
      deliveryIds.push(deliveryId);
    }
    return { eventId, deliveryIds };
  });
}
