// POST /v1/einvoices/send — validate, build UBL 2.1 (EN 16931, HR CIUS), hand to the intermediary, persist.
import { randomUUID } from "node:crypto";
import { Prisma } from "@fiskal/db";
import { buildUbl, IntermediaryError, validateEInvoice, type EInvoiceInput } from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { withIdempotency } from "../../idempotency.ts";
import { underLock } from "../../locks.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { EInvoiceSchema, SendEInvoiceInput, toEInvoice } from "./schemas.ts";

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
  .mutation(({ input, ctx }) =>
    withIdempotency(ctx, "einvoice.send", input, async (control) => {
      const { db, kpd, intermediary, log } = ctx.services;
      const accountId = ctx.principal.accountId;
      const doc = toDomain(input);
      const problems = validateEInvoice(doc, kpd);
      if (problems.length) {
        throw new ApiError(
          "validation_error",
          "E-račun nije ispravan.",
          problems.map((p) => ({ path: toSnakePath(p.path), message: p.message })),
        ).toTRPC();
      }
      const ubl = buildUbl(doc);

      return underLock(db, `einvoice:${accountId}:${input.seller.oib}:${input.number}`, async (tx) => {
        const existing = await tx.eInvoice.findUnique({
          where: { accountId_sellerOib_number: { accountId, sellerOib: input.seller.oib, number: input.number } },
          select: { id: true },
        });
        if (existing) throw new ApiError("conflict", `E-račun ${input.number} izdavatelja ${input.seller.oib} već je poslan (${existing.id}).`).toTRPC();

        const sent = await sendWithRetry(() =>
          intermediary.send({ ubl, sellerOib: input.seller.oib, buyerOib: input.buyer.oib, messageId: randomUUID() }),
        );
        control.committed();
        try {
          const row = await tx.eInvoice.create({
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
              status: sent.status,
              intermediaryId: sent.id,
              request: input as Prisma.InputJsonValue,
            },
          });
          return toEInvoice(row);
        } catch (err) {
          log.error({ accountId, number: input.number, intermediaryId: sent.id, err: (err as Error).message }, "sent e-invoice could not be stored");
          throw err;
        }
      });
    }),
  );

/** The intermediary throttles; short waits are absorbed here, longer ones are the client's to take. */
async function sendWithRetry<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof IntermediaryError)) throw err;
      if (err.kind === "rejected") throw new ApiError("validation_error", `Posrednik je odbio e-račun: ${err.message}`).toTRPC();
      const wait = err.retryAfterSeconds ?? 1;
      if (err.kind === "throttled" && attempt < 2 && wait <= 2) {
        await new Promise((r) => setTimeout(r, wait * 1000));
        continue;
      }
      throw new ApiError("upstream_unavailable", "Posrednik za e-račune trenutno ne prima zahtjeve; pokušajte ponovno s istim Idempotency-Key.", undefined, {
        "Retry-After": String(Math.max(1, Math.ceil(wait))),
      }).toTRPC();
    }
  }
}
