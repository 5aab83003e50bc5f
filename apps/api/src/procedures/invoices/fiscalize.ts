// POST /v1/invoices/fiscalize — ZKI with the account's certificate, JIR from the tax authority.
//
// Record before calling out: (1) everything that can be checked is checked, before anything is
// written or sent; (2) the receipt is committed as "pending" with its ZKI, message id and request
// (and, with the real CIS client, the signed RacunZahtjev that is then sent as it is);
// (3) the tax authority is called; (4) its JIR is stored in the step that completes the receipt and
// the Idempotency-Key record — or, if the database refuses, journaled (shared journal and disk) for
// the reconciler. A pending receipt number is never sent again as a new receipt: it is being
// fiscalized, or it is delivered late (NakDost) by the job of resubmit.ts.
//
// The database may go away at any step. A 503 means nothing was recorded (the key and the number
// stay free); once the receipt may have been committed, the answer is either its outcome or
// `outcome_unknown` (504) with its id, and the receipt is completed without the request: its row
// carries the lease of this call (`nextAttemptAt`), after which any instance delivers it late.
import { randomUUID } from "node:crypto";
import { Prisma, type Invoice } from "@fiskal/db";
import {
  computeZki,
  formatMoney,
  formatRate,
  isLateDelivery,
  lateDeliveryWindowProblem,
  parseMoney,
  receiptProblems,
  TaxAuthorityError,
  toRacunType,
  type FiscalizeAnswer,
  type Receipt,
} from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { commitPending, releaseIdempotencyRecord, retryWhileUnreachable, type IdempotencyControl, type PendingResolution } from "../../idempotency.ts";
import { CLAIM_LEASE_MS, deferReceipt } from "../../records/resubmit.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { signingCertificate } from "../certificates/store.ts";
import { inProgress, isNumberTaken, outcomeUnknownError, recordAnswer, withRecordFirst, type ApiContext } from "../record-first.ts";
import { storedExchange } from "./complete.ts";
import { FiscalizeInput, InvoiceSchema, toInvoice, type InvoiceOut, type StoredAmounts } from "./schemas.ts";

type Problem = { path: string; message: string };

/**
 * The receipt in the domain's names. NakDost (late delivery) is the system's to set, never the
 * request's: true for a re-entered paragon receipt (issued to the buyer without a JIR) and for a
 * receipt issued more than LATE_DELIVERY_TOLERANCE_MS before it was received.
 */
export function toReceipt(input: FiscalizeInput, now: Date = new Date()): Receipt {
  const issuedAt = new Date(input.issued_at);
  return {
    oib: input.oib,
    issuedAt,
    number: input.number,
    premises: input.premises,
    device: input.device,
    total: input.total,
    paymentMethod: input.payment_method,
    operatorOib: input.operator_oib,
    vatRegistered: input.vat_registered,
    sequence: input.sequence,
    // Issued earlier than Fiskal received it (beyond the tolerance): the receipt reaches CIS late.
    lateDelivery: input.paragon_number !== undefined || isLateDelivery(issuedAt, now),
    vat: input.vat,
    consumptionTax: input.consumption_tax,
    otherTaxes: input.other_taxes,
    exemptAmount: input.exempt_amount,
    marginAmount: input.margin_amount,
    notTaxableAmount: input.not_taxable_amount,
    fees: input.fees,
    buyerOib: input.buyer_oib,
    paragonNumber: input.paragon_number,
    specialPurpose: input.special_purpose,
  };
}

/** Taxes, fees and special amounts as stored and returned: rates and amounts with 2 decimals. */
function storedAmounts(input: FiscalizeInput): StoredAmounts {
  const money = (v: string) => formatMoney(parseMoney(v));
  const line = (l: { rate: string; base: string; amount: string }) => ({ rate: formatRate(l.rate), base: money(l.base), amount: money(l.amount) });
  return {
    ...(input.vat ? { vat: input.vat.map(line) } : {}),
    ...(input.consumption_tax ? { consumption_tax: input.consumption_tax.map(line) } : {}),
    ...(input.other_taxes ? { other_taxes: input.other_taxes.map((t) => ({ name: t.name, ...line(t) })) } : {}),
    ...(input.exempt_amount !== undefined ? { exempt_amount: money(input.exempt_amount) } : {}),
    ...(input.margin_amount !== undefined ? { margin_amount: money(input.margin_amount) } : {}),
    ...(input.not_taxable_amount !== undefined ? { not_taxable_amount: money(input.not_taxable_amount) } : {}),
    ...(input.fees ? { fees: input.fees.map((f) => ({ name: f.name, amount: money(f.amount) })) } : {}),
  };
}

/**
 * A storno (negative total) may name the receipt it cancels: one of this account's receipts, of the
 * same issuer, with a positive total at least as large. The reference is kept with the receipt;
 * CIS's RacunType has no field for it, so the storno goes to CIS as an ordinary receipt with
 * negative amounts (spec v2.6 §2.1.5, §2.7).
 */
async function stornoProblems(ctx: ApiContext, input: FiscalizeInput): Promise<Problem[]> {
  if (input.storno_of === undefined) return [];
  const total = parseMoney(input.total);
  if (total >= 0n) return [{ path: "total", message: "Storno mora imati negativan ukupni iznos." }];
  const original = await ctx.services.db.invoice.findFirst({
    where: { id: input.storno_of, accountId: ctx.principal.accountId },
    select: { oib: true, total: true, number: true, premises: true, device: true },
  });
  if (!original) return [{ path: "storno_of", message: `Račun ${input.storno_of} ne postoji.` }];
  const label = `${original.number}/${original.premises}/${original.device}`;
  if (original.oib !== input.oib) return [{ path: "storno_of", message: `Račun ${label} izdao je drugi obveznik (OIB ${original.oib}).` }];
  const originalTotal = parseMoney(original.total.toFixed(2));
  if (originalTotal <= 0n) return [{ path: "storno_of", message: `Račun ${label} je i sam storno; stornira se izvorni račun.` }];
  if (-total > originalTotal) {
    return [{ path: "total", message: `Storno (${formatMoney(total)}) ne može biti veći od iznosa računa ${label} (${formatMoney(originalTotal)}).` }];
  }
  return [];
}

/**
 * The 409 for a receipt number that already has a row: fiscalized (with its JIR), being fiscalized
 * right now, or sent without a recorded answer — never sent again in any case.
 */
async function receiptTaken(ctx: ApiContext, row: Invoice, label: string): Promise<ApiError> {
  let jir = row.jir;
  if (row.status === "pending") {
    const journaled = await ctx.services.reconciler.journaled((e) => e.kind === "invoice" && e.id === row.id);
    if (journaled?.kind === "invoice") jir = journaled.jir;
    else jir = (await ctx.services.db.invoice.findUnique({ where: { id: row.id }, select: { jir: true } }))?.jir ?? null;
  }
  if (jir) return new ApiError("conflict", `Račun ${label} već je fiskaliziran (JIR ${jir}).`, { reason: "fiscalized", id: row.id, jir });
  if (firstCallHolds(row)) return inProgress(`Račun ${label} upravo se fiskalizira; ne šaljite ga ponovno. Ishod provjerite za trenutak.`, row.id);
  return new ApiError(
    "conflict",
    `Račun ${label} izdan je bez JIR-a (Porezna uprava nije bila dostupna ili njezin odgovor nije zabilježen); Fiskal ga sam naknadno dostavlja (NakDost). Ne šaljite ga ponovno; stanje: GET /v1/invoices/${row.id}.`,
    { reason: "late_delivery", id: row.id },
  );
}

/** CIS refused the receipt itself (or would: it cannot be signed as the schema requires). */
function refusedByCis(err: TaxAuthorityError): ApiError {
  return new ApiError("validation_error", `Porezna uprava odbila je račun: ${err.message}`, { cis_code: err.code });
}

/** The 409 for a number another account of the same issuer already used: nothing of that account is shown. */
function numberTakenElsewhere(label: string, oib: string): ApiError {
  return new ApiError(
    "conflict",
    `Račun ${label} obveznika ${oib} već je izdan (broj računa pripada obvezniku, bez obzira na to s kojeg je računa u Fiskalu poslan). Izdajte račun sa sljedećim brojem.`,
    { reason: "number_taken" },
  );
}

/** The request that committed the receipt is still within its call's lease (nothing else sends it meanwhile). */
function firstCallHolds(row: Invoice, now = new Date()): boolean {
  return row.status === "pending" && row.deliveryAttempts === 0 && row.nextAttemptAt !== null && row.nextAttemptAt > now;
}

/** The answer when the receipt may have been committed but that cannot be learned now. */
function outcomeUnknown(id: string, label: string): ApiError {
  return outcomeUnknownError(
    `Baza podataka prekinula je vezu dok se račun ${label} spremao, pa nije poznato je li zabilježen. Ponovite isti zahtjev s istim Idempotency-Key (ili provjerite GET /v1/invoices/${id}): ako je zabilježen, Fiskal ga sam dovršava i nikad ga ne fiskalizira dvaput.`,
    id,
  );
}

/**
 * A retry with the key of a request that did not finish: the receipt it committed says what
 * happened. Fiscalized or issued without a JIR: replayed. Still within its first call's lease: in
 * progress. Past it, the request went away without an answer: the receipt is delivered late now
 * (any instance), and what that brings is replayed.
 */
async function resolveKey(ctx: ApiContext, recordId: string): Promise<PendingResolution> {
  const { db, lateDelivery } = ctx.services;
  const row = await db.invoice.findFirst({ where: { idempotencyRecordId: recordId, accountId: ctx.principal.accountId } });
  if (!row) return { kind: "none" };
  if (row.jir || row.deliveryAttempts > 0) return { kind: "replay", response: toInvoice(row) };
  if (firstCallHolds(row) || !lateDelivery) return { kind: "in_progress" };
  const outcome = await lateDelivery.deliverNow(row.id);
  if (outcome === "journaled") return { kind: "in_progress" };
  const after = await db.invoice.findUnique({ where: { id: row.id } });
  return after ? { kind: "replay", response: toInvoice(after) } : { kind: "none" };
}

async function fiscalizeReceipt(ctx: ApiContext, input: FiscalizeInput, control: IdempotencyControl): Promise<InvoiceOut> {
  const { db, taxAuthority, log } = ctx.services;
  const accountId = ctx.principal.accountId;
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { name: true } });
  const cert = await signingCertificate(db, ctx.services.certificateKeys, accountId, { oib: input.oib, name: account.name }, new Date(), taxAuthority.certificates);
  const receipt = toReceipt(input);
  const label = `${input.number}/${input.premises}/${input.device}`;
  const zki = computeZki(receipt, cert.keyPem);
  const messageId = randomUUID();
  const id = randomUUID();
  const call = { receipt, zki, certPem: cert.certPem, keyPem: cert.keyPem, messageId, racun: toRacunType(receipt, zki) };
  // The real CIS client signs now: the signed RacunZahtjev is committed with the pending receipt
  // (its evidence for the archive) and then sent as it is. A request it cannot sign is refused here,
  // before anything is written, as CIS would refuse it.
  let signedRequest: string | undefined;
  try {
    signedRequest = taxAuthority.signRequest?.(call);
  } catch (err) {
    if (err instanceof TaxAuthorityError && err.kind === "rejected") throw refusedByCis(err);
    throw err;
  }
  const leaseMs = ctx.services.lateDelivery?.leaseMs ?? CLAIM_LEASE_MS;
  const data = {
    id,
    accountId,
    oib: input.oib,
    number: input.number,
    premises: input.premises,
    device: input.device,
    issuedAt: receipt.issuedAt,
    total: new Prisma.Decimal(input.total),
    paymentMethod: input.payment_method,
    operatorOib: input.operator_oib,
    vatRegistered: input.vat_registered,
    sequenceMark: input.sequence,
    lateDelivery: receipt.lateDelivery === true,
    amounts: storedAmounts(input) as Prisma.InputJsonValue,
    buyerOib: input.buyer_oib ?? null,
    paragonNumber: input.paragon_number ?? null,
    specialPurpose: input.special_purpose ?? null,
    stornoOfId: input.storno_of ?? null,
    zki,
    status: "pending",
    messageId,
    idempotencyRecordId: control.recordId ?? null,
    request: input as Prisma.InputJsonValue,
  };

  // 1. Recorded and committed before the tax authority hears of it, with the key's record. The
  //    unique number makes concurrent sends of one receipt meet here: one row wins, the others get 409.
  let pending: Invoice;
  try {
    pending = await commitPending(db, {
      write: async (tx) => {
        await control.insertRecord(tx);
        const exchange = signedRequest ? { cisExchange: { create: { messageId, request: new Uint8Array(Buffer.from(signedRequest, "utf8")) } } } : {};
        return tx.invoice.create({ data: { ...data, nextAttemptAt: new Date(Date.now() + leaseMs), ...exchange } });
      },
      ours: () => db.invoice.findUnique({ where: { id } }),
      unknown: () => outcomeUnknown(id, label),
    });
  } catch (err) {
    if (!isNumberTaken(err)) throw err;
    // The number belongs to the issuer's OIB across accounts: another account's receipt is a 409
    // that says nothing of that account or its receipt.
    const elsewhere = await db.invoice.findUnique({
      where: { oib_premises_device_number: { oib: input.oib, premises: input.premises, device: input.device, number: input.number } },
      select: { accountId: true },
    });
    if (elsewhere && elsewhere.accountId !== accountId) throw numberTakenElsewhere(label, input.oib);
    const taken = await db.invoice.findUnique({
      where: { accountId_premises_device_number: { accountId, premises: input.premises, device: input.device, number: input.number } },
    });
    if (!taken) throw inProgress(`Račun ${label} upravo se fiskalizira; ponovite za trenutak.`);
    throw (await receiptTaken(ctx, taken, label));
  }

  // 2. The call.
  let answer: FiscalizeAnswer;
  try {
    answer = await taxAuthority.fiscalize({ ...call, signedRequest });
  } catch (err) {
    if (err instanceof TaxAuthorityError && err.kind === "unavailable") {
      // CIS unreachable or out of order, or no answer in time: the receipt is issued with its ZKI
      // only and delivered late (resubmit.ts). If the database cannot record that now, the receipt's
      // lease ends the same way: it is delivered late all the same.
      control.committed();
      log.warn({ accountId, receipt: label, id, err: err.message }, "CIS unavailable: receipt issued with its ZKI, late delivery scheduled");
      try {
        const issued = await deferReceipt(db, pending, err, { idempotencyRecordId: control.recordId ?? null });
        control.recorded();
        return issued;
      } catch (deferErr) {
        log.error({ accountId, receipt: label, id, err: deferErr }, "late delivery not scheduled; the receipt's lease schedules it");
        throw outcomeUnknown(id, label);
      }
    }
    if (err instanceof TaxAuthorityError) {
      // CIS refused the receipt itself: nothing exists there, so the number and the key are free again.
      const release = () =>
        db.$transaction(async (tx) => {
          await tx.invoice.deleteMany({ where: { id, status: "pending", messageId } });
          await releaseIdempotencyRecord(tx, control.recordId);
        });
      await retryWhileUnreachable(release).catch((releaseErr: unknown) => {
        control.committed();
        log.error({ accountId, receipt: label, id, err: releaseErr }, "refused receipt could not be removed; it stays for late delivery");
      });
      throw refusedByCis(err);
    }
    // Anything else: the request may have reached CIS. The receipt stays pending and its lease hands
    // it to late delivery (NakDost); the key stays taken.
    control.committed();
    log.error({ accountId, receipt: label, id, zki, messageId, err }, "no answer from the tax authority; the receipt goes to late delivery");
    throw outcomeUnknown(id, label);
  }
  control.committed();

  // 3. The answer completes the receipt and the key's record, or goes to the journal.
  const response = toInvoice({ ...pending, status: "fiscalized", jir: answer.jir, fiscalizedAt: answer.receivedAt });
  // If neither the database nor a journal takes the JIR, the receipt is delivered late.
  await recordAnswer(
    ctx,
    control,
    () => ({ kind: "invoice", id, accountId, idempotencyRecordId: control.recordId ?? null, jir: answer.jir, receivedAt: answer.receivedAt.toISOString(), response, exchange: storedExchange(messageId, answer.exchange) }),
    () => outcomeUnknown(id, label),
  );
  return response;
}

export const fiscalize = apiKeyProcedure
  .meta({
    group: "fiscalize",
    idempotent: true,
    openapi: {
      method: "POST",
      path: "/v1/invoices/fiscalize",
      tags: ["invoices"],
      summary: "Fiskalizacija računa (ZKI + JIR)",
      description:
        "Račun po shemi RacunType Porezne uprave: OIB operatera, oznaka slijednosti i sustav PDV-a su obavezni; porezi, naknade, iznosi oslobođenja, marže i neoporezivog te storno (negativni iznosi) po potrebi. " +
        "Odgovor sadrži ZKI, JIR i sadržaj QR koda (qr_url). Pošaljite zaglavlje Idempotency-Key: ponovljeni zahtjev tada nikad ne fiskalizira dvaput.",
      protect: true,
    },
  })
  .input(FiscalizeInput)
  .output(InvoiceSchema)
  .mutation(async ({ input, ctx }) => {
    const now = new Date();
    const problems = receiptProblems(toReceipt(input, now), now);
    if (!problems.some((p) => p.path === "issued_at")) {
      const late = lateDeliveryWindowProblem(new Date(input.issued_at), now);
      if (late) problems.push({ path: "issued_at", message: late });
    }
    if (!problems.length) problems.push(...(await stornoProblems(ctx, input)));
    if (problems.length) throw new ApiError("validation_error", "Račun nije ispravan.", problems);
    return withRecordFirst(ctx, "fiscalize", input, (control) => fiscalizeReceipt(ctx, input, control), resolveKey);
  });
