// The step that completes an e-invoice: the intermediary's id and status are stored on the pending
// row, together with the Idempotency-Key record of the request that sent it, in one transaction.
// The request that called the intermediary runs it; the reconciler runs it again from the journal
// when that failed. Running it twice with the same answer changes nothing.
import type { Db } from "@fiskal/db";
import { settlePendingRow, type StoreOutcome } from "../../records/settle.ts";

export interface EInvoiceAnswer {
  kind: "einvoice";
  /** The pending e-invoice's id. */
  id: string;
  accountId: string;
  idempotencyRecordId: string | null;
  intermediaryId: string;
  status: "accepted" | "queued";
  /** When the intermediary answered (ISO 8601). */
  sentAt: string;
  /** The response the client got, which the Idempotency-Key replays. */
  response: unknown;
}

export function storeEInvoiceAnswer(db: Db, answer: EInvoiceAnswer): Promise<StoreOutcome> {
  return db.$transaction((tx) =>
    settlePendingRow(tx, {
      takeAnswer: () =>
        tx.eInvoice.updateMany({
          where: { id: answer.id, status: "pending" },
          data: { status: answer.status, intermediaryId: answer.intermediaryId, sentAt: new Date(answer.sentAt), nextSendAt: null },
        }),
      storedAnswer: async () => (await tx.eInvoice.findUnique({ where: { id: answer.id }, select: { intermediaryId: true } }))?.intermediaryId,
      answer: answer.intermediaryId,
      idempotencyRecordId: answer.idempotencyRecordId,
      response: answer.response,
    }),
  );
}
