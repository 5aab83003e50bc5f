// POST /v1/invoices/fiscalize — ZKI with the account's certificate, JIR from the tax authority.
//
// Record before calling out: (1) everything that can be checked is checked, before anything is
// written or sent; (2) the receipt is committed as "pending" with its ZKI, message id and request;
// (3) the tax authority is called; (4) its JIR is stored in the step that completes the receipt and
// the Idempotency-Key record — or, if the database refuses, journaled on disk for the reconciler.
// A pending receipt number is never sent again: it is being fiscalized, or its answer was lost.
import { randomUUID } from "node:crypto";
import { Prisma, type Invoice } from "@fiskal/db";
import { computeZki, formatMoney, formatRate, parseMoney, receiptProblems, TaxAuthorityError, toRacunType, type Receipt } from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { STALE_PENDING_MS, withIdempotency, type IdempotencyControl } from "../../idempotency.ts";
import { keepAnswer } from "../../journal.ts";
import { deferReceipt } from "../../resubmit.ts";
import { apiKeyProcedure, type Context, type Principal } from "../../trpc.ts";
import { signingCertificate } from "../certificates/store.ts";
import { FiscalizeInput, InvoiceSchema, toInvoice, type InvoiceOut, type StoredAmounts } from "./schemas.ts";

type ApiContext = Context & { principal: Principal };
type Problem = { path: string; message: string };

/**
 * The receipt in the domain's names. NakDost (late delivery) is the system's to set, never the
 * request's: true only for a re-entered paragon receipt (issued to the buyer without a JIR).
 */
function toReceipt(input: FiscalizeInput): Receipt {
  return {
    oib: input.oib,
    issuedAt: new Date(input.issued_at),
    number: input.number,
    premises: input.premises,
    device: input.device,
    total: input.total,
    paymentMethod: input.payment_method,
    operatorOib: input.operator_oib,
    vatRegistered: input.vat_registered,
    sequence: input.sequence,
    lateDelivery: input.paragon_number !== undefined,
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
  if (row.nextAttemptAt) {
    return new ApiError(
      "conflict",
      `Račun ${label} izdan je bez JIR-a jer Porezna uprava nije bila dostupna; Fiskal ga sam naknadno dostavlja (NakDost). Ne šaljite ga ponovno; stanje: GET /v1/invoices/${row.id}.`,
      { reason: "late_delivery", id: row.id },
    );
  }
  if (Date.now() - row.createdAt.getTime() <= STALE_PENDING_MS) {
    return new ApiError("conflict", `Račun ${label} upravo se fiskalizira; ne šaljite ga ponovno. Ishod provjerite za trenutak.`, { reason: "in_progress", id: row.id }, {
      "Retry-After": "1",
    });
  }
  return new ApiError(
    "conflict",
    `Račun ${label} poslan je Poreznoj upravi, ali njezin odgovor nije zabilježen. Ne šaljite ga ponovno; provjerite ga kod Porezne uprave.`,
    { reason: "outcome_unknown", id: row.id },
  );
}

async function fiscalizeReceipt(ctx: ApiContext, input: FiscalizeInput, control: IdempotencyControl): Promise<InvoiceOut> {
  const { db, taxAuthority, log } = ctx.services;
  const accountId = ctx.principal.accountId;
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { name: true } });
  const cert = await signingCertificate(db, ctx.services.certificateKeys, accountId, { oib: input.oib, name: account.name });
  const receipt = toReceipt(input);
  const label = `${input.number}/${input.premises}/${input.device}`;
  const zki = computeZki(receipt, cert.keyPem);
  const messageId = randomUUID();

  // 1. Recorded and committed before the tax authority hears of it. The unique number makes
  //    concurrent sends of one receipt meet here: one row wins, the others get 409.
  let pending: Invoice;
  try {
    pending = await db.invoice.create({
      data: {
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
      },
    });
  } catch (err) {
    if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== "P2002") throw err;
    const taken = await db.invoice.findUnique({
      where: { accountId_premises_device_number: { accountId, premises: input.premises, device: input.device, number: input.number } },
    });
    if (!taken) {
      throw new ApiError("conflict", `Račun ${label} upravo se fiskalizira; ponovite za trenutak.`, { reason: "in_progress" }, { "Retry-After": "1" });
    }
    throw (await receiptTaken(ctx, taken, label));
  }

  // 2. The call.
  let answer: { jir: string; receivedAt: Date };
  try {
    answer = await taxAuthority.fiscalize({ receipt, zki, certPem: cert.certPem, keyPem: cert.keyPem, messageId, racun: toRacunType(receipt, zki) });
  } catch (err) {
    if (err instanceof TaxAuthorityError) {
      // CIS unreachable or out of order: the receipt is issued with its ZKI only and delivered late (resubmit.ts).
      if (err.kind === "unavailable") {
        control.committed();
        const issued = await deferReceipt(db, pending, err, { idempotencyRecordId: control.recordId ?? null });
        log.warn({ accountId, receipt: label, id: pending.id, err: err.message }, "CIS unavailable: receipt issued with its ZKI, late delivery scheduled");
        control.recorded();
        return issued;
      }
      // CIS answered without a JIR: nothing exists there, so the number is free for a retry.
      await db.invoice.deleteMany({ where: { id: pending.id, status: "pending" } }).catch((deleteErr: unknown) => {
        control.committed();
        log.error({ accountId, receipt: label, id: pending.id, err: deleteErr }, "refused receipt stays pending");
      });
      if (err.kind === "rejected") {
        throw new ApiError("validation_error", `Porezna uprava odbila je račun: ${err.message}`, { cis_code: err.code });
      }
      throw new ApiError("upstream_unavailable", "Porezna uprava (CIS) trenutno nije dostupna; pokušajte ponovno s istim Idempotency-Key.", undefined, {
        "Retry-After": "5",
      });
    }
    // No answer (connection lost, timeout): CIS may have issued a JIR. The receipt stays pending and
    // is not sent again; the key stays taken.
    control.committed();
    log.error({ accountId, receipt: label, id: pending.id, zki, messageId, err }, "no answer from the tax authority; the receipt stays pending");
    throw err;
  }
  control.committed();

  // 3. The answer completes the receipt and the key's record, or goes to the journal.
  const response = toInvoice({ ...pending, status: "fiscalized", jir: answer.jir, fiscalizedAt: answer.receivedAt });
  await keepAnswer(ctx.services, {
    kind: "invoice",
    id: pending.id,
    accountId,
    idempotencyRecordId: control.recordId ?? null,
    jir: answer.jir,
    receivedAt: answer.receivedAt.toISOString(),
    response,
  });
  control.recorded();
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
    const problems = receiptProblems(toReceipt(input));
    if (!problems.length) problems.push(...(await stornoProblems(ctx, input)));
    if (problems.length) throw new ApiError("validation_error", "Račun nije ispravan.", problems);
    return withIdempotency(ctx, "fiscalize", input, (control) => fiscalizeReceipt(ctx, input, control));
  });
