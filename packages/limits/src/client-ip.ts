/**
 * The client address behind trusted proxies: the one rule both the API (per-IP limits of
 * unauthenticated requests) and the portal (sign-in limits) apply to X-Forwarded-For.
 */
import { isIP } from "node:net";

/**
 * The entry `trustedHops` places from the right of X-Forwarded-For: each trusted proxy appends the
 * address it saw, so that entry was written by the farthest trusted proxy; what the client wrote
 * further left proves nothing. With fewer entries than trusted hops the leftmost one counts (a proxy
 * nearer than the farthest one saw the client). Null when the header names no usable address: no
 * trusted proxies, no entry, or an entry that is not an IP address.
 */
export function forwardedClientIp(header: string | string[] | null | undefined, trustedHops: number): string | null {
  if (trustedHops <= 0 || !header) return null;
  const hops = (Array.isArray(header) ? header.join(",") : header)
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  if (hops.length === 0) return null;
  const candidate = hops[Math.max(0, hops.length - trustedHops)]!;
  return candidate.length <= 45 && isIP(candidate) ? candidate : null;
}
