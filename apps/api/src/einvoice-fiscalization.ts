// Fiscalization 2.0 of delivered e-invoices: once the intermediary accepted an e-invoice, its UBL
// document is recorded with the tax authority (EvidentirajERacunZahtjev, signed with the account's
// certificate). Durable like late delivery of receipts: the e-invoice row is the job. An accepted
// e-invoice without a fiscalization status, or "pending" and due, is claimed by one conditional
// UPDATE that records the request id before the call; the answer completes the row.
// The service unavailable → tried again with back-off; refused → "refused" with the code and
// message (a document the tax authority refuses needs the customer, not another attempt).
import { periodicJob } from "./periodic.ts";
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db, Prisma } from "@fiskal/db";
import { TaxAuthorityError, type CertificateKeyring, type FiscalizationService } from "@fiskal/fiscal";
import { signingCertificate } from "./procedures/certificates/store.ts";
import { CLAIM_LEASE_MS, LATE_DELIVERY_DELAYS_MS } from "./resubmit.ts";

export interface EInvoiceFiscalizationOptions {
  db: Db;
  fiscalization: FiscalizationService;
  certificateKeys: CertificateKeyring;
  log: Logger;
  intervalMs?: number;
  batch?: number;
}

export interface EInvoiceFiscalization {
  /** One pass over due e-invoices (of one account, if given); resolves to the number recorded. */
  runOnce(scope?: { accountId?: string }): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

const describe = (err: unknown) =>
  (err instanceof TaxAuthorityError ? `${err.code ? `${err.code}: ` : ""}${err.message}` : err instanceof Error ? err.message : String(err)).slice(0, 500);

export function createEInvoiceFiscalization(opts: EInvoiceFiscalizationOptions): EInvoiceFiscalization {
  const { db, log } = opts;
  const batch = opts.batch ?? 50;

  const due = (now: Date): Prisma.EInvoiceWhereInput => ({
    status: "accepted",
    OR: [{ fiscalizationStatus: null }, { fiscalizationStatus: "pending", fiscalizationNextAttemptAt: { lte: now } }],
  });

  async function record(id: string): Promise<boolean> {
    const now = new Date();
    const requestId = randomUUID();
    const { count } = await db.eInvoice.updateMany({
      where: { id, ...due(now) },
      data: {
        fiscalizationStatus: "pending",
        fiscalizationRequestId: requestId,
        fiscalizationAttempts: { increment: 1 },
        fiscalizationNextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS),
      },
    });
    if (count === 0) return false;
    const row = await db.eInvoice.findUniqueOrThrow({ where: { id } });
    try {
      const account = await db.account.findUniqueOrThrow({ where: { id: row.accountId }, select: { name: true } });
      const cert = await signingCertificate(db, opts.certificateKeys, row.accountId, { oib: row.sellerOib, name: account.name });
      const answer = await opts.fiscalization.recordEInvoice({ ubl: row.ubl, signer: cert, requestId });
      await db.eInvoice.updateMany({
        where: { id, fiscalizationRequestId: requestId },
        data: { fiscalizationStatus: "recorded", fiscalizedAt: answer.receivedAt, fiscalizationNextAttemptAt: null, fiscalizationError: null },
      });
      log.info({ id, accountId: row.accountId, number: row.number, requestId }, "e-invoice recorded with the tax authority (Fiscalization 2.0)");
      return true;
    } catch (err) {
      const retry = err instanceof TaxAuthorityError && err.kind === "unavailable";
      const wait = LATE_DELIVERY_DELAYS_MS[Math.min(row.fiscalizationAttempts - 1, LATE_DELIVERY_DELAYS_MS.length - 1)]!;
      await db.eInvoice.updateMany({
        where: { id, fiscalizationRequestId: requestId },
        data: retry
          ? { fiscalizationNextAttemptAt: new Date(Date.now() + wait), fiscalizationError: describe(err) }
          : { fiscalizationStatus: "refused", fiscalizationNextAttemptAt: null, fiscalizationError: describe(err) },
      });
      (retry ? log.warn.bind(log) : log.error.bind(log))(
        { id, accountId: row.accountId, number: row.number, attempts: row.fiscalizationAttempts, err: describe(err) },
        retry ? "Fiscalization 2.0 service unavailable; trying again" : "the tax authority refused to record the e-invoice",
      );
      return false;
    }
  }

  async function pass(scope: { accountId?: string }): Promise<number> {
    let recorded = 0;
    try {
      const where = { ...due(new Date()), ...(scope.accountId ? { accountId: scope.accountId } : {}) };
      const rows = await db.eInvoice.findMany({ where, select: { id: true }, orderBy: { createdAt: "asc" }, take: batch });
      for (const { id } of rows) {
        if (job.stopped) break;
        try {
          if (await record(id)) recorded++;
        } catch (err) {
          log.error({ id, err: describe(err) }, "e-invoice fiscalization failed");
        }
      }
    } catch (err) {
      log.error({ err: describe(err) }, "e-invoice fiscalization pass failed");
    }
    return recorded;
  }

  const job = periodicJob(pass, opts.intervalMs ?? 5_000);
  return job;
}
