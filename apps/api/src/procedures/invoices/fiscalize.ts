// POST /v1/invoices/fiscalize — ZKI with the account's certificate, JIR from the tax authority, persisted.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Prisma } from "@fiskal/db";
import { computeZki, generateTestCertificate, isValidOib, TaxAuthorityError, type Receipt } from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { withIdempotency } from "../../idempotency.ts";
import { underLock } from "../../locks.ts";
import { apiKeyProcedure, type Context } from "../../trpc.ts";
import { InvoiceSchema, Money, Oib, toInvoice } from "./schemas.ts";

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

async function certificateFor(ctx: Context, accountId: string, oib: string, name: string) {
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
  .mutation(({ input, ctx }) =>
    withIdempotency(ctx, "fiscalize", input, async (control) => {
      const { db, taxAuthority, log } = ctx.services;
      const accountId = ctx.principal.accountId;
      const problems: { path: string; message: string }[] = [];
      if (!isValidOib(input.oib)) problems.push({ path: "oib", message: "OIB nema ispravnu kontrolnu znamenku." });
      if (input.operator_oib && !isValidOib(input.operator_oib)) problems.push({ path: "operator_oib", message: "OIB nema ispravnu kontrolnu znamenku." });
      if (problems.length) throw new ApiError("validation_error", "Račun nije ispravan.", problems).toTRPC();

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

      return underLock(db, `fiscalize:${accountId}:${input.premises}:${input.device}:${input.number}`, async (tx) => {
        const duplicate = await tx.invoice.findUnique({
          where: { accountId_premises_device_number: { accountId, premises: input.premises, device: input.device, number: input.number } },
          select: { jir: true },
        });
        if (duplicate) throw new ApiError("conflict", `Račun ${label} već je fiskaliziran (JIR ${duplicate.jir}).`).toTRPC();

        const zki = computeZki(receipt, cert.keyPem);
        let jir: string;
        try {
          ({ jir } = await taxAuthority.fiscalize({ receipt, zki, certPem: cert.certPem, messageId: randomUUID() }));
        } catch (err) {
          if (err instanceof TaxAuthorityError) {
            if (err.kind === "rejected") {
              throw new ApiError("validation_error", `Porezna uprava odbila je račun: ${err.message}`, { cis_code: err.code }).toTRPC();
            }
            throw new ApiError("upstream_unavailable", "Porezna uprava (CIS) trenutno nije dostupna; pokušajte ponovno s istim Idempotency-Key.", undefined, {
              "Retry-After": "5",
            }).toTRPC();
          }
          throw err;
        }
        control.committed();
        try {
          const row = await tx.invoice.create({
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
              jir,
              request: input as Prisma.InputJsonValue,
            },
          });
          return toInvoice(row);
        } catch (err) {
          // CIS has issued a JIR we could not store: keep it in the log so the receipt can be recovered.
          log.error({ accountId, receipt: label, zki, jir, err: (err as Error).message }, "fiscalized receipt could not be stored");
          throw err;
        }
      });
    }),
  );
