// POST /v1/einvoices/send — validate, build UBL 2.1 (EN 16931, HR CIUS), hand to the intermediary.
//
// Record before calling out: (1) everything that can be checked is checked, before anything is
// written or sent; (2) the e-invoice is committed as "pending" with its UBL, message id and request;
// (3) the intermediary is called; (4) its answer is stored in the step that completes the e-invoice
// and the Idempotency-Key record — or, if the database refuses, journaled on disk for the reconciler.
// A pending e-invoice number is never sent again: it is being sent, or its answer was lost.
import { randomUUID } from "node:crypto";
import { Prisma, type EInvoice } from "@fiskal/db";
import {
  amountProblem,
  buildUbl,
  EINVOICE_FIRST_DATE,
  IntermediaryError,
  issueDateProblem,
  laterDateProblem,
  validateEInvoice,
  type EInvoiceInput,
} from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { STALE_PENDING_MS, withIdempotency, type IdempotencyControl } from "../../idempotency.ts";
import { keepAnswer } from "../../journal.ts";
import { apiKeyProcedure, type Context, type Principal } from "../../trpc.ts";
import { EInvoiceSchema, SendEInvoiceInput, toEInvoice, type EInvoiceOut } from "./schemas.ts";

type ApiContext = Context & { principal: Principal };

function toDomain(i: SendEInvoiceInput): EInvoiceInput {
  const party = (p: SendEInvoiceInput["buyer"]) => ({
    oib: p.oib,
    name: p.name,
    address: p.address && { street: p.address.street, city: p.address.city, postalCode: p.address.postal_code, country: p.address.country },
  });
  return {
    number: i.number,
    issueDate: i.issue_date,
    dueDate: i.due_date,
    currency: i.currency,
    seller: { ...party(i.seller), iban: i.seller.iban },
    buyer: party(i.buyer),
    lines: i.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unit: l.unit,
      unitPrice: l.unit_price,
      vatRate: l.vat_rate,
      kpd: l.kpd,
      lineTotal: l.line_total,
    })),
    totals: i.totals,
    note: i.note,
  };
}

/** Snake-case paths in problems so they match the JSON the client sent. */
function toSnakePath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Every problem that can be found without the intermediary; nothing is written or sent while there is one. */
function eInvoiceProblems(input: SendEInvoiceInput, kpd: Context["services"]["kpd"], now: Date = new Date()): { path: string; message: string }[] {
  const problems = validateEInvoice(toDomain(input), kpd).map((p) => ({ path: toSnakePath(p.path), message: p.message }));
  // Dates and amounts the law and the database allow, unless the field already has a problem.
  const add = (path: string, message: string | null) => {
    if (message && !problems.some((p) => p.path === path)) problems.push({ path, message });
  };
  add("issue_date", issueDateProblem(input.issue_date, now, EINVOICE_FIRST_DATE));
  if (input.due_date !== undefined) add("due_date", laterDateProblem(input.due_date, "Datum dospijeća"));
  for (const k of ["net", "vat", "gross"] as const) add(`totals.${k}`, amountProblem(input.totals[k]));
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
  if (Date.now() - row.createdAt.getTime() <= STALE_PENDING_MS) {
    return new ApiError("conflict", `${label} upravo se šalje posredniku; ne šaljite ga ponovno. Ishod provjerite za trenutak.`, { reason: "in_progress", id: row.id }, {
      "Retry-After": "1",
    });
  }
  return new ApiError(
    "conflict",
    `${label} predan je posredniku, ali njegov odgovor nije zabilježen. Ne šaljite ga ponovno; provjerite ga kod posrednika.`,
    { reason: "outcome_unknown", id: row.id },
  );
}

async function sendDocument(ctx: ApiContext, input: SendEInvoiceInput, control: IdempotencyControl): Promise<EInvoiceOut> {
  const { db, intermediary, log } = ctx.services;
  const accountId = ctx.principal.accountId;
  const ubl = buildUbl(toDomain(input));
  const label = `E-račun ${input.number} izdavatelja ${input.seller.oib}`;
  const messageId = randomUUID();

  // 1. Recorded and committed before the intermediary hears of it. The unique number makes
  //    concurrent sends of one e-invoice meet here: one row wins, the others get 409.
  let pending: EInvoice;
  try {
    pending = await db.eInvoice.create({
      data: {
        accountId,
        number: input.number,
        sellerOib: input.seller.oib,
        buyerOib: input.buyer.oib,
        issueDate: input.issue_date,
        currency: input.currency,
        totalNet: new Prisma.Decimal(input.totals.net),
        totalTax: new Prisma.Decimal(input.totals.vat),
        totalGross: new Prisma.Decimal(input.totals.gross),
        ubl,
        status: "pending",
        messageId,
        idempotencyRecordId: control.recordId ?? null,
        request: input as Prisma.InputJsonValue,
      },
    });
  } catch (err) {
    if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== "P2002") throw err;
    const taken = await db.eInvoice.findUnique({
      where: { accountId_sellerOib_number: { accountId, sellerOib: input.seller.oib, number: input.number } },
    });
    if (!taken) {
      throw new ApiError("conflict", `${label} upravo se šalje; ponovite za trenutak.`, { reason: "in_progress" }, { "Retry-After": "1" }).toTRPC();
    }
    throw (await eInvoiceTaken(ctx, taken, label)).toTRPC();
  }

  // 2. The call (short throttling waits resend the same message id, which the intermediary deduplicates).
  let sent: { id: string; status: "accepted" | "queued" };
  try {
    sent = await sendWithRetry(() => intermediary.send({ ubl, sellerOib: input.seller.oib, buyerOib: input.buyer.oib, messageId }));
  } catch (err) {
    if (err instanceof ApiError) {
      // The intermediary refused or throttled: it holds nothing, so the number is free for a retry.
      await db.eInvoice.deleteMany({ where: { id: pending.id, status: "pending" } }).catch((deleteErr: unknown) => {
        control.committed();
        log.error({ accountId, number: input.number, id: pending.id, err: (deleteErr as Error).message }, "refused e-invoice stays pending");
      });
      throw err.toTRPC();
    }
    // No answer (connection lost, timeout): the intermediary may have the document. It stays
    // pending and is not sent again; the key stays taken.
    control.committed();
    log.error({ accountId, number: input.number, id: pending.id, messageId, err: (err as Error).message }, "no answer from the intermediary; the e-invoice stays pending");
    throw err;
  }
  control.committed();

  // 3. The answer completes the e-invoice and the key's record, or goes to the journal.
  const sentAt = new Date();
  const response = toEInvoice({ ...pending, status: sent.status, intermediaryId: sent.id, sentAt });
  await keepAnswer(ctx.services, {
    kind: "einvoice",
    id: pending.id,
    accountId,
    idempotencyRecordId: control.recordId ?? null,
    intermediaryId: sent.id,
    status: sent.status,
    sentAt: sentAt.toISOString(),
    response,
  });
  control.recorded();
  return response;
}

export const sendEInvoice = apiKeyProcedure
  .meta({
    group: "einvoice",
    openapi: {
      method: "POST",
      path: "/v1/einvoices/send",
      tags: ["einvoices"],
      summary: "Slanje B2B e-računa (UBL 2.1, HR CIUS) putem posrednika",
      description: "Svaka stavka treba KPD šifru razine 5, OIB-ovi moraju biti ispravni, a zbrojevi se moraju slagati. Pošaljite zaglavlje Idempotency-Key.",
      protect: true,
    },
  })
  .input(SendEInvoiceInput)
  .output(EInvoiceSchema)
  .mutation(async ({ input, ctx }) => {
    const problems = eInvoiceProblems(input, ctx.services.kpd);
    if (problems.length) throw new ApiError("validation_error", "E-račun nije ispravan.", problems).toTRPC();
    return withIdempotency(ctx, "einvoice.send", input, (control) => sendDocument(ctx, input, control));
  });

/**
 * The intermediary throttles; short waits are absorbed here, longer ones are the client's to take.
 * An answer of the intermediary without a document id becomes an ApiError; anything else is rethrown.
 */
async function sendWithRetry<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof IntermediaryError)) throw err;
      if (err.kind === "rejected") throw new ApiError("validation_error", `Posrednik je odbio e-račun: ${err.message}`);
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
