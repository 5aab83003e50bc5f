// E-reporting of an e-invoice (Fiscalization 2.0, eIzvjestavanjeSchema.xsd): its payment
// (EvidentirajNaplatuZahtjev) or its rejection (EvidentirajOdbijanjeZahtjev). Record before calling
// out: everything checkable is checked first; the report is committed as "pending" with its request
// id and data; then the tax authority is called; its answer completes the report and the
// Idempotency-Key record in one transaction. A refusal (400) or an outage (503, Retry-After) leaves
// nothing behind, so a retry may send it again; a call whose answer never came keeps the report as
// "unknown" and the key taken (it may have been recorded: check before reporting it again).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { EInvoice, EInvoiceReport } from "@fiskal/db";
import { CisNoAnswerError, formatMoney, parseMoney, TaxAuthorityError, zagrebDate, type F2Receipt, type Naplata, type Odbijanje, type Signer } from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { completeIdempotencyRecord, withIdempotency, type IdempotencyControl } from "../../idempotency.ts";
import type { Context, Principal } from "../../trpc.ts";
import { signingCertificate } from "../certificates/store.ts";

type ApiContext = Context & { principal: Principal };

export const ReportSchema = z.object({
  id: z.string().describe("Id prijave."),
  einvoice_id: z.string(),
  kind: z.enum(["payment", "rejection"]).describe("payment: naplata (EvidentirajNaplatuZahtjev); rejection: odbijanje (EvidentirajOdbijanjeZahtjev)."),
  status: z.string().describe("\"recorded\": Porezna uprava je zaprimila prijavu."),
  request_id: z.string().describe("Id zahtjeva koji je Porezna uprava potvrdila (idZahtjeva)."),
  data: z.record(z.string(), z.string()).describe("Podaci prijave kako su poslani Poreznoj upravi."),
  recorded_at: z.string().nullable(),
  created_at: z.string(),
});
export type ReportOut = z.infer<typeof ReportSchema>;

export function toReport(row: EInvoiceReport): ReportOut {
  return {
    id: row.id,
    einvoice_id: row.eInvoiceId,
    kind: row.kind as ReportOut["kind"],
    status: row.status,
    request_id: row.requestId,
    data: row.data as Record<string, string>,
    recorded_at: row.recordedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The account's e-invoice that was handed to the buyer (accepted or queued by the intermediary); 404 / 409 otherwise. */
async function deliveredEInvoice(ctx: ApiContext, id: string): Promise<EInvoice> {
  const row = z.uuid().safeParse(id).success ? await ctx.services.db.eInvoice.findFirst({ where: { id, accountId: ctx.principal.accountId } }) : null;
  if (!row) throw new ApiError("not_found", `E-račun ${id} ne postoji.`);
  if (row.status !== "accepted" && row.status !== "queued") {
    throw new ApiError("conflict", `E-račun ${row.number} nije isporučen (stanje ${row.status}); prijavljuje se samo isporučen e-račun.`, { reason: "not_delivered", status: row.status });
  }
  return row;
}

/** The buyer's OIB, which e-reporting requires (oibPorezniBrojPrimatelja); a buyer without one cannot be reported. */
export function reportedBuyerOib(einvoice: EInvoice): string {
  if (!einvoice.buyerOib) {
    throw new ApiError("validation_error", `Kupac e-računa ${einvoice.number} nema OIB; eIzvještavanje Porezne uprave traži OIB primatelja.`, [
      { path: "id", message: "Kupac nema OIB." },
    ]);
  }
  return einvoice.buyerOib;
}

/** A date of the report: not before the e-invoice's issue date, not after today in Zagreb. */
export function reportDateProblem(path: string, date: string, einvoice: EInvoice, now: Date = new Date()): { path: string; message: string } | null {
  if (date < einvoice.issueDate) return { path, message: `Datum ne može biti prije datuma izdavanja e-računa (${einvoice.issueDate}).` };
  const today = zagrebDate(now);
  if (date > today) return { path, message: `Datum ne može biti u budućnosti (danas je ${today}).` };
  return null;
}

export const money = (v: string) => formatMoney(parseMoney(v));

/**
 * Sends one report: the e-invoice is looked up and `prepare` checks the report against what is
 * stored (a replay with the same Idempotency-Key answers before those checks), then pending row →
 * call → completing transaction.
 */
export async function sendReport(
  ctx: ApiContext,
  einvoiceId: string,
  kind: "payment" | "rejection",
  input: unknown,
  prepare: (einvoice: EInvoice) => Promise<Naplata | Odbijanje>,
): Promise<ReportOut> {
  return withIdempotency(ctx, `einvoice.${kind}`, input, async (control) => {
    const einvoice = await deliveredEInvoice(ctx, einvoiceId);
    const data = await prepare(einvoice);
    return run(ctx, einvoice, kind, data, control);
  });
}

async function run(ctx: ApiContext, einvoice: EInvoice, kind: "payment" | "rejection", data: Naplata | Odbijanje, control: IdempotencyControl): Promise<ReportOut> {
  const { db, fiscalization, certificateKeys, log } = ctx.services;
  const accountId = ctx.principal.accountId;
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { name: true } });
  const cert = await signingCertificate(db, certificateKeys, accountId, { oib: einvoice.sellerOib, name: account.name }, new Date(), fiscalization.certificates);
  const signer: Signer = { certPem: cert.certPem, keyPem: cert.keyPem };
  const requestId = randomUUID();
  const pending = await db.eInvoiceReport.create({
    data: { accountId, eInvoiceId: einvoice.id, kind, status: "pending", requestId, data: { ...data } },
  });

  let answer: F2Receipt;
  try {
    answer =
      kind === "payment"
        ? await fiscalization.reportPayment({ payment: data as Naplata, signer, requestId })
        : await fiscalization.reportRejection({ rejection: data as Odbijanje, signer, requestId });
  } catch (err) {
    if (err instanceof CisNoAnswerError) {
      control.committed();
      await db.eInvoiceReport
        .update({ where: { id: pending.id }, data: { status: "unknown" } })
        .catch((storeErr: unknown) => log.error({ accountId, id: pending.id, requestId, err: storeErr }, "e-report stays pending: its unknown outcome could not be stored"));
      log.error({ accountId, id: pending.id, requestId, err }, "e-report sent, no answer: its outcome is unknown");
      throw new ApiError(
        "upstream_unavailable",
        `Prijava je poslana Poreznoj upravi, ali odgovor nije stigao (zahtjev ${requestId}). Ne šaljite je ponovno dok ne provjerite je li zaprimljena.`,
        { reason: "outcome_unknown", id: pending.id, request_id: requestId },
        { "Retry-After": "60" },
      );
    }
    await db.eInvoiceReport.deleteMany({ where: { id: pending.id, status: "pending" } }).catch((deleteErr: unknown) => {
      control.committed();
      log.error({ accountId, id: pending.id, err: deleteErr }, "refused e-report stays pending");
    });
    if (err instanceof TaxAuthorityError && err.kind === "rejected") {
      throw new ApiError("validation_error", `Porezna uprava odbila je prijavu: ${err.message}`, { f2_code: err.code });
    }
    if (err instanceof TaxAuthorityError) {
      throw new ApiError("upstream_unavailable", "Servis fiskalizacije Porezne uprave trenutno nije dostupan; pokušajte ponovno s istim Idempotency-Key.", err.code ? { f2_code: err.code } : undefined, {
        "Retry-After": "30",
      });
    }
    throw err;
  }
  control.committed();
  const response = await db.$transaction(async (tx) => {
    const row = await tx.eInvoiceReport.update({ where: { id: pending.id }, data: { status: "recorded", recordedAt: answer.receivedAt } });
    const out = toReport(row);
    if (control.recordId) await completeIdempotencyRecord(tx, control.recordId, out);
    return out;
  });
  control.recorded();
  return response;
}
