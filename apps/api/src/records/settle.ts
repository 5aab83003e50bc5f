// The last step of a record-first operation (a pending row → the call out → this), shared by receipts
// and e-invoices: in the caller's transaction the pending row takes the answer, or the answer already
// on the row decides what happened; the request's Idempotency-Key record completes with it. Running it
// twice with the same answer changes nothing.
import type { Prisma } from "@fiskal/db";
import { completeIdempotencyRecord } from "../idempotency.ts";

/** "stored" now, "already" stored with this answer, the row is "missing", or it holds a "conflict"ing answer. */
export type StoreOutcome = "stored" | "already" | "missing" | "conflict";

export async function settlePendingRow(
  tx: Prisma.TransactionClient,
  o: {
    /** Writes the answer onto the row if it is still pending; how many rows it changed. */
    takeAnswer: () => Promise<{ count: number }>;
    /** The answer the row holds (its JIR, its intermediary id), or undefined when the row is gone. */
    storedAnswer: () => Promise<string | null | undefined>;
    answer: string;
    idempotencyRecordId: string | null;
    response: unknown;
  },
): Promise<StoreOutcome> {
  const { count } = await o.takeAnswer();
  if (count === 0) {
    const stored = await o.storedAnswer();
    if (stored === undefined) return "missing";
    if (stored !== o.answer) return "conflict";
  }
  if (o.idempotencyRecordId) await completeIdempotencyRecord(tx, o.idempotencyRecordId, o.response);
  return count === 0 ? "already" : "stored";
}
