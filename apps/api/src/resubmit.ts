// Late delivery of receipts (Fiscalization Act NN 89/2025, art. 21; CIS specification v2.6, §2.1):
// when CIS cannot be reached, the receipt is issued to the buyer with its ZKI only and must reach
// CIS "within two working days, counted from the day the connection was interrupted". This job
// delivers it, with NakDost = true, until a JIR arrives.
//
// Durable by construction: the receipt row itself is the job. A receipt stays "pending" (no JIR)
// with `nextAttemptAt` set when its first call brought no JIR (refused connection, TLS failure,
// timeout, CIS error s006, an answer that is not accepted). Every API process runs the job; a receipt is claimed by one conditional UPDATE (which also moves
// `nextAttemptAt` past the call's time limit and records the new IdPoruke and the late-delivery flag)
// before anything is sent, so two processes never send it at once and a crash mid-call only delays
// the next attempt. The JIR is stored by the step that completes the receipt (journaled on disk if
// the database refuses), then `invoice.fiscalized` is announced to the account's webhooks; a
// receipt stored but not yet announced is announced on the next run.
import { periodicJob } from "./periodic.ts";
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { Prisma, type Db, type Invoice } from "@fiskal/db";
import {
  computeZki,
  TaxAuthorityError,
  toRacunType,
  zagrebDate,
  type CertificateKeyring,
  type PaymentMethod,
  type Receipt,
  type SequenceMark,
  type TaxAuthority,
} from "@fiskal/fiscal";
import type { Webhooks } from "@fiskal/webhooks";
import { completeIdempotencyRecord } from "./idempotency.ts";
import { keepAnswer, type AnswerJournal } from "./journal.ts";
import { signingCertificate } from "./procedures/certificates/store.ts";
import { toInvoice, type InvoiceOut, type StoredAmounts } from "./procedures/invoices/schemas.ts";

/** Waits after the 1st, 2nd, … call without a JIR; the last repeats. Short first: most outages are brief. */
export const LATE_DELIVERY_DELAYS_MS = [10_000, 30_000, 60_000, 120_000, 300_000] as const;
/** After CIS refused the receipt itself (e.g. an expired certificate, s002): the customer must act first. */
const REJECTED_RETRY_MS = 15 * 60_000;
/** A claimed receipt is not claimed again for this long (longer than any CIS call). */
export const CLAIM_LEASE_MS = 60_000;

/**
 * The legal deadline of a late delivery: the end (24:00 Zagreb time) of the second working day
 * after the day the receipt was issued without a JIR. Weekends are skipped; public holidays are
 * not known here, so the deadline may be a day or two earlier than the law's (never later).
 */
export function lateDeliveryDeadline(issuedWithoutJir: Date): Date {
  let day = zagrebDate(issuedWithoutJir); // "YYYY-MM-DD"
  let working = 0;
  while (working < 2) {
    const d = new Date(`${day}T12:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 1);
    day = d.toISOString().slice(0, 10);
    const weekday = d.getUTCDay();
    if (weekday !== 0 && weekday !== 6) working++;
  }
  // Midnight after `day` in Zagreb: CET (+01:00) or CEST (+02:00), whichever names that date.
  const next = new Date(`${day}T12:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  const nextDay = next.toISOString().slice(0, 10);
  for (const offset of ["+01:00", "+02:00"]) {
    const candidate = new Date(`${nextDay}T00:00:00${offset}`);
    if (zagrebDate(candidate) === nextDay && zagrebDate(new Date(candidate.getTime() - 1)) === day) return candidate;
  }
  return new Date(`${nextDay}T00:00:00+01:00`);
}

/** The receipt as it was issued, rebuilt from its row (the same fields the first call sent). */
function receiptFromRow(row: Invoice): Receipt {
  const a = (row.amounts ?? {}) as StoredAmounts;
  return {
    oib: row.oib,
    issuedAt: row.issuedAt,
    number: row.number,
    premises: row.premises,
    device: row.device,
    total: row.total.toFixed(2),
    paymentMethod: row.paymentMethod as PaymentMethod,
    operatorOib: row.operatorOib ?? "",
    vatRegistered: row.vatRegistered ?? true,
    sequence: (row.sequenceMark ?? "P") as SequenceMark,
    lateDelivery: true,
    vat: a.vat,
    consumptionTax: a.consumption_tax,
    otherTaxes: a.other_taxes,
    exemptAmount: a.exempt_amount,
    marginAmount: a.margin_amount,
    notTaxableAmount: a.not_taxable_amount,
    fees: a.fees,
    buyerOib: row.buyerOib ?? undefined,
    paragonNumber: row.paragonNumber ?? undefined,
    specialPurpose: row.specialPurpose ?? undefined,
  };
}

function describeFailure(err: unknown): string {
  if (err instanceof TaxAuthorityError) return `${err.code ? `${err.code}: ` : ""}${err.message}`.slice(0, 500);
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}

/**
 * The first call brought no JIR because CIS is unavailable: the receipt is issued with its ZKI only
 * and scheduled for late delivery, in one transaction with the Idempotency-Key record (a retry
 * replays this answer). Returns the receipt as the client gets it (status "pending", no JIR).
 */
export async function deferReceipt(
  db: Db,
  pending: Invoice,
  err: unknown,
  opts: { idempotencyRecordId: string | null; now?: Date },
): Promise<InvoiceOut> {
  const now = opts.now ?? new Date();
  return db.$transaction(async (tx) => {
    const row = await tx.invoice.update({
      where: { id: pending.id },
      data: {
        nextAttemptAt: new Date(now.getTime() + LATE_DELIVERY_DELAYS_MS[0]),
        deliveryAttempts: { increment: 1 },
        lastDeliveryError: describeFailure(err),
      },
    });
    const response = toInvoice(row);
    if (opts.idempotencyRecordId) await completeIdempotencyRecord(tx, opts.idempotencyRecordId, response);
    return response;
  });
}

export interface LateDeliveryOptions {
  db: Db;
  taxAuthority: TaxAuthority;
  certificateKeys: CertificateKeyring;
  journal: AnswerJournal;
  webhooks: Pick<Webhooks, "emit"> | null;
  log: Logger;
  /** How often the job looks for due receipts (default 5000 ms; it also runs at start). */
  intervalMs?: number;
  /** Receipts per run (default 50). */
  batch?: number;
}

export interface LateDelivery {
  /** One pass: delivers due receipts (of one account, if given) and announces stored ones. Resolves to the number of JIRs obtained. */
  runOnce(scope?: { accountId?: string }): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createLateDelivery(opts: LateDeliveryOptions): LateDelivery {
  const { db, log } = opts;
  const batch = opts.batch ?? 50;

  // Only receipts issued without a JIR are delivered late. A pending receipt without nextAttemptAt
  // is one whose first request is running, or whose answer was lost with its process: that one
  // keeps the documented "outcome_unknown" contract (check it with the tax authority).
  const due = (now: Date): Prisma.InvoiceWhereInput => ({ status: "pending", nextAttemptAt: { lte: now } });

  async function deliver(candidate: Invoice): Promise<boolean> {
    const now = new Date();
    const messageId = randomUUID();
    // Claim: recorded before the call — the new IdPoruke, the late-delivery flag, the attempt.
    const { count } = await db.invoice.updateMany({
      where: { id: candidate.id, ...due(now) },
      data: { nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS), messageId, lateDelivery: true, deliveryAttempts: { increment: 1 } },
    });
    if (count === 0) return false;
    const row = await db.invoice.findUniqueOrThrow({ where: { id: candidate.id } });
    const label = `${row.number}/${row.premises}/${row.device}`;
    const deadline = lateDeliveryDeadline(row.createdAt);
    let answer: { jir: string; receivedAt: Date };
    try {
      const account = await db.account.findUniqueOrThrow({ where: { id: row.accountId }, select: { name: true } });
      const cert = await signingCertificate(db, opts.certificateKeys, row.accountId, { oib: row.oib, name: account.name });
      const receipt = receiptFromRow(row);
      // The ZKI printed on the receipt stays; it is recomputed only to catch a changed certificate key.
      const racun = { ...toRacunType(receipt, row.zki), NakDost: true };
      if (computeZki(receipt, cert.keyPem) !== row.zki) {
        log.warn({ id: row.id, receipt: label }, "late delivery: the account's certificate changed since the receipt was issued; sending the printed ZKI");
      }
      answer = await opts.taxAuthority.fiscalize({ receipt, zki: row.zki, certPem: cert.certPem, keyPem: cert.keyPem, messageId, racun });
    } catch (err) {
      const rejected = !(err instanceof TaxAuthorityError && err.kind === "unavailable");
      const attempts = row.deliveryAttempts;
      const wait = rejected ? REJECTED_RETRY_MS : LATE_DELIVERY_DELAYS_MS[Math.min(attempts - 1, LATE_DELIVERY_DELAYS_MS.length - 1)]!;
      await db.invoice.updateMany({
        where: { id: row.id, status: "pending" },
        data: { nextAttemptAt: new Date(Date.now() + wait), lastDeliveryError: describeFailure(err) },
      });
      const late = Date.now() > deadline.getTime();
      (rejected || late ? log.error.bind(log) : log.warn.bind(log))(
        { id: row.id, accountId: row.accountId, receipt: label, attempts, err: describeFailure(err), deadline: deadline.toISOString(), pastDeadline: late },
        rejected ? "late delivery refused by CIS; the customer must correct it" : "late delivery: CIS still unavailable",
      );
      return false;
    }
    const response = toInvoice({ ...row, status: "fiscalized", jir: answer.jir, fiscalizedAt: answer.receivedAt, nextAttemptAt: null, lastDeliveryError: null });
    await keepAnswer(
      { db, journal: opts.journal, log },
      { kind: "invoice", id: row.id, accountId: row.accountId, idempotencyRecordId: null, jir: answer.jir, receivedAt: answer.receivedAt.toISOString(), response },
    );
    await db.invoice
      .updateMany({ where: { id: row.id, status: "fiscalized" }, data: { nextAttemptAt: null, lastDeliveryError: null } })
      .catch((err: unknown) => log.warn({ id: row.id, err: describeFailure(err) }, "late delivery: schedule not cleared"));
    log.info({ id: row.id, accountId: row.accountId, receipt: label, jir: answer.jir, attempts: row.deliveryAttempts }, "late delivery: JIR received");
    return true;
  }

  /** Announces late-delivered receipts whose JIR is stored (dedupe key: one event per receipt, ever). */
  async function announce(): Promise<void> {
    if (!opts.webhooks) return;
    const rows = await db.invoice.findMany({
      where: { status: "fiscalized", lateDelivery: true, announcedAt: null, jir: { not: null } },
      take: batch,
      orderBy: { createdAt: "asc" },
    });
    for (const row of rows) {
      try {
        await opts.webhooks.emit(
          row.accountId,
          "invoice.fiscalized",
          {
            invoice_id: row.id,
            number: `${row.number}/${row.premises}/${row.device}`,
            oib: row.oib,
            jir: row.jir!,
            zki: row.zki,
            issued_at: row.issuedAt.toISOString(),
            fiscalized_at: (row.fiscalizedAt ?? new Date()).toISOString(),
            late_delivery: true,
            attempts: row.deliveryAttempts,
          },
          `invoice.fiscalized:${row.id}`,
        );
        await db.invoice.update({ where: { id: row.id }, data: { announcedAt: new Date(), nextAttemptAt: null, lastDeliveryError: null } });
      } catch (err) {
        log.error({ id: row.id, err: describeFailure(err) }, "invoice.fiscalized could not be announced; trying again on the next run");
      }
    }
  }

  async function pass(scope: { accountId?: string }): Promise<number> {
    let delivered = 0;
    try {
      const where = { ...due(new Date()), ...(scope.accountId ? { accountId: scope.accountId } : {}) };
      const rows = await db.invoice.findMany({ where, orderBy: { createdAt: "asc" }, take: batch });
      // An answer waiting in the journal is a JIR already obtained: never send that receipt again.
      const journaled = new Set((await opts.journal.entries()).filter((e) => e.entry.kind === "invoice").map((e) => e.entry.id));
      for (const row of rows) {
        if (job.stopped) break;
        if (journaled.has(row.id)) continue;
        try {
          if (await deliver(row)) delivered++;
        } catch (err) {
          log.error({ id: row.id, err: describeFailure(err) }, "late delivery failed");
        }
      }
      await announce();
    } catch (err) {
      log.error({ err: describeFailure(err) }, "late delivery pass failed");
    }
    return delivered;
  }

  const job = periodicJob(pass, opts.intervalMs ?? 5_000);
  return job;
}
