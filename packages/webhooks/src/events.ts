import { z } from "zod";

/**
 * Event types an endpoint can subscribe to. `webhook.test` is only sent by "send test event".
 * `invoice.fiscalized`: a receipt issued without a JIR (CIS was unreachable) got its JIR by late delivery.
 */
export const EVENT_TYPES = ["rate_limit.warning", "invoice.fiscalized"] as const;
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

export type InvoiceFiscalizedData = {
  invoice_id: string;
  /** BrOznRac/OznPosPr/OznNapUr, e.g. "123/POSL1/1". */
  number: string;
  oib: string;
  jir: string;
  zki: string;
  /** ISO 8601: when the receipt was issued (to the buyer, with its ZKI only). */
  issued_at: string;
  /** ISO 8601: when CIS received the late delivery. */
  fiscalized_at: string;
  /** Always true: the receipt went to CIS with NakDost (late delivery). */
  late_delivery: true;
  /** Calls made to CIS for this receipt. */
  attempts: number;
};

export type EventData = {
  "rate_limit.warning": RateLimitWarningData;
  "invoice.fiscalized": InvoiceFiscalizedData;
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
