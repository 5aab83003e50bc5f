// POST /v1/invoices/fiscalize — ZKI with the account's certificate, JIR from the tax authority.
//
// Record before calling out: (1) everything that can be checked is checked, before anything is
// written or sent; (2) the receipt is committed as "pending" with its ZKI, message id and request;
// (3) the tax authority is called; (4) its JIR is stored in the step that completes the receipt and
// the Idempotency-Key record — or, if the database refuses, journaled on disk for the reconciler.
// A pending receipt number is never sent again: it is being fiscalized, or its answer was lost.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Prisma, type Invoice } from "@fiskal/db";
import { amountProblem, computeZki, generateTestCertificate, isValidOib, issueTimeProblem, TaxAuthorityError, type Receipt } from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { STALE_PENDING_MS, withIdempotency, type IdempotencyControl } from "../../idempotency.ts";
import { keepAnswer } from "../../journal.ts";
import { apiKeyProcedure, type Context, type Principal } from "../../trpc.ts";
import { InvoiceSchema, Money, Oib, toInvoice, type InvoiceOut } from "./schemas.ts";

const FiscalizeInput = z.object({
  oib: Oib.describe("OIB izdavatelja."),
  issued_at: z.iso.datetime({ offset: true }).describe("Vrijeme izdavanja računa (ISO 8601)."),
  number: z.string().regex(/^\d{1,20}$/, "Broj računa su znamenke.").describe("Redni broj računa."),
  premises: z.string().regex(/^[0-9A-Za-z]{1,20}$/, "Oznaka poslovnog prostora: do 20 slova i znamenki."),
  device: z.string().regex(/^\d{1,20}$/, "Oznaka naplatnog uređaja su znamenke."),
  total: Money,
  payment_method: z.enum(["G", "K", "C", "T", "O"]).describe("G gotovina, K kartica, C ček, T transakcijski račun, O ostalo."),
  vat: z.array(z.object({ rate: z.string().regex(/^\d{1,2}(\.\d{1,2})?$/), base: Money, amount: Money })).max(20).optional(),
  operator_oib: Oib.optional(),
});
type FiscalizeInput = z.infer<typeof FiscalizeInput>;
type ApiContext = Context & { principal: Principal };

/** Every problem that can be found without the tax authority; nothing is written or sent while there is one. */
function receiptProblems(input: FiscalizeInput, now: Date = new Date()): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const add = (path: string, message: string | null) => message && problems.push({ path, message });
  if (!isValidOib(input.oib)) add("oib", "OIB nema ispravnu kontrolnu znamenku.");
  if (input.operator_oib && !isValidOib(input.operator_oib)) add("operator_oib", "OIB nema ispravnu kontrolnu znamenku.");
  add("issued_at", issueTimeProblem(new Date(input.issued_at), now));
  add("total", amountProblem(input.total));
  for (const [i, v] of (input.vat ?? []).entries()) {
    add(`vat.${i}.base`, amountProblem(v.base));
    add(`vat.${i}.amount`, amountProblem(v.amount));
  }
  return problems;
}

async function certificateFor(ctx: ApiContext, accountId: string, oib: string, name: string) {
  const { db } = ctx.services;
  const existing = await db.certificate.findUnique({ where: { accountId } });
  if (existing) return existing;
  const cert = generateTestCertificate({ oib, name });
  try {
    return await db.certificate.create({
      data: { accountId, subject: cert.subject, certPem: cert.certPem, keyPem: cert.keyPem, notAfter: cert.notAfter, test: true },
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      return db.certificate.findUniqueOrThrow({ where: { accountId } });
    }
    throw err;
  }
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
  const cert = await certificateFor(ctx, accountId, input.oib, account.name);
  const receipt: Receipt = {
    oib: input.oib,
    issuedAt: new Date(input.issued_at),
    number: input.number,
    premises: input.premises,
    device: input.device,
    total: input.total,
    paymentMethod: input.payment_method,
    vat: input.vat,
    operatorOib: input.operator_oib,
  };
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
      throw new ApiError("conflict", `Račun ${label} upravo se fiskalizira; ponovite za trenutak.`, { reason: "in_progress" }, { "Retry-After": "1" }).toTRPC();
    }
    throw (await receiptTaken(ctx, taken, label)).toTRPC();
  }

  // 2. The call.
  let answer: { jir: string; receivedAt: Date };
  try {
    answer = await taxAuthority.fiscalize({ receipt, zki, certPem: cert.certPem, messageId });
  } catch (err) {
    if (err instanceof TaxAuthorityError) {
      // CIS answered without a JIR: nothing exists there, so the number is free for a retry.
      await db.invoice.deleteMany({ where: { id: pending.id, status: "pending" } }).catch((deleteErr: unknown) => {
        control.committed();
        log.error({ accountId, receipt: label, id: pending.id, err: (deleteErr as Error).message }, "refused receipt stays pending");
      });
      if (err.kind === "rejected") {
        throw new ApiError("validation_error", `Porezna uprava odbila je račun: ${err.message}`, { cis_code: err.code }).toTRPC();
      }
      throw new ApiError("upstream_unavailable", "Porezna uprava (CIS) trenutno nije dostupna; pokušajte ponovno s istim Idempotency-Key.", undefined, {
        "Retry-After": "5",
      }).toTRPC();
    }
    // No answer (connection lost, timeout): CIS may have issued a JIR. The receipt stays pending and
    // is not sent again; the key stays taken.
    control.committed();
    log.error({ accountId, receipt: label, id: pending.id, zki, messageId, err: (err as Error).message }, "no answer from the tax authority; the receipt stays pending");
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
    openapi: {
      method: "POST",
      path: "/v1/invoices/fiscalize",
      tags: ["invoices"],
      summary: "Fiskalizacija računa (ZKI + JIR)",
      description: "Pošaljite zaglavlje Idempotency-Key: ponovljeni zahtjev tada nikad ne fiskalizira dvaput.",
      protect: true,
    },
  })
  .input(FiscalizeInput)
  .output(InvoiceSchema)
  .mutation(async ({ input, ctx }) => {
    const problems = receiptProblems(input);
    if (problems.length) throw new ApiError("validation_error", "Račun nije ispravan.", problems).toTRPC();
    return withIdempotency(ctx, "fiscalize", input, (control) => fiscalizeReceipt(ctx, input, control));
  });
