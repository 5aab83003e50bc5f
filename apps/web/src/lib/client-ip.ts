// Client IP for login limits: the first X-Forwarded-For hop set by the proxy in front of the portal.
type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function read(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const v = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(v) ? v[0] : v;
}

export function clientIp(headers: HeaderSource | undefined): string {
  if (!headers) return "unknown";
  const forwarded = read(headers, "x-forwarded-for");
  const first = forwarded?.split(",")[0]?.trim();
  if (first) return first;
  return read(headers, "x-real-ip")?.trim() || "unknown";
}
