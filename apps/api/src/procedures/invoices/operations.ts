// POST /v1/invoices/{id}/tip, /payment-method and /check — the other receipt operations of CIS
// (napojnica, promijeniNacPlac, provjera; packages/fiscal/src/cis/operations.ts). Each repeats the
// fiscalized receipt as it was sent (with its ZKI) and is signed with the account's certificate;
// they count in the "fiscalize" endpoint group. A tip and a change of payment method are kept with
// the receipt once CIS accepted them; provjera records nothing and exists on the test endpoint only.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Prisma, type Invoice } from "@fiskal/db";
import { formatMoney, parseMoney, TaxAuthorityError, toRacunType, type CisOperationDetail } from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure, type Context, type Principal } from "../../trpc.ts";
import { signingCertificate } from "../certificates/store.ts";
import { toReceipt } from "./fiscalize.ts";
import { FiscalizeInput, InvoiceSchema, toInvoice, type StoredAmounts } from "./schemas.ts";

type ApiContext = Context & { principal: Principal };

const Method = z.enum(["G", "K", "T", "O"], { error: "Način plaćanja: G gotovina, K kartice, T transakcijski račun, O ostalo." });
const Id = z.string().max(64).describe("Id računa.");

async function fiscalizedReceipt(ctx: ApiContext, id: string, needJir: boolean): Promise<Invoice> {
  const row = z.uuid().safeParse(id).success ? await ctx.services.db.invoice.findFirst({ where: { id, accountId: ctx.principal.accountId } }) : null;
  if (!row) throw new ApiError("not_found", `Račun ${id} ne postoji.`);
  if (needJir && !row.jir) {
    throw new ApiError("conflict", `Račun ${row.number}/${row.premises}/${row.device} još nema JIR; napojnica i promjena načina plaćanja prijavljuju se za fiskaliziran račun.`, { reason: "not_fiscalized", status: row.status });
  }
  return row;
}

/** Sends the operation for the receipt: the receipt as fiscalized (its request, ZKI and NakDost) plus the detail. */
async function send(ctx: ApiContext, row: Invoice, detail: CisOperationDetail) {
  const { db, certificateKeys, taxAuthority } = ctx.services;
  if (!taxAuthority.operation) throw new ApiError("upstream_unavailable", "Ova veza s Poreznom upravom ne nudi tu operaciju.", { reason: "not_offered" }, { "Retry-After": "60" });
  const account = await db.account.findUniqueOrThrow({ where: { id: ctx.principal.accountId }, select: { name: true } });
  const cert = await signingCertificate(db, certificateKeys, ctx.principal.accountId, { oib: row.oib, name: account.name }, new Date(), taxAuthority.certificates);
  const input = FiscalizeInput.parse(row.request);
  const receipt = { ...toReceipt(input), lateDelivery: row.lateDelivery };
  try {
    return await taxAuthority.operation({ racun: toRacunType(receipt, row.zki), detail, messageId: randomUUID(), certPem: cert.certPem, keyPem: cert.keyPem });
  } catch (err) {
    if (err instanceof TaxAuthorityError && err.kind === "rejected") throw new ApiError("validation_error", `Porezna uprava odbila je zahtjev: ${err.message}`, { cis_code: err.code });
    if (err instanceof TaxAuthorityError) {
      throw new ApiError("upstream_unavailable", "Porezna uprava trenutno nije dostupna; pokušajte ponovno.", err.code ? { cis_code: err.code } : undefined, { "Retry-After": "30" });
    }
    throw err;
  }
}

/** Stores what CIS accepted into the receipt's amounts (conditional on the amounts read, so two requests do not overwrite each other). */
async function keep(ctx: ApiContext, row: Invoice, change: Partial<StoredAmounts>) {
  const amounts = { ...((row.amounts ?? {}) as StoredAmounts), ...change };
  const { count } = await ctx.services.db.invoice.updateMany({
    where: { id: row.id, amounts: { equals: row.amounts ?? Prisma.DbNull } },
    data: { amounts },
  });
  if (count === 0) throw new ApiError("conflict", "Račun se upravo mijenja drugim zahtjevom; pročitajte ga i ponovite.", { reason: "in_progress", id: row.id }, { "Retry-After": "1" });
  return toInvoice(await ctx.services.db.invoice.findUniqueOrThrow({ where: { id: row.id } }));
}

export const reportTip = apiKeyProcedure
  .meta({
    group: "fiscalize",
    openapi: {
      method: "POST",
      path: "/v1/invoices/{id}/tip",
      tags: ["invoices"],
      summary: "Napojnica na fiskaliziranom računu (CIS napojnica)",
      description:
        "Prijavljuje Poreznoj upravi napojnicu na već fiskaliziranom računu (iznos i način plaćanja napojnice), potpisano certifikatom tvrtke. Jedna napojnica po računu: ista ponovljena vraća račun, druga je 409. " +
        "Odbijanje je validation_error s details.cis_code, nedostupnost 503.",
      protect: true,
    },
  })
  .input(z.strictObject({ id: Id, amount: z.string().regex(/^\d{1,12}(\.\d{1,2})?$/, "Iznos napojnice, npr. \"5.00\".").describe("Iznos napojnice (iznosNapojnice)."), payment_method: Method.describe("Kako je napojnica plaćena (nacinPlacanjaNapojnice).") }))
  .output(InvoiceSchema)
  .mutation(async ({ input, ctx }) => {
    const amount = formatMoney(parseMoney(input.amount));
    if (parseMoney(amount) <= 0n) throw new ApiError("validation_error", "Napojnica mora biti veća od nule.", [{ path: "amount", message: "Napojnica mora biti veća od nule." }]);
    const row = await fiscalizedReceipt(ctx, input.id, true);
    const earlier = ((row.amounts ?? {}) as StoredAmounts).tip;
    if (earlier) {
      if (earlier.amount === amount && earlier.payment_method === input.payment_method) return toInvoice(row);
      throw new ApiError("conflict", `Napojnica na ovom računu već je prijavljena (${earlier.amount}, ${earlier.payment_method}).`, { reason: "tip_reported", id: row.id });
    }
    await send(ctx, row, { operation: "napojnica", tip: { amount, paymentMethod: input.payment_method } });
    return keep(ctx, row, { tip: { amount, payment_method: input.payment_method } });
  });

export const changePaymentMethod = apiKeyProcedure
  .meta({
    group: "fiscalize",
    openapi: {
      method: "POST",
      path: "/v1/invoices/{id}/payment-method",
      tags: ["invoices"],
      summary: "Promjena načina plaćanja fiskaliziranog računa (CIS promijeniNacPlac)",
      description:
        "Prijavljuje Poreznoj upravi da je fiskalizirani račun plaćen drukčije nego što na njemu piše. Račun ostaje kakav je poslan (payment_method); novi način je changed_payment_method. " +
        "Isti ponovljeni zahtjev vraća račun bez novog slanja.",
      protect: true,
    },
  })
  .input(z.strictObject({ id: Id, payment_method: Method.describe("Novi način plaćanja (PromijenjeniNacinPlac).") }))
  .output(InvoiceSchema)
  .mutation(async ({ input, ctx }) => {
    const row = await fiscalizedReceipt(ctx, input.id, true);
    const current = ((row.amounts ?? {}) as StoredAmounts).changed_payment_method ?? row.paymentMethod;
    if (current === input.payment_method) return toInvoice(row);
    await send(ctx, row, { operation: "promijeniNacPlac", paymentMethod: input.payment_method });
    return keep(ctx, row, { changed_payment_method: input.payment_method });
  });

export const checkReceipt = apiKeyProcedure
  .meta({
    group: "fiscalize",
    openapi: {
      method: "POST",
      path: "/v1/invoices/{id}/check",
      tags: ["invoices"],
      summary: "Provjera računa na testnoj okolini (CIS provjera)",
      description:
        "Šalje račun na provjeru bez evidentiranja; postoji samo na testnoj okolini Porezne uprave (cistest) i u simulatoru, prema produkciji je 400 s details.cis_code provjera. " +
        "Odgovor: valid i pogreške koje je Porezna uprava navela.",
      protect: true,
    },
  })
  .input(z.strictObject({ id: Id }))
  .output(z.object({ id: z.string(), valid: z.boolean(), errors: z.array(z.object({ code: z.string(), message: z.string() })) }))
  .mutation(async ({ input, ctx }) => {
    const row = await fiscalizedReceipt(ctx, input.id, false);
    try {
      await send(ctx, row, { operation: "provjera" });
      return { id: row.id, valid: true, errors: [] };
    } catch (err) {
      // CIS's verdict on the receipt is the answer; the endpoint itself refusing provjera is not.
      if (err instanceof ApiError && err.code === "validation_error" && (err.details as { cis_code?: string } | undefined)?.cis_code !== "provjera") {
        return { id: row.id, valid: false, errors: [{ code: (err.details as { cis_code?: string }).cis_code ?? "", message: err.message }] };
      }
      throw err;
    }
  });
