import { z } from "zod";

/** Event types an endpoint can subscribe to. `webhook.test` is only sent by "send test event". */
export const EVENT_TYPES = ["rate_limit.warning"] as const;
export type SubscribableEventType = (typeof EVENT_TYPES)[number];
export type WebhookEventType = SubscribableEventType | "webhook.test";

export type RateLimitWarningData = {
  account_id: string;
  plan: string;
  window: "day";
  limit: number;
  used: number;
  remaining: number;
  threshold: number;
  /** ISO 8601, UTC: when the day window resets. */
  resets_at: string;
};

export type WebhookTestData = { endpoint_id: string; message: string };

export type EventData = {
  "rate_limit.warning": RateLimitWarningData;
  "webhook.test": WebhookTestData;
};

/** The JSON body of every delivery. */
export type WebhookPayload<T extends WebhookEventType = WebhookEventType> = {
  type: T;
  /** ISO 8601, UTC: when the event happened (not when it was delivered). */
  timestamp: string;
  data: EventData[T];
};

const storedPayload = z.object({ type: z.string(), timestamp: z.string(), data: z.record(z.string(), z.unknown()) });

/**
 * The exact bytes sent: key order fixed here because PostgreSQL jsonb does not keep the order the
 * payload was written in.
 */
export function serializePayload(stored: unknown): string {
  const p = storedPayload.parse(stored);
  return JSON.stringify({ type: p.type, timestamp: p.timestamp, data: p.data });
}
