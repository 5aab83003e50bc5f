export { createWebhooks } from "./webhooks.ts";
export type {
  Webhooks,
  WebhooksOptions,
  WorkerOptions,
  WebhookWorker,
  EmitResult,
  RedeliverResult,
  TestEventResult,
  SendAdmission,
  RateLimitedResult,
} from "./webhooks.ts";
export { createWarningDetector, warningDedupeKey, windowDay, thresholdUsage } from "./detector.ts";
export type { WarningDetector, WarningDetectorOptions, WarningObservation, DayWindow } from "./detector.ts";
export { validateWebhookUrl, checkAddress } from "./ssrf.ts";
export type { UrlCheck, AddressCheck } from "./ssrf.ts";
export { generateSecret } from "./ids.ts";
export { EVENT_TYPES } from "./events.ts";
export type {
  SubscribableEventType,
  WebhookEventType,
  WebhookPayload,
  RateLimitWarningData,
  InvoiceFiscalizedData,
  ReportingDueData,
  EInvoiceReceivedData,
  EInvoiceFiscalizedData,
  EInvoiceRejectedData,
  WebhookTestData,
  EventData,
} from "./events.ts";
export { MAX_ENDPOINTS_PER_ACCOUNT } from "./endpoints.ts";
export type { WebhookEndpointView, EndpointError, CreateEndpointInput, UpdateEndpointInput, EndpointStore } from "./endpoints.ts";
export type {
  DeliveryStatus,
  AttemptLogEntry,
  DeliveryLogEntry,
  EventLogEntry,
  DeliveryWithEvent,
  Page,
  PageInput,
} from "./log.ts";
export { DEFAULT_RETRY_DELAYS_MS, MAX_RETRY_AFTER_MS } from "./schedule.ts";
