// One error type and one code→status map for both surfaces (REST envelope, tRPC error.data).
import { AsyncLocalStorage } from "node:async_hooks";
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
// Our own messages for zod's input issues (details of validation_error), set once for the process.
import "./zod-messages.ts";

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
  malformed_request: 400,
  request_timeout: 408,
  headers_too_large: 431,
  expectation_failed: 417,
  service_unavailable: 503,
  outcome_unknown: 504,
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
  malformed_request: "BAD_REQUEST",
  request_timeout: "TIMEOUT",
  // tRPC has no 431; the code only answers requests the HTTP parser rejected, before any procedure.
  headers_too_large: "BAD_REQUEST",
  // Nor a 417: answered before any procedure, for an Expect other than 100-continue.
  expectation_failed: "BAD_REQUEST",
  service_unavailable: "SERVICE_UNAVAILABLE",
  outcome_unknown: "GATEWAY_TIMEOUT",
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

/** Our own dependency (the database) does not answer: nothing was done, the same request may be retried. */
export const SERVICE_UNAVAILABLE_MESSAGE =
  "Usluga je privremeno nedostupna: baza podataka ne odgovara pa zahtjev nije obrađen. Ponovite ga nakon Retry-After sekundi.";
/** Whole seconds a client is asked to wait before retrying after service_unavailable. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_S = 5;

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
  /** The tRPC code of this error's status on /trpc. */
  get trpcCode(): TRPC_ERROR_CODE_KEY {
    return TRPC_CODE[this.code];
  }
  /** Procedures throw the ApiError itself: the base procedure converts it (trpc.ts, `apiKeyProcedure`). */
  toTRPC(): TRPCError {
    return new TRPCError({ code: TRPC_CODE[this.code], message: this.message, cause: this });
  }
}

/**
 * The portal of the API handling the current request, for errors raised before the request has a
 * context (tRPC refuses a content type or a batch before it creates one, and formats the error
 * without it). Scoped to the request, not the process: several APIs in one process (tests) each
 * name their own portal.
 */
const requestPortal = new AsyncLocalStorage<string>();
export function withPortalUrl<T>(portalUrl: string, handle: () => T): T {
  return requestPortal.run(portalUrl, handle);
}

export function docUrl(portalUrl: string, code: ErrorCode): string {
  const base = portalUrl || (requestPortal.getStore() ?? "");
  // A 429 lands on its own section of the rate-limit page; every other code on its row of /docs/errors.
  return code === "rate_limit_exceeded" ? `${base}/docs/rate-limits#odgovor-429` : `${base}/docs/errors#${code}`;
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
  /** The unknown fields of an "unrecognized_keys" issue. */
  keys?: string[];
}

/** Prisma's codes for a database that cannot be reached, closed the connection or timed out the pool. */
const PRISMA_UNREACHABLE = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
/** PostgreSQL SQLSTATEs of a server going away or refusing connections (class 08, admin shutdown 57P0x). */
const PG_UNREACHABLE = /^(08...|57P0[1-3])$/;
const UNREACHABLE_MESSAGE =
  /ECONNREFUSED|ECONNRESET|Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database|not currently accepting connections|does not allow connections|database system is (?:shutting down|starting up)/i;

/**
 * Whether an error, or one of its causes, says the database could not be reached: then nothing was
 * done and the request may be retried (503), which a client can act on, unlike a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 6 && e && typeof e === "object"; depth++) {
    const x = e as { code?: unknown; originalCode?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof x.code === "string" && (PRISMA_UNREACHABLE.has(x.code) || PG_UNREACHABLE.test(x.code))) return true;
    if (typeof x.originalCode === "string" && PG_UNREACHABLE.test(x.originalCode)) return true;
    if (x.kind === "DatabaseNotReachable" || x.kind === "ConnectionClosed" || x.kind === "SocketTimeout") return true;
    if (typeof x.message === "string" && UNREACHABLE_MESSAGE.test(x.message)) return true;
    e = x.meta?.driverAdapterError ?? x.cause;
  }
  return false;
}

/** Maps any error thrown inside a procedure to the public code, message and details. */
export function describeError(err: TRPCError): { code: ErrorCode; message: string; details?: unknown } {
  const cause = err.cause;
  if (cause instanceof ApiError) return { code: cause.code, message: cause.message, details: cause.details };
  if (cause && isDatabaseUnavailable(cause)) return { code: "service_unavailable", message: SERVICE_UNAVAILABLE_MESSAGE };
  // Input the schema refused (BAD_REQUEST); a ZodError of an output schema is the server's fault.
  if (cause && cause.name === "ZodError" && err.code === "BAD_REQUEST") {
    const issues = (cause as Error & { issues: ZodLikeIssue[] }).issues;
    return {
      code: "validation_error",
      message: "Neispravan zahtjev: provjerite označena polja.",
      // An unknown field is reported at its own path (one entry per field), not at its parent's.
      details: issues.flatMap((i) =>
        i.code === "unrecognized_keys" && Array.isArray(i.keys)
          ? i.keys.map((k) => ({ path: [...i.path, k].map(String).join("."), message: i.message }))
          : [{ path: i.path.map(String).join("."), message: i.message }],
      ),
    };
  }
  const code = FROM_TRPC[err.code] ?? "internal_error";
  if (code === "internal_error") return { code, message: INTERNAL_MESSAGE };
  if (code === "not_found") return { code, message: err.message === "Not found" || /No procedure/.test(err.message) ? "Ne postoji takva ruta." : err.message };
  return { code, message: err.message };
}
