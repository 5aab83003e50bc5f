// The dashboard's view as it lives in the URL: the period (24 h, 7 d, 30 d or custom dates in
// Europe/Zagreb) and the request-log filters. Parsed the same way by the page, the tRPC router and
// the CSV export, so a shared link shows and exports exactly the same rows.
import { ZAGREB_TIME_ZONE } from "@fiskal/fiscal/zagreb";
import { localDate, localMidnight, STATUS_CLASSES, type RequestFilter, type StatusClass } from "@fiskal/usage";
import { normalizeDay, validDay } from "./days";

export const TIME_ZONE = ZAGREB_TIME_ZONE;
export const RANGES = ["24h", "7d", "30d", "custom"] as const;
export type RangeKey = (typeof RANGES)[number];
export const RANGE_LABELS: Record<RangeKey, string> = { "24h": "24 sata", "7d": "7 dana", "30d": "30 dana", custom: "Odabrano razdoblje" };
export const STATUS_LABELS: Record<StatusClass, string> = {
  "2xx": "2xx uspješni",
  "3xx": "3xx preusmjereni / nepromijenjeni",
  "4xx": "4xx greške klijenta (bez 429)",
  "429": "429 odbijeni zbog ograničenja",
  "5xx": "5xx greške poslužitelja",
};
/** Longest custom period, in days. */
export const MAX_CUSTOM_DAYS = 92;

const HOUR_MS = 3_600_000;
/** Longest endpoint accepted in the filter (a route template). */
const MAX_ENDPOINT = 200;
/** A request id as the API sends it in X-Request-Id: printable ASCII without spaces. */
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ViewParams {
  range?: string;
  from?: string;
  to?: string;
  status?: string;
  endpoint?: string;
  key?: string;
  /** A request id (X-Request-Id) to look up, whatever the period and filters. */
  request?: string;
}

export interface UsageView {
  range: RangeKey;
  /** Custom period: first and last local day (inclusive), as entered. */
  fromDay: string | null;
  toDay: string | null;
  from: Date;
  to: Date;
  bucket: "hour" | "day";
  status: StatusClass | null;
  endpoint: string | null;
  key: string | null;
  request: string | null;
  /** Croatian sentences for parameters that were ignored, each saying what is shown instead. */
  problems: string[];
  /** The same problems without what is shown instead (for answers that show nothing, the export). */
  reasons: string[];
}

function addDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** First value of a search parameter (Next gives arrays for repeated keys). */
export function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function paramsFrom(search: Record<string, string | string[] | undefined> | URLSearchParams): ViewParams {
  const get = (k: string) => (search instanceof URLSearchParams ? (search.get(k) ?? undefined) : first(search[k]));
  return { range: get("range"), from: normalizeDay(get("from")), to: normalizeDay(get("to")), status: get("status"), endpoint: get("endpoint"), key: get("key"), request: get("request")?.trim() || undefined };
}

/** The view for these parameters; anything invalid falls back to the default and is named in `problems`. */
export function parseView(p: ViewParams, now: Date = new Date()): UsageView {
  const problems: string[] = [];
  const reasons: string[] = [];
  const problem = (reason: string, instead: string) => {
    reasons.push(`${reason}.`);
    problems.push(`${reason}; ${instead}.`);
  };
  const LAST_DAY = "prikazana su zadnja 24 sata";
  let range: RangeKey = RANGES.includes(p.range as RangeKey) ? (p.range as RangeKey) : "24h";
  if (p.range && !RANGES.includes(p.range as RangeKey)) problem("Nepoznato razdoblje", LAST_DAY);
  if (range !== "custom" && ((p.from !== undefined && !validDay(p.from)) || (p.to !== undefined && !validDay(p.to)))) {
    problem("Neispravan datum u adresi (očekuje se oblik GGGG-MM-DD)", "datumi su zanemareni");
  }
  const today = localDate(now, TIME_ZONE);
  let fromDay: string | null = null;
  let toDay: string | null = null;
  let from: Date;
  let to = now;
  if (range === "custom") {
    if (!validDay(p.from) || !validDay(p.to)) {
      problem("Za odabrano razdoblje unesite ispravne datume od i do", LAST_DAY);
      range = "24h";
    } else if (p.from > p.to) {
      problem("Datum „od” je nakon datuma „do”", LAST_DAY);
      range = "24h";
    } else if (p.from > today) {
      problem("Razdoblje počinje u budućnosti", LAST_DAY);
      range = "24h";
    } else if (addDays(p.from, MAX_CUSTOM_DAYS - 1) < p.to) {
      problem(`Razdoblje može imati najviše ${MAX_CUSTOM_DAYS} dana`, LAST_DAY);
      range = "24h";
    } else {
      fromDay = p.from;
      toDay = p.to > today ? today : p.to;
    }
  }
  if (range === "custom" && fromDay && toDay) {
    from = localMidnight(fromDay, TIME_ZONE);
    const end = localMidnight(addDays(toDay, 1), TIME_ZONE);
    to = end < now ? end : now;
  } else if (range === "24h") {
    from = new Date(now.getTime() - (now.getTime() % HOUR_MS) - 23 * HOUR_MS);
  } else {
    from = localMidnight(addDays(today, range === "7d" ? -6 : -29), TIME_ZONE);
  }
  const bucket = to.getTime() - from.getTime() <= 2 * 86_400_000 ? "hour" : "day";

  const status = STATUS_CLASSES.includes(p.status as StatusClass) ? (p.status as StatusClass) : null;
  if (p.status && !status) problem("Nepoznata klasa statusa", "filtar statusa je zanemaren");
  const endpoint = p.endpoint && p.endpoint.length <= MAX_ENDPOINT ? p.endpoint : null;
  if (p.endpoint && !endpoint) problem("Predugačak endpoint u filtru", "filtar endpointa je zanemaren");
  const key = p.key && UUID.test(p.key) ? p.key.toLowerCase() : null;
  if (p.key && !key) problem("Neispravan ključ u filtru", "filtar ključa je zanemaren");
  const request = p.request && REQUEST_ID.test(p.request) ? p.request : null;
  if (p.request && !request) problem("Neispravan ID zahtjeva", "pretraga je zanemarena");
  return { range, fromDay, toDay, from, to, bucket, status, endpoint, key, request, problems, reasons };
}

/** The request-log filter of a view. */
export function logFilter(v: UsageView): RequestFilter {
  return {
    from: v.from,
    to: v.to,
    ...(v.status ? { status: v.status } : {}),
    ...(v.endpoint ? { endpoint: v.endpoint } : {}),
    ...(v.key ? { apiKeyId: v.key } : {}),
  };
}

/** The URL query of a view (only what differs from the defaults), with `changes` applied. */
export function viewQuery(v: UsageView, changes: Partial<ViewParams> = {}): string {
  const p: ViewParams = {
    range: v.range,
    from: v.fromDay ?? undefined,
    to: v.toDay ?? undefined,
    status: v.status ?? undefined,
    endpoint: v.endpoint ?? undefined,
    key: v.key ?? undefined,
    request: v.request ?? undefined,
    ...changes,
  };
  const q = new URLSearchParams();
  if (p.range && p.range !== "24h") q.set("range", p.range);
  if (p.range === "custom") {
    if (p.from) q.set("from", p.from);
    if (p.to) q.set("to", p.to);
  }
  for (const k of ["status", "endpoint", "key", "request"] as const) if (p[k]) q.set(k, p[k]);
  const s = q.toString();
  return s ? `?${s}` : "";
}
