// Client IP for sign-in and sign-up limits. The app router exposes no socket address, so the IP is
// read from X-Forwarded-For, counting `trustedHops` entries from the right: each trusted proxy
// appends the address it saw, and `next start` itself fills the header with the socket address
// when it is absent. Entries further left were written by the client and prove nothing.
import { forwardedClientIp } from "@fiskal/limits";

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function read(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const v = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(v) ? v.join(",") : v;
}

export function clientIp(headers: HeaderSource | undefined, trustedHops = 1): string {
  if (!headers) return "unknown";
  // The rule (which entry counts, and that it must be an IP address) is shared with the API.
  return forwardedClientIp(read(headers, "x-forwarded-for"), Math.max(1, trustedHops)) ?? "unknown";
}
