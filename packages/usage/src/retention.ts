import type { Db } from "./db.ts";
import { assertDate } from "./validate.ts";

export interface PruneOptions {
  /** Events recorded before this instant are deleted. */
  before: Date;
  /** Rows per DELETE statement, each its own short transaction. Default 5,000. */
  batchSize?: number;
}

/**
 * Deletes the request-log events (UsageEvent) recorded before `before`, account by account through
 * the (accountId, createdAt) index, in batches. Totals and charts are untouched: they read UsageHour,
 * which keeps the hourly history. Safe to run from several instances at once: rows another
 * instance is deleting are skipped, not waited for. Returns how many events were deleted.
 */
export async function pruneUsageEvents(db: Db, opts: PruneOptions): Promise<number> {
  assertDate("pruneUsageEvents", "before", opts.before);
  const batchSize = opts.batchSize ?? 5_000;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new RangeError("pruneUsageEvents: batchSize must be a positive integer");
  }
  const before = opts.before.toISOString();
  const accounts = await db.$queryRaw<{ id: string }[]>`SELECT id FROM "Account" ORDER BY id`;
  let deleted = 0;
  for (const { id } of accounts) {
    for (;;) {
      const n = await db.$executeRaw`
        DELETE FROM "UsageEvent" e
         USING (SELECT id FROM "UsageEvent"
                 WHERE "accountId" = ${id}::uuid AND "createdAt" < ${before}::timestamptz
                 LIMIT ${batchSize}
                   FOR UPDATE SKIP LOCKED) doomed
         WHERE e.id = doomed.id`;
      deleted += n;
      if (n < batchSize) break;
    }
  }
  return deleted;
}
