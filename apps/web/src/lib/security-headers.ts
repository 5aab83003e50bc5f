// The portal's security headers. Two sets:
// - STATIC_SECURITY_HEADERS: the same on every answer, pages and static files alike (next.config.ts
//   sends them for every path);
// - per request (src/proxy.ts): the Content Security Policy with a fresh nonce, and
//   Strict-Transport-Security when the portal's public URL is https.
// No imports: next.config.ts loads this file too.

/** Answers are never sniffed, framed, given a full referrer or granted powerful features. */
export const STATIC_SECURITY_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  // frame-ancestors 'none' in the CSP says the same to current browsers; this is for older ones.
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // Nothing in the portal uses these. The clipboard (the copy buttons) stays allowed.
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()" },
];

/** One year, subdomains included; no preload (that is a decision for the domain's owner). */
export const HSTS_VALUE = "max-age=31536000; includeSubDomains";

export function isHttps(url: string): boolean {
  return /^https:/i.test(url);
}

/** 128 random bits, base64: unguessable and new for every response. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export interface CspOptions {
  nonce: string;
  /** `next dev`: React rebuilds server error stacks with eval, and styles are injected without a nonce. */
  development: boolean;
  /** Served over https: subresources that still say http:// are upgraded. */
  https: boolean;
}

/**
 * The policy: only scripts carrying this response's nonce run (Next.js puts it on its own scripts
 * and inline payloads), and what they load ('strict-dynamic'); nothing may frame the portal;
 * everything else comes from the portal's own origin. Inline style attributes stay allowed
 * (style-src-attr): the pages use them for sizes and they cannot run code.
 */
export function contentSecurityPolicy({ nonce, development, https }: CspOptions): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    development ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}
