// One error type for everything a call can end in other than success.

/** Codes the API sends in `{"error":{"code",…}}` (DESIGN §4). */
export type ApiErrorCode =
  | "validation_error"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "idempotency_conflict"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limit_exceeded"
  | "internal_error"
  | "upstream_unavailable"
  | "outcome_unknown";

/** Failures with no API answer: the network failed, the call timed out or was aborted, or the body was not the API's JSON. */
export type ClientErrorCode = "network_error" | "timeout" | "aborted" | "invalid_response";

export type FiskalErrorCode = ApiErrorCode | ClientErrorCode;

/** The API's error envelope. */
export interface ErrorEnvelope {
  error: { code: string; message: string; doc_url: string; details?: unknown };
}

export interface FiskalErrorInit {
  code: FiskalErrorCode;
  message: string;
  status?: number | null;
  docUrl?: string | null;
  details?: unknown;
  requestId?: string | null;
  retryAfter?: number | null;
  attempts?: number;
  idempotencyKey?: string | null;
  cause?: unknown;
}

export class FiskalError extends Error {
  override readonly name = "FiskalError";
  readonly code: FiskalErrorCode;
  /** HTTP status; null when no response arrived (network_error, timeout, aborted). */
  readonly status: number | null;
  readonly docUrl: string | null;
  /** e.g. the field problems of a validation_error. */
  readonly details: unknown;
  /** X-Request-Id of the failing response: quote it to support. */
  readonly requestId: string | null;
  /** Retry-After in seconds, when the response carried one. */
  readonly retryAfter: number | null;
  /** How many times the request was sent, retries included. */
  readonly attempts: number;
  /**
   * The Idempotency-Key the call used (fiscalize, sendEInvoice). After a network_error, timeout
   * or idempotency_conflict the outcome is unknown: retry with this key to get the original
   * result instead of a second fiscalization.
   */
  readonly idempotencyKey: string | null;

  constructor(init: FiskalErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status ?? null;
    this.docUrl = init.docUrl ?? null;
    this.details = init.details;
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.attempts = init.attempts ?? 1;
    this.idempotencyKey = init.idempotencyKey ?? null;
  }
}

export function isFiskalError(err: unknown): err is FiskalError {
  return err instanceof FiskalError;
}

export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== "object" || body === null) return false;
  const e = (body as { error?: unknown }).error;
  return typeof e === "object" && e !== null && typeof (e as { code?: unknown }).code === "string" && typeof (e as { message?: unknown }).message === "string";
}
