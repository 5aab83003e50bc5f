import type { Db } from "./db.ts";
import { assertDate } from "./validate.ts";

export interface PruneOptions {
  /** Events recorded before this instant are deleted. */
  before: Date;
  /**
   * The `before` of the previous complete run, if any: then only accounts with usage recorded since
   * then (found in UsageHour) can have events left to delete, and only those are visited. Without
   * it every account is visited.
   */
  since?: Date;
  /** Rows per DELETE statement, each its own short transaction. Default 5,000. */
  batchSize?: number;
  /** Checked between statements; an aborted run stops early and reports itself incomplete. */
  signal?: AbortSignal;
}

export interface PruneResult {
  deleted: number;
  /** False when the signal stopped the run before every account was visited. */
  complete: boolean;
}

const ACCOUNT_PAGE = 1_000;

/**
 * Deletes the request-log events (UsageEvent) recorded before `before`, account by account through
 * the (accountId, createdAt) index, in batches. Totals and charts are untouched: they read UsageHour,
 * which keeps the hourly history. Safe to run from several instances at once: rows another
 * instance is deleting are skipped, not waited for.
 */
export async function pruneUsageEvents(db: Db, opts: PruneOptions): Promise<PruneResult> {
  assertDate("pruneUsageEvents", "before", opts.before);
  if (opts.since !== undefined) assertDate("pruneUsageEvents", "since", opts.since);
  const batchSize = opts.batchSize ?? 5_000;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new RangeError("pruneUsageEvents: batchSize must be a positive integer");
  }
  const before = opts.before.toISOString();
  const since = opts.since?.toISOString();
  let deleted = 0;
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    if (opts.signal?.aborted) return { deleted, complete: false };
    // Keyset pages of account ids, so that a large number of accounts never sits in memory at once.
    const page =
      since === undefined
        ? await db.$queryRaw<{ id: string }[]>`
            SELECT id FROM "Account" WHERE id > ${after}::uuid ORDER BY id LIMIT ${ACCOUNT_PAGE}`
        : await db.$queryRaw<{ id: string }[]>`
            SELECT DISTINCT "accountId" AS id FROM "UsageHour"
             WHERE "hour" >= date_trunc('hour', ${since}::timestamptz, 'UTC') AND "hour" < ${before}::timestamptz
               AND "accountId" > ${after}::uuid
             ORDER BY 1 LIMIT ${ACCOUNT_PAGE}`;
    for (const { id } of page) {
      for (;;) {
        if (opts.signal?.aborted) return { deleted, complete: false };
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
    if (page.length < ACCOUNT_PAGE) return { deleted, complete: true };
    after = page[page.length - 1]!.id;
  }
}
