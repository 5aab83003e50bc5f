// The steps that fiscalization (invoices/fiscalize.ts) and e-invoice sending (einvoices/send.ts)
// share: record before calling out. The operation commits its pending row with the key's
// Idempotency-Key record (`control.insertRecord`), calls out, and keeps the answer in the database or
// the journal; a retry of a request that went away is settled from the row that carries its record.
import { Prisma } from "@fiskal/db";
import { ApiError } from "../errors.ts";
import { IdempotencyKeyTaken, withIdempotency, type IdempotencyControl, type PendingResolution } from "../idempotency.ts";
import { keepAnswer, type UpstreamAnswer } from "../records/journal.ts";
import type { Context, Principal } from "../trpc.ts";

export type ApiContext = Context & { principal: Principal };

/** Runs the operation under the request's Idempotency-Key; `resolve` settles a pending record from its row. */
export function withRecordFirst<T>(
  ctx: ApiContext,
  endpoint: string,
  input: unknown,
  run: (control: IdempotencyControl) => Promise<T>,
  resolve: (ctx: ApiContext, recordId: string) => Promise<PendingResolution>,
): Promise<T> {
  return withIdempotency(ctx, endpoint, input, run, {
    recordWithOperation: true,
    resolve: (record) => resolve(ctx, record.id),
  });
}

/** The pending row's insert met a unique number that is taken (not the key's record, which `IdempotencyKeyTaken` reports). */
export function isNumberTaken(err: unknown): boolean {
  return !(err instanceof IdempotencyKeyTaken) && err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

/** The 409 for a document that a request is sending right now: ask again in a second. */
export function inProgress(message: string, id?: string): ApiError {
  return new ApiError("conflict", message, id === undefined ? { reason: "in_progress" } : { reason: "in_progress", id }, { "Retry-After": "1" });
}

/** The 504 for a row that may have been committed, which cannot be learned now. */
export function outcomeUnknownError(message: string, id: string): ApiError {
  return new ApiError("outcome_unknown", message, { id }, { "Retry-After": "5" });
}

/**
 * The answer completes the row and the key's record, or goes to the journal. When neither takes it
 * (keepAnswer logged it), `unknown()` is thrown: the row's lease completes it without the request.
 */
export async function recordAnswer(ctx: ApiContext, control: IdempotencyControl, answer: () => UpstreamAnswer, unknown: () => ApiError): Promise<void> {
  try {
    await keepAnswer(ctx.services, answer());
  } catch {
    throw unknown();
  }
  control.recorded();
}
