// POST /v1/einvoices/send — validate, build UBL 2.1 (EN 16931, HR CIUS), hand to the intermediary.
//
// Record before calling out: (1) everything that can be checked is checked, before anything is
// written or sent; (2) the e-invoice is committed as "pending" with its UBL, message id and request;
// (3) the intermediary is called; (4) its answer is stored in the step that completes the e-invoice
// and the Idempotency-Key record — or, if the database refuses, journaled (shared journal and disk)
// for the reconciler. A pending e-invoice number is never sent again as a new document: it is being
// sent, or its answer was lost and it is sent again with the same message id, which the intermediary
// deduplicates (einvoice-fiscalization.ts). A number the intermediary rejected is kept with the
// refused document and the rule ids, and is free again.
//
// As for receipts: a 503 means nothing was recorded (the key and the number stay free); once the
// e-invoice may have been committed, the answer is its outcome or `outcome_unknown` (504) with its id,
// and the e-invoice's lease (`nextSendAt`) hands it to any instance if this request does not finish.
import { randomUUID } from "node:crypto";
import { Prisma, type EInvoice } from "@fiskal/db";
import {
  amountProblem,
  buildUbl,
  documentBuyerVatId,
  documentTotals,
  EINVOICE_FIRST_DATE,
  formatMoney,
  IntermediaryError,
  issueDateProblem,
  laterDateProblem,
  validateEInvoice,
  zagrebTime,
  type EInvoiceInput,
  type OutOfScopeLabel,
  type VatCategory,
} from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { commitPending, releaseIdempotencyRecord, retryWhileUnreachable, type IdempotencyControl, type PendingResolution } from "../../idempotency.ts";
import { CLAIM_LEASE_MS } from "../../records/resubmit.ts";
import { apiKeyProcedure, type Context } from "../../trpc.ts";
import { inProgress, isNumberTaken, outcomeUnknownError, recordAnswer, withRecordFirst, type ApiContext } from "../record-first.ts";
import { checkSellerCertificate, EInvoiceSchema, SendEInvoiceInput, toEInvoice, type EInvoiceOut } from "./schemas.ts";

/** HH:mm:ss of `now` in Zagreb: the issue time of a request that names none. */
function receivedAt(now: Date): string {
  const t = zagrebTime(now);
  return `${t.hour}:${t.minute}:${t.second}`;
}

/** The request in the model of @fiskal/fiscal; `issueTime` is the one given (HH:mm → HH:mm:00) or the time of receipt. */
function toDomain(i: SendEInvoiceInput, now: Date = new Date()): EInvoiceInput {
  const address = (a: SendEInvoiceInput["buyer"]["address"]) => a && { street: a.street, city: a.city, postalCode: a.postal_code, country: a.country };
  const tax = (t: { vat_category?: VatCategory; vat_rate?: string; exemption_reason?: string; exemption_reason_code?: string; out_of_scope?: OutOfScopeLabel }) => ({
    vatCategory: t.vat_category,
    vatRate: t.vat_rate,
    exemptionReason: t.exemption_reason,
    exemptionReasonCode: t.exemption_reason_code,
    outOfScope: t.out_of_scope,
  });
  const lineAllowanceCharge = (a: { amount: string; reason?: string; reason_code?: string; percent?: string; base_amount?: string }) => ({
    amount: a.amount,
    reason: a.reason,
    reasonCode: a.reason_code,
    percent: a.percent,
    baseAmount: a.base_amount,
  });
  const allowanceCharge = (a: NonNullable<SendEInvoiceInput["allowances"]>[number]) => ({
    amount: a.amount,
    reason: a.reason,
    reasonCode: a.reason_code,
    percent: a.percent,
    baseAmount: a.base_amount,
    ...tax(a),
  });
  const time = i.issue_time === undefined ? receivedAt(now) : i.issue_time.length === 5 ? `${i.issue_time}:00` : i.issue_time;
  return {
    documentType: i.document_type,
    number: i.number,
    issueDate: i.issue_date,
    issueTime: time,
    dueDate: i.due_date,
    processType: i.process_type,
    currency: i.currency,
    copy: i.copy,
    cashBasisVat: i.cash_basis_vat,
    note: i.note,
    seller: {
      oib: i.seller.oib,
      name: i.seller.name,
      tradingName: i.seller.trading_name,
      address: address(i.seller.address),
      endpoint: i.seller.endpoint,
      vatId: i.seller.vat_id,
      inVatSystem: i.seller.in_vat_system,
      iban: i.seller.iban,
      legalForm: i.seller.legal_form,
    },
    buyer: { oib: i.buyer.oib, name: i.buyer.name, tradingName: i.buyer.trading_name, businessUnit: i.buyer.business_unit, address: address(i.buyer.address), endpoint: i.buyer.endpoint, vatId: i.buyer.vat_id },
    operator: i.operator,
    billingReferences: i.billing_references?.map((r) => ({ number: r.number, issueDate: r.issue_date, description: r.description })),
    period: i.period,
    delivery: i.delivery && { date: i.delivery.date, address: address(i.delivery.address) },
    payment: i.payment && { meansCode: i.payment.means_code, iban: i.payment.iban, reference: i.payment.reference, note: i.payment.note, terms: i.payment.terms },
    allowances: i.allowances?.map(allowanceCharge),
    charges: i.charges?.map(allowanceCharge),
    lines: i.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unit: l.unit,
      unitPrice: l.unit_price,
      baseQuantity: l.base_quantity,
      allowances: l.allowances?.map(lineAllowanceCharge),
      charges: l.charges?.map(lineAllowanceCharge),
      period: l.period,
      kpd: l.kpd,
      lineTotal: l.line_total,
      note: l.note,
      ...tax(l),
    })),
    totals: {
      net: i.totals.net,
      vat: i.totals.vat,
      gross: i.totals.gross,
      lineTotal: i.totals.line_total,
      allowances: i.totals.allowances,
      charges: i.totals.charges,
      prepaid: i.totals.prepaid,
      payable: i.totals.payable,
      vatBreakdown: i.totals.vat_breakdown?.map((g) => ({ category: g.category, rate: g.rate, taxableAmount: g.taxable_amount, taxAmount: g.tax_amount })),
    },
  };
}

/** Snake-case paths in problems so they match the JSON the client sent. */
function toSnakePath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

type Problem = { path: string; message: string; rule?: string };

/** Every problem that can be found without the intermediary; nothing is written or sent while there is one. */
function eInvoiceProblems(input: SendEInvoiceInput, domain: EInvoiceInput, kpd: Context["services"]["kpd"], now: Date = new Date()): Problem[] {
  const problems: Problem[] = validateEInvoice(domain, kpd).map((p) => ({ ...p, path: toSnakePath(p.path) }));
  // Dates and amounts the law and the database allow, unless the field already has a problem.
  const add = (path: string, message: string | null) => {
    if (message && !problems.some((p) => p.path === path)) problems.push({ path, message });
  };
  add("issue_date", issueDateProblem(input.issue_date, now, EINVOICE_FIRST_DATE));
  if (input.due_date !== undefined) add("due_date", laterDateProblem(input.due_date, "Datum dospijeća"));
  for (const k of ["net", "vat", "gross", "prepaid", "payable"] as const) if (input.totals[k] !== undefined) add(`totals.${k}`, amountProblem(input.totals[k]));
  input.lines.forEach((line, i) => add(`lines[${i}].line_total`, amountProblem(line.line_total)));
  return problems;
}

/**
 * The 409 for an e-invoice number that already has a row: sent (with the intermediary's id), being
 * sent right now, or sent without a recorded answer — never sent again in any case.
 */
async function eInvoiceTaken(ctx: ApiContext, row: EInvoice, label: string): Promise<ApiError> {
  let intermediaryId = row.intermediaryId;
  if (row.status === "pending") {
    const journaled = await ctx.services.reconciler.journaled((e) => e.kind === "einvoice" && e.id === row.id);
    if (journaled?.kind === "einvoice") intermediaryId = journaled.intermediaryId;
    else intermediaryId = (await ctx.services.db.eInvoice.findUnique({ where: { id: row.id }, select: { intermediaryId: true } }))?.intermediaryId ?? null;
  }
  if (intermediaryId) {
    return new ApiError("conflict", `${label} već je poslan (${row.id}, kod posrednika ${intermediaryId}).`, { reason: "sent", id: row.id, intermediary_id: intermediaryId });
  }
  if (row.nextSendAt && row.nextSendAt > new Date()) {
    return inProgress(`${label} upravo se šalje posredniku; ne šaljite ga ponovno. Ishod provjerite za trenutak.`, row.id);
  }
  return new ApiError(
    "conflict",
    `${label} predan je posredniku, ali njegov odgovor još nije zabilježen; Fiskal ga sam ponovno predaje s istom oznakom poruke (posrednik ga ne prima dvaput). Ne šaljite ga ponovno; stanje: GET /v1/einvoices/${row.id}.`,
    { reason: "resending", id: row.id },
  );
}

/** The answer when the e-invoice may have been committed but that cannot be learned now. */
function outcomeUnknown(id: string, label: string): ApiError {
  return outcomeUnknownError(
    `Baza podataka prekinula je vezu dok se ${label.charAt(0).toLowerCase()}${label.slice(1)} spremao, pa nije poznato je li zabilježen. Ponovite isti zahtjev s istim Idempotency-Key (ili provjerite GET /v1/einvoices/${id}): ako je zabilježen, Fiskal ga sam dovršava i nikad ga ne šalje dvaput.`,
    id,
  );
}

/**
 * A retry with the key of a request that did not finish: the e-invoice it committed says what
 * happened. Sent: replayed. Rejected: the key is free (the same document is refused again).
 * Within its call's lease: in progress. Past it: sent again now with the same message id.
 */
async function resolveKey(ctx: ApiContext, recordId: string): Promise<PendingResolution> {
  const { db, einvoiceFiscalization } = ctx.services;
  const row = await db.eInvoice.findFirst({ where: { idempotencyRecordId: recordId, accountId: ctx.principal.accountId } });
  if (!row) return { kind: "none" };
  if (row.status === "rejected") return { kind: "free" };
  if (row.status !== "pending") return { kind: "replay", response: toEInvoice(row) };
  if ((row.nextSendAt && row.nextSendAt > new Date()) || !einvoiceFiscalization) return { kind: "in_progress" };
  await einvoiceFiscalization.resendNow(row.id);
  const after = await db.eInvoice.findUnique({ where: { id: row.id } });
  if (!after || after.status === "pending") return { kind: "in_progress" };
  return after.status === "rejected" ? { kind: "free" } : { kind: "replay", response: toEInvoice(after) };
}

async function sendDocument(ctx: ApiContext, input: SendEInvoiceInput, domain: EInvoiceInput, control: IdempotencyControl): Promise<EInvoiceOut> {
  const { db, intermediary, log } = ctx.services;
  const accountId = ctx.principal.accountId;
  await checkSellerCertificate(ctx, input.seller.oib);
  const ubl = buildUbl(domain);
  const label = `E-račun ${input.number} izdavatelja ${input.seller.oib}`;
  const messageId = randomUUID();
  const id = randomUUID();
  const leaseMs = ctx.services.lateDelivery?.leaseMs ?? CLAIM_LEASE_MS;
  const totals = documentTotals(domain);
  const data = {
    documentType: domain.documentType ?? "380",
    sellerOib: input.seller.oib,
    buyerOib: input.buyer.oib ?? null,
    buyerVatId: documentBuyerVatId(domain),
    issueDate: input.issue_date,
    issueTime: domain.issueTime,
    currency: input.currency,
    totalNet: new Prisma.Decimal(formatMoney(totals.net)),
    totalTax: new Prisma.Decimal(formatMoney(totals.vat)),
    totalGross: new Prisma.Decimal(formatMoney(totals.gross)),
    totalPayable: new Prisma.Decimal(formatMoney(totals.payable)),
    ubl,
    status: "pending",
    messageId,
    idempotencyRecordId: control.recordId ?? null,
    request: input as Prisma.InputJsonValue,
    rejection: Prisma.DbNull,
  };

  // 1. Recorded and committed before the intermediary hears of it. The unique number makes
  //    concurrent sends of one e-invoice meet here: one row wins, the others get 409. A number whose
  //    last document the intermediary rejected is free again: that row takes the new document.
  let pending: EInvoice;
  try {
    pending = await commitPending(db, {
      write: async (tx) => {
        await control.insertRecord(tx);
        return tx.eInvoice.create({ data: { id, accountId, number: input.number, ...data, nextSendAt: new Date(Date.now() + leaseMs) } });
      },
      ours: () => db.eInvoice.findUnique({ where: { id } }),
      unknown: () => outcomeUnknown(id, label),
    });
  } catch (err) {
    if (!isNumberTaken(err)) throw err;
    // The number belongs to the seller's OIB across accounts: another account's e-invoice is a 409
    // that says nothing of that account or its document (even when the intermediary rejected it).
    const elsewhere = await db.eInvoice.findUnique({ where: { sellerOib_number: { sellerOib: input.seller.oib, number: input.number } }, select: { accountId: true } });
    if (elsewhere && elsewhere.accountId !== accountId) {
      throw new ApiError(
        "conflict",
        `${label} već postoji (broj e-računa pripada izdavatelju, bez obzira na to s kojeg je računa u Fiskalu poslan). Izdajte e-račun sa sljedećim brojem.`,
        { reason: "number_taken" },
      );
    }
    const where = { accountId_sellerOib_number: { accountId, sellerOib: input.seller.oib, number: input.number } };
    const taken = await db.eInvoice.findUnique({ where });
    if (!taken) throw inProgress(`${label} upravo se šalje; ponovite za trenutak.`);
    if (taken.status !== "rejected") throw (await eInvoiceTaken(ctx, taken, label));
    const busy = () => inProgress(`${label} upravo se šalje; ponovite za trenutak.`, taken.id);
    pending = await commitPending(db, {
      write: async (tx) => {
        await control.insertRecord(tx);
        const { count } = await tx.eInvoice.updateMany({
          where: { id: taken.id, status: "rejected" },
          data: { ...data, intermediaryId: null, sentAt: null, createdAt: new Date(), nextSendAt: new Date(Date.now() + leaseMs) },
        });
        if (count === 0) throw busy();
        return tx.eInvoice.findUniqueOrThrow({ where: { id: taken.id } });
      },
      ours: () => db.eInvoice.findFirst({ where: { id: taken.id, messageId } }),
      unknown: () => outcomeUnknown(taken.id, label),
    });
  }

  // 2. The call (short throttling waits resend the same message id, which the intermediary deduplicates).
  let sent: { id: string; status: "accepted" | "queued" };
  try {
    sent = await sendWithRetry(() => intermediary.send({ ubl, sellerOib: input.seller.oib, buyerOib: input.buyer.oib, buyerEndpoint: domain.buyer.endpoint, messageId }));
  } catch (err) {
    if (err instanceof IntermediaryError && err.kind === "rejected") {
      // The intermediary refused the document: it holds nothing. The row keeps the document and the
      // reasons (GET shows them); the number may be sent again with a corrected document.
      const rejection = { message: err.message, rules: err.rules };
      await retryWhileUnreachable(() =>
        db.$transaction(async (tx) => {
          await tx.eInvoice.updateMany({ where: { id: pending.id, status: "pending", messageId }, data: { status: "rejected", rejection, nextSendAt: null } });
          await releaseIdempotencyRecord(tx, control.recordId);
        }),
      ).catch((storeErr: unknown) => {
        // Kept pending: the resend (same message id) is rejected again and recorded then.
        log.error({ accountId, number: input.number, id: pending.id, err: storeErr }, "rejected e-invoice stays pending");
      });
      throw new ApiError(
        "validation_error",
        `Posrednik je odbio ${label.charAt(0).toLowerCase()}${label.slice(1)} (id ${pending.id}): ${err.message}. Dokument i razlozi spremljeni su (GET /v1/einvoices/${pending.id}); ispravljeni e-račun možete poslati pod istim brojem.`,
        (err.rules.length ? err.rules : ["intermediary"]).map((rule) => ({ path: "", rule, message: err.message })),
      );
    }
    if (err instanceof ApiError) {
      // The intermediary throttled or is unavailable: it holds nothing, so the number and the key are
      // free for a retry. If the database cannot remove them now, the e-invoice is sent later by itself.
      const removed = await retryWhileUnreachable(() =>
        db.$transaction(async (tx) => {
          await tx.eInvoice.deleteMany({ where: { id: pending.id, status: "pending", messageId } });
          await releaseIdempotencyRecord(tx, control.recordId);
        }),
      ).then(
        () => true,
        (deleteErr: unknown) => {
          log.error({ accountId, number: input.number, id: pending.id, err: deleteErr }, "refused e-invoice stays pending; it is sent again after its lease");
          return false;
        },
      );
      if (!removed) throw outcomeUnknown(pending.id, label);
      throw err;
    }
    // No answer (connection lost, timeout): the intermediary may have the document. It stays
    // pending; after its lease it is sent again with the same message id; the key stays taken.
    control.committed();
    log.error({ accountId, number: input.number, id: pending.id, messageId, err }, "no answer from the intermediary; the e-invoice is sent again after its lease");
    throw outcomeUnknown(pending.id, label);
  }
  control.committed();

  // 3. The answer completes the e-invoice and the key's record, or goes to the journal.
  const sentAt = new Date();
  const response = toEInvoice({ ...pending, status: sent.status, intermediaryId: sent.id, sentAt });
  // If neither the database nor a journal takes it, the e-invoice is sent again after its lease.
  await recordAnswer(
    ctx,
    control,
    () => ({ kind: "einvoice", id: pending.id, accountId, idempotencyRecordId: control.recordId ?? null, intermediaryId: sent.id, status: sent.status, sentAt: sentAt.toISOString(), response }),
    () => outcomeUnknown(pending.id, label),
  );
  return response;
}

export const sendEInvoice = apiKeyProcedure
  .meta({
    group: "einvoice",
    idempotent: true,
    openapi: {
      method: "POST",
      path: "/v1/einvoices/send",
      tags: ["einvoices"],
      summary: "Slanje B2B e-računa (UBL 2.1, HR CIUS) putem posrednika",
      description:
        "Račun (380), odobrenje (381), korektivni račun (384) ili račun za predujam (386) sa svim kategorijama PDV-a (S, Z, E, AE, K, G, O), " +
        "popustima i troškovima, operaterom i vremenom izdavanja. Nepoznato polje je pogreška 400 koja ga imenuje. Prije slanja API provjerava " +
        "pravila EN 16931 i HR CIUS koja se mogu provjeriti iz zahtjeva i vraća ih kao validation_error s oznakom pravila (rule, npr. BR-S-08). " +
        "Zbrojeve izračunava izdavatelj; API ih provjerava. Pošaljite zaglavlje Idempotency-Key.",
      protect: true,
    },
  })
  .input(SendEInvoiceInput)
  .output(EInvoiceSchema)
  .mutation(async ({ input, ctx }) => {
    const now = new Date();
    const domain = toDomain(input, now);
    const problems = eInvoiceProblems(input, domain, ctx.services.kpd, now);
    if (problems.length) throw new ApiError("validation_error", "E-račun nije ispravan.", problems);
    return withRecordFirst(ctx, "einvoice.send", input, (control) => sendDocument(ctx, input, domain, control), resolveKey);
  });

/**
 * The intermediary throttles; short waits are absorbed here, longer ones are the client's to take.
 * A rejection is rethrown as it is (the caller records it); throttling and outages become an ApiError.
 */
async function sendWithRetry<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof IntermediaryError) || err.kind === "rejected") throw err;
      const wait = err.retryAfterSeconds ?? 1;
      if (err.kind === "throttled" && attempt < 2 && wait <= 2) {
        await new Promise((r) => setTimeout(r, wait * 1000));
        continue;
      }
      throw new ApiError("upstream_unavailable", "Posrednik za e-račune trenutno ne prima zahtjeve; pokušajte ponovno s istim Idempotency-Key.", undefined, {
        "Retry-After": String(Math.max(1, Math.ceil(wait))),
      });
    }
  }
}
