// Requests today and this month, the calendar month in Europe/Zagreb beside the month before, for
// the customer's dashboard and the operator's view of an account alike. Both read usageRange
// (@fiskal/usage range.ts), so both show one success rate: 2xx among the handled requests, the
// 429s left out (they are the client's own limit, not a failure of the API).
import type { Db } from "@fiskal/db";
import { localDate, localMidnight, usageRange, type RangeEndpoint, type RangeTotals } from "@fiskal/usage";
import { TIME_ZONE } from "~/lib/usage-view";

export interface MonthUsage {
  /** The local day so far. */
  today: RangeTotals;
  /** The calendar month so far. */
  month: RangeTotals;
  /** The whole calendar month before. */
  previous: RangeTotals;
  /** First day of this month and of the month before, YYYY-MM-DD in Europe/Zagreb. */
  monthStart: string;
  previousStart: string;
  /** Today's endpoints, most requests first. */
  todayEndpoints: RangeEndpoint[];
}

function firstOfMonth(day: string, monthsBack: number): string {
  const [y, m] = day.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 - monthsBack, 1)).toISOString().slice(0, 10);
}

export async function monthUsage(db: Db, accountId: string, now: Date = new Date()): Promise<MonthUsage> {
  const today = localDate(now, TIME_ZONE);
  const monthStart = firstOfMonth(today, 0);
  const previousStart = firstOfMonth(today, 1);
  const dayFrom = localMidnight(today, TIME_ZONE);
  const monthFrom = localMidnight(monthStart, TIME_ZONE);
  // "to" is exclusive and must lie after "from", also at the very instant of midnight.
  const to = new Date(Math.max(now.getTime(), dayFrom.getTime()) + 1);
  const opts = { bucket: "day" as const, timeZone: TIME_ZONE };
  const [day, month, previous] = await Promise.all([
    usageRange(db, accountId, { ...opts, from: dayFrom, to }),
    usageRange(db, accountId, { ...opts, from: monthFrom, to }),
    usageRange(db, accountId, { ...opts, from: localMidnight(previousStart, TIME_ZONE), to: monthFrom }),
  ]);
  return { today: day.totals, month: month.totals, previous: previous.totals, monthStart, previousStart, todayEndpoints: day.endpoints };
}
