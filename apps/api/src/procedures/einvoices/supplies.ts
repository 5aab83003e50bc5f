// POST /v1/einvoices/supplies — eIzvještavanje of a supply for which no e-invoice was issued
// (Fiscalization Act art. 51, EvidentirajIsporukuZaKojuNijeIzdanERacunZahtjev), signed with the
// account's certificate. Recorded before calling out, as report.ts does: checked, committed as
// "pending", sent, then "recorded" with the answer (or "unknown" when none came).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { SupplyReport } from "@fiskal/db";
import { CisNoAnswerError, isValidOib, TaxAuthorityError, VAT_CATEGORIES, type Isporuka, type Signer } from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { completeIdempotencyRecord, withIdempotency } from "../../idempotency.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { signingCertificate } from "../certificates/store.ts";
import { money } from "./report.ts";

const Amount = z.string().regex(/^-?\d{1,12}(\.\d{1,2})?$/, "Iznos je decimalni zapis s najviše dvije decimale, npr. \"125.00\".");
const Decimal = z.string().regex(/^-?\d{1,20}(\.\d{1,10})?$/, "Decimalni zapis s najviše 10 decimala.");
const Oib = z.string().regex(/^\d{11}$/, "OIB ima točno 11 znamenki.");
const Day = z.iso.date({ error: "Datum u obliku GGGG-MM-DD." });

const SupplyInput = z.strictObject({
  number: z.string().min(1).max(100).describe("Broj računa (brojDokumenta)."),
  issue_date: Day.describe("Datum izdavanja, od 2026-01-01."),
  document_type: z.enum(["380", "381", "384", "386", "389"]).default("380").describe("Vrsta dokumenta (UNTDID 1001)."),
  due_date: Day.optional().describe("Datum dospijeća plaćanja."),
  process_type: z.string().min(1).max(200).default("P1").describe("Vrsta poslovnog procesa, npr. P1."),
  delivery_date: Day.optional().describe("Datum isporuke."),
  seller: z.strictObject({ oib: Oib.describe("OIB izdavatelja; mora odgovarati certifikatu."), name: z.string().min(1).max(1024) }),
  operator_oib: Oib.describe("OIB operatera koji je izdao račun."),
  buyer: z.strictObject({ oib: Oib.describe("OIB primatelja."), name: z.string().min(1).max(1024) }),
  iban: z.string().max(34).optional().describe("IBAN za plaćanje."),
  previous_invoices: z.array(z.strictObject({ number: z.string().min(1).max(100), issue_date: Day })).max(100).optional(),
  totals: z.strictObject({
    net: Amount.describe("Zbroj neto iznosa stavki."),
    without_vat: Amount.describe("Iznos bez PDV-a."),
    vat: Amount.describe("Ukupni PDV."),
    with_vat: Amount.describe("Iznos s PDV-om."),
    paid: Amount.optional().describe("Plaćeni iznos (predujam)."),
    payable: Amount.describe("Iznos koji dospijeva za plaćanje."),
  }),
  vat_breakdown: z
    .array(
      z.strictObject({
        category: z.enum(VAT_CATEGORIES),
        taxable_amount: Amount,
        tax_amount: Amount,
        rate: Decimal.optional(),
        exemption_reason: z.string().min(1).max(1024).optional(),
      }),
    )
    .min(1)
    .max(50),
  lines: z
    .array(
      z.strictObject({
        description: z.string().min(1).max(1024),
        quantity: Decimal,
        unit: z.string().regex(/^[A-Z0-9]{2,3}$/, "Jedinica mjere po UN/ECE preporuci 20/21, npr. H87.").default("H87"),
        unit_price: Decimal,
        line_total: Amount,
        vat_category: z.enum(VAT_CATEGORIES),
        vat_rate: Decimal.optional(),
        kpd: z.string().max(10).optional(),
      }),
    )
    .min(1)
    .max(1000),
  copy: z.boolean().default(false),
});

const SupplyReportSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: z.string().describe("\"recorded\": Porezna uprava je zaprimila prijavu."),
  request_id: z.string().describe("Id zahtjeva koji je Porezna uprava potvrdila (idZahtjeva)."),
  recorded_at: z.string().nullable(),
  created_at: z.string(),
});
type SupplyReportOut = z.infer<typeof SupplyReportSchema>;

const toOut = (r: SupplyReport): SupplyReportOut => ({
  id: r.id,
  number: r.number,
  status: r.status,
  request_id: r.requestId,
  recorded_at: r.recordedAt?.toISOString() ?? null,
  created_at: r.createdAt.toISOString(),
});

function toIsporuka(input: z.infer<typeof SupplyInput>): Isporuka {
  return {
    brojDokumenta: input.number,
    datumIzdavanja: input.issue_date,
    vrstaDokumenta: input.document_type,
    valutaRacuna: "EUR",
    datumDospijecaPlacanja: input.due_date,
    vrstaPoslovnogProcesa: input.process_type,
    datumIsporuke: input.delivery_date,
    prethodniRacuni: input.previous_invoices?.map((p) => ({ brojDokumenta: p.number, datumIzdavanja: p.issue_date })),
    izdavatelj: { ime: input.seller.name, oibPorezniBroj: input.seller.oib, oibOperatera: input.operator_oib },
    primatelj: { ime: input.buyer.name, oibPorezniBroj: input.buyer.oib },
    iban: input.iban,
    ukupno: {
      neto: money(input.totals.net),
      iznosBezPdv: money(input.totals.without_vat),
      pdv: money(input.totals.vat),
      iznosSPdv: money(input.totals.with_vat),
      placeniIznos: input.totals.paid === undefined ? undefined : money(input.totals.paid),
      iznosKojiDospijevaZaPlacanje: money(input.totals.payable),
    },
    raspodjelaPdv: input.vat_breakdown.map((v) => ({
      kategorijaPdv: v.category,
      oporeziviIznos: money(v.taxable_amount),
      iznosPoreza: money(v.tax_amount),
      stopa: v.rate,
      tekstRazlogaOslobodenja: v.exemption_reason,
    })),
    stavke: input.lines.map((l) => ({
      kolicina: l.quantity,
      jedinicaMjere: l.unit,
      neto: money(l.line_total),
      artiklNetoCijena: l.unit_price,
      artiklKategorijaPdv: l.vat_category,
      artiklStopaPdv: l.vat_rate,
      artiklNaziv: l.description,
      kpd: l.kpd,
    })),
    indikatorKopije: input.copy,
  };
}

export const reportSupply = apiKeyProcedure
  .meta({
    group: "einvoice",
    idempotent: true,
    openapi: {
      method: "POST",
      path: "/v1/einvoices/supplies",
      tags: ["einvoices"],
      summary: "eIzvještavanje: isporuka za koju nije izdan e-račun (čl. 51.)",
      description:
        "Prijavljuje Poreznoj upravi račun izdan bez e-računa (EvidentirajIsporukuZaKojuNijeIzdanERacunZahtjev, potpisano certifikatom tvrtke), jednom po broju računa. " +
        "Odbijena prijava je validation_error s kodom Porezne uprave (details.f2_code); nedostupnost servisa je 503 s Retry-After. Pošaljite zaglavlje Idempotency-Key.",
      protect: true,
    },
  })
  .input(SupplyInput)
  .output(SupplyReportSchema)
  .mutation(({ input, ctx }) =>
    withIdempotency(ctx, "einvoice.supply", input, async (control) => {
      const { db, fiscalization, certificateKeys, log } = ctx.services;
      const accountId = ctx.principal.accountId;
      const problems: { path: string; message: string }[] = [];
      if (input.issue_date < "2026-01-01") problems.push({ path: "issue_date", message: "Datum izdavanja je od 2026-01-01 (eIzvještavanje)." });
      for (const [path, oib] of [["seller.oib", input.seller.oib], ["buyer.oib", input.buyer.oib], ["operator_oib", input.operator_oib]] as const) {
        if (!isValidOib(oib)) problems.push({ path, message: "OIB nije ispravan (kontrolna znamenka)." });
      }
      if (problems.length) throw new ApiError("validation_error", "Prijava isporuke nije ispravna.", problems);
      const existing = await db.supplyReport.findUnique({ where: { accountId_number: { accountId, number: input.number } } });
      if (existing) throw new ApiError("conflict", `Račun ${input.number} već je prijavljen (stanje ${existing.status}).`, { reason: "reported", id: existing.id, status: existing.status });
      if (!fiscalization.reportSupply) throw new ApiError("upstream_unavailable", "Servis fiskalizacije ove instalacije ne podržava prijavu isporuke bez e-računa.", undefined, { "Retry-After": "3600" });
      const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { name: true } });
      const cert = await signingCertificate(db, certificateKeys, accountId, { oib: input.seller.oib, name: account.name }, new Date(), fiscalization.certificates);
      const signer: Signer = { certPem: cert.certPem, keyPem: cert.keyPem };
      const data = toIsporuka(input);
      const requestId = randomUUID();
      const pending = await db.supplyReport.create({
        data: { accountId, number: input.number, issueDate: input.issue_date, buyerOib: input.buyer.oib, status: "pending", requestId, data: JSON.parse(JSON.stringify(data)) as object },
      });
      let receivedAt: Date;
      try {
        receivedAt = (await fiscalization.reportSupply({ supplies: [data], signer, requestId })).receivedAt;
      } catch (err) {
        if (err instanceof CisNoAnswerError) {
          control.committed();
          await db.supplyReport.update({ where: { id: pending.id }, data: { status: "unknown" } }).catch((e: unknown) => log.error({ err: e, id: pending.id }, "supply report stays pending"));
          throw new ApiError("upstream_unavailable", `Prijava je poslana Poreznoj upravi, ali odgovor nije stigao (zahtjev ${requestId}). Ne šaljite je ponovno dok ne provjerite je li zaprimljena.`, { reason: "outcome_unknown", id: pending.id, request_id: requestId }, { "Retry-After": "60" });
        }
        await db.supplyReport.deleteMany({ where: { id: pending.id, status: "pending" } });
        if (err instanceof TaxAuthorityError && err.kind === "rejected") throw new ApiError("validation_error", `Porezna uprava odbila je prijavu: ${err.message}`, { f2_code: err.code });
        if (err instanceof TaxAuthorityError) throw new ApiError("upstream_unavailable", "Servis fiskalizacije Porezne uprave trenutno nije dostupan; pokušajte ponovno s istim Idempotency-Key.", err.code ? { f2_code: err.code } : undefined, { "Retry-After": "30" });
        throw err;
      }
      control.committed();
      const out = await db.$transaction(async (tx) => {
        const row = await tx.supplyReport.update({ where: { id: pending.id }, data: { status: "recorded", recordedAt: receivedAt } });
        const response = toOut(row);
        if (control.recordId) await completeIdempotencyRecord(tx, control.recordId, response);
        return response;
      });
      control.recorded();
      return out;
    }),
  );
