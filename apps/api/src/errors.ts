// One error type and one code→status map for both surfaces (REST envelope, tRPC error.data).
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";

export const ERROR_STATUS = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  internal_error: 500,
  upstream_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const TRPC_CODE: Record<ErrorCode, TRPC_ERROR_CODE_KEY> = {
  validation_error: "BAD_REQUEST",
  unauthorized: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  not_found: "NOT_FOUND",
  method_not_allowed: "METHOD_NOT_SUPPORTED",
  idempotency_conflict: "CONFLICT",
  conflict: "CONFLICT",
  payload_too_large: "PAYLOAD_TOO_LARGE",
  unsupported_media_type: "UNSUPPORTED_MEDIA_TYPE",
  rate_limit_exceeded: "TOO_MANY_REQUESTS",
  internal_error: "INTERNAL_SERVER_ERROR",
  upstream_unavailable: "SERVICE_UNAVAILABLE",
};

const FROM_TRPC: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  BAD_REQUEST: "validation_error",
  PARSE_ERROR: "validation_error",
  UNAUTHORIZED: "unauthorized",
  FORBIDDEN: "forbidden",
  NOT_FOUND: "not_found",
  METHOD_NOT_SUPPORTED: "method_not_allowed",
  CONFLICT: "conflict",
  PAYLOAD_TOO_LARGE: "payload_too_large",
  UNSUPPORTED_MEDIA_TYPE: "unsupported_media_type",
  TOO_MANY_REQUESTS: "rate_limit_exceeded",
  SERVICE_UNAVAILABLE: "upstream_unavailable",
};

export const INTERNAL_MESSAGE = "Interna pogreška. Pokušajte ponovno; ako se ponavlja, javite nam X-Request-Id.";

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; doc_url: string; details?: unknown };
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Extra response headers, e.g. Retry-After on upstream_unavailable. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
  toTRPC(): TRPCError {
    return new TRPCError({ code: TRPC_CODE[this.code], message: this.message, cause: this });
  }
}

export function docUrl(portalUrl: string, code: ErrorCode): string {
  return code === "rate_limit_exceeded" ? `${portalUrl}/docs/rate-limits` : `${portalUrl}/docs/errors#${code}`;
}

export function envelope(portalUrl: string, code: ErrorCode, message: string, details?: unknown): ErrorEnvelope {
  const error: ErrorEnvelope["error"] = { code, message, doc_url: docUrl(portalUrl, code) };
  if (details !== undefined) error.details = details;
  return { error };
}

interface ZodLikeIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
}

/** Maps any error thrown inside a procedure to the public code, message and details. */
export function describeError(err: TRPCError): { code: ErrorCode; message: string; details?: unknown } {
  const cause = err.cause;
  if (cause instanceof ApiError) return { code: cause.code, message: cause.message, details: cause.details };
  if (cause && (cause as Error).name === "ZodError") {
    const issues = (cause as unknown as { issues: ZodLikeIssue[] }).issues;
    return {
      code: "validation_error",
      message: "Neispravan zahtjev: provjerite označena polja.",
      details: issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
    };
  }
  const code = FROM_TRPC[err.code] ?? "internal_error";
  if (code === "internal_error") return { code, message: INTERNAL_MESSAGE };
  if (code === "not_found") return { code, message: err.message === "Not found" || /No procedure/.test(err.message) ? "Ne postoji takva ruta." : err.message };
  return { code, message: err.message };
}
