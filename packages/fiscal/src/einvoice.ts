// E-invoices (Fiskalizacija 2.0): the model, the checks that can be made before sending, and the UBL 2.1
// document (Invoice or CreditNote) per EN 16931 with the HR CIUS 2025 and its extension (HR EXT).
//
// The checks mirror the rules of the official schematrons (EN 16931 1.3.15, HR CIUS 1.0.3) that can be
// decided from the request alone; every problem carries the id of the rule it enforces, so that what
// the API refuses is what the validators would refuse. The builder assumes the checks passed.
import { create } from "xmlbuilder2";
import { ALLOWANCE_REASON_CODES, CHARGE_REASON_CODES, COUNTRY_CODES, ENDPOINT_SCHEMES, PAYMENT_MEANS_CODES, VATEX_CODES } from "./einvoice-codes.ts";
import { type KpdIndex, levelName } from "./kpd.ts";
import { type Decimal, formatMoney, formatScaled, isMoney, multiplyDecimal, normalizeDecimal, parseDecimal, parseMoney, roundDecimal } from "./money.ts";
import { checkOib } from "./oib.ts";
import { isUnitCode, UNIT_HINTS } from "./unit-codes.ts";

export interface EInvoiceAddress {
  street?: string;
  city?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2, default "HR". */
  country?: string;
}

/** UNTDID 1001: commercial invoice, credit note (a UBL CreditNote), corrective invoice, advance invoice. */
export const DOCUMENT_TYPES = ["380", "381", "384", "386"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/**
 * VAT categories (UNCL 5305) an e-invoice line, allowance or charge may carry: S standard/reduced rate,
 * Z zero rate, E exempt, AE reverse charge, K intra-EU supply, G export outside the EU, O not subject to VAT.
 */
export const VAT_CATEGORIES = ["S", "Z", "E", "AE", "K", "G", "O"] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

/** Croatian VAT rates of category S. */
export const HR_STANDARD_RATES = ["25", "13", "5"] as const;
/** Rates a line may carry without a category (S for 25/13/5, Z for 0), as before categories existed. */
export const HR_VAT_RATES = ["25", "13", "5", "0"] as const;

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
  /** quantity × unitPrice rounded to cents. */
  lineTotal: string;
  note?: string;
}

export interface EInvoiceAllowanceCharge extends EInvoiceTax {
  /** Positive amount without VAT. */
  amount: string;
  /** BT-97/BT-104 text; this or reasonCode is required (BR-33, BR-38). */
  reason?: string;
  /** BT-98 (UNTDID 5189) for allowances, BT-105 (UNTDID 7161) for charges. */
  reasonCode?: string;
}

export interface EInvoiceParty {
  /** Croatian OIB; required for the seller and for buyers without another electronic address. */
  oib?: string;
  /** BT-31/BT-48 VAT identifier with its country prefix, e.g. "HR69435151530", "DE123456789". */
  vatId?: string;
  name: string;
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
  currency: "EUR";
  /** HR-BT-1: true when this is a copy of a document already sent with the same number. */
  copy?: boolean;
  note?: string;
  seller: EInvoiceSeller;
  buyer: EInvoiceParty;
  /** The person issuing the invoice (HR-BT-4 name, HR-BT-5 OIB); defaults to the seller. */
  operator?: { name: string; oib: string };
  /** BG-3: the invoices this one corrects, credits or settles (advance invoices in a final invoice). */
  billingReferences?: { number: string; issueDate: string; description?: string }[];
  /** BT-72 actual delivery date and BG-15 deliver-to address (country required for K, BR-IC-12). */
  delivery?: { date?: string; address?: EInvoiceAddress };
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
export const DEFAULT_PROCESS_TYPE: Record<DocumentType, string> = { "380": "P1", "381": "P9", "384": "P10", "386": "P4" };
/** ISO 6523 ICD for Croatian OIB electronic addresses (EndpointID/@schemeID). */
export const OIB_ENDPOINT_SCHEME = "9934";
/** HR-BR-25: KPD codes are carried as ItemClassificationCode with this listID. */
export const KPD_LIST_ID = "CG";
/** HR-BR-40: Fiskalizacija 2.0 e-invoices start on this date. */
export const EINVOICE_FIRST_DATE = "2026-01-01";
/** Document types whose lines need no KPD code (HR-BR-25). */
const KPD_OPTIONAL: readonly DocumentType[] = ["381", "386"];
/** Document types that correct an earlier invoice and must name it (BG-3). */
const NEEDS_BILLING_REFERENCE: readonly DocumentType[] = ["381", "384"];

const NS_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const NS_CREDIT_NOTE = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const NS_CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const NS_CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
const NS_EXT = "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2";
const NS_HREXT = "urn:mfin.gov.hr:schema:xsd:HRExtensionAggregateComponents-1";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const PROCESS = /^(P([1-9]|1[0-2])|P99:.{1,196})$/s;
const VAT_ID = /^[A-Z]{2}[0-9A-Za-z+*.]{2,13}$/;
// XML 1.0 cannot carry C0 controls other than tab/LF/CR, nor lone surrogates or U+FFFE/U+FFFF.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const CATEGORY_NAMES: Record<VatCategory, string> = {
  S: "standardna ili snižena stopa",
  Z: "nulta stopa",
  E: "oslobođeno PDV-a",
  AE: "prijenos porezne obveze",
  K: "isporuka unutar EU",
  G: "izvoz izvan EU",
  O: "ne podliježe PDV-u",
};

function isCalendarDate(s: unknown): s is string {
  if (typeof s !== "string" || !ISO_DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

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
  const category = t.vatCategory ?? (normalized === null || normalized === "0" ? (t.vatRate === undefined ? "S" : "Z") : "S");
  if (category === "O") return { category, rate: null };
  if (category === "S") return { category, rate: normalized };
  return { category, rate: normalized ?? "0" };
}

/** The exemption reason text and code an item carries in the document (defaults for AE, K, G, O). */
function exemptionOf(t: EInvoiceTax, category: VatCategory): { text?: string; code?: string } {
  if (category === "S" || category === "Z") return {};
  const text = t.exemptionReason?.trim() ? t.exemptionReason : undefined;
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

function categoriesOf(input: EInvoiceInput): Set<VatCategory> {
  return new Set([...input.lines, ...(input.allowances ?? []), ...(input.charges ?? [])].map((t) => taxOf(t).category));
}

/**
 * Every problem that stops `input` from being a valid Croatian e-invoice; empty means valid.
 * Shapes (decimal strings, dates, codes), OIBs and VAT ids, each line's KPD (level 5), unit codes
 * (BR-CL-23), VAT categories with their rates and exemption reasons (BR-S/Z/E/AE/K/G/O, HR-BR-*),
 * parties the categories require, billing references, line arithmetic and every document total.
 */
export function validateEInvoice(input: EInvoiceInput, kpd: KpdIndex): EInvoiceProblem[] {
  const problems: EInvoiceProblem[] = [];
  const add = (path: string, message: string, rule?: string) => problems.push(rule ? { path, message, rule } : { path, message });
  const text = (path: string, v: unknown, max: number, required = true, rule?: string): v is string => {
    if (v === undefined && !required) return false;
    if (typeof v !== "string" || v.trim() === "") {
      add(path, required ? "Obavezno polje." : "Ako je navedeno, ne smije biti prazno.", rule);
      return false;
    }
    if ([...v].length > max) add(path, `Najviše ${max} znakova.`, rule);
    if (NOT_XML_CHAR.test(v)) add(path, "Sadrži kontrolne znakove koji ne mogu biti u XML dokumentu.");
    return true;
  };
  const date = (path: string, v: unknown, rule: string) => {
    if (!isCalendarDate(v)) add(path, "Mora biti kalendarski datum GGGG-MM-DD.");
    else if (v <= "1900-01-01" || v >= "2100-01-01") add(path, "Mora biti nakon 1. 1. 1900. i prije 1. 1. 2100.", rule);
  };
  const money = (path: string, v: unknown): v is string => {
    if (typeof v !== "string" || !isMoney(v)) {
      add(path, "Iznos mora biti decimalni zapis s najviše dvije decimale, npr. \"125.00\".", "BR-DEC-23");
      return false;
    }
    return true;
  };

  const type: DocumentType = input.documentType ?? "380";
  if (!(DOCUMENT_TYPES as readonly string[]).includes(type)) add("documentType", `Vrsta dokumenta mora biti jedna od: ${DOCUMENT_TYPES.join(", ")}.`, "BR-CL-01");
  if (text("number", input.number, 100) && /\s/.test(input.number)) add("number", "Broj računa ne smije sadržavati bjeline.", "HR-BR-1");
  if (!isCalendarDate(input.issueDate)) add("issueDate", "Mora biti kalendarski datum GGGG-MM-DD.");
  else if (input.issueDate < EINVOICE_FIRST_DATE) add("issueDate", `Mora biti ${EINVOICE_FIRST_DATE} ili kasnije.`, "HR-BR-40");
  if (typeof input.issueTime !== "string" || !TIME.test(input.issueTime)) add("issueTime", "Vrijeme izdavanja mora biti SS:MM ili SS:MM:ss.", "HR-BR-2");
  if (input.dueDate !== undefined) {
    date("dueDate", input.dueDate, "HR-BR-41");
    if (isCalendarDate(input.dueDate) && isCalendarDate(input.issueDate) && input.dueDate < input.issueDate) add("dueDate", "Datum dospijeća ne smije biti prije datuma izdavanja.");
  }
  if (input.processType !== undefined && (typeof input.processType !== "string" || !PROCESS.test(input.processType))) {
    add("processType", "Oznaka procesa mora biti P1–P12 ili P99:oznaka kupca (najviše 200 znakova).", "HR-BR-34");
  }
  if (input.currency !== "EUR") add("currency", 'Valuta mora biti "EUR".', "BR-CL-04");
  if (input.note !== undefined && input.note !== "") text("note", input.note, 4000);

  // Parties.
  const seller = input.seller;
  const buyer = input.buyer;
  if (!seller || typeof seller !== "object") add("seller", "Obavezno polje.");
  if (!buyer || typeof buyer !== "object") add("buyer", "Obavezno polje.");
  if (!seller || !buyer) return problems;
  const oibProblem = (path: string, oib: unknown, rule: string) => {
    const r = checkOib(typeof oib === "string" ? oib : "");
    if (!r.valid) add(path, r.reason === "format" ? "OIB ima točno 11 znamenki." : "OIB nema ispravnu kontrolnu znamenku (ISO 7064, MOD 11,10).", rule);
    return r.valid;
  };
  oibProblem("seller.oib", seller.oib, "HR-BR-53");
  const vatIdProblem = (path: string, v: string | undefined, oib: string | undefined) => {
    if (v === undefined) return;
    if (typeof v !== "string" || !VAT_ID.test(v)) add(path, "PDV identifikator počinje oznakom države (npr. HR, DE) iza koje slijedi broj.", "BR-CO-09");
    else if (v.startsWith("HR")) {
      if (!checkOib(v.slice(2)).valid) add(path, "Hrvatski PDV identifikator je HR i ispravan OIB.", "HR-BR-53");
      else if (oib !== undefined && v.slice(2) !== oib) add(path, `Hrvatski PDV identifikator mora biti HR${oib} (HR i OIB iste strane).`, "HR-BR-53");
    }
  };
  vatIdProblem("seller.vatId", seller.vatId, seller.oib);
  vatIdProblem("buyer.vatId", buyer.vatId, buyer.oib);
  for (const [role, party] of [["seller", seller], ["buyer", buyer]] as const) {
    text(`${role}.name`, party.name, 200);
    const a = party.address;
    if (a !== undefined) {
      text(`${role}.address.street`, a.street, 200, false);
      text(`${role}.address.city`, a.city, 100, false);
      text(`${role}.address.postalCode`, a.postalCode, 20, false);
      if (a.country !== undefined && !COUNTRY_CODES.has(a.country)) add(`${role}.address.country`, "Oznaka države po ISO 3166-1 alpha-2, npr. HR.", "BR-CL-14");
    }
    if (party.endpoint !== undefined) {
      if (!ENDPOINT_SCHEMES.has(party.endpoint.scheme)) add(`${role}.endpoint.scheme`, "Shema elektroničke adrese nije s popisa EAS (npr. 9934 za OIB, 9930 za njemački PDV broj).", "BR-CL-25");
      text(`${role}.endpoint.id`, party.endpoint.id, 100);
      if (party.endpoint.scheme === OIB_ENDPOINT_SCHEME) oibProblem(`${role}.endpoint.id`, party.endpoint.id, "HR-BR-53");
    }
  }
  if (seller.legalForm !== undefined) text("seller.legalForm", seller.legalForm, 1000);
  const buyerCountry = buyer.address?.country ?? "HR";
  if (buyer.oib !== undefined) oibProblem("buyer.oib", buyer.oib, "HR-BR-53");
  else if (buyer.endpoint === undefined) add("buyer.oib", "Kupac treba OIB ili drugu elektroničku adresu (buyer.endpoint).", "HR-BR-10");
  else if (buyerCountry === "HR") add("buyer.oib", "Kupac iz Hrvatske identificira se OIB-om.", "HR-BR-53");
  if (seller.iban !== undefined && (typeof seller.iban !== "string" || !isValidIban(seller.iban))) add("seller.iban", "IBAN nije ispravan (ISO 13616, kontrola mod 97).");
  if (input.operator !== undefined) {
    text("operator.name", input.operator.name, 200, true, "HR-BR-37");
    oibProblem("operator.oib", input.operator.oib, "HR-BR-9");
  }

  // Billing references.
  const refs = input.billingReferences ?? [];
  if (NEEDS_BILLING_REFERENCE.includes(type) && refs.length === 0) {
    add(
      "billingReferences",
      `${type === "381" ? "Odobrenje" : "Korektivni račun"} mora navesti račun na koji se odnosi (broj i datum izdavanja): BG-3 se koristi kada se ispravlja prethodni račun.`,
      "BG-3",
    );
  }
  refs.forEach((r, i) => {
    text(`billingReferences[${i}].number`, r.number, 100, true, "BR-55");
    if (r.issueDate === undefined) add(`billingReferences[${i}].issueDate`, "Datum izdavanja prethodnog računa je obavezan.", "HR-BR-6");
    else date(`billingReferences[${i}].issueDate`, r.issueDate, "HR-BR-45");
    if (r.description !== undefined) text(`billingReferences[${i}].description`, r.description, 1000, false);
  });

  if (input.delivery !== undefined) {
    if (input.delivery.date !== undefined) date("delivery.date", input.delivery.date, "HR-BR-44");
    const c = input.delivery.address?.country;
    if (c !== undefined && !COUNTRY_CODES.has(c)) add("delivery.address.country", "Oznaka države po ISO 3166-1 alpha-2.", "BR-CL-14");
  }

  // Payment.
  const p = input.payment;
  const iban = p?.iban ?? seller.iban;
  const meansCode = p?.meansCode ?? (iban ? "30" : undefined);
  if (p !== undefined) {
    if (p.meansCode !== undefined && !PAYMENT_MEANS_CODES.has(p.meansCode)) add("payment.meansCode", "Način plaćanja mora biti kod iz UNTDID 4461 (npr. 30 kreditni transfer, 10 gotovina, 48 kartica).", "BR-CL-16");
    if (p.iban !== undefined && (typeof p.iban !== "string" || !isValidIban(p.iban))) add("payment.iban", "IBAN nije ispravan (ISO 13616, kontrola mod 97).");
    if (p.reference !== undefined && text("payment.reference", p.reference, 140) && /^HR/.test(p.reference) && !/^HR\d{2} [0-9]{1,12}(-[0-9]{1,12}){0,2}$/.test(p.reference)) {
      add("payment.reference", "Poziv na broj piše se kao model i broj, npr. \"HR00 2026-15\" (HRnn, razmak, do tri skupine znamenki odvojene crticom).");
    }
    if (p.note !== undefined) text("payment.note", p.note, 1000, false);
    if (p.terms !== undefined) text("payment.terms", p.terms, 1000, false);
  }
  if ((meansCode === "30" || meansCode === "58") && !iban) add("payment.iban", "Za kreditni transfer (30, 58) potreban je IBAN primatelja plaćanja.", "BR-61");

  // Lines, allowances and charges: VAT category, rate and exemption.
  let amountsOk = true;
  const exemptions = new Map<string, { text?: string; code?: string; path: string }>();
  const taxItem = (path: string, t: EInvoiceTax, kind: "line" | "allowance" | "charge") => {
    if (t.vatCategory !== undefined && !(VAT_CATEGORIES as readonly string[]).includes(t.vatCategory)) {
      add(`${path}.vatCategory`, `Kategorija PDV-a mora biti jedna od: ${VAT_CATEGORIES.join(", ")}.`, kind === "line" ? "BR-CL-18" : "BR-CL-17");
      amountsOk = false;
      return;
    }
    if (t.vatRate !== undefined && (typeof t.vatRate !== "string" || !parseDecimal(t.vatRate))) {
      add(`${path}.vatRate`, "Stopa PDV-a mora biti decimalni zapis, npr. \"25\".", "HR-BR-56");
      amountsOk = false;
      return;
    }
    const { category, rate } = taxOf(t);
    const R = (suffix: string) => `BR-${category === "K" ? "IC" : category}-${suffix}`;
    const rateRule = R(kind === "line" ? "05" : kind === "allowance" ? "06" : "07");
    if (category === "S") {
      if (!rate || !(HR_STANDARD_RATES as readonly string[]).includes(rate)) {
        add(`${path}.vatRate`, `Kategorija S nosi stopu ${HR_STANDARD_RATES.join(", ")} (HR:PDV25, HR:PDV13, HR:PDV5).`, t.vatRate === undefined ? rateRule : "HR-BR-CL-1");
        amountsOk = false;
      }
    } else if (category === "O") {
      if (t.vatRate !== undefined) add(`${path}.vatRate`, "Stavka koja ne podliježe PDV-u (O) ne nosi stopu PDV-a.", rateRule);
    } else if (rate !== "0") {
      add(`${path}.vatRate`, `Kategorija ${category} (${CATEGORY_NAMES[category]}) ima stopu 0.`, rateRule);
      amountsOk = false;
    }
    const exemptRule = R("10");
    if (category === "S" || category === "Z") {
      if (t.exemptionReason !== undefined || t.exemptionReasonCode !== undefined) {
        add(`${path}.exemptionReason`, `Kategorija ${category} ne nosi razlog oslobođenja od PDV-a.`, exemptRule);
      }
      return;
    }
    if (t.exemptionReasonCode !== undefined && !VATEX_CODES.has(t.exemptionReasonCode)) {
      add(`${path}.exemptionReasonCode`, "Kod razloga oslobođenja mora biti s popisa VATEX (npr. VATEX-EU-132-1I, VATEX-EU-AE, VATEX-EU-IC, VATEX-EU-G, VATEX-EU-O).", "BR-CL-22");
    }
    if (t.exemptionReason !== undefined) text(`${path}.exemptionReason`, t.exemptionReason, 1000, false);
    const e = exemptionOf(t, category);
    if (!e.text && !e.code) {
      add(`${path}.exemptionReason`, "Oslobođenje od PDV-a (E) treba razlog: tekst (npr. članak Zakona o PDV-u) ili VATEX kod.", kind === "line" ? "HR-BR-36" : kind === "charge" ? "HR-BR-13" : exemptRule);
      return;
    }
    const key = `${category}/${rate ?? ""}`;
    const seen = exemptions.get(key);
    if (!seen) exemptions.set(key, { ...e, path });
    else if (seen.text !== e.text || seen.code !== e.code) {
      add(`${path}.exemptionReason`, `Sve stavke kategorije ${category} dijele jedan razlog oslobođenja u raspodjeli PDV-a; ovaj se razlikuje od onoga u ${seen.path}.`, R("08"));
    }
  };

  if (!Array.isArray(input.lines) || input.lines.length === 0) {
    add("lines", "Račun mora imati barem jednu stavku.", "BR-16");
    return problems;
  }
  input.lines.forEach((line, i) => {
    const path = `lines[${i}]`;
    text(`${path}.description`, line.description, 1024, true, "HR-BR-46");
    if (line.note !== undefined) text(`${path}.note`, line.note, 4000, false);
    const quantity = typeof line.quantity === "string" ? parseDecimal(line.quantity) : null;
    if (!quantity) add(`${path}.quantity`, "Količina mora biti decimalni zapis s najviše 10 decimala.", "HR-BR-56");
    else if (quantity.units === 0n) add(`${path}.quantity`, "Količina ne smije biti nula.");
    const unitPrice = typeof line.unitPrice === "string" ? parseDecimal(line.unitPrice) : null;
    if (!unitPrice) add(`${path}.unitPrice`, "Cijena mora biti decimalni zapis s najviše 10 decimala.", "HR-BR-56");
    else if (unitPrice.units < 0n) add(`${path}.unitPrice`, "Neto cijena ne smije biti negativna; negativan iznos iskazuje se negativnom količinom.", "BR-27");
    if (!isUnitCode(line.unit)) {
      const hint = typeof line.unit === "string" ? UNIT_HINTS[line.unit.toUpperCase()] : undefined;
      add(`${path}.unit`, `${JSON.stringify(line.unit)} nije jedinica mjere po UN/ECE preporuci 20/21${hint ? `; za to se koristi "${hint}"` : ' (npr. "H87" komad, "HUR" sat, "KGM" kilogram)'}.`, "BR-CL-23");
    }
    if (line.kpd === undefined || line.kpd === "") {
      if (!KPD_OPTIONAL.includes(type)) add(`${path}.kpd`, "Svaka stavka treba KPD 2025 šifru razine 5 (osim odobrenja i računa za predujam).", "HR-BR-25");
    } else if (typeof line.kpd !== "string") add(`${path}.kpd`, "KPD šifra je tekst, npr. \"62.10.11\".", "HR-BR-25");
    else {
      const entry = kpd.get(line.kpd);
      if (!entry || entry.code !== line.kpd) add(`${path}.kpd`, entry ? `Piše se točno ${entry.code}.` : `${line.kpd} nije KPD 2025 šifra.`, "HR-BR-CL-2");
      else if (entry.level !== 5) add(`${path}.kpd`, `${entry.code} je ${levelName(entry.level)}; potrebna je šifra razine 5 (podkategorija).`, "HR-BR-25");
    }
    if (!money(`${path}.lineTotal`, line.lineTotal)) amountsOk = false;
    else if (quantity && unitPrice) {
      const expected = roundDecimal(multiplyDecimal(quantity, unitPrice), 2);
      if (parseMoney(line.lineTotal) !== expected) add(`${path}.lineTotal`, `Iznos stavke je količina × cijena zaokruženo na cente: ${formatMoney(expected)}, a ne ${line.lineTotal}.`, "BT-131");
    }
    taxItem(path, line, "line");
  });
  for (const kind of ["allowances", "charges"] as const) {
    (input[kind] ?? []).forEach((a, i) => {
      const path = `${kind}[${i}]`;
      const allowance = kind === "allowances";
      if (!money(`${path}.amount`, a.amount)) amountsOk = false;
      else if (parseMoney(a.amount) <= 0n) add(`${path}.amount`, "Iznos mora biti veći od nule.");
      const codes = allowance ? ALLOWANCE_REASON_CODES : CHARGE_REASON_CODES;
      if (a.reasonCode !== undefined && !codes.has(a.reasonCode)) {
        add(`${path}.reasonCode`, allowance ? "Kod razloga popusta mora biti iz UNTDID 5189 (npr. 95 popust, 41 bonus)." : "Kod razloga troška mora biti iz UNTDID 7161 (npr. FC prijevoz, ABL pakiranje).", allowance ? "BR-CL-19" : "BR-CL-20");
      }
      if (a.reason !== undefined) text(`${path}.reason`, a.reason, 1000, false);
      if (!a.reason?.trim() && a.reasonCode === undefined) add(`${path}.reason`, "Potreban je razlog (tekst) ili kod razloga.", allowance ? "BR-33" : "BR-38");
      taxItem(path, a, allowance ? "allowance" : "charge");
    });
  }

  // What the categories require of the document and its parties.
  const categories = categoriesOf(input);
  const inVat = seller.inVatSystem !== false;
  if (categories.has("O") && categories.size > 1) {
    add("lines", `Račun sa stavkama koje ne podliježu PDV-u (O) ne smije imati druge kategorije PDV-a (ovdje i ${[...categories].filter((c) => c !== "O").join(", ")}).`, "BR-O-11");
  }
  if (!inVat) {
    const taxed = [...categories].filter((c) => c !== "E" && c !== "O");
    if (taxed.length) add("seller.inVatSystem", `Prodavatelj izvan sustava PDV-a izdaje samo stavke E (s razlogom, npr. „Nije u sustavu PDV-a, čl. 90. Zakona o PDV-u“) ili O; ovdje i ${taxed.join(", ")}.`, `BR-${taxed[0] === "K" ? "IC" : taxed[0]}-02`);
    if (seller.vatId !== undefined) add("seller.vatId", "Prodavatelj izvan sustava PDV-a nema PDV identifikator; identificira ga OIB (porezna shema FRE).", "BR-CO-09");
  }
  if (categories.has("O") && (seller.vatId !== undefined || buyer.vatId !== undefined)) {
    add(buyer.vatId !== undefined ? "buyer.vatId" : "seller.vatId", "Račun sa stavkama koje ne podliježu PDV-u (O) ne nosi PDV identifikatore prodavatelja i kupca.", "BR-O-02");
  }
  const bt48 = buyerVatId(input, categories);
  for (const c of ["S", "Z", "E", "AE"] as const) {
    if (categories.has(c) && !bt48) add("buyer.vatId", `Račun sa stavkama kategorije ${c} mora nositi PDV identifikator kupca (BT-48).`, `HR-BR-${c}-1`);
  }
  if (categories.has("K")) {
    if (!inVat) add("seller.inVatSystem", "Isporuku unutar EU (K) iskazuje prodavatelj u sustavu PDV-a.", "BR-IC-02");
    if (!buyer.vatId) add("buyer.vatId", "Isporuka unutar EU (K) treba PDV identifikator kupca iz druge države članice.", "BR-IC-02");
    else if (buyer.vatId.startsWith("HR")) add("buyer.vatId", "Isporuka unutar EU (K) ide kupcu iz druge države članice, ne kupcu s hrvatskim PDV brojem.", "BR-IC-02");
    if (!input.delivery?.date) add("delivery.date", "Isporuka unutar EU (K) treba stvarni datum isporuke.", "BR-IC-11");
    if (!input.delivery?.address?.country) add("delivery.address.country", "Isporuka unutar EU (K) treba državu isporuke.", "BR-IC-12");
  }
  if (categories.has("G") && !inVat) add("seller.inVatSystem", "Izvoz (G) iskazuje prodavatelj u sustavu PDV-a.", "BR-G-02");

  // Totals.
  const totals = input.totals;
  if (!totals || typeof totals !== "object") {
    add("totals", "Obavezno polje.");
    return problems;
  }
  const given: Partial<Record<keyof EInvoiceInput["totals"], bigint>> = {};
  for (const k of ["net", "vat", "gross", "lineTotal", "allowances", "charges", "prepaid", "payable"] as const) {
    if (totals[k] === undefined && !["net", "vat", "gross"].includes(k)) continue;
    if (money(`totals.${k}`, totals[k])) given[k] = parseMoney(totals[k]!);
  }
  if (!amountsOk || given.prepaid === undefined && totals.prepaid !== undefined) return problems;
  const t = documentTotals(input);
  const mismatch = (k: keyof typeof given, expected: bigint, what: string, rule: string) => {
    if (given[k] !== undefined && given[k] !== expected) add(`totals.${k}`, `${what}: ${formatMoney(expected)}, a ne ${totals[k]}.`, rule);
  };
  mismatch("lineTotal", t.lineTotal, "Zbroj iznosa stavki", "BR-CO-10");
  mismatch("allowances", t.allowances, "Zbroj popusta na razini dokumenta", "BR-CO-11");
  mismatch("charges", t.charges, "Zbroj troškova na razini dokumenta", "BR-CO-12");
  mismatch("net", t.net, "Iznos bez PDV-a je zbroj stavki − popusti + troškovi", "BR-CO-13");
  if (given.vat !== undefined && given.vat !== t.vat) {
    const detail = t.groups.map((g) => `${g.category}${g.rate !== null ? ` ${g.rate}%` : ""} od ${formatMoney(g.base)} = ${formatMoney(g.vat)}`).join("; ");
    add("totals.vat", `PDV je zbroj PDV-a po kategoriji i stopi, svaki zaokružen na cente (${detail}): ${formatMoney(t.vat)}, a ne ${totals.vat}.`, "BR-CO-14");
  }
  if (given.gross !== undefined && given.net !== undefined && given.vat !== undefined && given.gross !== given.net + given.vat) {
    add("totals.gross", `Iznos s PDV-om je iznos bez PDV-a + PDV: ${formatMoney(given.net + given.vat)}, a ne ${totals.gross}.`, "BR-CO-15");
  }
  mismatch("payable", t.payable, "Iznos za plaćanje je iznos s PDV-om − plaćeni predujam", "BR-CO-16");
  if (totals.vatBreakdown !== undefined) breakdownProblems(totals.vatBreakdown, t.groups, add);
  if (type === "381" && t.gross < 0n) add("totals.gross", "Odobrenje iskazuje iznose koji se odobravaju kao pozitivne; za negativan iznos koristite račun (380) s negativnom količinom.", "BR-CO-15");
  return problems;
}

/** The issuer's VAT breakdown against the document's: one entry per category and rate, equal amounts. */
function breakdownProblems(given: NonNullable<EInvoiceInput["totals"]["vatBreakdown"]>, groups: VatGroup[], add: (path: string, message: string, rule?: string) => void) {
  const R = (c: VatCategory, suffix: string) => `BR-${c === "K" ? "IC" : c}-${suffix}`;
  const label = (c: VatCategory, rate: string | null) => `${c}${rate !== null ? ` ${rate}%` : ""}`;
  const seen = new Set<VatGroup>();
  given.forEach((entry, i) => {
    const path = `totals.vatBreakdown[${i}]`;
    if (!(VAT_CATEGORIES as readonly string[]).includes(entry.category)) {
      add(`${path}.category`, `Kategorija PDV-a mora biti jedna od: ${VAT_CATEGORIES.join(", ")}.`, "BR-CL-17");
      return;
    }
    const rate = entry.rate === undefined ? null : parseDecimal(entry.rate);
    if (entry.rate !== undefined && !rate) {
      add(`${path}.rate`, "Stopa PDV-a mora biti decimalni zapis, npr. \"25\".", "HR-BR-56");
      return;
    }
    const normalized = entry.category === "O" ? null : rate ? normalizeDecimal(rate) : entry.category === "S" ? null : "0";
    const group = groups.find((g) => g.category === entry.category && g.rate === normalized);
    if (!group || seen.has(group)) {
      add(path, `${group ? "Ponovljena skupina" : "Nema stavki, popusta ni troškova"} ${label(entry.category, normalized)} u raspodjeli PDV-a.`, R(entry.category, "08"));
      return;
    }
    seen.add(group);
    for (const [k, expected, rule] of [
      ["taxableAmount", group.base, R(entry.category, "08")],
      ["taxAmount", group.vat, entry.category === "S" ? "BR-S-09" : R(entry.category, "09")],
    ] as const) {
      const v = entry[k];
      if (typeof v !== "string" || !isMoney(v)) add(`${path}.${k}`, "Iznos mora biti decimalni zapis s najviše dvije decimale.", "BR-DEC-19");
      else if (parseMoney(v) !== expected) add(`${path}.${k}`, `${label(entry.category, normalized)}: ${formatMoney(expected)}, a ne ${v}.`, rule);
    }
  });
  for (const g of groups) if (!seen.has(g)) add("totals.vatBreakdown", `Raspodjela PDV-a nema skupinu ${label(g.category, g.rate)}.`, R(g.category, "01"));
}

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
    if (withName) cbc(cat, "Name", hrCategoryName(category, rate));
    if (rate !== null) cbc(cat, "Percent", rate);
    if (exemption.code) cbc(cat, "TaxExemptionReasonCode", exemption.code);
    if (exemption.text) cbc(cat, "TaxExemptionReason", exemption.text);
    cbc(cac(cat, "TaxScheme"), "ID", "VAT");
  };

  // HR-BR-26: the HR breakdown (HR-BG-2) and totals (HR-BG-3) accompany exempt items.
  if (categories.has("E")) {
    const data = root
      .ele(NS_EXT, "ext:UBLExtensions")
      .ele(NS_EXT, "ext:UBLExtension")
      .ele(NS_EXT, "ext:ExtensionContent")
      .ele(NS_HREXT, "hrextac:HRFISK20Data");
    const hrTotal = data.ele(NS_HREXT, "hrextac:HRTaxTotal");
    cbc(hrTotal, "TaxAmount", amount(t.vat), cur);
    for (const g of t.groups) {
      const sub = hrTotal.ele(NS_HREXT, "hrextac:HRTaxSubtotal");
      cbc(sub, "TaxableAmount", amount(g.base), cur);
      cbc(sub, "TaxAmount", amount(g.vat), cur);
      const cat = sub.ele(NS_HREXT, "hrextac:HRTaxCategory");
      cbc(cat, "ID", g.category);
      cbc(cat, "Name", hrCategoryName(g.category, g.rate));
      if (g.rate !== null) cbc(cat, "Percent", g.rate);
      if (g.exemption.code) cbc(cat, "TaxExemptionReasonCode", g.exemption.code);
      if (g.exemption.text) cbc(cat, "TaxExemptionReason", g.exemption.text);
      cbc(cat.ele(NS_HREXT, "hrextac:HRTaxScheme"), "ID", "VAT");
    }
    const hrMonetary = data.ele(NS_HREXT, "hrextac:HRLegalMonetaryTotal");
    cbc(hrMonetary, "TaxExclusiveAmount", amount(t.net), cur);
    hrMonetary.ele(NS_HREXT, "hrextac:OutOfScopeOfVATAmount", cur).txt(amount(0n));
  }

  cbc(root, "CustomizationID", HR_CIUS_CUSTOMIZATION_ID);
  cbc(root, "ProfileID", input.processType ?? DEFAULT_PROCESS_TYPE[type]);
  cbc(root, "ID", input.number);
  if (input.copy) cbc(root, "CopyIndicator", "true");
  cbc(root, "IssueDate", input.issueDate);
  cbc(root, "IssueTime", input.issueTime.length === 5 ? `${input.issueTime}:00` : input.issueTime);
  const dueDate = input.dueDate ?? (t.payable > 0n ? input.issueDate : undefined);
  if (!credit && dueDate) cbc(root, "DueDate", dueDate);
  cbc(root, credit ? "CreditNoteTypeCode" : "InvoiceTypeCode", type);
  if (input.note !== undefined && input.note.trim() !== "") cbc(root, "Note", input.note);
  cbc(root, "DocumentCurrencyCode", input.currency);
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
    cbc(cac(el, "PartyName"), "Name", p.name);
    address(el, "PostalAddress", p.address ?? {});
    if (taxScheme) {
      const tax = cac(el, "PartyTaxScheme");
      cbc(tax, "CompanyID", taxScheme.id);
      cbc(cac(tax, "TaxScheme"), "ID", taxScheme.scheme);
    }
    const legal = cac(el, "PartyLegalEntity");
    cbc(legal, "RegistrationName", p.name);
    if (p.oib) cbc(legal, "CompanyID", p.oib);
    if (legalForm?.trim()) cbc(legal, "CompanyLegalForm", legalForm);
    return wrapper;
  };
  const sellerTax = categories.has("O") ? null : inVat ? { id: input.seller.vatId ?? `HR${input.seller.oib}`, scheme: "VAT" as const } : { id: input.seller.oib, scheme: "FRE" as const };
  const supplier = party("AccountingSupplierParty", input.seller, sellerTax, input.seller.legalForm);
  const operator = input.operator ?? { name: input.seller.name, oib: input.seller.oib };
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

  for (const [list, charge] of [
    [input.allowances ?? [], false],
    [input.charges ?? [], true],
  ] as const) {
    for (const a of list) {
      const el = cac(root, "AllowanceCharge");
      cbc(el, "ChargeIndicator", String(charge));
      if (a.reasonCode) cbc(el, "AllowanceChargeReasonCode", a.reasonCode);
      if (a.reason?.trim()) cbc(el, "AllowanceChargeReason", a.reason);
      cbc(el, "Amount", amount(parseMoney(a.amount)), cur);
      taxCategory(el, "TaxCategory", a, true);
    }
  }

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
    const item = cac(el, "Item");
    cbc(item, "Name", line.description);
    if (line.kpd) cbc(cac(item, "CommodityClassification"), "ItemClassificationCode", line.kpd, { listID: KPD_LIST_ID });
    taxCategory(item, "ClassifiedTaxCategory", line, true);
    cbc(cac(el, "Price"), "PriceAmount", plainDecimal(line.unitPrice), cur);
  });

  return doc.end({ prettyPrint: true });
}

/** Keeps the precision the caller gave but writes at least two decimals ("3" → "3.00", "1.125" stays). */
function plainDecimal(s: string): string {
  const d = parseDecimal(s);
  if (!d) throw new RangeError(`not a decimal: ${JSON.stringify(s)}`);
  return d.scale >= 2 ? formatScaled(d.units, d.scale) : formatScaled(roundDecimal(d, 2), 2);
}
