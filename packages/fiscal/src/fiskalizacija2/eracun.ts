// The ERacun element of EvidentirajERacunZahtjev, read from the e-invoice's UBL 2.1 document (the
// same bytes the buyer receives), so the tax authority records exactly what was delivered. Field
// mapping per the Fiscalization 2.0 specification (the ERacun elements name their UBL business terms):
// BT-1 brojDokumenta, BT-2 datumIzdavanja, BT-3 vrstaDokumenta, BT-5 valutaERacuna, BT-9
// datumDospijecaPlacanja, BT-23 vrstaPoslovnogProcesa, BT-12 referencaNaUgovor, BT-72 datumIsporuke,
// BG-3 PrethodniERacun, seller/buyer names and OIBs, HR-BT-5 oibOperatera, BG-17 PrijenosSredstava,
// BG-22 DokumentUkupanIznos, BG-23 RaspodjelaPdv, BG-20/21 DokumentPopust/DokumentTrosak, BG-25 StavkaERacuna.
import { DOMParser, type Element as XmlElement } from "@xmldom/xmldom";
import { el } from "./messages.ts";

const HR_CATEGORIES = new Set(["HR:PDV25", "HR:PDV13", "HR:PDV5", "HR:Z", "HR:K", "HR:G", "HR:AE", "HR:E", "HR:POVNAK", "HR:PP", "HR:PPMV", "HR:O", "HR:N"]);
const DISCOUNT_REASONS = new Set(["64", "95", "100", "102", "103", "104", "105", "106", "109", "98"]);
const VAT_CATEGORIES = new Set(["S", "O", "E", "AE", "Z", "K", "G", "L", "M"]);

export class ERacunError extends Error {
  override readonly name = "ERacunError";
}

const kids = (e: XmlElement | undefined, name?: string): XmlElement[] =>
  e ? Array.from(e.childNodes).filter((n): n is XmlElement => n.nodeType === 1 && (name === undefined || (n as XmlElement).localName === name)) : [];
/** The first element along a path of local names ("Party/PartyLegalEntity/RegistrationName"). */
function at(e: XmlElement | undefined, path: string): XmlElement | undefined {
  let cur = e;
  for (const step of path.split("/")) {
    cur = kids(cur, step)[0];
    if (!cur) return undefined;
  }
  return cur;
}
const text = (e: XmlElement | undefined, path?: string): string | undefined => {
  const t = (path ? at(e, path) : e)?.textContent?.trim();
  return t ? t : undefined;
};
const oibOf = (v: string | undefined) => {
  const m = v ? /^(?:HR)?(\d{11})$/.exec(v) : null;
  return m ? m[1] : undefined;
};

function partyOib(party: XmlElement | undefined): string | undefined {
  const endpoint = at(party, "EndpointID");
  if (endpoint?.getAttribute("schemeID") === "9934") {
    const oib = oibOf(text(endpoint));
    if (oib) return oib;
  }
  for (const scheme of kids(party, "PartyTaxScheme")) {
    const oib = oibOf(text(scheme, "CompanyID"));
    if (oib) return oib;
  }
  for (const id of kids(party, "PartyIdentification")) {
    const oib = oibOf(text(id, "ID"));
    if (oib) return oib;
  }
  return undefined;
}

const partyName = (party: XmlElement | undefined) => text(party, "PartyLegalEntity/RegistrationName") ?? text(party, "PartyName/Name");

/** The ERacun element (prefix "efis") for a UBL Invoice or CreditNote. Throws ERacunError when a mandatory field is missing. */
export function eRacunFromUbl(ubl: string, opts: { operatorOib?: string; copy?: boolean } = {}): string {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level, msg) => void (level !== "warning" && errors.push(msg)) }).parseFromString(ubl, "text/xml");
  const root = doc.documentElement;
  if (errors.length || !root || (root.localName !== "Invoice" && root.localName !== "CreditNote")) {
    throw new ERacunError("the e-invoice is not a UBL Invoice or CreditNote");
  }
  const credit = root.localName === "CreditNote";
  const n = "efis";
  const need = (v: string | undefined, what: string): string => {
    if (v === undefined) throw new ERacunError(`the e-invoice has no ${what}`);
    return v;
  };
  const supplier = at(root, "AccountingSupplierParty/Party");
  const customer = at(root, "AccountingCustomerParty/Party");
  const operator = opts.operatorOib ?? oibOf(text(root, "AccountingSupplierParty/SellerContact/ID")) ?? need(partyOib(supplier), "seller OIB");
  const parts: string[] = [
    el(n, "brojDokumenta", need(text(root, "ID"), "number (BT-1)")),
    el(n, "datumIzdavanja", need(text(root, "IssueDate"), "issue date (BT-2)")),
    el(n, "vrstaDokumenta", need(text(root, credit ? "CreditNoteTypeCode" : "InvoiceTypeCode"), "document type (BT-3)")),
    el(n, "valutaERacuna", need(text(root, "DocumentCurrencyCode"), "currency (BT-5)")),
    el(n, "datumDospijecaPlacanja", text(root, "DueDate") ?? text(root, "PaymentMeans/PaymentDueDate")),
    el(n, "vrstaPoslovnogProcesa", need(text(root, "ProfileID"), "business process (BT-23)")),
    el(n, "referencaNaUgovor", text(root, "ContractDocumentReference/ID")),
    el(n, "datumIsporuke", text(root, "Delivery/ActualDeliveryDate")),
  ];
  for (const ref of kids(root, "BillingReference")) {
    const doc = at(ref, "InvoiceDocumentReference");
    const id = text(doc, "ID");
    const date = text(doc, "IssueDate");
    if (id && date) parts.push(`<${n}:PrethodniERacun>${el(n, "brojDokumenta", id)}${el(n, "datumIzdavanja", date)}</${n}:PrethodniERacun>`);
  }
  parts.push(
    `<${n}:Izdavatelj>${el(n, "ime", need(partyName(supplier), "seller name"))}${el(n, "oibPorezniBroj", need(partyOib(supplier), "seller OIB"))}${el(n, "oibOperatera", operator)}</${n}:Izdavatelj>`,
    `<${n}:Primatelj>${el(n, "ime", need(partyName(customer), "buyer name"))}${el(n, "oibPorezniBroj", need(partyOib(customer), "buyer OIB"))}</${n}:Primatelj>`,
  );
  for (const means of kids(root, "PaymentMeans")) {
    const account = at(means, "PayeeFinancialAccount");
    const id = text(account, "ID");
    if (!id) continue;
    parts.push(
      `<${n}:PrijenosSredstava>${el(n, "identifikatorRacunaZaPlacanje", id)}${el(n, "nazivRacunaZaPlacanje", text(account, "Name"))}` +
        `${el(n, "identifikatorPruzateljaPlatnihUsluga", text(account, "FinancialInstitutionBranch/ID"))}</${n}:PrijenosSredstava>`,
    );
  }
  const totals = at(root, "LegalMonetaryTotal");
  const taxTotal = kids(root, "TaxTotal").find((t) => kids(t, "TaxSubtotal").length > 0) ?? kids(root, "TaxTotal")[0];
  parts.push(
    `<${n}:DokumentUkupanIznos>${el(n, "neto", need(text(totals, "LineExtensionAmount"), "sum of lines (BT-106)"))}` +
      `${el(n, "popust", text(totals, "AllowanceTotalAmount"))}${el(n, "trosak", text(totals, "ChargeTotalAmount"))}` +
      `${el(n, "iznosBezPdv", need(text(totals, "TaxExclusiveAmount"), "total without VAT (BT-109)"))}${el(n, "pdv", text(taxTotal, "TaxAmount") ?? "0.00")}` +
      `${el(n, "iznosSPdv", need(text(totals, "TaxInclusiveAmount"), "total with VAT (BT-112)"))}${el(n, "placeniIznos", text(totals, "PrepaidAmount"))}` +
      `${el(n, "iznosKojiDospijevaZaPlacanje", need(text(totals, "PayableAmount"), "amount due (BT-115)"))}</${n}:DokumentUkupanIznos>`,
  );
  const subtotals = kids(taxTotal, "TaxSubtotal");
  if (!subtotals.length) throw new ERacunError("the e-invoice has no VAT breakdown (BG-23)");
  for (const sub of subtotals) {
    const cat = at(sub, "TaxCategory");
    const hr = text(cat, "Name");
    const exemption = text(cat, "TaxExemptionReasonCode")?.toUpperCase();
    parts.push(
      `<${n}:RaspodjelaPdv>${el(n, "kategorijaPdv", need(text(cat, "ID"), "VAT category"))}${el(n, "oporeziviIznos", need(text(sub, "TaxableAmount"), "taxable amount"))}` +
        `${el(n, "iznosPoreza", need(text(sub, "TaxAmount"), "VAT amount"))}${el(n, "stopa", text(cat, "Percent"))}` +
        `${el(n, "razlogOslobodenja", exemption?.startsWith("VATEX-") ? exemption : undefined)}${el(n, "tekstRazlogaOslobodenja", text(cat, "TaxExemptionReason"))}` +
        `${el(n, "hrOznakaKategorijaPdv", hr && HR_CATEGORIES.has(hr) ? hr : undefined)}</${n}:RaspodjelaPdv>`,
    );
  }
  const allowances = kids(root, "AllowanceCharge");
  for (const ac of allowances.filter((a) => text(a, "ChargeIndicator") === "false")) {
    const cat = at(ac, "TaxCategory");
    const code = text(ac, "AllowanceChargeReasonCode");
    parts.push(
      `<${n}:DokumentPopust>${el(n, "iznosPopust", need(text(ac, "Amount"), "allowance amount"))}${el(n, "kategorijaPdv", need(text(cat, "ID"), "allowance VAT category"))}` +
        `${el(n, "stopaPdv", text(cat, "Percent"))}${el(n, "tekstRazlogaPopusta", text(ac, "AllowanceChargeReason"))}` +
        `${el(n, "razlogPopusta", code && DISCOUNT_REASONS.has(code) ? code : undefined)}</${n}:DokumentPopust>`,
    );
  }
  for (const ac of allowances.filter((a) => text(a, "ChargeIndicator") === "true")) {
    const cat = at(ac, "TaxCategory");
    const hr = text(cat, "Name");
    const exemption = text(cat, "TaxExemptionReasonCode")?.toUpperCase();
    parts.push(
      `<${n}:DokumentTrosak>${el(n, "iznosTrosak", need(text(ac, "Amount"), "charge amount"))}${el(n, "kategorijaPdv", need(text(cat, "ID"), "charge VAT category"))}` +
        `${el(n, "hrOznakaPorezneKategorije", hr && HR_CATEGORIES.has(hr) ? hr : undefined)}${el(n, "stopaPdv", text(cat, "Percent"))}` +
        `${el(n, "tekstRazlogaOslobodenjaPdv", text(cat, "TaxExemptionReason"))}${el(n, "razlogOslobodenjaPdv", exemption?.startsWith("VATEX-") ? exemption : undefined)}</${n}:DokumentTrosak>`,
    );
  }
  const lines = kids(root, credit ? "CreditNoteLine" : "InvoiceLine");
  if (!lines.length) throw new ERacunError("the e-invoice has no lines (BG-25)");
  for (const line of lines) {
    const qty = at(line, credit ? "CreditedQuantity" : "InvoicedQuantity");
    const item = at(line, "Item");
    const cat = at(item, "ClassifiedTaxCategory");
    const price = at(line, "Price");
    const base = at(price, "BaseQuantity");
    const category = need(text(cat, "ID"), "line VAT category");
    if (!VAT_CATEGORIES.has(category)) throw new ERacunError(`line VAT category ${category} is not one the tax authority knows`);
    const hr = text(cat, "Name");
    const classifications = kids(item, "CommodityClassification")
      .map((c) => at(c, "ItemClassificationCode"))
      .filter((c): c is XmlElement => c?.getAttribute("listID") === "CG")
      .map((c) => `<${n}:ArtiklIdentifikatorKlasifikacija>${el(n, "identifikatorKlasifikacije", text(c))}${el(n, "identifikatorSheme", "CG")}</${n}:ArtiklIdentifikatorKlasifikacija>`);
    parts.push(
      `<${n}:StavkaERacuna>${el(n, "kolicina", need(text(qty), "line quantity"))}${el(n, "jedinicaMjere", need(qty?.getAttribute("unitCode") || undefined, "line unit"))}` +
        `${el(n, "neto", need(text(line, "LineExtensionAmount"), "line amount"))}${el(n, "artiklNetoCijena", need(text(price, "PriceAmount"), "line price"))}` +
        `${el(n, "artiklBrutoCijena", text(price, "AllowanceCharge/BaseAmount"))}${el(n, "artiklOsnovnaKolicina", text(base))}` +
        `${el(n, "artiklJedinicaMjereZaOsnovnuKolicinu", base?.getAttribute("unitCode") || undefined)}${el(n, "artiklKategorijaPdv", category)}` +
        `${el(n, "artiklStopaPdv", text(cat, "Percent"))}${el(n, "artiklNaziv", need(text(item, "Name"), "item name"))}${el(n, "artiklOpis", text(item, "Description"))}` +
        `${el(n, "artiklHrOznakaKategorijaPdv", hr && HR_CATEGORIES.has(hr) ? hr : undefined)}${classifications.join("")}</${n}:StavkaERacuna>`,
    );
  }
  parts.push(el(n, "indikatorKopije", String(opts.copy ?? false)));
  return `<${n}:ERacun>${parts.join("")}</${n}:ERacun>`;
}

/** What a list shows of a delivered UBL document; null fields where the document does not say (or cannot be read). */
export interface UblSummary {
  number: string | null;
  documentType: string | null;
  sellerOib: string | null;
  sellerName: string | null;
  buyerOib: string | null;
  issueDate: string | null;
  currency: string | null;
  /** BT-109, BT-110, BT-112, BT-115 as written. */
  totals: { net: string | null; vat: string | null; gross: string | null; payable: string | null };
}

/** Reads the summary of a UBL Invoice or CreditNote; null when the text is not one. Never throws. */
export function ublSummary(ubl: string): UblSummary | null {
  let root: XmlElement | null;
  try {
    const errors: string[] = [];
    root = new DOMParser({ onError: (level, msg) => void (level !== "warning" && errors.push(msg)) }).parseFromString(ubl, "text/xml").documentElement;
    if (errors.length) return null;
  } catch {
    return null;
  }
  if (!root || (root.localName !== "Invoice" && root.localName !== "CreditNote")) return null;
  const credit = root.localName === "CreditNote";
  const supplier = at(root, "AccountingSupplierParty/Party");
  const customer = at(root, "AccountingCustomerParty/Party");
  const totals = at(root, "LegalMonetaryTotal");
  const taxTotal = kids(root, "TaxTotal").find((t) => kids(t, "TaxSubtotal").length > 0) ?? kids(root, "TaxTotal")[0];
  return {
    number: text(root, "ID") ?? null,
    documentType: text(root, credit ? "CreditNoteTypeCode" : "InvoiceTypeCode") ?? null,
    sellerOib: partyOib(supplier) ?? null,
    sellerName: partyName(supplier) ?? null,
    buyerOib: partyOib(customer) ?? null,
    issueDate: text(root, "IssueDate") ?? null,
    currency: text(root, "DocumentCurrencyCode") ?? null,
    totals: {
      net: text(totals, "TaxExclusiveAmount") ?? null,
      vat: text(taxTotal, "TaxAmount") ?? null,
      gross: text(totals, "TaxInclusiveAmount") ?? null,
      payable: text(totals, "PayableAmount") ?? null,
    },
  };
}
