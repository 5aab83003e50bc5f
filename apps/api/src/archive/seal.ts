// Sealing: every issued document enters its account's archive once it is final — a receipt when it
// has its JIR (with the signed CIS request and CIS's answer exactly as they went over the wire, when
// the real CIS client fiscalized it), an e-invoice when the intermediary took it (its UBL as
// delivered) and again when the tax authority recorded or refused it (the fiscalization evidence).
// Entries are appended to the account's hash chain under a transaction-scoped advisory lock, so two
// instances never fork it.
import { zagrebTime } from "@fiskal/fiscal";
import { appendToArchive, CIS_ANSWER_FILE, CIS_REQUEST_FILE, zagrebDayStart } from "@fiskal/accounts";
import type { Db, EInvoice, Invoice, ReceiptCisExchange } from "@fiskal/db";
import { toInvoice } from "../procedures/invoices/schemas.ts";

/** "GGGG-MM" of an instant in Zagreb. */
const zagrebMonth = (d: Date): string => {
  const t = zagrebTime(d);
  return `${t.year}-${t.month}`;
};

/** Documents sealed per transaction: a long backlog is sealed in several. */
const BATCH = 500;

interface NewFile {
  documentKind: "receipt" | "einvoice";
  documentId: string;
  name: string;
  contentType: string;
  content: Buffer;
  issuedAt: Date;
}


/** A path segment from free text (a document number may hold "/" or spaces). */
function segment(text: string): string {
  return text.replace(/[^0-9A-Za-z._-]+/g, "_").slice(0, 80) || "_";
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2) + "\n", "utf8");

function receiptFolder(row: Pick<Invoice, "issuedAt" | "premises" | "device" | "number">): string {
  return `receipts/${zagrebMonth(row.issuedAt)}/${segment(row.premises)}-${segment(row.device)}-${segment(row.number)}`;
}

function einvoiceFolder(row: Pick<EInvoice, "issueDate" | "number" | "id">): string {
  return `einvoices/${row.issueDate.slice(0, 7)}/${segment(row.number)}-${row.id.slice(0, 8)}`;
}

type ReceiptRow = Invoice & { cisExchange: Pick<ReceiptCisExchange, "request" | "answer"> | null };

function receiptFiles(row: ReceiptRow): NewFile[] {
  const folder = receiptFolder(row);
  const base = { documentKind: "receipt" as const, documentId: row.id, issuedAt: row.issuedAt };
  // The messages of the call that brought the JIR; receipts fiscalized without them (the simulator,
  // or before they were kept) have the JSON evidence only.
  const exchange = row.cisExchange?.answer ? row.cisExchange : null;
  const messages: NewFile[] = exchange
    ? [
        { ...base, name: `${folder}/${CIS_REQUEST_FILE}`, contentType: "application/xml", content: Buffer.from(exchange.request) },
        { ...base, name: `${folder}/${CIS_ANSWER_FILE}`, contentType: "application/xml", content: Buffer.from(exchange.answer!) },
      ]
    : [];
  return [
    { ...base, name: `${folder}/request.json`, contentType: "application/json", content: json(row.request) },
    {
      ...base,
      name: `${folder}/fiscalization.json`,
      contentType: "application/json",
      content: json({
        receipt: toInvoice(row),
        cis: { message_id: row.messageId, jir: row.jir, zki: row.zki, received_at: row.fiscalizedAt?.toISOString() ?? null, late_delivery: row.lateDelivery, attempts: row.deliveryAttempts },
      }),
    },
    ...messages,
  ];
}

function einvoiceIssuedAt(row: EInvoice): Date {
  const [h, m, s] = row.issueTime.split(":").map(Number);
  return new Date(zagrebDayStart(row.issueDate).getTime() + ((h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0)) * 1000);
}

function einvoiceFiles(row: EInvoice): NewFile[] {
  const folder = einvoiceFolder(row);
  const base = { documentKind: "einvoice" as const, documentId: row.id, issuedAt: einvoiceIssuedAt(row) };
  const files: NewFile[] = [
    { ...base, name: `${folder}/invoice.xml`, contentType: "application/xml", content: Buffer.from(row.ubl, "utf8") },
    {
      ...base,
      name: `${folder}/delivery.json`,
      contentType: "application/json",
      content: json({ id: row.id, number: row.number, document_type: row.documentType, status: row.status, intermediary_id: row.intermediaryId, message_id: row.messageId, sent_at: row.sentAt?.toISOString() ?? null }),
    },
  ];
  if (row.fiscalizationStatus === "recorded" || row.fiscalizationStatus === "refused") {
    files.push({
      ...base,
      name: `${folder}/fiscalization.json`,
      contentType: "application/json",
      content: json({ status: row.fiscalizationStatus, request_id: row.fiscalizationRequestId, recorded_at: row.fiscalizedAt?.toISOString() ?? null, attempts: row.fiscalizationAttempts, error: row.fiscalizationError }),
    });
  }
  return files;
}

/** Appends what is final and not yet archived to the account's chain; returns the entries added. */
export async function sealAccount(db: Db, accountId: string): Promise<number> {
  let added = 0;
  for (;;) {
    const n = await db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM pg_advisory_xact_lock(hashtext(${"archive:" + accountId}))`;
        const receiptIds = await tx.$queryRaw<{ id: string }[]>`
          SELECT i.id FROM "Invoice" i
          WHERE i."accountId" = ${accountId}::uuid AND i.status = 'fiscalized'
            AND NOT EXISTS (SELECT 1 FROM "ArchiveEntry" a WHERE a."accountId" = i."accountId" AND a."documentId" = i.id)
          ORDER BY i."createdAt", i.id LIMIT ${BATCH}`;
        const einvoiceIds = await tx.$queryRaw<{ id: string }[]>`
          SELECT e.id FROM "EInvoice" e
          WHERE e."accountId" = ${accountId}::uuid AND e.status IN ('accepted', 'queued')
            AND (SELECT count(*) FROM "ArchiveEntry" a WHERE a."accountId" = e."accountId" AND a."documentId" = e.id)
                < CASE WHEN e."fiscalizationStatus" IN ('recorded', 'refused') THEN 3 ELSE 2 END
          ORDER BY e."createdAt", e.id LIMIT ${BATCH}`;
        if (!receiptIds.length && !einvoiceIds.length) return 0;
        const receipts = await tx.invoice.findMany({
          where: { id: { in: receiptIds.map((r) => r.id) } },
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
          include: { cisExchange: { select: { request: true, answer: true } } },
        });
        const einvoices = await tx.eInvoice.findMany({ where: { id: { in: einvoiceIds.map((r) => r.id) } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
        const present = new Set(
          (await tx.archiveEntry.findMany({ where: { accountId, documentId: { in: einvoices.map((e) => e.id) } }, select: { name: true } })).map((e) => e.name),
        );
        const files = [...receipts.flatMap(receiptFiles), ...einvoices.flatMap(einvoiceFiles)].filter((f) => !present.has(f.name));
        if (!files.length) return 0;
        return appendToArchive(tx, accountId, files);
      },
      { timeout: 60_000, maxWait: 30_000 },
    );
    added += n;
    if (n === 0) return added;
  }
}
