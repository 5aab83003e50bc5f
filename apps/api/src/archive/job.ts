// Sealing on a schedule, so that documents enter the archive when they become final, whether or not
// anyone exports them: each pass seals every account that has a final document not yet archived.
import type { Db } from "@fiskal/db";
import { periodicJob, type PeriodicJob } from "../periodic.ts";
import { sealAccount } from "./seal.ts";

/** Accounts with a receipt that has its JIR, or a delivered e-invoice, without archive entries yet. */
async function accountsToSeal(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<{ accountId: string }[]>`
    SELECT DISTINCT i."accountId" FROM "Invoice" i
    WHERE i.status = 'fiscalized' AND NOT EXISTS (SELECT 1 FROM "ArchiveEntry" a WHERE a."accountId" = i."accountId" AND a."documentId" = i.id)
    UNION
    SELECT DISTINCT e."accountId" FROM "EInvoice" e
    WHERE e.status IN ('accepted', 'queued')
      AND (SELECT count(*) FROM "ArchiveEntry" a WHERE a."accountId" = e."accountId" AND a."documentId" = e.id)
          < CASE WHEN e."fiscalizationStatus" IN ('recorded', 'refused') THEN 3 ELSE 2 END`;
  return rows.map((r) => r.accountId);
}

/** One pass: resolves to the archive entries added. */
export async function sealAll(db: Db, scope: { accountId?: string } = {}): Promise<number> {
  let added = 0;
  for (const accountId of scope.accountId ? [scope.accountId] : await accountsToSeal(db)) added += await sealAccount(db, accountId);
  return added;
}

export function createArchiveJob(opts: { db: Db; intervalMs?: number }): PeriodicJob {
  return periodicJob((scope) => sealAll(opts.db, scope), opts.intervalMs ?? 600_000);
}
