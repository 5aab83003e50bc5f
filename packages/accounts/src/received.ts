// Received (incoming) e-invoices: storing what the intermediary delivered, and the recipient's
// decision on it. One home for both, used by the API (its inbox job and its routes) and the portal.
//
// - Storing is record-first: the row and its archive entries (the UBL exactly as delivered, and the
//   delivery with its validation) are committed in one transaction before the intermediary is
//   acknowledged; a redelivery of the same message id finds the row and stores nothing again.
// - The decision: "received" → "accepted" or "rejected". A rejection (Fiscalization Act art. 52)
//   is committed with its report to the tax authority as "pending" (request id chosen before the
//   call); the API sends it at once on its own route, and its periodic job sends every report still
//   pending — so a rejection recorded by the portal reaches the tax authority too. Acceptance is
//   recorded in Fiskal only (Fiscalization 2.0 has no message for it).
import { randomUUID } from "node:crypto";
import { Prisma, type Db, type ReceivedEInvoice } from "@fiskal/db";
import { isValidOib, ublSummary, zagrebDate, type Odbijanje, type ReceivedValidation, type UblViolation, type VrstaRazlogaOdbijanja } from "@fiskal/fiscal";
import { appendToArchive, type ArchiveFile } from "./archive/append.ts";
import { sha256Hex } from "./archive/chain.ts";
import { zagrebDayStart } from "./archive/days.ts";

export const REJECTION_REASON_TYPES = ["N", "U", "O"] as const satisfies readonly VrstaRazlogaOdbijanja[];

/** Why a decision was refused: `reason` in English (API detail), `message` in Croatian. */
export class ReceivedEInvoiceError extends Error {
  override readonly name = "ReceivedEInvoiceError";
  constructor(
    readonly reason: "not_found" | "already_decided" | "invalid_input" | "not_reportable",
    message: string,
    readonly problems: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2) + "\n", "utf8");
const segment = (text: string | null) => (text ?? "").replace(/[^0-9A-Za-z._-]+/g, "_").slice(0, 80) || "_";
const isDay = (v: string | null): v is string => v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
const amount = (v: string | null) => (v !== null && /^-?\d{1,12}(\.\d{1,2})?$/.test(v) ? v : null);

/** Where a received e-invoice's files go in an export, and the instant its period and retention follow. */
function archivePlace(row: ReceivedEInvoice): { folder: string; issuedAt: Date } {
  const issuedAt = isDay(row.issueDate) ? zagrebDayStart(row.issueDate) : row.receivedAt;
  const month = isDay(row.issueDate) ? row.issueDate.slice(0, 7) : zagrebDate(row.receivedAt).slice(0, 7);
  return { folder: `received/${month}/${segment(row.sellerOib)}-${segment(row.number)}-${row.id}`, issuedAt };
}

function archiveFile(row: ReceivedEInvoice, file: string, content: Buffer, contentType = "application/json"): ArchiveFile {
  const place = archivePlace(row);
  return { documentKind: "received_einvoice", documentId: row.id, name: `${place.folder}/${file}`, contentType, content, issuedAt: place.issuedAt };
}

export interface StoreReceivedInput {
  accountId: string;
  /** The intermediary's message id (unique per account). */
  messageId: string;
  /** The OIB it was delivered to: the account's. */
  recipientOib: string;
  ubl: string;
  deliveredAt?: Date;
  validation: ReceivedValidation;
}

/**
 * Stores a delivered e-invoice with its archive entries (invoice.xml as delivered, delivery.json),
 * valid or not. A document that is not a readable UBL Invoice/CreditNote, or not addressed to the
 * recipient's OIB, is stored as invalid with that violation. `created` is false when the message
 * was stored before (a redelivery): nothing is written then.
 */
export async function storeReceivedEInvoice(db: Db, input: StoreReceivedInput): Promise<{ row: ReceivedEInvoice; created: boolean }> {
  const existing = () => db.receivedEInvoice.findUnique({ where: { accountId_messageId: { accountId: input.accountId, messageId: input.messageId } } });
  const before = await existing();
  if (before) return { row: before, created: false };
  const summary = ublSummary(input.ubl);
  const violations: UblViolation[] = [...input.validation.violations];
  if (!summary) violations.push({ rule: "UBL-ROOT", flag: "fatal", message: "document is not a readable UBL Invoice or CreditNote" });
  else if (summary.buyerOib !== input.recipientOib) {
    violations.push({ rule: "FISKAL-RECIPIENT", flag: "fatal", message: `the document's buyer OIB (${summary.buyerOib ?? "none"}) is not the recipient's (${input.recipientOib})` });
  }
  const valid = input.validation.valid && violations.every((v) => v.flag !== "fatal");
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.receivedEInvoice.create({
        data: {
          accountId: input.accountId,
          messageId: input.messageId,
          number: summary?.number ?? null,
          documentType: summary?.documentType ?? null,
          sellerOib: summary?.sellerOib ?? null,
          sellerName: summary?.sellerName ?? null,
          buyerOib: input.recipientOib,
          issueDate: summary?.issueDate ?? null,
          currency: summary?.currency ?? null,
          totalNet: amount(summary?.totals.net ?? null),
          totalTax: amount(summary?.totals.vat ?? null),
          totalGross: amount(summary?.totals.gross ?? null),
          totalPayable: amount(summary?.totals.payable ?? null),
          ubl: input.ubl,
          ublSha256: sha256Hex(input.ubl),
          deliveredAt: input.deliveredAt ?? null,
          validationStatus: valid ? "valid" : "invalid",
          validation: { checked: input.validation.checked, violations: violations.map((v) => ({ ...v })) },
        },
      });
      await appendToArchive(tx, input.accountId, [
        archiveFile(row, "invoice.xml", Buffer.from(row.ubl, "utf8"), "application/xml"),
        archiveFile(
          row,
          "delivery.json",
          json({ id: row.id, direction: "received", message_id: row.messageId, delivered_at: row.deliveredAt?.toISOString() ?? null, received_at: row.receivedAt.toISOString(), ubl_sha256: row.ublSha256, validation: row.validation }),
        ),
      ]);
      return { row, created: true };
    });
  } catch (err) {
    // Two passes storing the same delivery at once: the other one's row stands.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const row = await existing();
      if (row) return { row, created: false };
    }
    throw err;
  }
}

export interface DecisionInput {
  accountId: string;
  id: string;
  decision: "accepted" | "rejected";
  /** Rejection only: N, U or O (eIzvjestavanjeSchema.xsd, VrstaRazlogaOdbijanja). */
  reasonType?: string;
  /** Rejection only: 1–1024 characters. */
  reason?: string;
  /** Rejection only: GGGG-MM-DD, from the issue date to today (Zagreb); default today. */
  rejectedOn?: string;
  /** Who decided, e.g. "api_key:<id>" or "user:<id>". */
  actor: string;
  now?: Date;
}

// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function rejectionProblems(row: ReceivedEInvoice, input: DecisionInput, rejectedOn: string, today: string): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (!(REJECTION_REASON_TYPES as readonly string[]).includes(input.reasonType ?? "")) problems.push({ path: "reason_type", message: "Vrsta razloga: N, U ili O." });
  const reason = input.reason?.trim() ?? "";
  if (!reason) problems.push({ path: "reason", message: "Navedite razlog odbijanja." });
  else if (reason.length > 1024) problems.push({ path: "reason", message: "Razlog može imati najviše 1024 znaka." });
  else if (NOT_XML_CHAR.test(reason)) problems.push({ path: "reason", message: "Razlog sadrži kontrolne znakove koji nisu dopušteni." });
  if (!isDay(rejectedOn)) problems.push({ path: "rejected_on", message: "Datum u obliku GGGG-MM-DD." });
  else if (row.issueDate && rejectedOn < row.issueDate) problems.push({ path: "rejected_on", message: `Datum ne može biti prije datuma izdavanja e-računa (${row.issueDate}).` });
  else if (rejectedOn > today) problems.push({ path: "rejected_on", message: `Datum ne može biti u budućnosti (danas je ${today}).` });
  return problems;
}

/**
 * The recipient accepts or rejects a received e-invoice. Once decided it stays so, except that a
 * rejection whose report the tax authority refused may be made again (corrected). A rejection is
 * committed with its report "pending" and a new request id (see the top of this file); the decision
 * enters the archive (acceptance.json, rejection-<request id>.json) in the same transaction.
 */
export async function decideReceivedEInvoice(db: Db, input: DecisionInput): Promise<ReceivedEInvoice> {
  const now = input.now ?? new Date();
  const row = await findReceivedEInvoice(db, input.accountId, input.id);
  if (!row) throw new ReceivedEInvoiceError("not_found", `E-račun ${input.id} ne postoji.`);
  const again = row.status === "rejected" && row.rejectionReportStatus === "refused" && input.decision === "rejected";
  if (row.status !== "received" && !again) {
    throw new ReceivedEInvoiceError("already_decided", `O e-računu ${row.number ?? row.id} već je odlučeno (${row.status === "accepted" ? "prihvaćen" : "odbijen"}).`);
  }
  const base = { decidedAt: now, decidedBy: input.actor };
  let data: Prisma.ReceivedEInvoiceUpdateManyMutationInput;
  let file: (updated: ReceivedEInvoice) => ArchiveFile;
  if (input.decision === "accepted") {
    data = { ...base, status: "accepted" };
    file = (u) => archiveFile(u, "acceptance.json", json({ id: u.id, decision: "accepted", decided_at: now.toISOString(), decided_by: input.actor }));
  } else {
    const today = zagrebDate(now);
    const rejectedOn = input.rejectedOn ?? today;
    const problems = rejectionProblems(row, input, rejectedOn, today);
    if (problems.length) throw new ReceivedEInvoiceError("invalid_input", "Odbijanje nije ispravno.", problems);
    if (!row.number || !row.issueDate || !row.sellerOib || !isValidOib(row.sellerOib)) {
      throw new ReceivedEInvoiceError("not_reportable", "E-račun se ne može pročitati (nema broja, datuma izdavanja ili OIB-a izdavatelja), pa se odbijanje ne može prijaviti Poreznoj upravi.", [
        { path: "id", message: "Dokument nema podatke koje prijava odbijanja traži." },
      ]);
    }
    const requestId = randomUUID();
    data = {
      ...base,
      status: "rejected",
      rejectionReasonType: input.reasonType!,
      rejectionReason: input.reason!.trim(),
      rejectionDate: rejectedOn,
      rejectionReportStatus: "pending",
      rejectionReportRequestId: requestId,
      rejectionReportedAt: null,
      rejectionReportAttempts: 0,
      rejectionReportNextAttemptAt: now,
      rejectionReportError: null,
    };
    file = (u) => archiveFile(u, `rejection-${requestId}.json`, json({ id: u.id, decision: "rejected", decided_at: now.toISOString(), decided_by: input.actor, report_request_id: requestId, odbijanje: odbijanjeOf(u) }));
  }
  const updated = await db.$transaction(async (tx) => {
    const { count } = await tx.receivedEInvoice.updateMany({
      where: { id: row.id, accountId: input.accountId, ...(again ? { status: "rejected", rejectionReportStatus: "refused" } : { status: "received" }) },
      data,
    });
    if (count === 0) return null;
    const u = await tx.receivedEInvoice.findUniqueOrThrow({ where: { id: row.id } });
    await appendToArchive(tx, input.accountId, [file(u)]);
    return u;
  });
  if (!updated) throw new ReceivedEInvoiceError("already_decided", `O e-računu ${row.number ?? row.id} upravo je odlučeno.`);
  return updated;
}

/** The account's received e-invoice, or null (also for an id that is not a UUID). */
export async function findReceivedEInvoice(db: Db, accountId: string, id: string): Promise<ReceivedEInvoice | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  return db.receivedEInvoice.findFirst({ where: { id, accountId } });
}

/** The rejection as reported (Odbijanje of eIzvjestavanjeSchema.xsd): the seller is the issuer, the account the recipient. */
export function odbijanjeOf(row: ReceivedEInvoice): Odbijanje {
  return {
    brojDokumenta: row.number ?? "",
    datumIzdavanja: row.issueDate ?? "",
    oibPorezniBrojIzdavatelja: row.sellerOib ?? "",
    oibPorezniBrojPrimatelja: row.buyerOib,
    datumOdbijanja: row.rejectionDate ?? "",
    vrstaRazlogaOdbijanja: (row.rejectionReasonType ?? "O") as VrstaRazlogaOdbijanja,
    razlogOdbijanja: row.rejectionReason ?? "",
  };
}

/** How a call to the tax authority ended: final ("recorded", "refused", "unknown") or to be tried again. */
export type ReportOutcome =
  | { status: "recorded"; at: Date }
  | { status: "refused"; error: string }
  | { status: "unknown"; error: string }
  | { status: "retry"; error: string; nextAttemptAt: Date };

/**
 * Stores the answer to the rejection report sent with `requestId` (nothing when another request
 * has taken the row since); a final answer enters the archive (rejection-<request id>-report.json).
 */
export async function completeRejectionReport(db: Db, id: string, requestId: string, outcome: ReportOutcome): Promise<ReceivedEInvoice | null> {
  const data: Prisma.ReceivedEInvoiceUpdateManyMutationInput =
    outcome.status === "retry"
      ? { rejectionReportNextAttemptAt: outcome.nextAttemptAt, rejectionReportError: outcome.error }
      : outcome.status === "recorded"
        ? { rejectionReportStatus: "recorded", rejectionReportedAt: outcome.at, rejectionReportNextAttemptAt: null, rejectionReportError: null }
        : { rejectionReportStatus: outcome.status, rejectionReportNextAttemptAt: null, rejectionReportError: outcome.error };
  return completeWithEvidence(db, id, { rejectionReportRequestId: requestId, rejectionReportStatus: "pending" }, data, outcome, (u) => ({
    file: `rejection-${requestId}-report.json`,
    content: { request_id: requestId, status: u.rejectionReportStatus, recorded_at: u.rejectionReportedAt?.toISOString() ?? null, attempts: u.rejectionReportAttempts, error: u.rejectionReportError },
  }));
}

/** Stores the answer to the Fiscalization 2.0 recording (type U) sent with `requestId`; a final answer enters the archive (fiscalization.json). */
export async function completeReceivedFiscalization(db: Db, id: string, requestId: string, outcome: Exclude<ReportOutcome, { status: "unknown" }>): Promise<ReceivedEInvoice | null> {
  const data: Prisma.ReceivedEInvoiceUpdateManyMutationInput =
    outcome.status === "retry"
      ? { fiscalizationNextAttemptAt: outcome.nextAttemptAt, fiscalizationError: outcome.error }
      : outcome.status === "recorded"
        ? { fiscalizationStatus: "recorded", fiscalizedAt: outcome.at, fiscalizationNextAttemptAt: null, fiscalizationError: null }
        : { fiscalizationStatus: "refused", fiscalizationNextAttemptAt: null, fiscalizationError: outcome.error };
  return completeWithEvidence(db, id, { fiscalizationRequestId: requestId, fiscalizationStatus: "pending" }, data, outcome, (u) => ({
    file: "fiscalization.json",
    content: { direction: "U", status: u.fiscalizationStatus, request_id: requestId, recorded_at: u.fiscalizedAt?.toISOString() ?? null, attempts: u.fiscalizationAttempts, error: u.fiscalizationError },
  }));
}

async function completeWithEvidence(
  db: Db,
  id: string,
  claim: Prisma.ReceivedEInvoiceWhereInput,
  data: Prisma.ReceivedEInvoiceUpdateManyMutationInput,
  outcome: ReportOutcome,
  evidence: (u: ReceivedEInvoice) => { file: string; content: unknown },
): Promise<ReceivedEInvoice | null> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.receivedEInvoice.updateMany({ where: { id, ...claim }, data });
    if (count === 0) return null;
    const u = await tx.receivedEInvoice.findUniqueOrThrow({ where: { id } });
    if (outcome.status !== "retry") {
      const e = evidence(u);
      await appendToArchive(tx, u.accountId, [archiveFile(u, e.file, json(e.content))]);
    }
    return u;
  });
}

/**
 * Which account receives the e-invoices delivered to an OIB: the account whose OIB it is
 * (Account.oib, the issuer OIB of its receipts), else whose certificate was issued to it; of several,
 * the oldest. Each OIB's inbox is read by one account only, so a document is stored once.
 */
export async function inboxAccounts(db: Db): Promise<{ accountId: string; oib: string }[]> {
  const rows = await db.$queryRaw<{ accountId: string; oib: string }[]>`
    SELECT DISTINCT ON (oib) "accountId", oib FROM (
      SELECT a.id AS "accountId", COALESCE(a.oib, c.oib) AS oib, a."createdAt", a.id
      FROM "Account" a LEFT JOIN "Certificate" c ON c."accountId" = a.id
    ) s
    WHERE oib ~ '^[0-9]{11}$'
    ORDER BY oib, "createdAt", id`;
  return rows.filter((r) => isValidOib(r.oib));
}
