// Usage of one account over a chosen period, bucketed by hour or by calendar day in a time zone
// (the portal uses Europe/Zagreb), read from "UsageHour".
import type { Db } from "./db.ts";
import { assertDate, assertUuid } from "./validate.ts";

/** The free status call: it takes nothing from the daily quota, so the quota bar leaves it out. */
export const FREE_ENDPOINTS: readonly string[] = ["GET /v1/limits"];

export interface RangeTotals {
  requests: number;
  /** Refused by our rate limits (429). */
  refused: number;
  /** 2xx. */
  ok: number;
  /** Status ≥ 400 except 429. */
  errors: number;
  /** Requests the API answered itself: everything except the 429s. */
  handled: number;
  /** Mean response time over every request of the period, 429s included; null without requests. */
  avgMs: number | null;
  /** 2xx among the handled requests (429s left out: they are the client's limit, not a failure); null without any. */
  successRate: number | null;
}

export interface RangeBucket {
  /** Start of the bucket (an hour or a local midnight). */
  start: Date;
  requests: number;
  refused: number;
  ok: number;
  errors: number;
}

export interface RangeEndpoint {
  endpoint: string;
  requests: number;
  refused: number;
  errors: number;
  avgMs: number;
  successRate: number | null;
}

export interface RangeUsage {
  from: Date;
  to: Date;
  bucket: "hour" | "day";
  totals: RangeTotals;
  /** Every bucket of the period, zero-filled, oldest first. */
  series: RangeBucket[];
  endpoints: RangeEndpoint[];
}

const HOUR_MS = 3_600_000;

interface Agg {
  requests: bigint;
  refused: bigint;
  ok: bigint;
  errors: bigint;
  totalMs: number;
}

function totalsOf(rows: Agg[]): RangeTotals {
  let requests = 0, refused = 0, ok = 0, errors = 0, totalMs = 0;
  for (const r of rows) {
    requests += Number(r.requests);
    refused += Number(r.refused);
    ok += Number(r.ok);
    errors += Number(r.errors);
    totalMs += r.totalMs;
  }
  const handled = requests - refused;
  return {
    requests,
    refused,
    ok,
    errors,
    handled,
    avgMs: requests === 0 ? null : totalMs / requests,
    successRate: handled === 0 ? null : ok / handled,
  };
}

// Building an Intl.DateTimeFormat costs far more than formatting with one: one per zone, kept.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const clockFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(timeZone: string): Intl.DateTimeFormat {
  let f = dateFormats.get(timeZone);
  if (!f) dateFormats.set(timeZone, (f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })));
  return f;
}

function clockFormat(timeZone: string): Intl.DateTimeFormat {
  let f = clockFormats.get(timeZone);
  if (!f) clockFormats.set(timeZone, (f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric" })));
  return f;
}

/** Local calendar date (YYYY-MM-DD) of an instant in `timeZone`. */
export function localDate(at: Date, timeZone: string): string {
  return dateFormat(timeZone).format(at);
}

/** The instant of local midnight starting `date` (YYYY-MM-DD) in `timeZone`. */
export function localMidnight(date: string, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // The zone's offset at that moment, found by formatting; two passes settle a DST change.
  let t = guess;
  for (let i = 0; i < 2; i++) {
    const parts = clockFormat(timeZone).formatToParts(new Date(t));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const shown = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"));
    t = guess - (shown - t);
  }
  return new Date(t);
}

function nextLocalDate(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/**
 * Usage in [from, to): totals, a zero-filled series of hours (`bucket: "hour"`) or local days of
 * `timeZone`, and the endpoints. `from` is rounded down to its hour (what "UsageHour" can tell).
 */
export async function usageRange(
  db: Db,
  accountId: string,
  opts: { from: Date; to: Date; bucket: "hour" | "day"; timeZone: string },
): Promise<RangeUsage> {
  assertUuid("usageRange", "accountId", accountId);
  assertDate("usageRange", "from", opts.from);
  assertDate("usageRange", "to", opts.to);
  if (opts.to <= opts.from) throw new RangeError("usageRange: to must be after from");
  const { timeZone, bucket } = opts;
  const from = new Date(opts.from.getTime() - (opts.from.getTime() % HOUR_MS));
  const to = opts.to;
  const fromIso = from.toISOString();
  const toIso = to.toISOString();
  const [rows, endpoints] = await Promise.all([
    db.$queryRaw<(Agg & { hour: Date })[]>`
      SELECT "hour", sum(requests)::int8 AS requests, sum(refused)::int8 AS refused, sum(ok)::int8 AS ok,
             sum(errors)::int8 AS errors, sum("totalMs")::float8 AS "totalMs"
        FROM "UsageHour"
       WHERE "accountId" = ${accountId}::uuid AND "hour" >= ${fromIso}::timestamptz AND "hour" < ${toIso}::timestamptz
       GROUP BY "hour"`,
    db.$queryRaw<(Agg & { endpoint: string })[]>`
      SELECT endpoint, sum(requests)::int8 AS requests, sum(refused)::int8 AS refused, sum(ok)::int8 AS ok,
             sum(errors)::int8 AS errors, sum("totalMs")::float8 AS "totalMs"
        FROM "UsageHour"
       WHERE "accountId" = ${accountId}::uuid AND "hour" >= ${fromIso}::timestamptz AND "hour" < ${toIso}::timestamptz
       GROUP BY endpoint
       ORDER BY sum(requests) DESC, endpoint ASC`,
  ]);

  const series: RangeBucket[] = [];
  const index = new Map<number, RangeBucket>();
  const keyOf = (at: Date) => (bucket === "hour" ? at.getTime() : localMidnight(localDate(at, timeZone), timeZone).getTime());
  if (bucket === "hour") {
    for (let t = from.getTime(); t < to.getTime(); t += HOUR_MS) series.push({ start: new Date(t), requests: 0, refused: 0, ok: 0, errors: 0 });
  } else {
    const last = localDate(new Date(to.getTime() - 1), timeZone);
    for (let d = localDate(from, timeZone); d <= last; d = nextLocalDate(d)) {
      series.push({ start: localMidnight(d, timeZone), requests: 0, refused: 0, ok: 0, errors: 0 });
    }
  }
  for (const b of series) index.set(b.start.getTime(), b);
  for (const r of rows) {
    const b = index.get(keyOf(r.hour));
    if (!b) continue;
    b.requests += Number(r.requests);
    b.refused += Number(r.refused);
    b.ok += Number(r.ok);
    b.errors += Number(r.errors);
  }

  return {
    from,
    to,
    bucket,
    totals: totalsOf(rows),
    series,
    endpoints: endpoints.map((r) => {
      const t = totalsOf([r]);
      return { endpoint: r.endpoint, requests: t.requests, refused: t.refused, errors: t.errors, avgMs: t.avgMs ?? 0, successRate: t.successRate };
    }),
  };
}
