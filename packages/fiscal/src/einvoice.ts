// E-invoices (Fiskalizacija 2.0): validation and UBL 2.1 Invoice per EN 16931 with the HR CIUS 2025.
import { create } from "xmlbuilder2";
import { type KpdIndex, levelName } from "./kpd.ts";
import { type Decimal, formatMoney, formatScaled, isMoney, multiplyDecimal, normalizeDecimal, parseDecimal, parseMoney, roundDecimal } from "./money.ts";
import { checkOib } from "./oib.ts";

export interface EInvoiceAddress {
  street?: string;
  city?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2, default "HR". */
  country?: string;
}

export interface EInvoiceLine {
  description: string;
  quantity: string;
  /** UN/ECE Recommendation 20 unit code, e.g. "H87" (piece), "HUR" (hour), "KGM". */
  unit: string;
  unitPrice: string;
  /** Croatian VAT rate in percent: "25", "13", "5" or "0". */
  vatRate: string;
  /** KPD 2025 subcategory (level 5), e.g. "62.10.11". */
  kpd: string;
  lineTotal: string;
}

export interface EInvoiceInput {
  number: string;
  /** YYYY-MM-DD */
  issueDate: string;
  /** HH:mm:ss (HR-BT-2); "00:00:00" when absent. */
  issueTime?: string;
  /** YYYY-MM-DD; when absent the invoice is due on its issue date (HR-BR-4 requires a due date). */
  dueDate?: string;
  currency: "EUR";
  seller: { oib: string; name: string; address?: EInvoiceAddress; iban?: string };
  buyer: { oib: string; name: string; address?: EInvoiceAddress };
  /** The person issuing the invoice (HR-BT-4 name, HR-BT-5 OIB); defaults to the seller. */
  operator?: { name: string; oib: string };
  lines: EInvoiceLine[];
  totals: { net: string; vat: string; gross: string };
  note?: string;
}

export type EInvoiceProblem = { path: string; message: string };

/** BT-24 as HR-BR-5 of the official HR CIUS 2025 Schematron requires it (CIUS and its extension travel together). */
export const HR_CIUS_CUSTOMIZATION_ID =
  "urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0";
/** BT-23: P1 = invoicing of deliveries against purchase orders / ordinary B2B invoicing (HR-BR-34 allows P1–P12). */
export const HR_PROFILE_ID = "P1";
/** ISO 6523 ICD for Croatian OIB electronic addresses (EndpointID/@schemeID). */
export const OIB_ENDPOINT_SCHEME = "9934";
/** HR-BR-25: KPD codes are carried as ItemClassificationCode with this listID. */
export const KPD_LIST_ID = "CG";
/** Croatian VAT rates an e-invoice line may carry. */
export const HR_VAT_RATES = ["25", "13", "5", "0"] as const;
/** HR-BR-40: Fiskalizacija 2.0 e-invoices start on this date. */
export const EINVOICE_FIRST_DATE = "2026-01-01";

const NS_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const NS_CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const NS_CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const UNIT_CODE = /^[A-Z0-9]{2,3}$/;
const COUNTRY = /^[A-Z]{2}$/;
// XML 1.0 cannot carry C0 controls other than tab/LF/CR, nor lone surrogates or U+FFFE/U+FFFF.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

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

/** Per-rate breakdown of the lines (rates normalized: "25.00" → "25"), in first-seen order. */
export function vatBreakdown(lines: Pick<EInvoiceLine, "vatRate" | "lineTotal">[]): { rate: string; base: bigint; vat: bigint }[] {
  const groups = new Map<string, { rate: Decimal; base: bigint }>();
  for (const line of lines) {
    const rate = parseDecimal(line.vatRate);
    if (!rate) throw new RangeError(`bad VAT rate ${JSON.stringify(line.vatRate)}`);
    const key = normalizeDecimal(rate);
    const g = groups.get(key) ?? { rate, base: 0n };
    g.base += parseMoney(line.lineTotal);
    groups.set(key, g);
  }
  return [...groups.entries()].map(([rate, g]) => ({ rate, base: g.base, vat: vatForRate(g.base, g.rate) }));
}

/**
 * Every problem that stops `input` from being a valid Croatian e-invoice; empty means valid.
 * Checks shapes (decimal strings, dates, codes), OIBs, each line's KPD (must exist, level 5),
 * line arithmetic (quantity × unitPrice, 2 dp half away from zero), net = Σ lines,
 * VAT = Σ per-rate rounding, gross = net + VAT.
 */
export function validateEInvoice(input: EInvoiceInput, kpd: KpdIndex): EInvoiceProblem[] {
  const problems: EInvoiceProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  const text = (path: string, v: unknown, max: number, required = true): v is string => {
    if (v === undefined && !required) return false;
    if (typeof v !== "string" || v.trim() === "") {
      add(path, required ? "is required" : "must be a non-empty string when present");
      return false;
    }
    if (v.length > max) add(path, `must be at most ${max} characters`);
    if (NOT_XML_CHAR.test(v)) add(path, "contains control characters that cannot appear in an XML document");
    return true;
  };

  if (text("number", input.number, 100) && /\s/.test(input.number)) add("number", "must not contain whitespace (HR-BR-1)");
  if (!isCalendarDate(input.issueDate)) add("issueDate", "must be a calendar date YYYY-MM-DD");
  else if (input.issueDate < EINVOICE_FIRST_DATE) add("issueDate", `must be ${EINVOICE_FIRST_DATE} or later (HR-BR-40)`);
  if (input.issueTime !== undefined && (typeof input.issueTime !== "string" || !TIME.test(input.issueTime))) add("issueTime", "must be HH:mm:ss");
  if (input.dueDate !== undefined) {
    if (!isCalendarDate(input.dueDate)) add("dueDate", "must be a calendar date YYYY-MM-DD");
    else if (isCalendarDate(input.issueDate) && input.dueDate < input.issueDate) add("dueDate", "must not be before issueDate");
  }
  if (input.currency !== "EUR") add("currency", 'must be "EUR"');
  if (input.note !== undefined && input.note !== "") text("note", input.note, 4000);

  for (const role of ["seller", "buyer"] as const) {
    const party = input[role];
    if (!party || typeof party !== "object") {
      add(role, "is required");
      continue;
    }
    const oib = checkOib(party.oib);
    if (!oib.valid) add(`${role}.oib`, oib.reason === "format" ? "must be 11 digits" : "has a wrong check digit (ISO 7064 MOD 11,10)");
    text(`${role}.name`, party.name, 200);
    const a = party.address;
    if (a !== undefined) {
      text(`${role}.address.street`, a.street, 200, false);
      text(`${role}.address.city`, a.city, 100, false);
      text(`${role}.address.postalCode`, a.postalCode, 20, false);
      if (a.country !== undefined && (typeof a.country !== "string" || !COUNTRY.test(a.country))) add(`${role}.address.country`, "must be an ISO 3166-1 alpha-2 code such as HR");
    }
  }
  if (input.seller?.iban !== undefined && (typeof input.seller.iban !== "string" || !isValidIban(input.seller.iban))) add("seller.iban", "is not a valid IBAN");
  if (input.operator !== undefined) {
    text("operator.name", input.operator.name, 200);
    if (!checkOib(input.operator.oib).valid) add("operator.oib", "is not a valid OIB");
  }

  if (!Array.isArray(input.lines) || input.lines.length === 0) {
    add("lines", "must contain at least one line");
    return problems;
  }
  let linesOk = true;
  input.lines.forEach((line, i) => {
    const p = `lines[${i}]`;
    text(`${p}.description`, line.description, 1000);
    const quantity = typeof line.quantity === "string" ? parseDecimal(line.quantity) : null;
    if (!quantity) add(`${p}.quantity`, "must be a decimal string with at most 10 decimals");
    else if (quantity.units === 0n) add(`${p}.quantity`, "must not be zero");
    const unitPrice = typeof line.unitPrice === "string" ? parseDecimal(line.unitPrice) : null;
    if (!unitPrice) add(`${p}.unitPrice`, "must be a decimal string with at most 10 decimals");
    else if (unitPrice.units < 0n) add(`${p}.unitPrice`, "must not be negative (BR-27)");
    if (typeof line.unit !== "string" || !UNIT_CODE.test(line.unit)) add(`${p}.unit`, 'must be a UN/ECE Rec. 20 unit code such as "H87"');
    const rate = typeof line.vatRate === "string" ? parseDecimal(line.vatRate) : null;
    if (!rate || !(HR_VAT_RATES as readonly string[]).includes(normalizeDecimal(rate))) {
      add(`${p}.vatRate`, `must be one of ${HR_VAT_RATES.join(", ")}`);
      linesOk = false;
    }
    if (typeof line.kpd !== "string" || line.kpd.trim() === "") add(`${p}.kpd`, "is required");
    else {
      const entry = kpd.get(line.kpd);
      if (!entry || entry.code !== line.kpd) add(`${p}.kpd`, entry ? `must be written exactly as ${entry.code}` : `${line.kpd} is not a KPD 2025 code`);
      else if (entry.level !== 5) add(`${p}.kpd`, `${entry.code} is a ${levelName(entry.level)}; a level-5 subcategory code is required`);
    }
    if (typeof line.lineTotal !== "string" || !isMoney(line.lineTotal)) {
      add(`${p}.lineTotal`, "must be a decimal string with at most 2 decimals");
      linesOk = false;
    } else if (quantity && unitPrice) {
      const expected = roundDecimal(multiplyDecimal(quantity, unitPrice), 2);
      if (parseMoney(line.lineTotal) !== expected) add(`${p}.lineTotal`, `must equal quantity × unitPrice rounded to cents: expected ${formatMoney(expected)}, got ${line.lineTotal}`);
    }
  });

  const totals = input.totals;
  if (!totals || typeof totals !== "object") {
    add("totals", "is required");
    return problems;
  }
  const given: Partial<Record<"net" | "vat" | "gross", bigint>> = {};
  for (const k of ["net", "vat", "gross"] as const) {
    if (typeof totals[k] !== "string" || !isMoney(totals[k])) add(`totals.${k}`, "must be a decimal string with at most 2 decimals");
    else given[k] = parseMoney(totals[k]);
  }
  if (!linesOk) return problems;
  const breakdown = vatBreakdown(input.lines);
  const net = breakdown.reduce((s, g) => s + g.base, 0n);
  const vat = breakdown.reduce((s, g) => s + g.vat, 0n);
  if (given.net !== undefined && given.net !== net) add("totals.net", `must equal the sum of line totals: expected ${formatMoney(net)}, got ${totals.net}`);
  if (given.vat !== undefined && given.vat !== vat) {
    const detail = breakdown.map((g) => `${g.rate}% of ${formatMoney(g.base)} = ${formatMoney(g.vat)}`).join("; ");
    add("totals.vat", `must equal the VAT per rate, each rounded to cents (${detail}): expected ${formatMoney(vat)}, got ${totals.vat}`);
  }
  if (given.gross !== undefined && given.net !== undefined && given.vat !== undefined && given.gross !== given.net + given.vat) {
    add("totals.gross", `must equal net + vat: expected ${formatMoney(given.net + given.vat)}, got ${totals.gross}`);
  }
  return problems;
}

/**
 * UBL 2.1 Invoice (type 380) for the HR CIUS 2025: CustomizationID/ProfileID as above, both parties
 * addressed by OIB (EndpointID schemeID 9934) with VAT identifier "HR" + OIB, the operator as
 * SellerContact, one KPD classification (listID "CG") per line, one TaxSubtotal per rate.
 * Assumes `validateEInvoice` returned no problems (throws RangeError on malformed decimals): line
 * amounts come from the input, the tax breakdown and document totals are recomputed from them. Zero-rate lines use category Z, positive rates S.
 */
export function buildUbl(input: EInvoiceInput): string {
  const cur = { currencyID: input.currency };
  const breakdown = vatBreakdown(input.lines);
  const doc = create({ version: "1.0", encoding: "UTF-8" });
  const inv = doc.ele(NS_INVOICE, "Invoice", { "xmlns:cac": NS_CAC, "xmlns:cbc": NS_CBC });
  const cbc = (parent: typeof inv, name: string, value: string, attrs?: Record<string, string>) => parent.ele(NS_CBC, `cbc:${name}`, attrs).txt(value);
  const cac = (parent: typeof inv, name: string) => parent.ele(NS_CAC, `cac:${name}`);

  cbc(inv, "CustomizationID", HR_CIUS_CUSTOMIZATION_ID);
  cbc(inv, "ProfileID", HR_PROFILE_ID);
  cbc(inv, "ID", input.number);
  cbc(inv, "IssueDate", input.issueDate);
  cbc(inv, "IssueTime", input.issueTime ?? "00:00:00");
  cbc(inv, "DueDate", input.dueDate ?? input.issueDate);
  cbc(inv, "InvoiceTypeCode", "380");
  if (input.note !== undefined && input.note.trim() !== "") cbc(inv, "Note", input.note);
  cbc(inv, "DocumentCurrencyCode", input.currency);

  const party = (role: "AccountingSupplierParty" | "AccountingCustomerParty", p: EInvoiceInput["seller"] | EInvoiceInput["buyer"]) => {
    const wrapper = cac(inv, role);
    const el = cac(wrapper, "Party");
    cbc(el, "EndpointID", p.oib, { schemeID: OIB_ENDPOINT_SCHEME });
    cbc(cac(el, "PartyName"), "Name", p.name);
    const addr = cac(el, "PostalAddress");
    const a = p.address ?? {};
    if (a.street?.trim()) cbc(addr, "StreetName", a.street);
    if (a.city?.trim()) cbc(addr, "CityName", a.city);
    if (a.postalCode?.trim()) cbc(addr, "PostalZone", a.postalCode);
    cbc(cac(addr, "Country"), "IdentificationCode", a.country ?? "HR");
    const tax = cac(el, "PartyTaxScheme");
    cbc(tax, "CompanyID", `HR${p.oib}`);
    cbc(cac(tax, "TaxScheme"), "ID", "VAT");
    const legal = cac(el, "PartyLegalEntity");
    cbc(legal, "RegistrationName", p.name);
    cbc(legal, "CompanyID", p.oib);
    return wrapper;
  };
  const supplier = party("AccountingSupplierParty", input.seller);
  const operator = input.operator ?? { name: input.seller.name, oib: input.seller.oib };
  const contact = cac(supplier, "SellerContact");
  cbc(contact, "ID", operator.oib);
  cbc(contact, "Name", operator.name);
  party("AccountingCustomerParty", input.buyer);

  if (input.seller.iban !== undefined) {
    const means = cac(inv, "PaymentMeans");
    cbc(means, "PaymentMeansCode", "30");
    cbc(cac(means, "PayeeFinancialAccount"), "ID", input.seller.iban.replace(/ /g, "").toUpperCase());
  }

  const taxCategory = (parent: typeof inv, name: "TaxCategory" | "ClassifiedTaxCategory", rate: string) => {
    const cat = cac(parent, name);
    cbc(cat, "ID", rate === "0" ? "Z" : "S");
    cbc(cat, "Percent", rate);
    cbc(cac(cat, "TaxScheme"), "ID", "VAT");
  };
  const net = breakdown.reduce((s, g) => s + g.base, 0n);
  const vat = breakdown.reduce((s, g) => s + g.vat, 0n);
  const taxTotal = cac(inv, "TaxTotal");
  cbc(taxTotal, "TaxAmount", formatMoney(vat), cur);
  for (const g of breakdown) {
    const sub = cac(taxTotal, "TaxSubtotal");
    cbc(sub, "TaxableAmount", formatMoney(g.base), cur);
    cbc(sub, "TaxAmount", formatMoney(g.vat), cur);
    taxCategory(sub, "TaxCategory", g.rate);
  }

  const totals = cac(inv, "LegalMonetaryTotal");
  cbc(totals, "LineExtensionAmount", formatMoney(net), cur);
  cbc(totals, "TaxExclusiveAmount", formatMoney(net), cur);
  cbc(totals, "TaxInclusiveAmount", formatMoney(net + vat), cur);
  cbc(totals, "PayableAmount", formatMoney(net + vat), cur);

  input.lines.forEach((line, i) => {
    const el = cac(inv, "InvoiceLine");
    cbc(el, "ID", String(i + 1));
    cbc(el, "InvoicedQuantity", plainDecimal(line.quantity), { unitCode: line.unit });
    cbc(el, "LineExtensionAmount", formatMoney(parseMoney(line.lineTotal)), cur);
    const item = cac(el, "Item");
    cbc(item, "Name", line.description);
    cbc(cac(item, "CommodityClassification"), "ItemClassificationCode", line.kpd, { listID: KPD_LIST_ID });
    taxCategory(item, "ClassifiedTaxCategory", normalizeDecimal(parseDecimal(line.vatRate)!));
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
