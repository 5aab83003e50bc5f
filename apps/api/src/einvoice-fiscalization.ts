// Fiscalization 2.0 of delivered e-invoices: once the intermediary accepted an e-invoice, its UBL
// document is recorded with the tax authority (EvidentirajERacunZahtjev, signed with the account's
// certificate). Durable like late delivery of receipts: the e-invoice row is the job. An accepted
// e-invoice without a fiscalization status, or "pending" and due, is claimed by one conditional
// UPDATE that records the request id before the call; the answer completes the row.
// The service unavailable → tried again with back-off; refused → "refused" with the code and
// message (a document the tax authority refuses needs the customer, not another attempt).
//
// The same job finishes sends to the intermediary that their request did not: an e-invoice still
// "pending" when the lease of its call ends (`nextSendAt`: the process died, or the database did not
// take the answer) is claimed by a conditional UPDATE and sent again with its own message id, which
// the intermediary deduplicates — it is never delivered twice. An answer waiting in the journal is
// stored by the reconciler instead.
import { periodicJob } from "./periodic.ts";
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db, EInvoice, Prisma } from "@fiskal/db";
import { IntermediaryError, TaxAuthorityError, type CertificateKeyring, type FiscalizationService, type Intermediary } from "@fiskal/fiscal";
import type { Webhooks } from "@fiskal/webhooks";
import { fiscalizationClaim, fiscalizationClaimable } from "./fiscalization-claim.ts";
import { releaseIdempotencyRecord } from "./idempotency.ts";
import { keepAnswer, type AnswerJournal } from "./records/journal.ts";
import { signingCertificate } from "./procedures/certificates/store.ts";
import { toEInvoice } from "./procedures/einvoices/schemas.ts";
import { CLAIM_LEASE_MS, LATE_DELIVERY_DELAYS_MS } from "./records/resubmit.ts";

export interface EInvoiceFiscalizationOptions {
  db: Db;
  fiscalization: FiscalizationService;
  certificateKeys: CertificateKeyring;
  log: Logger;
  intervalMs?: number;
  batch?: number;
  /** Sends e-invoices whose request did not finish (same message id). */
  intermediary: Intermediary;
  journal: AnswerJournal;
  /** How long a call holds its e-invoice (default CLAIM_LEASE_MS). */
  leaseMs?: number;
  /** `einvoice.fiscalized` once the tax authority recorded an e-invoice; null: none. */
  webhooks?: Pick<Webhooks, "emit"> | null;
}

export interface EInvoiceFiscalization {
  /** One pass over due e-invoices (of one account, if given); resolves to the number recorded. */
  runOnce(scope?: { accountId?: string }): Promise<number>;
  /** Sends one pending e-invoice again now if its call's lease has ended; true when its answer was kept. */
  resendNow(id: string): Promise<boolean>;
  start(): void;
  stop(): Promise<void>;
}

const describe = (err: unknown) =>
  (err instanceof TaxAuthorityError ? `${err.code ? `${err.code}: ` : ""}${err.message}` : err instanceof Error ? err.message : String(err)).slice(0, 500);

export function createEInvoiceFiscalization(opts: EInvoiceFiscalizationOptions): EInvoiceFiscalization {
  const { db, log } = opts;
  const batch = opts.batch ?? 50;

  const due = (now: Date): Prisma.EInvoiceWhereInput => ({ status: "accepted", ...fiscalizationClaimable(now) });

  async function record(id: string): Promise<boolean> {
    const now = new Date();
    const requestId = randomUUID();
    const { count } = await db.eInvoice.updateMany({ where: { id, ...due(now) }, data: fiscalizationClaim(requestId, now) });
    if (count === 0) return false;
    const row = await db.eInvoice.findUniqueOrThrow({ where: { id } });
    try {
      const account = await db.account.findUniqueOrThrow({ where: { id: row.accountId }, select: { name: true } });
      const cert = await signingCertificate(db, opts.certificateKeys, row.accountId, { oib: row.sellerOib, name: account.name }, new Date(), opts.fiscalization.certificates);
      const answer = await opts.fiscalization.recordEInvoice({ ubl: row.ubl, signer: cert, requestId });
      await db.eInvoice.updateMany({
        where: { id, fiscalizationRequestId: requestId },
        data: { fiscalizationStatus: "recorded", fiscalizedAt: answer.receivedAt, fiscalizationNextAttemptAt: null, fiscalizationError: null },
      });
      log.info({ id, accountId: row.accountId, number: row.number, requestId }, "e-invoice recorded with the tax authority (Fiscalization 2.0)");
      await opts.webhooks
        ?.emit(
          row.accountId,
          "einvoice.fiscalized",
          {
            einvoice_id: row.id,
            direction: "issued",
            type: "I",
            number: row.number,
            seller_oib: row.sellerOib,
            buyer_oib: row.buyerOib,
            request_id: requestId,
            fiscalized_at: answer.receivedAt.toISOString(),
            attempts: row.fiscalizationAttempts,
          },
          `einvoice.fiscalized:${row.id}`,
        )
        .catch((err: unknown) => log.error({ id, err: describe(err) }, "einvoice.fiscalized not recorded"));
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

  const leaseMs = opts.leaseMs ?? CLAIM_LEASE_MS;
  /** Pending sends whose call's lease ended (rows from before the lease: once nobody can still be sending them). */
  const resendDue = (now: Date): Prisma.EInvoiceWhereInput => ({
    status: "pending",
    messageId: { not: null },
    OR: [{ nextSendAt: { lte: now } }, { nextSendAt: null, createdAt: { lt: new Date(now.getTime() - 2 * 60_000) } }],
  });

  async function resend(candidate: EInvoice): Promise<boolean> {
    const now = new Date();
    const { count } = await db.eInvoice.updateMany({ where: { id: candidate.id, ...resendDue(now) }, data: { nextSendAt: new Date(now.getTime() + leaseMs) } });
    if (count === 0) return false;
    const row = await db.eInvoice.findUniqueOrThrow({ where: { id: candidate.id } });
    const request = row.request as { buyer?: { endpoint?: { scheme: string; id: string } } };
    let sent: { id: string; status: "accepted" | "queued" };
    try {
      sent = await opts.intermediary.send({ ubl: row.ubl, sellerOib: row.sellerOib, buyerOib: row.buyerOib ?? undefined, buyerEndpoint: request.buyer?.endpoint, messageId: row.messageId! });
    } catch (err) {
      if (err instanceof IntermediaryError && err.kind === "rejected") {
        await db.$transaction(async (tx) => {
          const { count: marked } = await tx.eInvoice.updateMany({
            where: { id: row.id, status: "pending" },
            data: { status: "rejected", rejection: { message: err.message, rules: err.rules }, nextSendAt: null },
          });
          if (marked) await releaseIdempotencyRecord(tx, row.idempotencyRecordId ?? undefined);
        });
        log.warn({ id: row.id, accountId: row.accountId, number: row.number }, "e-invoice sent again after its request went away: rejected by the intermediary");
        return false;
      }
      const wait = err instanceof IntermediaryError && err.retryAfterSeconds ? err.retryAfterSeconds * 1000 : LATE_DELIVERY_DELAYS_MS[0];
      await db.eInvoice.updateMany({ where: { id: row.id, status: "pending" }, data: { nextSendAt: new Date(Date.now() + wait) } });
      log.warn({ id: row.id, accountId: row.accountId, number: row.number, err: describe(err) }, "e-invoice whose request went away: the intermediary did not answer; trying again");
      return false;
    }
    const sentAt = new Date();
    const response = toEInvoice({ ...row, status: sent.status, intermediaryId: sent.id, sentAt, nextSendAt: null });
    await keepAnswer(
      { db, journal: opts.journal, log },
      { kind: "einvoice", id: row.id, accountId: row.accountId, idempotencyRecordId: row.idempotencyRecordId, intermediaryId: sent.id, status: sent.status, sentAt: sentAt.toISOString(), response },
    );
    log.info({ id: row.id, accountId: row.accountId, number: row.number, intermediaryId: sent.id }, "e-invoice whose request went away: sent again with its message id and stored");
    return true;
  }

  async function journaledIds(): Promise<Set<string>> {
    return new Set((await opts.journal.entries()).filter((e) => e.entry.kind === "einvoice").map((e) => e.entry.id));
  }

  async function resendPass(scope: { accountId?: string }): Promise<void> {
    const where = { ...resendDue(new Date()), ...(scope.accountId ? { accountId: scope.accountId } : {}) };
    const rows = await db.eInvoice.findMany({ where, orderBy: { createdAt: "asc" }, take: batch });
    if (!rows.length) return;
    const journaled = await journaledIds();
    for (const row of rows) {
      if (job.stopped) break;
      if (journaled.has(row.id)) continue;
      try {
        await resend(row);
      } catch (err) {
        log.error({ id: row.id, err: describe(err) }, "e-invoice resend failed");
      }
    }
  }

  async function pass(scope: { accountId?: string }): Promise<number> {
    let recorded = 0;
    try {
      await resendPass(scope);
    } catch (err) {
      log.error({ err: describe(err) }, "e-invoice resend pass failed");
    }
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
  return {
    runOnce: job.runOnce,
    start: job.start,
    stop: job.stop,
    async resendNow(id) {
      if ((await journaledIds()).has(id)) return false;
      const row = await db.eInvoice.findUnique({ where: { id } });
      return row ? resend(row) : false;
    },
  };
}
