// The e-invoice model of the API (snake_case JSON). Every object is strict: a field the model does not
// know is a 400 validation_error naming it, never silently dropped. Shapes are checked here; the rules of
// EN 16931 and the HR CIUS (with their rule ids) are checked by validateEInvoice in @fiskal/fiscal.
import { z } from "zod";
import type { EInvoice } from "@fiskal/db";
import { DOCUMENT_TYPES, OUT_OF_SCOPE_LABELS, VAT_CATEGORIES } from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import type { Db } from "@fiskal/db";
import type { CertificateAcceptance, CertificateKeyring } from "@fiskal/fiscal";
import { signingCertificate } from "../certificates/store.ts";

const Amount = z
  .string()
  .regex(/^-?\d{1,12}(\.\d{1,2})?$/, "Iznos je decimalni zapis s najviše dvije decimale, npr. \"125.00\" ili \"-40.00\".")
  .describe("Iznos u eurima kao tekst, najviše dvije decimale.");
const Quantity = z
  .string()
  .regex(/^-?\d{1,20}(\.\d{1,10})?$/, "Decimalni zapis s najviše 10 decimala, npr. \"2\", \"1.5\" ili \"-1\".")
  .describe("Količina; negativna za povrat ili storno stavke.");
const Price = z.string().regex(/^-?\d{1,20}(\.\d{1,10})?$/, "Decimalni zapis s najviše 10 decimala, npr. \"49.90\".");
const Oib = z.string().regex(/^\d{11}$/, "OIB ima točno 11 znamenki.");
const Date = z.iso.date({ error: "Datum u obliku GGGG-MM-DD." });

const Address = z.strictObject({
  street: z.string().max(200).optional().describe("Ulica i kućni broj."),
  city: z.string().max(100).optional().describe("Mjesto."),
  postal_code: z.string().max(20).optional().describe("Poštanski broj."),
  country: z.string().length(2).optional().describe("Država, ISO 3166-1 alpha-2 (zadano HR)."),
});

const Endpoint = z
  .strictObject({
    scheme: z.string().max(4).describe("Shema elektroničke adrese (EAS), npr. 9934 OIB, 9930 njemački PDV broj, 0088 GLN, EM e-pošta."),
    id: z.string().min(1).max(100).describe("Elektronička adresa u toj shemi."),
  })
  .describe("Elektronička adresa (BT-34/BT-49); zadano OIB u shemi 9934.");

const Tax = {
  vat_category: z
    .enum(VAT_CATEGORIES)
    .optional()
    .describe(
      "Kategorija PDV-a: S stopa 25/13/5, Z nulta stopa, E oslobođeno (uz razlog), AE prijenos porezne obveze, K isporuka unutar EU, G izvoz, O ne podliježe PDV-u. Zadano S, ili Z kad je stopa 0.",
    ),
  vat_rate: z.string().max(8).optional().describe("Stopa PDV-a u postotcima: 25, 13 ili 5 za S; 0 (ili izostaviti) za Z, E, AE, K, G; izostaviti za O."),
  exemption_reason: z.string().max(1000).optional().describe("Razlog oslobođenja (BT-120), npr. članak Zakona o PDV-u. Obavezan za E ako nema koda."),
  exemption_reason_code: z
    .string()
    .max(30)
    .optional()
    .describe("VATEX kod razloga oslobođenja (BT-121), npr. VATEX-EU-132-1I. Za AE, K, G i O zadano VATEX-EU-AE, -IC, -G, -O."),
  out_of_scope: z
    .enum(OUT_OF_SCOPE_LABELS)
    .optional()
    .describe(
      "Iznos izvan osnovice PDV-a: HR:N turistička pristojba, HR:POVNAK povratna naknada, HR:PP porez na potrošnju, HR:PPMV posebni porez na motorna vozila. " +
        "Kategorija E (zadano), stopa 0, uz exemption_reason; u HR proširenju kategorija O i OutOfScopeOfVATAmount. Stavka E čiji razlog navodi takav iznos bez ove oznake odbija se (FISKAL-OUT-OF-SCOPE).",
    ),
};

const Period = z
  .strictObject({
    start: Date.optional().describe("Početak razdoblja (BT-73 / BT-134)."),
    end: Date.optional().describe("Kraj razdoblja (BT-74 / BT-135)."),
  })
  .describe("Razdoblje obračuna: početni i/ili završni datum, završni ne prije početnog.");

const LineAllowanceCharge = z.strictObject({
  amount: Amount.describe("Iznos bez PDV-a, veći od nule; umanjuje (popust) ili uvećava (trošak) iznos stavke."),
  reason: z.string().max(1000).optional().describe("Razlog (tekst), npr. Rabat; on ili kod razloga je obavezan (BR-42, BR-44)."),
  reason_code: z.string().max(3).optional().describe("Kod razloga: UNTDID 5189 za popuste (npr. 95), UNTDID 7161 za troškove."),
  percent: z.string().max(12).optional().describe("Postotak uz base_amount: iznos = osnovica × postotak / 100."),
  base_amount: Amount.optional().describe("Osnovica postotka."),
});

const Line = z.strictObject({
  description: z.string().min(1).max(1024).describe("Naziv artikla ili usluge (BT-153)."),
  quantity: Quantity,
  unit: z.string().min(1).max(3).default("H87").describe("Jedinica mjere po UN/ECE preporuci 20/21 (BR-CL-23), npr. H87 komad, HUR sat, KGM kilogram. \"KOM\" nije ispravna oznaka."),
  unit_price: Price.describe("Neto cijena jedinice bez PDV-a; ne smije biti negativna (BR-27)."),
  ...Tax,
  kpd: z.string().max(20).optional().describe("KPD 2025 šifra razine 5, npr. 62.10.11. Obavezna osim na odobrenju (381) i računu za predujam (386)."),
  base_quantity: Quantity.optional().describe("Osnovna količina cijene (BT-149, u jedinici stavke): cijena vrijedi za toliko jedinica, npr. \"1\" ili \"100\". Upisuje se samo kad je navedena."),
  allowances: z.array(LineAllowanceCharge).max(20).optional().describe("Popusti na stavci (BG-27), npr. rabat; kategorija PDV-a je stavkina."),
  charges: z.array(LineAllowanceCharge).max(20).optional().describe("Troškovi na stavci (BG-28)."),
  period: Period.optional().describe("Razdoblje obračuna stavke (BG-26)."),
  line_total: Amount.describe("Iznos stavke bez PDV-a: količina × cijena (÷ osnovna količina) − popusti stavke + troškovi stavke, zaokruženo na cente."),
  note: z.string().max(4000).optional().describe("Napomena uz stavku."),
});

const AllowanceCharge = z.strictObject({
  amount: Amount.describe("Iznos bez PDV-a, veći od nule."),
  reason: z.string().max(1000).optional().describe("Razlog (tekst); on ili kod razloga je obavezan."),
  reason_code: z.string().max(3).optional().describe("Kod razloga: UNTDID 5189 za popuste (npr. 95), UNTDID 7161 za troškove (npr. FC prijevoz)."),
  percent: z.string().max(12).optional().describe("Postotak (BT-94/BT-101) uz base_amount: iznos = osnovica × postotak / 100 (FISKAL-ALLOWANCE-PERCENT)."),
  base_amount: Amount.optional().describe("Osnovica postotka (BT-93/BT-100)."),
  ...Tax,
});

const Party = {
  name: z.string().min(1).max(200).describe("Naziv (tvrtka) kako je registriran (BT-27/BT-44)."),
  trading_name: z.string().min(1).max(200).optional().describe("Trgovački naziv (BT-28/BT-45), ako se razlikuje od registriranog; upisuje se samo kad je naveden."),
  address: Address.optional(),
  endpoint: Endpoint.optional(),
};

export const SendEInvoiceInput = z.strictObject({
  document_type: z
    .enum(DOCUMENT_TYPES)
    .default("380")
    .describe("Vrsta dokumenta (UNTDID 1001): 380 račun, 381 odobrenje (UBL CreditNote), 384 korektivni račun, 386 račun za predujam, 394 račun za leasing."),
  number: z.string().min(1).max(100).describe("Broj računa, bez bjelina (HR-BR-1)."),
  issue_date: Date.describe("Datum izdavanja, od 2026-01-01 (HR-BR-40)."),
  issue_time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, "Vrijeme u obliku SS:MM ili SS:MM:ss.")
    .optional()
    .describe("Vrijeme izdavanja (HR-BT-2), SS:MM ili SS:MM:ss. Ako se izostavi, vrijeme primitka zahtjeva po zagrebačkom vremenu."),
  due_date: Date.optional().describe("Datum dospijeća; ako se izostavi, a iznos je za plaćanje, jednak datumu izdavanja (HR-BR-4)."),
  process_type: z
    .string()
    .max(200)
    .optional()
    .describe("Oznaka poslovnog procesa (BT-23): P1–P12 ili P99:oznaka kupca. Zadano P1; za 381 P9, za 384 P10, za 386 P4."),
  currency: z.literal("EUR").default("EUR").describe("Valuta; samo EUR."),
  copy: z.boolean().optional().describe("Indikator kopije (HR-BT-1): true kad se ponovno šalje kopija već poslanog računa."),
  cash_basis_vat: z
    .boolean()
    .optional()
    .describe("Obračun PDV-a po naplaćenoj naknadi (čl. 125.i Zakona o PDV-u): true upisuje HRObracunPDVPoNaplati u HR proširenje."),
  note: z.string().max(4000).optional().describe("Napomena na računu (BT-22)."),
  seller: z.strictObject({
    oib: Oib.describe("OIB prodavatelja."),
    ...Party,
    vat_id: z.string().max(20).optional().describe("PDV identifikator (BT-31); zadano HR + OIB. Izostaviti za prodavatelja izvan sustava PDV-a."),
    in_vat_system: z.boolean().optional().describe("false: prodavatelj nije u sustavu PDV-a (porezna shema FRE, stavke E s razlogom ili O). Zadano true."),
    iban: z.string().max(34).optional().describe("IBAN prodavatelja za plaćanje (koristi se ako payment.iban nije naveden)."),
    legal_form: z.string().max(1000).optional().describe("Dodatni pravni podaci (BT-33), npr. upis u sudski registar i temeljni kapital."),
  }),
  buyer: z.strictObject({
    oib: Oib.optional().describe("OIB kupca; obavezan za kupca iz Hrvatske."),
    ...Party,
    vat_id: z
      .string()
      .max(20)
      .optional()
      .describe("PDV identifikator kupca (BT-48) s oznakom države, npr. DE123456789. Za hrvatskog kupca zadano HR + OIB kad ga kategorije S, Z, E, AE traže."),
    business_unit: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("Oznaka poslovne jedinice kupca (BT-46), upisuje se kao 9934:OIB::HR99:oznaka; traži buyer.oib. Naziv jedinice ide u trading_name (BT-45)."),
  }),
  operator: z
    .strictObject({
      name: z.string().min(1).max(200).describe("Oznaka operatera (HR-BT-4), npr. ime i prezime ili šifra blagajnika."),
      oib: Oib.describe("OIB operatera (HR-BT-5)."),
    })
    .describe("Osoba koja je izdala račun (čl. 8. Zakona o fiskalizaciji): oznaka i OIB operatera, ne tvrtke. Obavezno (HR-BR-37, HR-BR-9)."),
  billing_references: z
    .array(
      z.strictObject({
        number: z.string().min(1).max(100).describe("Broj prethodnog računa (BT-25)."),
        issue_date: Date.describe("Datum izdavanja prethodnog računa (BT-26, HR-BR-6)."),
        description: z.string().max(1000).optional().describe("Opis prethodnog računa (HR-BT-3)."),
      }),
    )
    .max(100)
    .optional()
    .describe("Računi na koje se dokument odnosi (BG-3): obavezno za 381 i 384; u konačnom računu i plaćeni predujmovi."),
  period: Period.optional().describe("Razdoblje obračuna cijelog računa (BG-14)."),
  delivery: z
    .strictObject({
      date: Date.optional().describe("Stvarni datum isporuke (BT-72)."),
      address: Address.optional().describe("Adresa isporuke (BG-15); država obavezna za isporuku unutar EU (K)."),
    })
    .optional(),
  payment: z
    .strictObject({
      means_code: z.string().max(3).optional().describe("Način plaćanja, UNTDID 4461: 30 kreditni transfer (zadano uz IBAN), 10 gotovina, 48 kartica, 49 izravno terećenje."),
      iban: z.string().max(34).optional().describe("IBAN primatelja plaćanja (BT-84); zadano seller.iban."),
      reference: z.string().max(140).optional().describe("Poziv na broj (BT-83), npr. \"HR00 2026-15\"."),
      note: z.string().max(1000).optional().describe("Opis plaćanja."),
      terms: z.string().max(1000).optional().describe("Uvjeti plaćanja (BT-20)."),
    })
    .optional(),
  allowances: z.array(AllowanceCharge).max(100).optional().describe("Popusti na razini dokumenta (BG-20)."),
  charges: z.array(AllowanceCharge).max(100).optional().describe("Troškovi na razini dokumenta (BG-21)."),
  lines: z.array(Line).min(1).max(1000).describe("Stavke računa (BG-25)."),
  totals: z
    .strictObject({
      net: Amount.describe("Iznos bez PDV-a (BT-109): stavke − popusti + troškovi."),
      vat: Amount.describe("Ukupni PDV (BT-110): zbroj PDV-a po kategoriji i stopi, svaki zaokružen na cente."),
      gross: Amount.describe("Iznos s PDV-om (BT-112)."),
      line_total: Amount.optional().describe("Zbroj iznosa stavki (BT-106); provjerava se ako je naveden."),
      allowances: Amount.optional().describe("Zbroj popusta (BT-107); provjerava se ako je naveden."),
      charges: Amount.optional().describe("Zbroj troškova (BT-108); provjerava se ako je naveden."),
      prepaid: Amount.optional().describe("Već plaćeni iznos, npr. predujam (BT-113)."),
      payable: Amount.optional().describe("Iznos za plaćanje (BT-115): iznos s PDV-om − plaćeno; provjerava se ako je naveden."),
      vat_breakdown: z
        .array(
          z.strictObject({
            category: z.enum(VAT_CATEGORIES).describe("Kategorija PDV-a (BT-118)."),
            rate: z.string().max(8).optional().describe("Stopa (BT-119); izostaviti za O."),
            taxable_amount: Amount.describe("Osnovica kategorije (BT-116)."),
            tax_amount: Amount.describe("PDV kategorije (BT-117), zaokružen na cente."),
          }),
        )
        .max(50)
        .optional()
        .describe("Raspodjela PDV-a (BG-23) kako ju je izračunao izdavatelj; ako je navedena, svaka skupina mora se slagati s dokumentom (BR-S-08, BR-S-09, …)."),
    })
    .describe("Zbrojevi koje izračunava izdavatelj; API ih provjerava i ništa ne ispravlja."),
});
export type SendEInvoiceInput = z.infer<typeof SendEInvoiceInput>;

export const EInvoiceSchema = z.object({
  id: z.string().describe("Identifikator e-računa u Fiskalu."),
  document_type: z.enum(DOCUMENT_TYPES).describe("Vrsta dokumenta: 380, 381, 384, 386 ili 394."),
  number: z.string().describe("Broj računa."),
  status: z
    .enum(["accepted", "queued", "rejected"])
    .describe("accepted: posrednik je preuzeo dokument; queued: preuzet, primatelj trenutno nedostupan; rejected: posrednik ga je odbio (vidi rejection)."),
  intermediary_id: z.string().nullable().describe("Identifikator dokumenta kod posrednika; null ako je odbijen."),
  seller_oib: z.string().describe("OIB prodavatelja."),
  buyer_oib: z.string().nullable().describe("OIB kupca; null za stranog kupca bez OIB-a."),
  buyer_vat_id: z.string().nullable().describe("PDV identifikator kupca u dokumentu, ako ga ima."),
  issue_date: z.string().describe("Datum izdavanja (GGGG-MM-DD)."),
  issue_time: z.string().describe("Vrijeme izdavanja u dokumentu (SS:MM:ss)."),
  currency: z.string().describe("Valuta (EUR)."),
  totals: z.object({ net: z.string(), vat: z.string(), gross: z.string() }).describe("Iznos bez PDV-a (BT-109), PDV (BT-110) i iznos s PDV-om (BT-112)."),
  payable: z.string().describe("Iznos za plaćanje (BT-115): iznos s PDV-om umanjen za plaćeni predujam."),
  rejection: z
    .object({
      message: z.string(),
      rules: z.array(z.string()).describe("Identifikatori prekršenih pravila, npr. BR-CL-23."),
    })
    .nullable()
    .describe("Zašto je posrednik odbio dokument; null ako nije odbijen."),
  created_at: z.string().describe("Kada je e-račun zabilježen (ISO 8601)."),
});

export type EInvoiceOut = z.infer<typeof EInvoiceSchema>;

export const F2StateSchema = z.object({
  status: z
    .enum(["not_delivered", "not_applicable", "pending", "recorded", "refused"])
    .describe(
      "Fiskalizacija 2.0 (EvidentirajERacunZahtjev): not_delivered: izdani e-račun posrednik još nije isporučio; not_applicable: primljeni dokument nije ispravan e-račun pa se ne evidentira; " +
        "pending: čeka evidentiranje (ponavlja se dok servis nije dostupan); recorded: evidentiran; refused: Porezna uprava ga je odbila (vidi error).",
    ),
  type: z.enum(["I", "U"]).describe("vrstaERacuna: I izlazni (izdani), U ulazni (primljeni)."),
  request_id: z.string().nullable().describe("Id zadnjeg zahtjeva EvidentirajERacunZahtjev."),
  recorded_at: z.string().nullable(),
  attempts: z.number().int().describe("Broj slanja Poreznoj upravi."),
  error: z.string().nullable().describe("Zašto zadnje slanje nije uspjelo (kod i poruka Porezne uprave ili nedostupnost)."),
});
export type F2State = z.infer<typeof F2StateSchema>;

type F2Columns = { fiscalizationStatus: string | null; fiscalizationRequestId: string | null; fiscalizedAt: Date | null; fiscalizationAttempts: number; fiscalizationError: string | null };

/** Where an e-invoice stands with the tax authority: `status` when nothing was sent yet (null column). */
export function f2State(type: F2State["type"], unsent: F2State["status"], row: F2Columns): F2State {
  return {
    status: (row.fiscalizationStatus ?? unsent) as F2State["status"],
    type,
    request_id: row.fiscalizationRequestId,
    recorded_at: row.fiscalizedAt?.toISOString() ?? null,
    attempts: row.fiscalizationAttempts,
    error: row.fiscalizationError,
  };
}

/** Where an issued e-invoice stands with the tax authority (Fiscalization 2.0, type I). */
export function issuedF2State(row: F2Columns & Pick<EInvoice, "status">): F2State {
  return f2State("I", row.status === "accepted" ? "pending" : "not_delivered", row);
}

interface StoredRejection {
  message: string;
  rules: string[];
}

/** An e-invoice as the API returns it: sent (with the intermediary's id) or rejected by the intermediary. */
export function toEInvoice(row: EInvoice): EInvoiceOut {
  const rejection = (row.rejection ?? null) as StoredRejection | null;
  return {
    id: row.id,
    document_type: row.documentType as EInvoiceOut["document_type"],
    number: row.number,
    status: row.status as EInvoiceOut["status"],
    intermediary_id: row.intermediaryId,
    seller_oib: row.sellerOib,
    buyer_oib: row.buyerOib,
    buyer_vat_id: row.buyerVatId,
    issue_date: row.issueDate,
    issue_time: row.issueTime,
    currency: row.currency,
    totals: { net: row.totalNet.toFixed(2), vat: row.totalTax.toFixed(2), gross: row.totalGross.toFixed(2) },
    payable: (row.totalPayable ?? row.totalGross).toFixed(2),
    rejection: rejection ? { message: rejection.message, rules: rejection.rules } : null,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * An e-invoice is fiscalized with the account's certificate (Fiscalization 2.0), so its seller must
 * be the certificate's OIB, and the certificate must be valid now: checked before anything is stored
 * or sent, as for receipts. Otherwise the document would be delivered and could never be
 * fiscalized. An account without a certificate gets the generated test certificate for the seller,
 * as its first receipt would.
 */
export async function checkSellerCertificate(
  ctx: { services: { db: Db; certificateKeys: CertificateKeyring; fiscalization?: { readonly certificates?: CertificateAcceptance } }; principal: { accountId: string } },
  sellerOib: string,
): Promise<void> {
  const { db, certificateKeys } = ctx.services;
  const accountId = ctx.principal.accountId;
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { name: true } });
  try {
    // E-invoices are fiscalized with Fiscalization 2.0: its address decides which certificates it takes.
    await signingCertificate(db, certificateKeys, accountId, { oib: sellerOib, name: account.name }, undefined, ctx.services.fiscalization?.certificates);
  } catch (err) {
    const detail = err instanceof ApiError && Array.isArray(err.details) ? (err.details[0] as { reason?: string } | undefined) : undefined;
    if (detail?.reason !== "oib_mismatch") throw err;
    const cert = await db.certificate.findUnique({ where: { accountId }, select: { oib: true } });
    const message =
      `Certifikat računa tvrtke izdan je za OIB ${cert?.oib ?? "drugog obveznika"}, a e-račun ima OIB prodavatelja ${sellerOib}. ` +
      "E-račun se fiskalizira certifikatom prodavatelja: pošaljite ga s računa tvrtke prodavatelja.";
    throw new ApiError("validation_error", message, [{ path: "seller.oib", message, reason: "oib_mismatch" }]);
  }
}
