// The step that completes a receipt: its JIR is stored and the pending row becomes "fiscalized",
// together with the Idempotency-Key record of the request that sent it, in one transaction. The
// request that called the tax authority runs it; the reconciler runs it again from the journal
// when that failed. Running it twice with the same answer changes nothing. With the real CIS client
// the step also stores the call's messages (the signed request and CIS's answer, the receipt's
// evidence in the archive); they travel with the answer through the journal.
import type { Db } from "@fiskal/db";
import type { CisExchange } from "@fiskal/fiscal";
import { settlePendingRow, type StoreOutcome } from "../../records/settle.ts";

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
  /** The call that brought the JIR (real CIS client): IdPoruke, the signed request as sent and the answer as received, base64. */
  exchange?: StoredExchange;
}

export interface StoredExchange {
  messageId: string;
  request: string;
  answer: string;
}

/** The call's messages as the journal carries them (JSON), or undefined when the tax authority gave none (simulator). */
export function storedExchange(messageId: string, exchange: CisExchange | undefined): StoredExchange | undefined {
  return exchange && { messageId, request: exchange.request.toString("base64"), answer: exchange.answer.toString("base64") };
}

/**
 * Records the signed request of a call before it is sent (the late-delivery job; the first call
 * creates it with the pending receipt): the receipt's latest request, its answer not known yet.
 */
export async function recordCisRequest(db: Db, invoiceId: string, messageId: string, signedRequest: string): Promise<void> {
  const data = { messageId, request: new Uint8Array(Buffer.from(signedRequest, "utf8")), answer: null };
  await db.receiptCisExchange.upsert({ where: { invoiceId }, create: { invoiceId, ...data }, update: data });
}

export type { StoreOutcome };

export function storeInvoiceAnswer(db: Db, answer: InvoiceAnswer): Promise<StoreOutcome> {
  return db.$transaction((tx) =>
    settlePendingRow(tx, {
      takeAnswer: async () => {
        const taken = await tx.invoice.updateMany({
          where: { id: answer.id, status: "pending" },
          data: { status: "fiscalized", jir: answer.jir, fiscalizedAt: new Date(answer.receivedAt), nextAttemptAt: null },
        });
        const x = answer.exchange;
        if (taken.count && x) {
          // The request this answer belongs to, with it: a later call may have recorded another one meanwhile.
          const data = { messageId: x.messageId, request: new Uint8Array(Buffer.from(x.request, "base64")), answer: new Uint8Array(Buffer.from(x.answer, "base64")) };
          await tx.receiptCisExchange.upsert({ where: { invoiceId: answer.id }, create: { invoiceId: answer.id, ...data }, update: data });
        }
        return taken;
      },
      storedAnswer: async () => (await tx.invoice.findUnique({ where: { id: answer.id }, select: { jir: true } }))?.jir,
      answer: answer.jir,
      idempotencyRecordId: answer.idempotencyRecordId,
      response: answer.response,
    }),
  );
}
