// `pnpm fiskal receipts …`: the late-delivery backlog, and resolving stuck receipts by hand.
// The API's own job (resubmit.ts) does the same every few seconds in every instance; the operator
// uses this to see what is waiting and how close each receipt is to its legal deadline, and to
// deliver at once (e.g. after an outage, or when no API instance runs the job).
import path from "node:path";
import pino from "pino";
import type { Db } from "@fiskal/db";
import { loadEnv } from "./env.ts";
import { createAnswerJournal, createReconciler, createSharedJournal, databaseIdentity } from "./records/journal.ts";
import { defaultCertificateKeyring } from "./procedures/certificates/keyring.ts";
import { createLateDelivery, lateDeliveryBacklog, type BacklogEntry } from "./records/resubmit.ts";
import { callLeaseMs, cisOptionsFromEnv, createTaxAuthority } from "./tax-authority.ts";

export const RECEIPTS_USAGE = `  pnpm fiskal receipts backlog [--account ID]
  pnpm fiskal receipts resolve [--account ID] [--id RECEIPT_ID [--force]]

receipts backlog lists every receipt without a JIR: in flight, scheduled or due, its attempts, last
error and legal deadline (2 working days). receipts resolve stores journaled answers, then delivers
the due receipts now (NakDost); --id one receipt; --force also while its call's lease runs (it may
then reach CIS twice, always with NakDost the second time).`;

interface ReceiptsCommandContext {
  db: Db;
  print(human: string, data: unknown): void;
  account: string | undefined;
  id: string | undefined;
  force: boolean;
  fail(message: string): Error;
}

function describe(entries: BacklogEntry[]): string {
  if (!entries.length) return "No receipts waiting for a JIR.";
  return entries
    .map(
      (e) =>
        `${e.id}  ${e.receipt.padEnd(16)} ${e.state.padEnd(9)} attempts ${String(e.attempts).padEnd(3)} next ${e.nextAttemptAt ?? "-"}  deadline ${e.deadline}${e.pastDeadline ? " PAST DEADLINE" : ""}${e.lastError ? `  (${e.lastError})` : ""}`,
    )
    .join("\n");
}

export async function receiptsCommand(verb: string | undefined, c: ReceiptsCommandContext): Promise<number> {
  switch (verb) {
    case "backlog": {
      const entries = await lateDeliveryBacklog(c.db, { accountId: c.account });
      c.print(describe(entries), entries);
      return entries.some((e) => e.pastDeadline) ? 1 : 0;
    }
    case "resolve": {
      if (c.force && !c.id) throw c.fail("--force needs --id (one receipt at a time)");
      const env = loadEnv();
      const log = pino({ level: env.LOG_LEVEL }, pino.destination(2));
      const database = await databaseIdentity(c.db);
      const shared = createSharedJournal({ store: env.store, prefix: env.RATE_LIMIT_PREFIX, database, log });
      const journal = createAnswerJournal({ dir: path.join(env.FISKAL_DATA_DIR, "journal"), database, log, shared });
      try {
        const cis = cisOptionsFromEnv(env);
        const reconciled = await createReconciler({ db: c.db, journal, log }).runOnce();
        const job = createLateDelivery({
          db: c.db,
          taxAuthority: createTaxAuthority(cis, log),
          certificateKeys: defaultCertificateKeyring(log),
          journal,
          webhooks: null,
          log,
          leaseMs: callLeaseMs(cis),
        });
        let delivered = 0;
        if (c.id) {
          const row = await c.db.invoice.findUnique({ where: { id: c.id }, select: { accountId: true, status: true } });
          if (!row || (c.account && row.accountId !== c.account)) throw c.fail("no such receipt");
          if (row.status !== "pending") throw c.fail("the receipt already has its JIR");
          delivered = (await job.deliverNow(c.id, { force: c.force })) === "delivered" ? 1 : 0;
        } else {
          delivered = await job.runOnce({ accountId: c.account });
        }
        const left = await lateDeliveryBacklog(c.db, { accountId: c.account });
        c.print(`${reconciled.stored} journaled answers stored, ${delivered} receipts delivered; ${left.length} still without a JIR.\n${describe(left)}`, {
          stored: reconciled.stored,
          delivered,
          backlog: left,
        });
        return left.some((e) => e.pastDeadline) ? 1 : 0;
      } finally {
        await journal.close();
      }
    }
    default:
      throw c.fail(`unknown receipts command "${verb ?? ""}"; use backlog or resolve`);
  }
}
