import { z } from "zod";
import type { Invoice } from "@fiskal/db";
import { receiptQrUrl } from "@fiskal/fiscal";

const Oib = z.string().regex(/^\d{11}$/, "OIB ima točno 11 znamenki.");
/** A receipt amount: negative on a storno. */
const SignedMoney = z
  .string()
  .regex(/^-?\d{1,12}\.\d{2}$/, "Iznos mora biti decimalni zapis s dvije decimale, npr. \"125.00\" (storno: \"-125.00\").");
const Rate = z.string().regex(/^\d{1,3}(\.\d{1,2})?$/, "Stopa je postotak, npr. \"25\" ili \"25.00\".");

/** Unknown fields are refused by name, never dropped. */
const strict = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (iss) =>
      iss.code === "unrecognized_keys" ? `Nepoznato polje: ${iss.keys.map((k) => `"${k}"`).join(", ")}. Provjerite naziv u dokumentaciji API-ja.` : undefined,
  });

const TaxLine = strict({
  rate: Rate.describe("Stopa u postocima."),
  base: SignedMoney.describe("Osnovica."),
  amount: SignedMoney.describe("Iznos poreza: osnovica × stopa, zaokruženo na cent (dopušteno odstupanje 0.01)."),
});
const OtherTax = strict({
  name: z.string().min(1).max(100).describe("Naziv poreza, npr. \"Porez na luksuz\"."),
  rate: Rate.describe("Stopa u postocima."),
  base: SignedMoney.describe("Osnovica."),
  amount: SignedMoney.describe("Iznos poreza."),
});
const Fee = strict({
  name: z.string().min(1).max(100).describe("Naziv naknade, npr. \"Povratna naknada\"."),
  amount: SignedMoney.describe("Iznos naknade."),
});

const DIGITS_NO_LEADING_ZERO = /^[1-9]\d{0,19}$/;

export const FiscalizeInput = strict({
  oib: Oib.describe("OIB izdavatelja (obveznika fiskalizacije); mora odgovarati certifikatu."),
  issued_at: z.iso.datetime({ offset: true }).describe("Vrijeme izdavanja računa (ISO 8601 s vremenskom zonom)."),
  number: z.string().regex(DIGITS_NO_LEADING_ZERO, "Broj računa su znamenke bez vodećih nula (1–20).").describe("Brojčana oznaka računa (BrOznRac)."),
  premises: z.string().regex(/^[0-9A-Za-z]{1,20}$/, "Oznaka poslovnog prostora: do 20 slova i znamenki.").describe("Oznaka poslovnog prostora (OznPosPr) kako je prijavljena Poreznoj upravi."),
  device: z.string().regex(DIGITS_NO_LEADING_ZERO, "Oznaka naplatnog uređaja su znamenke bez vodećih nula (1–20).").describe("Oznaka naplatnog uređaja (OznNapUr)."),
  total: SignedMoney.describe("Ukupan iznos računa (IznosUkupno); negativan za storno."),
  payment_method: z
    .enum(["G", "K", "T", "O"], { error: "Način plaćanja: G, K, T ili O (ček, C, Porezna uprava više ne prima)." })
    .describe("G gotovina, K kartice, T transakcijski račun, O ostalo (i više načina plaćanja na jednom računu)."),
  operator_oib: Oib.describe("OIB operatera na naplatnom uređaju koji izdaje račun (OibOper); za samoposlužne uređaje OIB izdavatelja. Obavezan."),
  vat_registered: z.boolean({ error: "Navedite je li izdavatelj u sustavu PDV-a (true ili false)." }).describe("Izdavatelj je u sustavu PDV-a (USustPdv)."),
  sequence: z
    .enum(["P", "N"], { error: "Oznaka slijednosti: P (na razini poslovnog prostora) ili N (na razini naplatnog uređaja)." })
    .describe("Oznaka slijednosti brojeva računa (OznSlijed): P po poslovnom prostoru, N po naplatnom uređaju."),
  vat: z.array(TaxLine).min(1).max(20).optional().describe("PDV po stopama (Pdv); svaka stopa jednom."),
  consumption_tax: z.array(TaxLine).min(1).max(20).optional().describe("Porez na potrošnju po stopama (Pnp), najviše 3 %."),
  other_taxes: z.array(OtherTax).min(1).max(20).optional().describe("Ostali porezi (OstaliPor), npr. porez na luksuz."),
  exempt_amount: SignedMoney.optional().describe("Iznos oslobođenja od PDV-a (IznosOslobPdv)."),
  margin_amount: SignedMoney.optional().describe("Iznos na koji se odnosi posebni postupak oporezivanja marže (IznosMarza)."),
  not_taxable_amount: SignedMoney.optional().describe("Iznos koji ne podliježe oporezivanju (IznosNePodlOpor)."),
  fees: z.array(Fee).min(1).max(20).optional().describe("Naknade (Naknade), npr. povratna naknada za ambalažu."),
  buyer_oib: Oib.optional().describe("OIB primatelja računa (OibPrimateljaRacuna), samo B2B uz plaćanje gotovinom, karticom ili ostalo."),
  paragon_number: z.string().min(1).max(100).optional().describe("Oznaka paragon računa (ParagonBrRac) koji se ovim računom naknadno prijavljuje; takav se račun šalje kao naknadna dostava."),
  special_purpose: z.string().min(1).max(1000).optional().describe("Specifična namjena (SpecNamj): samo kad to Porezna uprava zatraži."),
  storno_of: z.uuid("Storno se poziva na id računa (UUID).").optional().describe("Id računa koji se ovim računom stornira (isti račun tvrtke); ukupni iznos storna mora biti negativan."),
});
export type FiscalizeInput = z.infer<typeof FiscalizeInput>;

const TaxLineOut = z.object({ rate: z.string(), base: z.string(), amount: z.string() });

export const InvoiceSchema = z.object({
  id: z.string(),
  status: z
    .string()
    .describe("\"fiscalized\": JIR je zaprimljen; \"pending\": poslan Poreznoj upravi, JIR još nije zabilježen (račun vrijedi sa ZKI)."),
  jir: z.string().nullable().describe("Jedinstveni identifikator računa koji vraća Porezna uprava; null dok ga nema."),
  zki: z.string().describe("Zaštitni kod izdavatelja: MD5 RSA-SHA1 potpisa."),
  qr_url: z.string().describe("Sadržaj QR koda računa (specifikacija v2.6, pogl. 2.7): poveznica s JIR-om, a dok ga nema sa ZKI-jem. Slika: GET /v1/invoices/{id}/qr."),
  oib: z.string(),
  number: z.string(),
  premises: z.string(),
  device: z.string(),
  issued_at: z.string(),
  total: z.string(),
  payment_method: z.string(),
  operator_oib: z.string().nullable(),
  vat_registered: z.boolean().nullable(),
  sequence: z.string().nullable(),
  late_delivery: z.boolean().describe("Naknadna dostava (NakDost): račun je izdan bez JIR-a pa je Poreznoj upravi dostavljen naknadno."),
  vat: z.array(TaxLineOut),
  consumption_tax: z.array(TaxLineOut),
  other_taxes: z.array(TaxLineOut.extend({ name: z.string() })),
  exempt_amount: z.string().nullable(),
  margin_amount: z.string().nullable(),
  not_taxable_amount: z.string().nullable(),
  fees: z.array(z.object({ name: z.string(), amount: z.string() })),
  buyer_oib: z.string().nullable(),
  paragon_number: z.string().nullable(),
  special_purpose: z.string().nullable(),
  storno_of: z.string().nullable(),
  tip: z
    .object({ amount: z.string(), payment_method: z.string() })
    .nullable()
    .describe("Napojnica prijavljena Poreznoj upravi (POST /v1/invoices/{id}/tip), ili null."),
  changed_payment_method: z.string().nullable().describe("Način plaćanja prijavljen promjenom (POST /v1/invoices/{id}/payment-method), ili null; payment_method ostaje onaj s računa."),
  fiscalized_at: z.string().nullable(),
  created_at: z.string(),
});

export type InvoiceOut = z.infer<typeof InvoiceSchema>;

/** The `amounts` column: the receipt's taxes, fees and special amounts, normalised to 2 decimals. */
export interface StoredAmounts {
  vat?: { rate: string; base: string; amount: string }[];
  consumption_tax?: { rate: string; base: string; amount: string }[];
  other_taxes?: { name: string; rate: string; base: string; amount: string }[];
  exempt_amount?: string;
  margin_amount?: string;
  not_taxable_amount?: string;
  fees?: { name: string; amount: string }[];
  /** The tip CIS accepted (napojnica). */
  tip?: { amount: string; payment_method: string };
  /** The payment method CIS accepted as changed (promijeniNacPlac). */
  changed_payment_method?: string;
}

/** A receipt as the API returns it: fiscalized (with its JIR) or still waiting for one (ZKI only). */
export function toInvoice(row: Invoice): InvoiceOut {
  const a = (row.amounts ?? {}) as StoredAmounts;
  const total = row.total.toFixed(2);
  return {
    id: row.id,
    status: row.status,
    jir: row.jir,
    zki: row.zki,
    qr_url: receiptQrUrl({ jir: row.jir, zki: row.zki, issuedAt: row.issuedAt, total }),
    oib: row.oib,
    number: row.number,
    premises: row.premises,
    device: row.device,
    issued_at: row.issuedAt.toISOString(),
    total,
    payment_method: row.paymentMethod,
    operator_oib: row.operatorOib,
    vat_registered: row.vatRegistered,
    sequence: row.sequenceMark,
    late_delivery: row.lateDelivery,
    vat: a.vat ?? [],
    consumption_tax: a.consumption_tax ?? [],
    other_taxes: a.other_taxes ?? [],
    exempt_amount: a.exempt_amount ?? null,
    margin_amount: a.margin_amount ?? null,
    not_taxable_amount: a.not_taxable_amount ?? null,
    fees: a.fees ?? [],
    buyer_oib: row.buyerOib,
    paragon_number: row.paragonNumber,
    special_purpose: row.specialPurpose,
    storno_of: row.stornoOfId,
    tip: a.tip ?? null,
    changed_payment_method: a.changed_payment_method ?? null,
    fiscalized_at: row.fiscalizedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
