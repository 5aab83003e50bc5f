// The step that completes a receipt: its JIR is stored and the pending row becomes "fiscalized",
// together with the Idempotency-Key record of the request that sent it, in one transaction. The
// request that called the tax authority runs it; the reconciler runs it again from the journal
// when that failed. Running it twice with the same answer changes nothing.
import type { Db } from "@fiskal/db";
import { completeIdempotencyRecord } from "../../idempotency.ts";

export interface InvoiceAnswer {
  kind: "invoice";
  /** The pending receipt's id. */
  id: string;
  accountId: string;
  idempotencyRecordId: string | null;
  jir: string;
  /** When CIS received the request (ISO 8601). */
  receivedAt: string;
  /** The response the client got, which the Idempotency-Key replays. */
  response: unknown;
}

/** "stored" now, "already" stored with this answer, the row is "missing", or it holds a "conflict"ing answer. */
export type StoreOutcome = "stored" | "already" | "missing" | "conflict";

export function storeInvoiceAnswer(db: Db, answer: InvoiceAnswer): Promise<StoreOutcome> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.invoice.updateMany({
      where: { id: answer.id, status: "pending" },
      data: { status: "fiscalized", jir: answer.jir, fiscalizedAt: new Date(answer.receivedAt) },
    });
    if (count === 0) {
      const row = await tx.invoice.findUnique({ where: { id: answer.id }, select: { jir: true } });
      if (!row) return "missing";
      if (row.jir !== answer.jir) return "conflict";
    }
    if (answer.idempotencyRecordId) await completeIdempotencyRecord(tx, answer.idempotencyRecordId, answer.response);
    return count === 0 ? "already" : "stored";
  });
}
