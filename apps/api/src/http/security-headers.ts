// Security headers on every API response, set before anything else is decided so that successes,
// errors, 429s and early refusals all carry them:
// - X-Content-Type-Options: nosniff — a JSON body is never sniffed into HTML or script;
// - Cache-Control: no-store — answers for an API key are not kept by browsers or shared caches.
//   Routes that cache on purpose replace it later: KPD lookups (private, max-age=3600 + ETag) and
//   the OpenAPI document (public, max-age=300);
// - Strict-Transport-Security when the API is served over https (its public URL is https, or the
//   `hsts` option forces it either way).
/** One year, subdomains included; no preload (that is a decision for the domain's owner). */
export const HSTS_VALUE = "max-age=31536000; includeSubDomains";

export interface SecurityHeaderOptions {
  /** The API's public base URL; an https URL turns Strict-Transport-Security on. */
  apiUrl?: () => string;
  /** Forces Strict-Transport-Security on (true) or off (false) regardless of the URL. */
  hsts?: boolean;
}

function hstsEnabled(opts: SecurityHeaderOptions): boolean {
  if (opts.hsts !== undefined) return opts.hsts;
  const url = opts.apiUrl?.();
  return url !== undefined && /^https:/i.test(url);
}

/** The headers as name/value pairs, for answers written straight to a socket. */
export function securityHeaders(opts: SecurityHeaderOptions): [string, string][] {
  const headers: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["Cache-Control", "no-store"],
  ];
  if (hstsEnabled(opts)) headers.push(["Strict-Transport-Security", HSTS_VALUE]);
  return headers;
}

/** Anything with setHeader: a ServerResponse, or whatever a handler writing to a socket collects headers in. */
export interface HeaderTarget {
  setHeader(name: string, value: string): unknown;
}

export function applySecurityHeaders(res: HeaderTarget, opts: SecurityHeaderOptions): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Cache-Control", "no-store");
  if (hstsEnabled(opts)) res.setHeader("Strict-Transport-Security", HSTS_VALUE);
}
