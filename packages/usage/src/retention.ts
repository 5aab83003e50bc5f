// The request log's daily partitions: created ahead of the days that will need them, and dropped
// whole once every event in them is older than the retention period. Expiry never deletes rows.
import type { Db } from "./db.ts";
import { assertDate } from "./validate.ts";

export interface RequestLogMaintenance {
  /** Days the log keeps each event, at least (1 to 3650). */
  retentionDays: number;
  /** Default: the current time. */
  now?: Date;
  /** Partitions made ahead of today, besides today's (default 2). */
  daysAhead?: number;
  /** How long dropping a partition may wait for its lock (portal reads, flushes) before it is left for the next run. Default 5,000 ms. */
  lockTimeoutMs?: number;
}

export interface RequestLogMaintenanceResult {
  /** Partitions created by this run (UTC days, YYYY-MM-DD). */
  created: string[];
  /** Partitions dropped by this run (UTC days, YYYY-MM-DD). */
  dropped: string[];
}

const DAY_MS = 86_400_000;
const PARTITION = /^UsageEvent_p(\d{4})(\d{2})(\d{2})$/;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The UTC days (YYYY-MM-DD) that have a request-log partition, oldest first. */
export async function requestLogDays(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<{ name: string }[]>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = '"UsageEvent"'::regclass`;
  const days: string[] = [];
  for (const { name } of rows) {
    const m = PARTITION.exec(name);
    if (m) days.push(`${m[1]}-${m[2]}-${m[3]}`);
  }
  return days.sort();
}

/**
 * Creates the partitions of today and the next `daysAhead` UTC days, so that inserts do not wait
 * for one, and drops the partitions of the days that ended at least `retentionDays` days before
 * the start of today (UTC): every event is kept for at least `retentionDays` days and at most one
 * more. Each drop is a short transaction of its own; one that cannot get its lock in time is left
 * for the next run. Safe to run from several instances at once.
 */
export async function maintainRequestLog(db: Db, opts: RequestLogMaintenance): Promise<RequestLogMaintenanceResult> {
  const now = opts.now ?? new Date();
  assertDate("maintainRequestLog", "now", now);
  const { retentionDays, daysAhead = 2, lockTimeoutMs = 5_000 } = opts;
  if (!Number.isInteger(retentionDays) || retentionDays < 1 || retentionDays > 3650) {
    throw new RangeError("maintainRequestLog: retentionDays must be an integer from 1 to 3650");
  }
  if (!Number.isInteger(daysAhead) || daysAhead < 0 || daysAhead > 31) {
    throw new RangeError("maintainRequestLog: daysAhead must be an integer from 0 to 31");
  }
  if (!Number.isInteger(lockTimeoutMs) || lockTimeoutMs < 1) {
    throw new RangeError("maintainRequestLog: lockTimeoutMs must be a positive integer");
  }
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const before = new Set(await requestLogDays(db));

  const ahead: string[] = [];
  for (let i = 0; i <= daysAhead; i++) ahead.push(isoDay(today + i * DAY_MS));
  await db.$queryRaw`SELECT "usage_event_partition"(d) FROM unnest(${ahead}::date[]) AS d`;
  const created = ahead.filter((d) => !before.has(d));

  // Days before this one have ended at least retentionDays days before today began.
  const keepFrom = isoDay(today - retentionDays * DAY_MS);
  const dropped: string[] = [];
  for (const day of before) {
    if (day >= keepFrom) continue;
    const name = `UsageEvent_p${day.replace(/-/g, "")}`;
    try {
      await db.$transaction([
        db.$executeRawUnsafe(`SET LOCAL lock_timeout = ${lockTimeoutMs}`),
        db.$executeRawUnsafe(`DROP TABLE IF EXISTS "${name}"`),
      ]);
      dropped.push(day);
    } catch (err) {
      // 55P03 lock_not_available: busy now, dropped by a later run.
      if (!/lock timeout|55P03/i.test(String((err as { message?: string }).message ?? err))) throw err;
    }
  }
  return { created, dropped: dropped.sort() };
}
