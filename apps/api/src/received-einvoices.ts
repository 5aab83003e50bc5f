// Incoming e-invoices, on the periodic scaffold (periodic.ts). Each pass:
// 1. pulls the inbox of every account's OIB from the intermediary (`inboxAccounts`: Account.oib,
//    else its certificate's OIB; one account per OIB), validates the new documents in one batch
//    (UBL 2.1 XSD, EN 16931, HR CIUS: `receivedValidator`), stores each — valid or not — with its
//    archive entries, and acknowledges the intermediary only after the rows are committed, so a
//    crash in between means a redelivery, which the message id stores once; `einvoice.received`;
// 2. records every valid received e-invoice with the tax authority (Fiscalization 2.0,
//    EvidentirajERacunZahtjev with vrstaERacuna "U", signed with the account's certificate): claimed
//    by a conditional UPDATE that writes the request id before the call, the answer stored with its
//    archive evidence; unavailable → tried again with back-off; `einvoice.fiscalized`;
// 3. sends every rejection report still pending (EvidentirajOdbijanjeZahtjev): those the API's
//    route could not finish, and those the portal recorded; `einvoice.rejected` once answered.
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { completeReceivedFiscalization, completeRejectionReport, inboxAccounts, odbijanjeOf, storeReceivedEInvoice, type ReportOutcome } from "@fiskal/accounts";
import type { Db, Prisma, ReceivedEInvoice } from "@fiskal/db";
import { CisNoAnswerError, receivedValidator, TaxAuthorityError, type CertificateKeyring, type FiscalizationService, type Intermediary, type ReceivedValidator, type Signer } from "@fiskal/fiscal";
import type { Webhooks } from "@fiskal/webhooks";
import { fiscalizationClaim, fiscalizationClaimable } from "./fiscalization-claim.ts";
import { periodicJob, type PassScope } from "./periodic.ts";
import { signingCertificate } from "./procedures/certificates/store.ts";
import { CLAIM_LEASE_MS, LATE_DELIVERY_DELAYS_MS } from "./records/resubmit.ts";

export interface ReceivedEInvoicesOptions {
  db: Db;
  intermediary: Intermediary;
  fiscalization: FiscalizationService;
  certificateKeys: CertificateKeyring;
  log: Logger;
  webhooks: Pick<Webhooks, "emit"> | null;
  /** Default `receivedValidator()`: the official validators, all documents of a fetch in one run. */
  validate?: ReceivedValidator;
  intervalMs?: number;
  /** Documents fetched per inbox and rows handled per step in one pass (default 50). */
  batch?: number;
}

interface ReceivedPass {
  stored: number;
  fiscalized: number;
  reported: number;
}

export interface ReceivedEInvoices {
  runOnce(scope?: PassScope): Promise<ReceivedPass>;
  /** Sends one pending rejection report now if it is due (the API's route, right after the decision); the row as it then stands. */
  sendRejectionReport(id: string): Promise<ReceivedEInvoice | null>;
  start(): void;
  stop(): Promise<void>;
}

const describe = (err: unknown) =>
  (err instanceof TaxAuthorityError ? `${err.code ? `${err.code}: ` : ""}${err.message}` : err instanceof Error ? err.message : String(err)).slice(0, 500);

const retryAt = (attempts: number) => new Date(Date.now() + LATE_DELIVERY_DELAYS_MS[Math.min(Math.max(attempts - 1, 0), LATE_DELIVERY_DELAYS_MS.length - 1)]!);

/** How a call ended, as stored: a refusal is final, an outage is tried again, a lost answer is "unknown" where the caller says so. */
function outcomeOf(err: unknown, attempts: number, lostAnswerIsUnknown: boolean): ReportOutcome {
  if (lostAnswerIsUnknown && err instanceof CisNoAnswerError) return { status: "unknown", error: describe(err) };
  if (err instanceof TaxAuthorityError && err.kind === "rejected") return { status: "refused", error: describe(err) };
  // Unavailable, or the account's certificate does not fit yet (it can be uploaded): again later.
  return { status: "retry", error: describe(err), nextAttemptAt: retryAt(attempts) };
}

export function createReceivedEInvoices(opts: ReceivedEInvoicesOptions): ReceivedEInvoices {
  const { db, log } = opts;
  const batch = opts.batch ?? 50;
  const validate = opts.validate ?? receivedValidator();

  async function signerFor(row: ReceivedEInvoice): Promise<Signer> {
    const account = await db.account.findUniqueOrThrow({ where: { id: row.accountId }, select: { name: true } });
    return signingCertificate(db, opts.certificateKeys, row.accountId, { oib: row.buyerOib, name: account.name }, new Date(), opts.fiscalization.certificates);
  }

  async function emit(...args: Parameters<Pick<Webhooks, "emit">["emit"]>): Promise<void> {
    if (!opts.webhooks) return;
    await opts.webhooks.emit(...args).catch((err: unknown) => log.error({ accountId: args[0], type: args[1], err: describe(err) }, "webhook event not recorded"));
  }

  // 1. The inboxes.
  async function pullInbox(accountId: string, oib: string): Promise<number> {
    const documents = await opts.intermediary.fetchInbox!({ oib, limit: batch });
    if (!documents.length) return 0;
    const known = new Set(
      (await db.receivedEInvoice.findMany({ where: { accountId, messageId: { in: documents.map((d) => d.messageId) } }, select: { messageId: true } })).map((r) => r.messageId),
    );
    const fresh = documents.filter((d) => !known.has(d.messageId));
    const validations = await validate(fresh.map((d) => d.ubl));
    const done = documents.filter((d) => known.has(d.messageId)).map((d) => d.messageId);
    let stored = 0;
    for (const [i, doc] of fresh.entries()) {
      try {
        const { row, created } = await storeReceivedEInvoice(db, { accountId, messageId: doc.messageId, recipientOib: oib, ubl: doc.ubl, deliveredAt: new Date(doc.deliveredAt), validation: validations[i]! });
        if (created) stored++;
        const violations = (row.validation as { violations: { rule: string; flag: string; message: string }[] }).violations.filter((v) => v.flag === "fatal");
        await emit(
          accountId,
          "einvoice.received",
          {
            einvoice_id: row.id,
            direction: "received",
            message_id: row.messageId,
            number: row.number,
            document_type: row.documentType,
            seller_oib: row.sellerOib,
            seller_name: row.sellerName,
            buyer_oib: row.buyerOib,
            issue_date: row.issueDate,
            currency: row.currency,
            totals: { net: row.totalNet?.toFixed(2) ?? null, vat: row.totalTax?.toFixed(2) ?? null, gross: row.totalGross?.toFixed(2) ?? null, payable: row.totalPayable?.toFixed(2) ?? null },
            valid: row.validationStatus === "valid",
            violations: violations.slice(0, 20).map((v) => ({ rule: v.rule, message: v.message })),
            received_at: row.receivedAt.toISOString(),
          },
          `einvoice.received:${row.id}`,
        );
        (row.validationStatus === "valid" ? log.info.bind(log) : log.warn.bind(log))(
          { accountId, id: row.id, number: row.number, sellerOib: row.sellerOib, messageId: row.messageId, valid: row.validationStatus === "valid", created },
          row.validationStatus === "valid" ? "e-invoice received" : "e-invoice received that fails validation: stored as invalid",
        );
        done.push(doc.messageId);
      } catch (err) {
        // Not stored: not acknowledged either, so the intermediary delivers it again.
        log.error({ accountId, messageId: doc.messageId, err: describe(err) }, "received e-invoice could not be stored; it stays in the inbox");
      }
    }
    if (done.length) await opts.intermediary.acknowledge!({ oib, messageIds: done });
    return stored;
  }

  async function pullInboxes(scope: PassScope): Promise<number> {
    if (!opts.intermediary.fetchInbox || !opts.intermediary.acknowledge) return 0;
    let stored = 0;
    for (const { accountId, oib } of await inboxAccounts(db)) {
      if (job.stopped) break;
      if (scope.accountId && scope.accountId !== accountId) continue;
      try {
        stored += await pullInbox(accountId, oib);
      } catch (err) {
        log.warn({ accountId, err: describe(err) }, "intermediary inbox not read; trying again next pass");
      }
    }
    return stored;
  }

  // 2. Fiscalization 2.0, type U.
  const fiscalizationDue = (now: Date): Prisma.ReceivedEInvoiceWhereInput => ({ validationStatus: "valid", ...fiscalizationClaimable(now) });

  async function fiscalize(id: string): Promise<boolean> {
    const now = new Date();
    const requestId = randomUUID();
    const { count } = await db.receivedEInvoice.updateMany({ where: { id, ...fiscalizationDue(now) }, data: fiscalizationClaim(requestId, now) });
    if (count === 0) return false;
    const row = await db.receivedEInvoice.findUniqueOrThrow({ where: { id } });
    let outcome: Exclude<ReportOutcome, { status: "unknown" }>;
    try {
      const answer = await opts.fiscalization.recordEInvoice({ ubl: row.ubl, signer: await signerFor(row), requestId, direction: "U" });
      outcome = { status: "recorded", at: answer.receivedAt };
    } catch (err) {
      // A lost answer is sent again with a new request id: recording the same e-invoice twice is answered S008, "already recorded".
      outcome = outcomeOf(err, row.fiscalizationAttempts, false) as Exclude<ReportOutcome, { status: "unknown" }>;
    }
    const stored = await completeReceivedFiscalization(db, id, requestId, outcome);
    if (outcome.status === "recorded" && stored) {
      log.info({ id, accountId: row.accountId, number: row.number, requestId }, "received e-invoice recorded with the tax authority (Fiscalization 2.0, type U)");
      await emit(
        row.accountId,
        "einvoice.fiscalized",
        {
          einvoice_id: row.id,
          direction: "received",
          type: "U",
          number: row.number ?? "",
          seller_oib: row.sellerOib ?? "",
          buyer_oib: row.buyerOib,
          request_id: requestId,
          fiscalized_at: outcome.at.toISOString(),
          attempts: stored.fiscalizationAttempts,
        },
        `einvoice.fiscalized:${row.id}`,
      );
      return true;
    }
    if (outcome.status !== "recorded") {
      (outcome.status === "retry" ? log.warn.bind(log) : log.error.bind(log))(
        { id, accountId: row.accountId, number: row.number, attempts: row.fiscalizationAttempts, err: outcome.error },
        outcome.status === "retry" ? "received e-invoice not recorded yet (Fiscalization 2.0); trying again" : "the tax authority refused to record the received e-invoice",
      );
    }
    return false;
  }

  // 3. Rejection reports.
  const reportDue = (now: Date): Prisma.ReceivedEInvoiceWhereInput => ({ rejectionReportStatus: "pending", rejectionReportNextAttemptAt: { lte: now } });

  async function sendRejectionReport(id: string): Promise<ReceivedEInvoice | null> {
    const now = new Date();
    const { count } = await db.receivedEInvoice.updateMany({
      where: { id, ...reportDue(now) },
      data: { rejectionReportAttempts: { increment: 1 }, rejectionReportNextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS) },
    });
    if (count === 0) return db.receivedEInvoice.findUnique({ where: { id } });
    const row = await db.receivedEInvoice.findUniqueOrThrow({ where: { id } });
    const requestId = row.rejectionReportRequestId!;
    let outcome: ReportOutcome;
    try {
      const answer = await opts.fiscalization.reportRejection({ rejection: odbijanjeOf(row), signer: await signerFor(row), requestId });
      outcome = { status: "recorded", at: answer.receivedAt };
    } catch (err) {
      outcome = outcomeOf(err, row.rejectionReportAttempts, true);
    }
    const stored = await completeRejectionReport(db, id, requestId, outcome);
    if (!stored) return db.receivedEInvoice.findUnique({ where: { id } });
    if (outcome.status === "retry") {
      log.warn({ id, accountId: row.accountId, number: row.number, attempts: row.rejectionReportAttempts, err: outcome.error }, "rejection report not sent yet; trying again");
      return stored;
    }
    (outcome.status === "recorded" ? log.info.bind(log) : log.error.bind(log))(
      { id, accountId: row.accountId, number: row.number, requestId, status: outcome.status },
      "rejection of a received e-invoice reported to the tax authority",
    );
    await emit(
      row.accountId,
      "einvoice.rejected",
      {
        einvoice_id: row.id,
        direction: "received",
        number: row.number ?? "",
        seller_oib: row.sellerOib ?? "",
        buyer_oib: row.buyerOib,
        reason_type: row.rejectionReasonType ?? "",
        reason: row.rejectionReason ?? "",
        rejected_on: row.rejectionDate ?? "",
        report: { status: stored.rejectionReportStatus ?? "", request_id: requestId, recorded_at: stored.rejectionReportedAt?.toISOString() ?? null, error: stored.rejectionReportError },
      },
      `einvoice.rejected:${row.id}:${requestId}`,
    );
    return stored;
  }

  async function each(where: Prisma.ReceivedEInvoiceWhereInput, step: (id: string) => Promise<unknown>, what: string): Promise<number> {
    let n = 0;
    try {
      const rows = await db.receivedEInvoice.findMany({ where, select: { id: true }, orderBy: { createdAt: "asc" }, take: batch });
      for (const { id } of rows) {
        if (job.stopped) break;
        try {
          if (await step(id)) n++;
        } catch (err) {
          log.error({ id, err: describe(err) }, `${what} failed`);
        }
      }
    } catch (err) {
      log.error({ err: describe(err) }, `${what} pass failed`);
    }
    return n;
  }

  async function pass(scope: PassScope): Promise<ReceivedPass> {
    const own = scope.accountId ? { accountId: scope.accountId } : {};
    const stored = await pullInboxes(scope);
    const fiscalized = await each({ ...fiscalizationDue(new Date()), ...own }, fiscalize, "received e-invoice fiscalization");
    const reported = await each({ ...reportDue(new Date()), ...own }, async (id) => (await sendRejectionReport(id))?.rejectionReportStatus !== "pending", "rejection report");
    return { stored, fiscalized, reported };
  }

  const job = periodicJob(pass, opts.intervalMs ?? 5_000, (err) => log.error({ err: describe(err) }, "received e-invoice pass failed"));
  return { runOnce: job.runOnce, start: job.start, stop: job.stop, sendRejectionReport };
}
