// Late delivery of receipts (Fiscalization Act NN 89/2025, art. 21; CIS specification v2.6, §2.1):
// when CIS cannot be reached, the receipt is issued to the buyer with its ZKI only and must reach
// CIS "within two working days, counted from the day the connection was interrupted". This job
// delivers it, with NakDost = true, until a JIR arrives.
//
// Durable by construction: the receipt row itself is the job. A receipt is committed "pending" with
// `nextAttemptAt` set to the end of its first call's lease (the longest that call, and the storing of
// its answer, can take); it stays "pending" when that call brought no JIR (refused connection, TLS
// failure, timeout, CIS error s006, an answer that is not accepted) and is then scheduled for the
// next attempt. A receipt whose process died mid-call, or whose answer the database never took, is
// due when its lease ends, like any other: the answer of the first call is unknown, so it is sent
// again with NakDost. Every API process runs the job; a receipt is claimed by one conditional UPDATE
// (which also moves `nextAttemptAt` past the call's lease and records the new IdPoruke and the
// late-delivery flag) before anything is sent, so two processes never send it at once and a crash
// mid-call only delays the next attempt. A receipt whose answer is in the journal (this disk's or the
// shared one) is never sent again: the reconciler stores that answer. The JIR is stored by the step that completes the receipt (journaled on disk if
// the database refuses), then `invoice.fiscalized` is announced to the account's webhooks; a
// receipt stored but not yet announced is announced on the next run.
import { periodicJob } from "../periodic.ts";
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { Prisma, type Db, type Invoice } from "@fiskal/db";
import {
  computeZki,
  TaxAuthorityError,
  lateDeliveryWindowEnd,
  toRacunType,
  type CertificateKeyring,
  type FiscalizeAnswer,
  type PaymentMethod,
  type Receipt,
  type SequenceMark,
  type TaxAuthority,
} from "@fiskal/fiscal";
import type { Webhooks } from "@fiskal/webhooks";
import { completeIdempotencyRecord } from "../idempotency.ts";
import { keepAnswer, type AnswerJournal } from "./journal.ts";
import { signingCertificate } from "../procedures/certificates/store.ts";
import { recordCisRequest, storedExchange } from "../procedures/invoices/complete.ts";
import { toInvoice, type InvoiceOut, type StoredAmounts } from "../procedures/invoices/schemas.ts";

/** Waits after the 1st, 2nd, … call without a JIR; the last repeats. Short first: most outages are brief. */
export const LATE_DELIVERY_DELAYS_MS = [10_000, 30_000, 60_000, 120_000, 300_000] as const;
/** After CIS refused the receipt itself (e.g. an expired certificate, s002): the customer must act first. */
const REJECTED_RETRY_MS = 15 * 60_000;
/** A claimed receipt is not claimed again for this long (longer than any CIS call); see `callLeaseMs` in tax-authority.ts. */
export const CLAIM_LEASE_MS = 60_000;

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
    // Only while the receipt is still this call's: a job that took it over (its lease ended) owns the schedule.
    await tx.invoice.updateMany({
      where: { id: pending.id, status: "pending", messageId: pending.messageId },
      data: {
        nextAttemptAt: new Date(now.getTime() + LATE_DELIVERY_DELAYS_MS[0]),
        deliveryAttempts: { increment: 1 },
        lastDeliveryError: describeFailure(err),
      },
    });
    const response = toInvoice(await tx.invoice.findUniqueOrThrow({ where: { id: pending.id } }));
    if (opts.idempotencyRecordId) await completeIdempotencyRecord(tx, opts.idempotencyRecordId, response);
    return response;
  });
}

/** One receipt of the late-delivery backlog, as the operator sees it (`pnpm fiskal receipts backlog`). */
export interface BacklogEntry {
  id: string;
  accountId: string;
  receipt: string;
  oib: string;
  createdAt: string;
  /**
   * "in_flight": its first call holds it until `nextAttemptAt`; "scheduled": issued without a JIR,
   * waiting for its next attempt (or being sent); "due": the next pass of the late-delivery job sends it.
   */
  state: "in_flight" | "scheduled" | "due";
  nextAttemptAt: string | null;
  attempts: number;
  lastError: string | null;
  /** End of the legal late-delivery period (2 working days). */
  deadline: string;
  pastDeadline: boolean;
}

/** Every receipt without a JIR, oldest first: what the late-delivery job still has to deliver. */
export async function lateDeliveryBacklog(db: Db, opts: { accountId?: string; now?: Date } = {}): Promise<BacklogEntry[]> {
  const now = opts.now ?? new Date();
  const rows = await db.invoice.findMany({
    where: { status: "pending", ...(opts.accountId ? { accountId: opts.accountId } : {}) },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((row) => {
    const deadline = lateDeliveryWindowEnd(row.createdAt);
    return {
      id: row.id,
      accountId: row.accountId,
      receipt: `${row.number}/${row.premises}/${row.device}`,
      oib: row.oib,
      createdAt: row.createdAt.toISOString(),
      state: row.nextAttemptAt === null || row.nextAttemptAt <= now ? "due" : row.deliveryAttempts === 0 ? "in_flight" : "scheduled",
      nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
      attempts: row.deliveryAttempts,
      lastError: row.lastDeliveryError,
      deadline: deadline.toISOString(),
      pastDeadline: now > deadline,
    };
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
  /** Gauges of the backlog and its legal deadline, set after every pass (metrics.ts). */
  metrics?: { lateDeliveryWaiting: { set(n: number): void }; lateDeliveryNearDeadline: { set(n: number): void }; lateDeliveryPastDeadline: { set(n: number): void } };
  /** How long a call (the first one or a claim) holds its receipt before another may send it (default CLAIM_LEASE_MS). */
  leaseMs?: number;
  /** Unix ms that the backlog's gauges and the past-deadline flag of a failed attempt are measured at (default `Date.now`; tests set the days). */
  clock?: () => number;
}

export interface LateDelivery {
  /** One pass: delivers due receipts (of one account, if given) and announces stored ones. Resolves to the number of JIRs obtained. */
  runOnce(scope?: { accountId?: string }): Promise<number>;
  /**
   * Delivers one receipt now if it is due (or, with `force`, whatever its schedule says) and its
   * answer is not journaled: "delivered", "not_delivered" (the call brought no JIR, or the receipt is
   * held by a live call), or "journaled" (the answer is known; the reconciler stores it).
   */
  deliverNow(id: string, opts?: { force?: boolean }): Promise<"delivered" | "not_delivered" | "journaled">;
  /** How long a call holds its receipt (the first call's lease too). */
  readonly leaseMs: number;
  start(): void;
  stop(): Promise<void>;
}

export function createLateDelivery(opts: LateDeliveryOptions): LateDelivery {
  const { db, log } = opts;
  const batch = opts.batch ?? 50;
  const leaseMs = opts.leaseMs ?? CLAIM_LEASE_MS;
  const clock = opts.clock ?? Date.now;

  // Every pending receipt whose time has come: issued without a JIR and due for its next attempt, or
  // one whose call's lease ended without an answer stored (its process died, or its database went
  // away): the first call's outcome is unknown, so it is delivered late. A pending receipt without
  // nextAttemptAt (stored before the lease existed) is due as well.
  const due = (now: Date): Prisma.InvoiceWhereInput => ({ status: "pending", OR: [{ nextAttemptAt: { lte: now } }, { nextAttemptAt: null }] });

  async function journaledIds(): Promise<Set<string>> {
    return new Set((await opts.journal.entries()).filter((e) => e.entry.kind === "invoice").map((e) => e.entry.id));
  }

  async function deliver(candidate: Invoice, force = false): Promise<boolean> {
    const now = new Date();
    const messageId = randomUUID();
    // Claim: recorded before the call — the new IdPoruke, the late-delivery flag, the attempt.
    const { count } = await db.invoice.updateMany({
      where: { id: candidate.id, ...(force ? { status: "pending" } : due(now)) },
      data: { nextAttemptAt: new Date(now.getTime() + leaseMs), messageId, lateDelivery: true, deliveryAttempts: { increment: 1 } },
    });
    if (count === 0) return false;
    const row = await db.invoice.findUniqueOrThrow({ where: { id: candidate.id } });
    const label = `${row.number}/${row.premises}/${row.device}`;
    const deadline = lateDeliveryWindowEnd(row.createdAt);
    let answer: FiscalizeAnswer;
    try {
      const account = await db.account.findUniqueOrThrow({ where: { id: row.accountId }, select: { name: true } });
      const cert = await signingCertificate(db, opts.certificateKeys, row.accountId, { oib: row.oib, name: account.name }, new Date(), opts.taxAuthority.certificates);
      const receipt = receiptFromRow(row);
      // The ZKI printed on the receipt stays; it is recomputed only to catch a changed certificate key.
      const racun = { ...toRacunType(receipt, row.zki), NakDost: true };
      if (computeZki(receipt, cert.keyPem) !== row.zki) {
        log.warn({ id: row.id, receipt: label }, "late delivery: the account's certificate changed since the receipt was issued; sending the printed ZKI");
      }
      const call = { receipt, zki: row.zki, certPem: cert.certPem, keyPem: cert.keyPem, messageId, racun };
      // The signed request (real CIS client) is recorded before it is sent, as the first call's is.
      const signedRequest = opts.taxAuthority.signRequest?.(call);
      if (signedRequest) await recordCisRequest(db, row.id, messageId, signedRequest);
      answer = await opts.taxAuthority.fiscalize({ ...call, signedRequest });
    } catch (err) {
      const rejected = !(err instanceof TaxAuthorityError && err.kind === "unavailable");
      const attempts = row.deliveryAttempts;
      const wait = rejected ? REJECTED_RETRY_MS : LATE_DELIVERY_DELAYS_MS[Math.min(attempts - 1, LATE_DELIVERY_DELAYS_MS.length - 1)]!;
      await db.invoice.updateMany({
        where: { id: row.id, status: "pending", messageId },
        data: { nextAttemptAt: new Date(Date.now() + wait), lastDeliveryError: describeFailure(err) },
      });
      const late = clock() > deadline.getTime();
      (rejected || late ? log.error.bind(log) : log.warn.bind(log))(
        { id: row.id, accountId: row.accountId, receipt: label, attempts, err: describeFailure(err), deadline: deadline.toISOString(), pastDeadline: late },
        rejected ? "late delivery refused by CIS; the customer must correct it" : "late delivery: CIS still unavailable",
      );
      return false;
    }
    const response = toInvoice({ ...row, status: "fiscalized", jir: answer.jir, fiscalizedAt: answer.receivedAt, nextAttemptAt: null, lastDeliveryError: null });
    await keepAnswer(
      { db, journal: opts.journal, log },
      // The Idempotency-Key record of a request that went away is completed with this answer.
      {
        kind: "invoice",
        id: row.id,
        accountId: row.accountId,
        idempotencyRecordId: row.idempotencyRecordId,
        jir: answer.jir,
        receivedAt: answer.receivedAt.toISOString(),
        response,
        exchange: storedExchange(messageId, answer.exchange),
      },
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
      const journaled = rows.length ? await journaledIds() : new Set<string>();
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
      if (opts.metrics && !scope.accountId) {
        // The backlog against its legal deadline: waiting, less than 24 h left, past it (alert on the last two).
        const now = clock();
        const waiting = await db.invoice.findMany({ where: { status: "pending" }, select: { createdAt: true } });
        const left = waiting.map((r) => lateDeliveryWindowEnd(r.createdAt).getTime() - now);
        opts.metrics.lateDeliveryWaiting.set(waiting.length);
        opts.metrics.lateDeliveryNearDeadline.set(left.filter((ms) => ms >= 0 && ms < 86_400_000).length);
        opts.metrics.lateDeliveryPastDeadline.set(left.filter((ms) => ms < 0).length);
      }
    } catch (err) {
      log.error({ err: describeFailure(err) }, "late delivery pass failed");
    }
    return delivered;
  }

  const job = periodicJob(pass, opts.intervalMs ?? 5_000);
  return {
    runOnce: job.runOnce,
    start: job.start,
    stop: job.stop,
    leaseMs,
    async deliverNow(id, o = {}) {
      if ((await journaledIds()).has(id)) return "journaled";
      const row = await db.invoice.findUnique({ where: { id } });
      if (!row || row.status !== "pending") return "not_delivered";
      return (await deliver(row, o.force === true)) ? "delivered" : "not_delivered";
    },
  };
}
