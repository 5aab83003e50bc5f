// Error logging of the portal's server code: one JSON line with a request id (the proxy's
// X-Request-Id when one came in, else a new one) and the error object itself, never a bare message.
import { randomUUID } from "node:crypto";

export function requestIdOf(headers: Headers | Record<string, unknown> | undefined): string {
  const raw = headers instanceof Headers ? headers.get("x-request-id") : (headers?.["x-request-id"] as string | undefined);
  return typeof raw === "string" && /^[\w.-]{1,100}$/.test(raw) ? raw : `web_${randomUUID()}`;
}

export function logError(what: string, err: unknown, requestId: string): void {
  console.error(JSON.stringify({ level: "error", msg: what, requestId, time: new Date().toISOString() }), err);
}

/** One JSON line for an expected, harmless event (no error object, no stack). Never pass secrets in `fields`. */
export function logWarning(what: string, fields: Record<string, string | number | boolean | null>): void {
  console.warn(JSON.stringify({ level: "warn", msg: what, ...fields, time: new Date().toISOString() }));
}
