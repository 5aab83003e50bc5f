// E-invoices (Fiskalizacija 2.0): the model, its amounts and VAT breakdown, and the UBL 2.1 document
// (Invoice or CreditNote) per EN 16931 with the HR CIUS 2025 and its extension (HR EXT). The checks
// that can be made before sending are in einvoice-validate.ts (`validateEInvoice`).
//
// The checks mirror the rules of the official schematrons (EN 16931 1.3.15, HR CIUS 1.0.3) that can be
// decided from the request alone; every problem carries the id of the rule it enforces, so that what
// the API refuses is what the validators would refuse. The builder assumes the checks passed.
import { create } from "xmlbuilder2";
import { type Decimal, formatMoney, formatScaled, multiplyDecimal, normalizeDecimal, parseDecimal, parseMoney, roundDecimal } from "./money.ts";

export interface EInvoiceAddress {
  street?: string;
  city?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2, default "HR". */
  country?: string;
}

/** UNTDID 1001: commercial invoice, credit note (a UBL CreditNote), corrective invoice, advance invoice. */
export const DOCUMENT_TYPES = ["380", "381", "384", "386", "394"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/**
 * VAT categories (UNCL 5305) an e-invoice line, allowance or charge may carry: S standard/reduced rate,
 * Z zero rate, E exempt, AE reverse charge, K intra-EU supply, G export outside the EU, O not subject to VAT.
 */
export const VAT_CATEGORIES = ["S", "Z", "E", "AE", "K", "G", "O"] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];


/**
 * Rule ids of the checks that no official EN 16931 or HR CIUS rule makes (reference/en16931,
 * reference/hr-cius), with the reason each exists. Every other rule id Fiskal answers is official.
 */
export const FISKAL_RULES: Readonly<Record<string, string>> = {
  "FISKAL-BILLING-REFERENCE":
    "A credit note (381) or corrective invoice (384) names the invoice it corrects (BG-3: BT-25 number, BT-26 date). The official rules check a reference only when one is there (BR-55, HR-BR-6); without it the buyer and the tax authority cannot match the correction to the invoice.",
  "FISKAL-LINE-NET":
    "A line's net amount (BT-131) is quantity (BT-129) × net price (BT-146) ÷ price base quantity (BT-149, when given), rounded to cents. EN 16931 leaves that product unchecked; a mismatch would carry a line amount the line itself does not support into every total.",
  "FISKAL-OUT-OF-SCOPE":
    "Tourist tax, returnable packaging, consumption tax and the special tax on motor vehicles are outside the VAT base (HR:N, HR:POVNAK, HR:PP, HR:PPMV). Sent as an ordinary exempt (E) item they would be reported to the tax authority as exempt supplies; no official rule tells them apart, so an E item whose reason names one must be marked out_of_scope, and out_of_scope goes only with E.",
  "FISKAL-ALLOWANCE-PERCENT":
    "A document-level allowance or charge given as a percentage of a base amount (BT-94/BT-93, BT-101/BT-100) amounts to base × percentage / 100, rounded to cents. EN 16931 does not check that product.",
  "FISKAL-BUSINESS-UNIT":
    "The buyer's business unit (BT-46) is written in the HR CIUS form 9934:<buyer OIB>::HR99:<unit code>, so it needs the buyer's OIB; a seller has no BT-46. No official rule checks the form.",
};

/** VAT exemption reason codes used when a K, G, AE or O item names no reason (the one VATEX code of the category). */
export const DEFAULT_EXEMPTION_CODES: Partial<Record<VatCategory, string>> = {
  AE: "VATEX-EU-AE",
  K: "VATEX-EU-IC",
  G: "VATEX-EU-G",
  O: "VATEX-EU-O",
};

/** The VAT part of a line, a document-level allowance or a charge. */
export interface EInvoiceTax {
  /** Default: "S" when the rate is above zero, "Z" when it is zero. */
  vatCategory?: VatCategory;
  /** Percent; required for S ("25", "13", "5"), "0" or absent for Z, E, AE, K, G; absent for O. */
  vatRate?: string;
  /** BT-120/HR-BT-13: the text of the exemption (e.g. the article of the VAT Act). */
  exemptionReason?: string;
  /** BT-121: VATEX code, e.g. "VATEX-EU-132-1I". */
  exemptionReasonCode?: string;
  /** An amount outside the VAT base (OUT_OF_SCOPE_LABELS): category E, rate 0, with its reason. */
  outOfScope?: OutOfScopeLabel;
}

export interface EInvoiceLine extends EInvoiceTax {
  description: string;
  /** May be negative (a returned item, a cancelled advance). */
  quantity: string;
  /** UN/ECE Recommendation 20/21 unit code (BR-CL-23), e.g. "H87" (piece), "HUR" (hour), "KGM". */
  unit: string;
  /** Net price of one unit; never negative (BR-27). */
  unitPrice: string;
  /** KPD 2025 subcategory (level 5), e.g. "62.10.11"; not required on credit notes and advance invoices (HR-BR-25). */
  kpd?: string;
  /** BT-149 price base quantity (in the line's unit, BT-150): the price is for this many units; written only when given. */
  baseQuantity?: string;
  /** BG-27 / BG-28 line allowances ("rabat") and charges, without VAT category (the line's applies). */
  allowances?: EInvoiceLineAllowanceCharge[];
  charges?: EInvoiceLineAllowanceCharge[];
  /** BG-26 line invoicing period (BT-134/BT-135). */
  period?: EInvoicePeriod;
  /** quantity × unitPrice ÷ baseQuantity rounded to cents. */
  lineTotal: string;
  note?: string;
}

/** An invoicing period (BG-14 / BG-26): start and/or end date, YYYY-MM-DD. */
export interface EInvoicePeriod {
  start?: string;
  end?: string;
}

/** A line-level allowance or charge (BG-27/BG-28): amount, reason or code, optionally a percentage of a base. */
export interface EInvoiceLineAllowanceCharge {
  amount: string;
  reason?: string;
  reasonCode?: string;
  percent?: string;
  baseAmount?: string;
}

export interface EInvoiceAllowanceCharge extends EInvoiceTax {
  /** Positive amount without VAT. */
  amount: string;
  /** BT-97/BT-104 text; this or reasonCode is required (BR-33, BR-38). */
  reason?: string;
  /** BT-98 (UNTDID 5189) for allowances, BT-105 (UNTDID 7161) for charges. */
  reasonCode?: string;
  /** BT-94/BT-101 percentage (MultiplierFactorNumeric), with baseAmount. */
  percent?: string;
  /** BT-93/BT-100 base amount the percentage applies to. */
  baseAmount?: string;
}

export interface EInvoiceParty {
  /** Croatian OIB; required for the seller and for buyers without another electronic address. */
  oib?: string;
  /** BT-31/BT-48 VAT identifier with its country prefix, e.g. "HR69435151530", "DE123456789". */
  vatId?: string;
  name: string;
  /** BT-28 / BT-45 trading name (PartyName), when it differs from the registered name; written only when given. */
  tradingName?: string;
  /**
   * The buyer's business unit (BT-46, HR CIUS form `9934:<OIB>::HR99:<unit code>`): the code of the
   * unit within the buyer that receives the invoice. Buyer only, with an OIB.
   */
  businessUnit?: string;
  address?: EInvoiceAddress;
  /** BT-34/BT-49 electronic address; default the OIB under scheme 9934. */
  endpoint?: { scheme: string; id: string };
}

export interface EInvoiceSeller extends EInvoiceParty {
  oib: string;
  /** The seller's account for credit transfers (used when `payment.iban` is absent). */
  iban?: string;
  /** false: the seller is outside the VAT system (tax scheme FRE, lines E or O). Default true. */
  inVatSystem?: boolean;
  /** BT-33: legal form and registration data, e.g. "Upisano u sudski registar Trgovačkog suda u Zagrebu". */
  legalForm?: string;
}

export interface EInvoiceInput {
  /** Default "380". */
  documentType?: DocumentType;
  number: string;
  /** YYYY-MM-DD */
  issueDate: string;
  /** HH:mm:ss (HR-BT-2). */
  issueTime: string;
  /** YYYY-MM-DD; when absent and an amount is due, the issue date (HR-BR-4 requires a due date). */
  dueDate?: string;
  /** BT-23 business process; default by document type (P1, P9 for 381, P10 for 384, P4 for 386). */
  processType?: string;
  /** VAT on a cash basis (the seller pays VAT when paid, art. 125.i of the VAT Act): HRObracunPDVPoNaplati in the HR extension. */
  cashBasisVat?: boolean;
  currency: "EUR";
  /** HR-BT-1: true when this is a copy of a document already sent with the same number. */
  copy?: boolean;
  note?: string;
  seller: EInvoiceSeller;
  buyer: EInvoiceParty;
  /** The person who issued the invoice (HR-BT-4 name, HR-BT-5 OIB), required (HR-BR-37, HR-BR-9): never the seller by default. */
  operator: { name: string; oib: string };
  /** BG-3: the invoices this one corrects, credits or settles (advance invoices in a final invoice). */
  billingReferences?: { number: string; issueDate: string; description?: string }[];
  /** BT-72 actual delivery date and BG-15 deliver-to address (country required for K, BR-IC-12). */
  delivery?: { date?: string; address?: EInvoiceAddress };
  /** BG-14 invoicing period of the whole document (BT-73/BT-74). */
  period?: EInvoicePeriod;
  /** BG-16: payment means (UNTDID 4461, default 30 credit transfer when there is an IBAN), account, reference. */
  payment?: { meansCode?: string; iban?: string; reference?: string; note?: string; terms?: string };
  allowances?: EInvoiceAllowanceCharge[];
  charges?: EInvoiceAllowanceCharge[];
  lines: EInvoiceLine[];
  /**
   * net: BT-109 total without VAT (lines − allowances + charges); vat: BT-110; gross: BT-112; optional:
   * lineTotal BT-106, allowances BT-107, charges BT-108, prepaid BT-113 (input), payable BT-115.
   */
  totals: {
    net: string;
    vat: string;
    gross: string;
    lineTotal?: string;
    allowances?: string;
    charges?: string;
    prepaid?: string;
    payable?: string;
    /** BG-23 as the issuer computed it; when given, every group must match the document's. */
    vatBreakdown?: { category: VatCategory; rate?: string; taxableAmount: string; taxAmount: string }[];
  };
}

/** One reason a request cannot become a valid e-invoice: the field, what is wrong, and the official rule when there is one. */
export type EInvoiceProblem = { path: string; message: string; rule?: string };

/** BT-24 as HR-BR-5 of the official HR CIUS 2025 Schematron requires it (CIUS and its extension travel together). */
export const HR_CIUS_CUSTOMIZATION_ID =
  "urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0";
/** BT-23 default: P1 = invoicing of deliveries against purchase orders / ordinary B2B invoicing (HR-BR-34 allows P1–P12, P99:…). */
export const HR_PROFILE_ID = "P1";
/** Default process type per document type. */
export const DEFAULT_PROCESS_TYPE: Record<DocumentType, string> = { "380": "P1", "381": "P9", "384": "P10", "386": "P4", "394": "P1" };

/**
 * Amounts outside the VAT base (HR CIUS labels): tourist tax, returnable packaging, consumption tax,
 * special tax on motor vehicles. In the EN 16931 part they are exempt (E) items labelled with the HR
 * label, their reason written `#<label>#<reason>` in the VAT breakdown; in the HR extension they are
 * category O under the label's tax scheme, and their sum is OutOfScopeOfVATAmount, outside the HR
 * tax-exclusive amount — as the tax authority's examples write them.
 */
export const OUT_OF_SCOPE_LABELS = ["HR:N", "HR:POVNAK", "HR:PP", "HR:PPMV"] as const;
export type OutOfScopeLabel = (typeof OUT_OF_SCOPE_LABELS)[number];
/** The HR extension's tax scheme of each label (HRTaxScheme/ID in the examples). */
const OUT_OF_SCOPE_SCHEME: Record<OutOfScopeLabel, string> = { "HR:N": "VAT", "HR:POVNAK": "OTH", "HR:PP": "LOC", "HR:PPMV": "CAR" };
/** ISO 6523 ICD for Croatian OIB electronic addresses (EndpointID/@schemeID). */
export const OIB_ENDPOINT_SCHEME = "9934";
/** HR-BR-25: KPD codes are carried as ItemClassificationCode with this listID. */
export const KPD_LIST_ID = "CG";
/** HR-BR-40: Fiskalizacija 2.0 e-invoices start on this date. */
export const EINVOICE_FIRST_DATE = "2026-01-01";

const NS_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const NS_CREDIT_NOTE = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const NS_CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const NS_CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
const NS_EXT = "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2";
const NS_HREXT = "urn:mfin.gov.hr:schema:xsd:HRExtensionAggregateComponents-1";

/** IBAN: country, check digits, BBAN; ISO 13616 mod-97 check. Croatian IBANs are HR + 19 digits. */
export function isValidIban(iban: string): boolean {
  const s = iban.replace(/ /g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s)) return false;
  if (s.startsWith("HR") && !/^HR\d{19}$/.test(s)) return false;
  const rearranged = s.slice(4) + s.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const v = ch >= "A" ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of v) rest = (rest * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return rest === 1;
}

/** The VAT amount of one rate group: round(base × rate / 100) to cents, half away from zero. */
export function vatForRate(baseCents: bigint, rate: Decimal): bigint {
  return roundDecimal(multiplyDecimal({ units: baseCents, scale: 2 }, { units: rate.units, scale: rate.scale + 2 }), 2);
}

/** The category and normalized rate ("25.00" → "25"; null for O) of a line, allowance or charge. */
export function taxOf(t: EInvoiceTax): { category: VatCategory; rate: string | null } {
  const rate = t.vatRate === undefined ? null : parseDecimal(t.vatRate);
  const normalized = rate ? normalizeDecimal(rate) : null;
  const category = t.vatCategory ?? (t.outOfScope !== undefined ? "E" : normalized === null || normalized === "0" ? (t.vatRate === undefined ? "S" : "Z") : "S");
  if (category === "O") return { category, rate: null };
  if (category === "S") return { category, rate: normalized };
  return { category, rate: normalized ?? "0" };
}

/** The exemption reason text and code an item carries in the document (defaults for AE, K, G, O). */
export function exemptionOf(t: EInvoiceTax, category: VatCategory): { text?: string; code?: string } {
  if (category === "S" || category === "Z") return {};
  const plain = t.exemptionReason?.trim() ? t.exemptionReason : undefined;
  const text = plain && t.outOfScope !== undefined ? `#${t.outOfScope}#${plain}` : plain;
  const code = t.exemptionReasonCode ?? (text ? undefined : DEFAULT_EXEMPTION_CODES[category]);
  return { text, code };
}

export interface VatGroup {
  category: VatCategory;
  /** null for O (no rate in the document). */
  rate: string | null;
  /** Σ line totals + Σ charges − Σ allowances of the group, in cents. */
  base: bigint;
  vat: bigint;
  exemption: { text?: string; code?: string };
}

/** BG-23: one group per VAT category and rate, over lines, allowances (subtracted) and charges, in first-seen order. */
export function vatBreakdown(input: Pick<EInvoiceInput, "lines"> & Partial<Pick<EInvoiceInput, "allowances" | "charges">>): VatGroup[] {
  const groups = new Map<string, VatGroup>();
  const add = (t: EInvoiceTax, cents: bigint) => {
    const { category, rate } = taxOf(t);
    const key = `${category}/${rate ?? ""}`;
    const g = groups.get(key) ?? { category, rate, base: 0n, vat: 0n, exemption: exemptionOf(t, category) };
    g.base += cents;
    groups.set(key, g);
  };
  for (const line of input.lines) add(line, parseMoney(line.lineTotal));
  for (const a of input.allowances ?? []) add(a, -parseMoney(a.amount));
  for (const c of input.charges ?? []) add(c, parseMoney(c.amount));
  for (const g of groups.values()) {
    const rate = g.rate === null ? null : parseDecimal(g.rate);
    g.vat = g.category === "S" && rate ? vatForRate(g.base, rate) : 0n;
  }
  return [...groups.values()];
}

/** The amounts of the document (cents), computed from lines, allowances and charges. */
export function documentTotals(input: EInvoiceInput) {
  const groups = vatBreakdown(input);
  const lineTotal = input.lines.reduce((s, l) => s + parseMoney(l.lineTotal), 0n);
  const allowances = (input.allowances ?? []).reduce((s, a) => s + parseMoney(a.amount), 0n);
  const charges = (input.charges ?? []).reduce((s, c) => s + parseMoney(c.amount), 0n);
  const net = lineTotal - allowances + charges;
  const vat = groups.reduce((s, g) => s + g.vat, 0n);
  const gross = net + vat;
  const prepaid = input.totals?.prepaid !== undefined ? parseMoney(input.totals.prepaid) : 0n;
  return { groups, lineTotal, allowances, charges, net, vat, gross, prepaid, payable: gross - prepaid };
}

/** HR-BT-12 / HR-TB-2: the Croatian label of a category ("HR:PDV25", "HR:E", …). */
export function hrCategoryName(category: VatCategory, rate: string | null): string {
  return category === "S" ? `HR:PDV${rate}` : `HR:${category}`;
}

/** The VAT identifier a party carries in the document, or null. Croatian buyers identified by OIB get HR + OIB where the HR CIUS asks for BT-48. */
function buyerVatId(input: EInvoiceInput, categories: Set<VatCategory>): string | null {
  if (categories.has("O")) return null;
  if (input.buyer.vatId) return input.buyer.vatId;
  const needs = ["S", "Z", "E", "AE"].some((c) => categories.has(c as VatCategory));
  return needs && input.buyer.oib ? `HR${input.buyer.oib}` : null;
}

/** BT-48 as the document carries it (null when it carries none). */
export function documentBuyerVatId(input: EInvoiceInput): string | null {
  return buyerVatId(input, categoriesOf(input));
}

/** The VAT categories of the document's lines, allowances and charges. */
export function categoriesOf(input: EInvoiceInput): Set<VatCategory> {
  return new Set([...input.lines, ...(input.allowances ?? []), ...(input.charges ?? [])].map((t) => taxOf(t).category));
}

/** The text of HRObracunPDVPoNaplati, as the tax authority's example writes it. */
const HR_CASH_BASIS_TEXT = "Obračun po naplaćenoj naknadi";

/**
 * The UBL 2.1 document: an Invoice (380, 384, 386) or a CreditNote (381) for the HR CIUS 2025.
 * CustomizationID and ProfileID, issue time, parties addressed by OIB (EndpointID schemeID 9934) or their
 * own electronic address, the seller in or outside the VAT system (tax scheme VAT or FRE), the operator
 * as SellerContact, billing references, delivery, payment means, document-level allowances and charges,
 * one TaxSubtotal per category and rate, totals, the HR extension (HRFISK20Data) when the document has
 * exempt (E) items (HR-BR-26), and per line the KPD (listID "CG") and the HR category label (HR-BT-12).
 * Assumes `validateEInvoice` returned no problems.
 */

export function buildUbl(input: EInvoiceInput): string {
  const type: DocumentType = input.documentType ?? "380";
  const credit = type === "381";
  const cur = { currencyID: input.currency };
  const t = documentTotals(input);
  const categories = categoriesOf(input);
  const inVat = input.seller.inVatSystem !== false;
  const doc = create({ version: "1.0", encoding: "UTF-8" });
  const root = doc.ele(credit ? NS_CREDIT_NOTE : NS_INVOICE, credit ? "CreditNote" : "Invoice", {
    "xmlns:cac": NS_CAC,
    "xmlns:cbc": NS_CBC,
    "xmlns:ext": NS_EXT,
    "xmlns:hrextac": NS_HREXT,
  });
  type El = typeof root;
  const cbc = (parent: El, name: string, value: string, attrs?: Record<string, string>) => parent.ele(NS_CBC, `cbc:${name}`, attrs).txt(value);
  const cac = (parent: El, name: string) => parent.ele(NS_CAC, `cac:${name}`);
  const amount = (cents: bigint) => formatMoney(cents);

  const taxCategory = (parent: El, name: "TaxCategory" | "ClassifiedTaxCategory", item: EInvoiceTax | VatGroup, withName: boolean) => {
    const { category, rate } = "base" in item ? { category: item.category, rate: item.rate } : taxOf(item);
    const exemption = "base" in item ? item.exemption : exemptionOf(item, category);
    const cat = cac(parent, name);
    cbc(cat, "ID", category);
    const outOfScope = "base" in item ? undefined : item.outOfScope;
    if (withName) cbc(cat, "Name", outOfScope ?? hrCategoryName(category, rate));
    if (rate !== null) cbc(cat, "Percent", rate);
    // The exemption reason belongs to the VAT breakdown (BT-120/121, BG-23); a line or an allowance
    // repeats it only for E and O, as the tax authority's examples do (not for AE, K, G). An amount
    // outside the VAT base: `#label#reason` on a line, the plain reason on an allowance or charge.
    const withReason = name === "TaxCategory" && "base" in item ? true : category === "E" || category === "O";
    const text = outOfScope !== undefined && name === "TaxCategory" && !("base" in item) ? item.exemptionReason : exemption.text;
    if (withReason && exemption.code) cbc(cat, "TaxExemptionReasonCode", exemption.code);
    if (withReason && text) cbc(cat, "TaxExemptionReason", text);
    cbc(cac(cat, "TaxScheme"), "ID", "VAT");
  };

  // The HR extension: VAT on a cash basis; HR-BR-26: the HR breakdown (HR-BG-2) and totals (HR-BG-3) accompany exempt items.
  const hrData =
    categories.has("E") || input.cashBasisVat
      ? root.ele(NS_EXT, "ext:UBLExtensions").ele(NS_EXT, "ext:UBLExtension").ele(NS_EXT, "ext:ExtensionContent").ele(NS_HREXT, "hrextac:HRFISK20Data")
      : null;
  if (hrData && input.cashBasisVat) hrData.ele(NS_HREXT, "hrextac:HRObracunPDVPoNaplati").txt(HR_CASH_BASIS_TEXT);
  if (hrData && categories.has("E")) {
    const data = hrData;
    const hrTotal = data.ele(NS_HREXT, "hrextac:HRTaxTotal");
    cbc(hrTotal, "TaxAmount", amount(t.vat), cur);
    const outside = outOfScopeAmounts(input);
    const outsideTotal = [...outside.values()].reduce((a, b) => a + b, 0n);
    for (const g of t.groups) {
      const parts: { base: bigint; vat: bigint; category: VatCategory; name: string; rate: string | null; exemption: VatGroup["exemption"]; scheme: string }[] = [];
      if (g.category === "E" && outside.size) {
        const inside = g.base - outsideTotal;
        const plain = input.lines.find((l) => l.outOfScope === undefined && taxOf(l).category === "E");
        if (inside !== 0n || plain) parts.push({ ...g, base: inside, name: hrCategoryName("E", g.rate), exemption: plain ? exemptionOf(plain, "E") : g.exemption, scheme: "VAT" });
        for (const [label, base] of outside) parts.push({ base, vat: 0n, category: "O", name: label, rate: "0", exemption: {}, scheme: OUT_OF_SCOPE_SCHEME[label] });
      } else parts.push({ ...g, name: hrCategoryName(g.category, g.rate), scheme: "VAT" });
      for (const part of parts) {
        const sub = hrTotal.ele(NS_HREXT, "hrextac:HRTaxSubtotal");
        cbc(sub, "TaxableAmount", amount(part.base), cur);
        cbc(sub, "TaxAmount", amount(part.vat), cur);
        const cat = sub.ele(NS_HREXT, "hrextac:HRTaxCategory");
        cbc(cat, "ID", part.category);
        cbc(cat, "Name", part.name);
        if (part.rate !== null) cbc(cat, "Percent", part.rate);
        if (part.exemption.code) cbc(cat, "TaxExemptionReasonCode", part.exemption.code);
        if (part.exemption.text) cbc(cat, "TaxExemptionReason", part.exemption.text);
        cbc(cat.ele(NS_HREXT, "hrextac:HRTaxScheme"), "ID", part.scheme);
      }
    }
    const hrMonetary = data.ele(NS_HREXT, "hrextac:HRLegalMonetaryTotal");
    cbc(hrMonetary, "TaxExclusiveAmount", amount(t.net - outsideTotal), cur);
    hrMonetary.ele(NS_HREXT, "hrextac:OutOfScopeOfVATAmount", cur).txt(amount(outsideTotal));
  }

  cbc(root, "CustomizationID", HR_CIUS_CUSTOMIZATION_ID);
  cbc(root, "ProfileID", input.processType ?? DEFAULT_PROCESS_TYPE[type]);
  cbc(root, "ID", input.number);
  if (input.copy) cbc(root, "CopyIndicator", "true");
  cbc(root, "IssueDate", input.issueDate);
  cbc(root, "IssueTime", input.issueTime.length === 5 ? `${input.issueTime}:00` : input.issueTime);
  // HR-BR-4 asks an invoice with an amount due for its due date; a credit note carries one only when given.
  const dueDate = input.dueDate ?? (!credit && t.payable > 0n ? input.issueDate : undefined);
  if (!credit && dueDate) cbc(root, "DueDate", dueDate);
  cbc(root, credit ? "CreditNoteTypeCode" : "InvoiceTypeCode", type);
  if (input.note !== undefined && input.note.trim() !== "") cbc(root, "Note", input.note);
  cbc(root, "DocumentCurrencyCode", input.currency);
  /** The allowances, then the charges, of the document (BG-20, BG-21) or of a line (BG-27, BG-28); `more` adds what a document-level one also carries. */
  const allowanceCharges = <A extends EInvoiceLineAllowanceCharge>(parent: El, owner: { allowances?: A[]; charges?: A[] }, more?: (el: El, a: A) => void) => {
    for (const [list, charge] of [
      [owner.allowances ?? [], false],
      [owner.charges ?? [], true],
    ] as const) {
      for (const a of list) {
        const el = cac(parent, "AllowanceCharge");
        cbc(el, "ChargeIndicator", String(charge));
        if (a.reasonCode) cbc(el, "AllowanceChargeReasonCode", a.reasonCode);
        if (a.reason?.trim()) cbc(el, "AllowanceChargeReason", a.reason);
        if (a.percent !== undefined) cbc(el, "MultiplierFactorNumeric", normalizeDecimal(parseDecimal(a.percent)!));
        cbc(el, "Amount", amount(parseMoney(a.amount)), cur);
        if (a.baseAmount !== undefined) cbc(el, "BaseAmount", amount(parseMoney(a.baseAmount)), cur);
        more?.(el, a);
      }
    }
  };
  const period = (parent: El, p: EInvoicePeriod | undefined) => {
    if (!p || (p.start === undefined && p.end === undefined)) return;
    const el = cac(parent, "InvoicePeriod");
    if (p.start) cbc(el, "StartDate", p.start);
    if (p.end) cbc(el, "EndDate", p.end);
  };
  period(root, input.period);
  for (const r of input.billingReferences ?? []) {
    const ref = cac(cac(root, "BillingReference"), "InvoiceDocumentReference");
    cbc(ref, "ID", r.number);
    cbc(ref, "IssueDate", r.issueDate);
    if (r.description?.trim()) cbc(ref, "DocumentDescription", r.description);
  }

  const address = (parent: El, name: string, a: EInvoiceAddress) => {
    const addr = cac(parent, name);
    if (a.street?.trim()) cbc(addr, "StreetName", a.street);
    if (a.city?.trim()) cbc(addr, "CityName", a.city);
    if (a.postalCode?.trim()) cbc(addr, "PostalZone", a.postalCode);
    cbc(cac(addr, "Country"), "IdentificationCode", a.country ?? "HR");
  };
  const party = (role: "AccountingSupplierParty" | "AccountingCustomerParty", p: EInvoiceParty, taxScheme: { id: string; scheme: "VAT" | "FRE" } | null, legalForm?: string) => {
    const wrapper = cac(root, role);
    const el = cac(wrapper, "Party");
    const endpoint = p.endpoint ?? { scheme: OIB_ENDPOINT_SCHEME, id: p.oib! };
    cbc(el, "EndpointID", endpoint.id, { schemeID: endpoint.scheme });
    if (p.businessUnit?.trim() && p.oib) cbc(cac(el, "PartyIdentification"), "ID", `${OIB_ENDPOINT_SCHEME}:${p.oib}::HR99:${p.businessUnit}`);
    if (p.tradingName?.trim()) cbc(cac(el, "PartyName"), "Name", p.tradingName);
    address(el, "PostalAddress", p.address ?? {});
    if (taxScheme) {
      const tax = cac(el, "PartyTaxScheme");
      cbc(tax, "CompanyID", taxScheme.id);
      cbc(cac(tax, "TaxScheme"), "ID", taxScheme.scheme);
    }
    const legal = cac(el, "PartyLegalEntity");
    cbc(legal, "RegistrationName", p.name);
    // A party without a VAT identifier is identified by its OIB as legal registration identifier (BT-30/BT-47), as in the tax authority's examples.
    if (p.oib && taxScheme?.scheme !== "VAT") cbc(legal, "CompanyID", p.oib);
    if (legalForm?.trim()) cbc(legal, "CompanyLegalForm", legalForm);
    return wrapper;
  };
  const sellerTax = categories.has("O") ? null : inVat ? { id: input.seller.vatId ?? `HR${input.seller.oib}`, scheme: "VAT" as const } : { id: input.seller.oib, scheme: "FRE" as const };
  const supplier = party("AccountingSupplierParty", input.seller, sellerTax, input.seller.legalForm);
  const operator = input.operator as EInvoiceInput["operator"] | undefined;
  if (!operator) throw new TypeError("buildUbl: the operator (HR-BT-4, HR-BT-5) is required; validateEInvoice refuses a document without it");
  const contact = cac(supplier, "SellerContact");
  cbc(contact, "ID", operator.oib);
  cbc(contact, "Name", operator.name);
  const bt48 = buyerVatId(input, categories);
  party("AccountingCustomerParty", input.buyer, bt48 ? { id: bt48, scheme: "VAT" } : null);

  if (input.delivery && (input.delivery.date || input.delivery.address)) {
    const delivery = cac(root, "Delivery");
    if (input.delivery.date) cbc(delivery, "ActualDeliveryDate", input.delivery.date);
    if (input.delivery.address) address(cac(delivery, "DeliveryLocation"), "Address", input.delivery.address);
  }

  const p = input.payment ?? {};
  const iban = p.iban ?? input.seller.iban;
  const meansCode = p.meansCode ?? (iban ? "30" : credit && dueDate ? "1" : undefined);
  if (meansCode) {
    const means = cac(root, "PaymentMeans");
    cbc(means, "PaymentMeansCode", meansCode);
    if (credit && dueDate) cbc(means, "PaymentDueDate", dueDate);
    if (p.note?.trim()) cbc(means, "InstructionNote", p.note);
    if (p.reference?.trim()) cbc(means, "PaymentID", p.reference);
    if (iban) cbc(cac(means, "PayeeFinancialAccount"), "ID", iban.replace(/ /g, "").toUpperCase());
  }
  if (p.terms?.trim()) cbc(cac(root, "PaymentTerms"), "Note", p.terms);

  allowanceCharges(root, input, (el, a) => taxCategory(el, "TaxCategory", a, true));

  const taxTotal = cac(root, "TaxTotal");
  cbc(taxTotal, "TaxAmount", amount(t.vat), cur);
  for (const g of t.groups) {
    const sub = cac(taxTotal, "TaxSubtotal");
    cbc(sub, "TaxableAmount", amount(g.base), cur);
    cbc(sub, "TaxAmount", amount(g.vat), cur);
    taxCategory(sub, "TaxCategory", g, false);
  }

  const totals = cac(root, "LegalMonetaryTotal");
  cbc(totals, "LineExtensionAmount", amount(t.lineTotal), cur);
  cbc(totals, "TaxExclusiveAmount", amount(t.net), cur);
  cbc(totals, "TaxInclusiveAmount", amount(t.gross), cur);
  if (input.allowances?.length) cbc(totals, "AllowanceTotalAmount", amount(t.allowances), cur);
  if (input.charges?.length) cbc(totals, "ChargeTotalAmount", amount(t.charges), cur);
  if (input.totals.prepaid !== undefined) cbc(totals, "PrepaidAmount", amount(t.prepaid), cur);
  cbc(totals, "PayableAmount", amount(t.payable), cur);

  input.lines.forEach((line, i) => {
    const el = cac(root, credit ? "CreditNoteLine" : "InvoiceLine");
    cbc(el, "ID", String(i + 1));
    if (line.note?.trim()) cbc(el, "Note", line.note);
    cbc(el, credit ? "CreditedQuantity" : "InvoicedQuantity", plainDecimal(line.quantity), { unitCode: line.unit });
    cbc(el, "LineExtensionAmount", amount(parseMoney(line.lineTotal)), cur);
    period(el, line.period);
    allowanceCharges(el, line);
    const item = cac(el, "Item");
    cbc(item, "Name", line.description);
    if (line.kpd) cbc(cac(item, "CommodityClassification"), "ItemClassificationCode", line.kpd, { listID: KPD_LIST_ID });
    taxCategory(item, "ClassifiedTaxCategory", line, true);
    const price = cac(el, "Price");
    cbc(price, "PriceAmount", plainDecimal(line.unitPrice), cur);
    if (line.baseQuantity !== undefined) cbc(price, "BaseQuantity", plainDecimal(line.baseQuantity), { unitCode: line.unit });
  });

  return doc.end({ prettyPrint: true });
}

/** The amounts outside the VAT base per label, in cents (lines and charges add, allowances subtract), in first-seen order. */
export function outOfScopeAmounts(input: Pick<EInvoiceInput, "lines" | "allowances" | "charges">): Map<OutOfScopeLabel, bigint> {
  const out = new Map<OutOfScopeLabel, bigint>();
  const add = (t: EInvoiceTax, cents: bigint) => {
    if (t.outOfScope !== undefined) out.set(t.outOfScope, (out.get(t.outOfScope) ?? 0n) + cents);
  };
  for (const l of input.lines) add(l, parseMoney(l.lineTotal));
  for (const a of input.allowances ?? []) add(a, -parseMoney(a.amount));
  for (const c of input.charges ?? []) add(c, parseMoney(c.amount));
  return out;
}

/** Keeps the precision the caller gave but writes at least two decimals ("3" → "3.00", "1.125" stays). */
function plainDecimal(s: string): string {
  const d = parseDecimal(s);
  if (!d) throw new RangeError(`not a decimal: ${JSON.stringify(s)}`);
  return d.scale >= 2 ? formatScaled(d.units, d.scale) : formatScaled(roundDecimal(d, 2), 2);
}
