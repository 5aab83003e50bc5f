import { lookup as dnsLookup } from "node:dns/promises";
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };
export type AddressCheck = { ok: true } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

// Never meaningful as a destination, even for local development.
const ALWAYS_REFUSED = new Set(["unspecified", "broadcast", "multicast"]);

/**
 * Whether an IP address may receive webhooks. Only globally routable unicast passes; IPv4-mapped
 * IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it carries. With `allowPrivate`, loopback,
 * private, link-local, CGNAT and unique-local targets pass too (development and tests).
 */
export function checkAddress(address: string, allowPrivate: boolean): AddressCheck {
  if (!ipaddr.isValid(address)) return { ok: false, reason: `not an IP address: ${address}` };
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (ALWAYS_REFUSED.has(range)) return { ok: false, reason: `${range} address ${ip.toString()} is not allowed` };
  // IPv4-compatible IPv6 (::/96, deprecated by RFC 4291): some stacks route ::127.0.0.1 to the IPv4
  // address it carries. :: and ::1 were judged above as unspecified and loopback.
  if (ip.kind() === "ipv6" && range !== "loopback" && (ip as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) {
    return { ok: false, reason: `IPv4-compatible address ${ip.toString()} is not allowed` };
  }
  if (range === "unicast" || allowPrivate) return { ok: true };
  return { ok: false, reason: `${range} address ${ip.toString()} is not allowed` };
}

function hostOf(url: URL): string {
  // WHATWG URL keeps IPv6 literals bracketed and already normalises decimal, octal and hex IPv4 forms.
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** Scheme, credentials and IP-literal checks only; no DNS. */
export function checkUrlSyntax(raw: string, allowPrivate: boolean): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `URL is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, reason: `scheme ${url.protocol.slice(0, -1)} is not allowed; use https or http` };
  }
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "credentials in the URL are not allowed" };
  const host = hostOf(url);
  if (host === "") return { ok: false, reason: "URL has no host" };
  if (net.isIP(host) !== 0) {
    const check = checkAddress(host, allowPrivate);
    if (!check.ok) return check;
  }
  return { ok: true, url };
}

/**
 * Validates a webhook URL: http(s) only, no credentials, and every address the host resolves to must
 * be public unicast (unless `allowPrivate`). Delivery checks the addresses again at connect time.
 */
export async function validateWebhookUrl(raw: string, opts: { allowPrivate: boolean }): Promise<UrlCheck> {
  const syntax = checkUrlSyntax(raw, opts.allowPrivate);
  if (!syntax.ok) return syntax;
  const host = hostOf(syntax.url);
  if (net.isIP(host) !== 0) return syntax;
  let addresses: { address: string }[];
  try {
    addresses = await dnsLookup(host, { all: true, verbatim: true });
  } catch {
    return { ok: false, reason: `host ${host} does not resolve` };
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} does not resolve` };
  for (const { address } of addresses) {
    const check = checkAddress(address, opts.allowPrivate);
    if (!check.ok) return { ok: false, reason: `host ${host} resolves to a refused address: ${check.reason}` };
  }
  return syntax;
}

/**
 * A `lookup` for http.request that resolves, refuses the whole connection if any resolved address is
 * refused, and hands the socket only checked addresses, so DNS rebinding between validation and
 * connect cannot redirect a delivery.
 */
export function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, verbatim: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      for (const { address } of addresses) {
        const check = checkAddress(address, allowPrivate);
        if (!check.ok) {
          const refused = Object.assign(new Error(`refused address for ${hostname}: ${check.reason}`), { code: "EWEBHOOKSSRF" });
          return callback(refused, "", 0);
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 0);
      callback(null, first.address, first.family);
    });
  };
}
