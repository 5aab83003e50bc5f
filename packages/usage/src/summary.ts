import type { Db } from "./db.ts";
import { FREE_ENDPOINTS } from "./range.ts";
import { assertDate, assertUuid } from "./validate.ts";

export interface PeriodTotals {
  requests: number;
  refused: number;
  /** Mean duration over all requests of the period; null when there were none. */
  avgMs: number | null;
  /** Share of 2xx among all requests (refused ones included), 0..1; null when there were none. */
  successRate: number | null;
}

export interface DailyUsage {
  /** YYYY-MM-DD, UTC. */
  date: string;
  requests: number;
  refused: number;
  /** Status >= 400 except 429. */
  errors: number;
}

export interface HourlyUsage {
  /** 0..23, UTC. */
  hour: number;
  requests: number;
  refused: number;
}

export interface EndpointUsage {
  endpoint: string;
  requests: number;
  refused: number;
  avgMs: number;
  successRate: number;
}

export interface UsageSummary {
  today: PeriodTotals;
  month: PeriodTotals;
  /** Exactly 30 entries, oldest first, ending today, zero-filled. */
  daily: DailyUsage[];
  /** Exactly 24 entries for today. */
  hourly: HourlyUsage[];
  /** This month, most requests first. */
  endpoints: EndpointUsage[];
}

const DAY_MS = 86_400_000;
const DAYS = 30;

/** Start of the UTC day containing `now`. */
function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

function utcMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

interface DayRow {
  day: string;
  requests: bigint;
  refused: bigint;
  errors: bigint;
  ok: bigint;
  totalMs: number;
}

interface HourRow {
  hour: number;
  requests: bigint;
  refused: bigint;
}

interface EndpointRow {
  endpoint: string;
  requests: bigint;
  refused: bigint;
  avgMs: number;
  ok: bigint;
}

function totals(rows: DayRow[]): PeriodTotals {
  let requests = 0;
  let refused = 0;
  let ok = 0;
  let totalMs = 0;
  for (const r of rows) {
    requests += Number(r.requests);
    refused += Number(r.refused);
    ok += Number(r.ok);
    totalMs += r.totalMs;
  }
  return {
    requests,
    refused,
    avgMs: requests === 0 ? null : totalMs / requests,
    successRate: requests === 0 ? null : ok / requests,
  };
}

/**
 * The portal's usage view of one account. "today" and "month" are the UTC calendar day and
 * month containing `now`; events stamped after the end of today are ignored.
 */
export async function usageSummary(db: Db, accountId: string, now: Date = new Date()): Promise<UsageSummary> {
  assertUuid("usageSummary", "accountId", accountId);
  assertDate("usageSummary", "now", now);
  const today = utcDayStart(now);
  const tomorrow = new Date(today.getTime() + DAY_MS);
  const monthStart = utcMonthStart(now);
  const windowStart = new Date(today.getTime() - (DAYS - 1) * DAY_MS);
  // One scan serves the 30-day chart and both totals; it reaches back to the 1st of the month
  // when that is earlier than the chart's first day (the 31st of a month).
  const scanStart = monthStart < windowStart ? monthStart : windowStart;
  // Instants go in as ISO strings cast to timestamptz: a bound Date is sent without its offset
  // and would be read in the session's time zone, which need not be UTC.

  // Read from UsageHour, which the meter keeps per account, endpoint and UTC hour (written with the
  // request log, in the same transaction): a few hundred rows for a month, whatever the volume.
  const [days, hours, endpoints] = await Promise.all([
    db.$queryRaw<DayRow[]>`
      SELECT to_char("hour" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
             sum(requests)::int8 AS requests,
             sum(refused)::int8 AS refused,
             sum(errors)::int8 AS errors,
             sum(ok)::int8 AS ok,
             sum("totalMs")::float8 AS "totalMs"
        FROM "UsageHour"
       WHERE "accountId" = ${accountId}::uuid
         AND "hour" >= ${scanStart.toISOString()}::timestamptz AND "hour" < ${tomorrow.toISOString()}::timestamptz
       GROUP BY 1`,
    db.$queryRaw<HourRow[]>`
      SELECT extract(hour FROM "hour" AT TIME ZONE 'UTC')::int AS hour,
             sum(requests)::int8 AS requests,
             sum(refused)::int8 AS refused
        FROM "UsageHour"
       WHERE "accountId" = ${accountId}::uuid
         AND "hour" >= ${today.toISOString()}::timestamptz AND "hour" < ${tomorrow.toISOString()}::timestamptz
       GROUP BY 1`,
    db.$queryRaw<EndpointRow[]>`
      SELECT endpoint,
             sum(requests)::int8 AS requests,
             sum(refused)::int8 AS refused,
             (sum("totalMs") / sum(requests))::float8 AS "avgMs",
             sum(ok)::int8 AS ok
        FROM "UsageHour"
       WHERE "accountId" = ${accountId}::uuid
         AND "hour" >= ${monthStart.toISOString()}::timestamptz AND "hour" < ${tomorrow.toISOString()}::timestamptz
       GROUP BY endpoint
       ORDER BY sum(requests) DESC, endpoint ASC`,
  ]);

  const byDay = new Map(days.map((r) => [r.day, r]));
  const todayKey = isoDate(today);
  const monthKey = isoDate(monthStart);

  const daily: DailyUsage[] = [];
  for (let i = DAYS - 1; i >= 0; i--) {
    const date = isoDate(new Date(today.getTime() - i * DAY_MS));
    const r = byDay.get(date);
    daily.push({
      date,
      requests: r ? Number(r.requests) : 0,
      refused: r ? Number(r.refused) : 0,
      errors: r ? Number(r.errors) : 0,
    });
  }

  const byHour = new Map(hours.map((r) => [r.hour, r]));
  const hourly: HourlyUsage[] = [];
  for (let hour = 0; hour < 24; hour++) {
    const r = byHour.get(hour);
    hourly.push({ hour, requests: r ? Number(r.requests) : 0, refused: r ? Number(r.refused) : 0 });
  }

  return {
    today: totals(days.filter((r) => r.day === todayKey)),
    month: totals(days.filter((r) => r.day >= monthKey)),
    daily,
    hourly,
    endpoints: endpoints.map((r) => {
      const requests = Number(r.requests);
      return {
        endpoint: r.endpoint,
        requests,
        refused: Number(r.refused),
        avgMs: r.avgMs,
        successRate: Number(r.ok) / requests,
      };
    }),
  };
}

/**
 * What the API's day window has counted for the UTC day containing `now`, as far as it is flushed:
 * admitted (non-refused) requests, without the free status calls (FREE_ENDPOINTS), which take
 * nothing from the daily quota.
 */
export async function requestsToday(db: Db, accountId: string, now: Date = new Date()): Promise<number> {
  assertUuid("requestsToday", "accountId", accountId);
  assertDate("requestsToday", "now", now);
  const today = utcDayStart(now);
  const tomorrow = new Date(today.getTime() + DAY_MS);
  const [row] = await db.$queryRaw<{ n: bigint | null }[]>`
    SELECT sum(requests - refused)::int8 AS n FROM "UsageHour"
     WHERE "accountId" = ${accountId}::uuid
       AND "hour" >= ${today.toISOString()}::timestamptz AND "hour" < ${tomorrow.toISOString()}::timestamptz
       AND endpoint <> ALL(${[...FREE_ENDPOINTS]}::text[])`;
  return Number(row?.n ?? 0);
}
