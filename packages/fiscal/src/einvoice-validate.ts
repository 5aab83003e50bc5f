// The checks of an e-invoice before it is sent (see einvoice.ts for the model and the rules they
// mirror), one named part per area of the document. Every part adds to one `ProblemList`, in the
// order of the document; `validateEInvoice` runs them in turn and stops where a later part could
// only repeat what an earlier one found (no parties, no lines, no totals, unusable amounts).
import { ALLOWANCE_REASON_CODES, CHARGE_REASON_CODES, COUNTRY_CODES, ENDPOINT_SCHEMES, PAYMENT_MEANS_CODES, VATEX_CODES } from "./einvoice-codes.ts";
import {
  categoriesOf,
  DOCUMENT_TYPES,
  documentBuyerVatId,
  documentTotals,
  EINVOICE_FIRST_DATE,
  exemptionOf,
  isValidIban,
  OIB_ENDPOINT_SCHEME,
  OUT_OF_SCOPE_LABELS,
  taxOf,
  VAT_CATEGORIES,
  type DocumentType,
  type EInvoiceAllowanceCharge,
  type EInvoiceInput,
  type EInvoiceLine,
  type EInvoiceLineAllowanceCharge,
  type EInvoicePeriod,
  type EInvoiceProblem,
  type EInvoiceSeller,
  type EInvoiceParty,
  type EInvoiceTax,
  type OutOfScopeLabel,
  type VatCategory,
  type VatGroup,
} from "./einvoice.ts";
import { type KpdIndex } from "./kpd.ts";
import { type Decimal, formatMoney, isMoney, multiplyDecimal, normalizeDecimal, parseDecimal, parseMoney, roundDecimal } from "./money.ts";
import { checkOib } from "./oib.ts";
import { isUnitCode, UNIT_HINTS } from "./unit-codes.ts";
import { HR_STANDARD_RATES } from "./vat-rates.ts";

/** KPD levels as the Croatian classification names them (0 područje … 5 potkategorija). */
const KPD_LEVEL_NAMES_HR = ["područje", "odjeljak", "skupina", "razred", "kategorija", "potkategorija"] as const;
/** Words that name an amount outside the VAT base in an exemption reason: such an E item must say `out_of_scope`. */
const OUT_OF_SCOPE_WORDS: [RegExp, OutOfScopeLabel][] = [
  [/turističk\w* pristojb|boravišn\w* pristojb|#HR:N#/i, "HR:N"],
  [/povratn\w* naknad|#HR:POVNAK#/i, "HR:POVNAK"],
  [/porez\w* na potrošnju|#HR:PP#/i, "HR:PP"],
  [/posebn\w* porez\w* na motorn|#HR:PPMV#/i, "HR:PPMV"],
];
/** Document types whose lines need no KPD code (HR-BR-25). */
const KPD_OPTIONAL: readonly DocumentType[] = ["381", "386"];
/** Document types that correct an earlier invoice and must name it (BG-3). */
const NEEDS_BILLING_REFERENCE: readonly DocumentType[] = ["381", "384"];

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

/** The rule id of a category's rule: BR-S-05, BR-IC-10 (K is "IC" in the rule ids), … */
const categoryRule = (category: VatCategory, suffix: string) => `BR-${category === "K" ? "IC" : category}-${suffix}`;

/** The problems found so far, and the checks of one field that every part shares. */
export class ProblemList {
  readonly problems: EInvoiceProblem[] = [];
  /** False once an amount, a rate or a category cannot be used: the totals are then not recomputed. */
  amountsOk = true;
  /** One exemption reason per category and rate (the VAT breakdown has one), with the first item that gave it. */
  readonly exemptions = new Map<string, { text?: string; code?: string; path: string }>();

  readonly add = (path: string, message: string, rule?: string): void => {
    this.problems.push(rule ? { path, message, rule } : { path, message });
  };

  /** A text field: present when required (or not blank when given), at most `max` characters, XML-safe. */
  text(path: string, v: unknown, max: number, required = true, rule?: string): v is string {
    if (v === undefined && !required) return false;
    if (typeof v !== "string" || v.trim() === "") {
      this.add(path, required ? "Obavezno polje." : "Ako je navedeno, ne smije biti prazno.", rule);
      return false;
    }
    if ([...v].length > max) this.add(path, `Najviše ${max} znakova.`, rule);
    if (NOT_XML_CHAR.test(v)) this.add(path, "Sadrži kontrolne znakove koji ne mogu biti u XML dokumentu.");
    return true;
  }

  /** A calendar date between 1900 and 2100 (`rule` for the range). */
  date(path: string, v: unknown, rule: string): void {
    if (!isCalendarDate(v)) this.add(path, "Mora biti kalendarski datum GGGG-MM-DD.");
    else if (v <= "1900-01-01" || v >= "2100-01-01") this.add(path, "Mora biti nakon 1. 1. 1900. i prije 1. 1. 2100.", rule);
  }

  /** An amount: a decimal string with at most two decimals (BR-DEC-23). */
  money(path: string, v: unknown): v is string {
    if (typeof v !== "string" || !isMoney(v)) {
      this.add(path, "Iznos mora biti decimalni zapis s najviše dvije decimale, npr. \"125.00\".", "BR-DEC-23");
      return false;
    }
    return true;
  }

  /** An OIB: 11 digits with the ISO 7064 check digit. */
  oib(path: string, oib: unknown, rule: string): boolean {
    const r = checkOib(typeof oib === "string" ? oib : "");
    if (!r.valid) this.add(path, r.reason === "format" ? "OIB ima točno 11 znamenki." : "OIB nema ispravnu kontrolnu znamenku (ISO 7064, MOD 11,10).", rule);
    return r.valid;
  }

  /** A VAT identifier: country prefix and number; a Croatian one is HR and the party's own OIB. */
  vatId(path: string, v: string | undefined, oib: string | undefined): void {
    if (v === undefined) return;
    if (typeof v !== "string" || !VAT_ID.test(v)) this.add(path, "PDV identifikator počinje oznakom države (npr. HR, DE) iza koje slijedi broj.", "BR-CO-09");
    else if (v.startsWith("HR")) {
      if (!checkOib(v.slice(2)).valid) this.add(path, "Hrvatski PDV identifikator je HR i ispravan OIB.", "HR-BR-53");
      else if (oib !== undefined && v.slice(2) !== oib) this.add(path, `Hrvatski PDV identifikator mora biti HR${oib} (HR i OIB iste strane).`, "HR-BR-53");
    }
  }
}

/**
 * Every problem that stops `input` from being a valid Croatian e-invoice; empty means valid.
 * Shapes (decimal strings, dates, codes), OIBs and VAT ids, each line's KPD (level 5), unit codes
 * (BR-CL-23), VAT categories with their rates and exemption reasons (BR-S/Z/E/AE/K/G/O, HR-BR-*),
 * parties the categories require, billing references, line arithmetic and every document total.
 */
export function validateEInvoice(input: EInvoiceInput, kpd: KpdIndex): EInvoiceProblem[] {
  const p = new ProblemList();
  const type: DocumentType = input.documentType ?? "380";
  headerProblems(input, type, p);
  if (!partiesPresent(input, p)) return p.problems;
  partyProblems(input.seller, input.buyer, p);
  operatorProblems(input, p);
  billingReferenceProblems(input, type, p);
  deliveryProblems(input, p);
  paymentProblems(input, p);
  if (!Array.isArray(input.lines) || input.lines.length === 0) {
    p.add("lines", "Račun mora imati barem jednu stavku.", "BR-16");
    return p.problems;
  }
  periodProblems("period", input.period, p);
  input.lines.forEach((line, i) => lineProblems(`lines[${i}]`, line, type, kpd, p));
  for (const kind of ["allowances", "charges"] as const) {
    (input[kind] ?? []).forEach((a, i) => documentAllowanceChargeProblems(`${kind}[${i}]`, a, kind, p));
  }
  categoryProblems(input, p);
  totalsProblems(input, type, p);
  return p.problems;
}

/** Document type, number, dates, process, currency and note. */
export function headerProblems(input: EInvoiceInput, type: DocumentType, p: ProblemList): void {
  if (!(DOCUMENT_TYPES as readonly string[]).includes(type)) p.add("documentType", `Vrsta dokumenta mora biti jedna od: ${DOCUMENT_TYPES.join(", ")}.`, "BR-CL-01");
  if (p.text("number", input.number, 100) && /\s/.test(input.number)) p.add("number", "Broj računa ne smije sadržavati bjeline.", "HR-BR-1");
  if (!isCalendarDate(input.issueDate)) p.add("issueDate", "Mora biti kalendarski datum GGGG-MM-DD.");
  else if (input.issueDate < EINVOICE_FIRST_DATE) p.add("issueDate", `Mora biti ${EINVOICE_FIRST_DATE} ili kasnije.`, "HR-BR-40");
  if (typeof input.issueTime !== "string" || !TIME.test(input.issueTime)) p.add("issueTime", "Vrijeme izdavanja mora biti SS:MM ili SS:MM:ss.", "HR-BR-2");
  if (input.dueDate !== undefined) {
    p.date("dueDate", input.dueDate, "HR-BR-41");
    if (isCalendarDate(input.dueDate) && isCalendarDate(input.issueDate) && input.dueDate < input.issueDate) p.add("dueDate", "Datum dospijeća ne smije biti prije datuma izdavanja.");
  }
  if (input.processType !== undefined && (typeof input.processType !== "string" || !PROCESS.test(input.processType))) {
    p.add("processType", "Oznaka procesa mora biti P1–P12 ili P99:oznaka kupca (najviše 200 znakova).", "HR-BR-34");
  }
  if (input.currency !== "EUR") p.add("currency", 'Valuta mora biti "EUR".', "BR-CL-04");
  if (input.note !== undefined && input.note !== "") p.text("note", input.note, 4000);
}

/** Seller and buyer are objects; without them no other check can be made. */
export function partiesPresent(input: EInvoiceInput, p: ProblemList): boolean {
  const { seller, buyer } = input;
  if (!seller || typeof seller !== "object") p.add("seller", "Obavezno polje.");
  if (!buyer || typeof buyer !== "object") p.add("buyer", "Obavezno polje.");
  return !!seller && !!buyer;
}

/** OIBs, VAT ids, names, addresses and electronic addresses of both parties, the buyer's business unit, the seller's IBAN. */
export function partyProblems(seller: EInvoiceSeller, buyer: EInvoiceParty, p: ProblemList): void {
  p.oib("seller.oib", seller.oib, "HR-BR-53");
  p.vatId("seller.vatId", seller.vatId, seller.oib);
  p.vatId("buyer.vatId", buyer.vatId, buyer.oib);
  for (const [role, party] of [["seller", seller], ["buyer", buyer]] as const) {
    p.text(`${role}.name`, party.name, 200);
    const a = party.address;
    if (a !== undefined) {
      p.text(`${role}.address.street`, a.street, 200, false);
      p.text(`${role}.address.city`, a.city, 100, false);
      p.text(`${role}.address.postalCode`, a.postalCode, 20, false);
      if (a.country !== undefined && !COUNTRY_CODES.has(a.country)) p.add(`${role}.address.country`, "Oznaka države po ISO 3166-1 alpha-2, npr. HR.", "BR-CL-14");
    }
    if (party.endpoint !== undefined) {
      if (!ENDPOINT_SCHEMES.has(party.endpoint.scheme)) p.add(`${role}.endpoint.scheme`, "Shema elektroničke adrese nije s popisa EAS (npr. 9934 za OIB, 9930 za njemački PDV broj).", "BR-CL-25");
      p.text(`${role}.endpoint.id`, party.endpoint.id, 100);
      if (party.endpoint.scheme === OIB_ENDPOINT_SCHEME) p.oib(`${role}.endpoint.id`, party.endpoint.id, "HR-BR-53");
    }
  }
  if (seller.legalForm !== undefined) p.text("seller.legalForm", seller.legalForm, 1000);
  const buyerCountry = buyer.address?.country ?? "HR";
  if (buyer.oib !== undefined) p.oib("buyer.oib", buyer.oib, "HR-BR-53");
  else if (buyer.endpoint === undefined) p.add("buyer.oib", "Kupac treba OIB ili drugu elektroničku adresu (buyer.endpoint).", "HR-BR-10");
  else if (buyerCountry === "HR") p.add("buyer.oib", "Kupac iz Hrvatske identificira se OIB-om.", "HR-BR-53");
  if (buyer.businessUnit !== undefined) {
    p.text("buyer.businessUnit", buyer.businessUnit, 100, true);
    if (buyer.oib === undefined) p.add("buyer.businessUnit", "Poslovna jedinica kupca (BT-46) piše se uz njegov OIB (9934:OIB::HR99:oznaka); navedite buyer.oib.", "FISKAL-BUSINESS-UNIT");
  }
  if (seller.businessUnit !== undefined) p.add("seller.businessUnit", "Poslovna jedinica (BT-46) je podatak kupca.", "FISKAL-BUSINESS-UNIT");
  if (seller.iban !== undefined && (typeof seller.iban !== "string" || !isValidIban(seller.iban))) p.add("seller.iban", "IBAN nije ispravan (ISO 13616, kontrola mod 97).");
}

/** The person who issued the invoice: a name or mark (HR-BT-4) and their OIB (HR-BT-5). */
export function operatorProblems(input: EInvoiceInput, p: ProblemList): void {
  if (input.operator === undefined || input.operator === null) {
    p.add("operator", "Navedite operatera koji je izdao račun: ime ili oznaku (HR-BT-4) i OIB (HR-BT-5) osobe, ne tvrtke.", "HR-BR-37");
  } else {
    p.text("operator.name", input.operator.name, 200, true, "HR-BR-37");
    p.oib("operator.oib", input.operator.oib, "HR-BR-9");
  }
}

/** BG-3: a credit note or corrective invoice names the invoice it corrects; each reference has a number and a date. */
export function billingReferenceProblems(input: EInvoiceInput, type: DocumentType, p: ProblemList): void {
  const refs = input.billingReferences ?? [];
  if (NEEDS_BILLING_REFERENCE.includes(type) && refs.length === 0) {
    p.add(
      "billingReferences",
      `${type === "381" ? "Odobrenje" : "Korektivni račun"} mora navesti račun na koji se odnosi (broj i datum izdavanja): BG-3 se koristi kada se ispravlja prethodni račun.`,
      "FISKAL-BILLING-REFERENCE",
    );
  }
  refs.forEach((r, i) => {
    p.text(`billingReferences[${i}].number`, r.number, 100, true, "BR-55");
    if (r.issueDate === undefined) p.add(`billingReferences[${i}].issueDate`, "Datum izdavanja prethodnog računa je obavezan.", "HR-BR-6");
    else p.date(`billingReferences[${i}].issueDate`, r.issueDate, "HR-BR-45");
    if (r.description !== undefined) p.text(`billingReferences[${i}].description`, r.description, 1000, false);
  });
}

/** The delivery's date and country. */
export function deliveryProblems(input: EInvoiceInput, p: ProblemList): void {
  if (input.delivery === undefined) return;
  if (input.delivery.date !== undefined) p.date("delivery.date", input.delivery.date, "HR-BR-44");
  const c = input.delivery.address?.country;
  if (c !== undefined && !COUNTRY_CODES.has(c)) p.add("delivery.address.country", "Oznaka države po ISO 3166-1 alpha-2.", "BR-CL-14");
}

/** Means of payment, IBAN (the payment's or the seller's), the payment reference, note and terms. */
export function paymentProblems(input: EInvoiceInput, p: ProblemList): void {
  const pay = input.payment;
  const iban = pay?.iban ?? input.seller.iban;
  const meansCode = pay?.meansCode ?? (iban ? "30" : undefined);
  if (pay !== undefined) {
    if (pay.meansCode !== undefined && !PAYMENT_MEANS_CODES.has(pay.meansCode)) p.add("payment.meansCode", "Način plaćanja mora biti kod iz UNTDID 4461 (npr. 30 kreditni transfer, 10 gotovina, 48 kartica).", "BR-CL-16");
    if (pay.iban !== undefined && (typeof pay.iban !== "string" || !isValidIban(pay.iban))) p.add("payment.iban", "IBAN nije ispravan (ISO 13616, kontrola mod 97).");
    if (pay.reference !== undefined && p.text("payment.reference", pay.reference, 140) && /^HR/.test(pay.reference) && !/^HR\d{2} [0-9]{1,12}(-[0-9]{1,12}){0,2}$/.test(pay.reference)) {
      p.add("payment.reference", "Poziv na broj piše se kao model i broj, npr. \"HR00 2026-15\" (HRnn, razmak, do tri skupine znamenki odvojene crticom).");
    }
    if (pay.note !== undefined) p.text("payment.note", pay.note, 1000, false);
    if (pay.terms !== undefined) p.text("payment.terms", pay.terms, 1000, false);
  }
  if ((meansCode === "30" || meansCode === "58") && !iban) p.add("payment.iban", "Za kreditni transfer (30, 58) potreban je IBAN primatelja plaćanja.", "BR-61");
}

/** A line's, allowance's or charge's VAT category, rate and exemption reason (one reason per category and rate). */
export function taxItemProblems(path: string, t: EInvoiceTax, kind: "line" | "allowance" | "charge", p: ProblemList): void {
  if (t.vatCategory !== undefined && !(VAT_CATEGORIES as readonly string[]).includes(t.vatCategory)) {
    p.add(`${path}.vatCategory`, `Kategorija PDV-a mora biti jedna od: ${VAT_CATEGORIES.join(", ")}.`, kind === "line" ? "BR-CL-18" : "BR-CL-17");
    p.amountsOk = false;
    return;
  }
  if (t.vatRate !== undefined && (typeof t.vatRate !== "string" || !parseDecimal(t.vatRate))) {
    p.add(`${path}.vatRate`, "Stopa PDV-a mora biti decimalni zapis, npr. \"25\".", "HR-BR-56");
    p.amountsOk = false;
    return;
  }
  const { category, rate } = taxOf(t);
  outOfScopeProblems(path, t, category, p);
  const R = (suffix: string) => categoryRule(category, suffix);
  const rateRule = R(kind === "line" ? "05" : kind === "allowance" ? "06" : "07");
  if (category === "S") {
    if (!rate || !(HR_STANDARD_RATES as readonly string[]).includes(rate)) {
      p.add(`${path}.vatRate`, `Kategorija S nosi stopu ${HR_STANDARD_RATES.join(", ")} (HR:PDV25, HR:PDV13, HR:PDV5).`, t.vatRate === undefined ? rateRule : "HR-BR-CL-1");
      p.amountsOk = false;
    }
  } else if (category === "O") {
    if (t.vatRate !== undefined) p.add(`${path}.vatRate`, "Stavka koja ne podliježe PDV-u (O) ne nosi stopu PDV-a.", rateRule);
  } else if (rate !== "0") {
    p.add(`${path}.vatRate`, `Kategorija ${category} (${CATEGORY_NAMES[category]}) ima stopu 0.`, rateRule);
    p.amountsOk = false;
  }
  const exemptRule = R("10");
  if (category === "S" || category === "Z") {
    if (t.exemptionReason !== undefined || t.exemptionReasonCode !== undefined) {
      p.add(`${path}.exemptionReason`, `Kategorija ${category} ne nosi razlog oslobođenja od PDV-a.`, exemptRule);
    }
    return;
  }
  if (t.exemptionReasonCode !== undefined && !VATEX_CODES.has(t.exemptionReasonCode)) {
    p.add(`${path}.exemptionReasonCode`, "Kod razloga oslobođenja mora biti s popisa VATEX (npr. VATEX-EU-132-1I, VATEX-EU-AE, VATEX-EU-IC, VATEX-EU-G, VATEX-EU-O).", "BR-CL-22");
  }
  if (t.exemptionReason !== undefined) p.text(`${path}.exemptionReason`, t.exemptionReason, 1000, false);
  const e = exemptionOf(t, category);
  if (!e.text && !e.code) {
    p.add(`${path}.exemptionReason`, "Oslobođenje od PDV-a (E) treba razlog: tekst (npr. članak Zakona o PDV-u) ili VATEX kod.", kind === "line" ? "HR-BR-36" : kind === "charge" ? "HR-BR-13" : exemptRule);
    return;
  }
  const key = `${category}/${rate ?? ""}`;
  const seen = p.exemptions.get(key);
  if (!seen) p.exemptions.set(key, { ...e, path });
  else if (seen.text !== e.text || seen.code !== e.code) {
    p.add(`${path}.exemptionReason`, `Sve stavke kategorije ${category} dijele jedan razlog oslobođenja u raspodjeli PDV-a; ovaj se razlikuje od onoga u ${seen.path}.`, R("08"));
  }
}

/** FISKAL-OUT-OF-SCOPE: a known label, only in category E, and an E item whose reason names such an amount must carry the label. */
function outOfScopeProblems(path: string, t: EInvoiceTax, category: VatCategory, p: ProblemList): void {
  if (t.outOfScope !== undefined) {
    if (!(OUT_OF_SCOPE_LABELS as readonly string[]).includes(t.outOfScope)) {
      p.add(`${path}.outOfScope`, `Iznos izvan osnovice PDV-a označava se jednom od oznaka ${OUT_OF_SCOPE_LABELS.join(", ")}.`, "FISKAL-OUT-OF-SCOPE");
    } else if (category !== "E") {
      p.add(`${path}.vatCategory`, `Iznos izvan osnovice PDV-a (${t.outOfScope}) piše se u kategoriji E sa stopom 0 i razlogom, kako ga piše Porezna uprava.`, "FISKAL-OUT-OF-SCOPE");
    }
  } else if (category === "E") {
    const said = [t.exemptionReason, "reason" in t ? (t as EInvoiceAllowanceCharge).reason : undefined].filter((x): x is string => typeof x === "string");
    const named = OUT_OF_SCOPE_WORDS.find(([re]) => said.some((x) => re.test(x)));
    if (named) {
      p.add(
        `${path}.outOfScope`,
        `Razlog navodi iznos izvan osnovice PDV-a (${named[1]}); takav se iznos ne prijavljuje kao oslobođena isporuka: navedite out_of_scope "${named[1]}".`,
        "FISKAL-OUT-OF-SCOPE",
      );
    }
  }
}

/** BG-14 / BG-26: calendar dates, start not after end (BR-29, BR-30). */
export function periodProblems(path: string, period: EInvoicePeriod | undefined, p: ProblemList): void {
  if (period === undefined) return;
  if (period.start === undefined && period.end === undefined) return p.add(path, "Razdoblje treba početni ili završni datum.", path.startsWith("lines") ? "BR-CO-20" : "BR-CO-19");
  for (const k of ["start", "end"] as const) {
    if (period[k] !== undefined && !isCalendarDate(period[k])) p.add(`${path}.${k}`, "Datum u obliku GGGG-MM-DD.");
  }
  if (isCalendarDate(period.start) && isCalendarDate(period.end) && period.end < period.start) {
    p.add(`${path}.end`, "Završni datum razdoblja ne smije biti prije početnog.", path.startsWith("lines") ? "BR-30" : "BR-29");
  }
}

/** Percentage and base go together, and the amount is base × percentage / 100 (FISKAL-ALLOWANCE-PERCENT). */
export function percentProblems(path: string, a: { amount: string; percent?: string; baseAmount?: string }, p: ProblemList): void {
  const pct = a.percent === undefined ? null : typeof a.percent === "string" ? parseDecimal(a.percent, 4) : null;
  if (a.percent !== undefined && (!pct || pct.units <= 0n)) p.add(`${path}.percent`, "Postotak je pozitivan decimalni zapis, npr. \"3\".", "HR-BR-56");
  if (a.baseAmount !== undefined && !p.money(`${path}.baseAmount`, a.baseAmount)) p.amountsOk = false;
  if ((a.percent === undefined) !== (a.baseAmount === undefined)) p.add(`${path}.${a.percent === undefined ? "percent" : "baseAmount"}`, "Postotak i osnovica navode se zajedno.", "FISKAL-ALLOWANCE-PERCENT");
  else if (pct && pct.units > 0n && a.baseAmount !== undefined && isMoney(a.baseAmount) && isMoney(a.amount)) {
    const expected = roundDecimal(multiplyDecimal({ units: parseMoney(a.baseAmount), scale: 2 }, { units: pct.units, scale: pct.scale + 2 }), 2);
    if (expected !== parseMoney(a.amount)) p.add(`${path}.amount`, `Iznos je osnovica × postotak / 100: ${formatMoney(expected)}, a ne ${a.amount}.`, "FISKAL-ALLOWANCE-PERCENT");
  }
}

/** One line: description, quantity, price, unit, KPD, its amount against quantity × price, VAT, period, its own allowances and charges. */
export function lineProblems(path: string, line: EInvoiceLine, type: DocumentType, kpd: KpdIndex, p: ProblemList): void {
  p.text(`${path}.description`, line.description, 1024, true, "HR-BR-46");
  if (line.note !== undefined) p.text(`${path}.note`, line.note, 4000, false);
  const quantity = typeof line.quantity === "string" ? parseDecimal(line.quantity) : null;
  if (!quantity) p.add(`${path}.quantity`, "Količina mora biti decimalni zapis s najviše 10 decimala.", "HR-BR-56");
  else if (quantity.units === 0n) p.add(`${path}.quantity`, "Količina ne smije biti nula.");
  const unitPrice = typeof line.unitPrice === "string" ? parseDecimal(line.unitPrice) : null;
  if (!unitPrice) p.add(`${path}.unitPrice`, "Cijena mora biti decimalni zapis s najviše 10 decimala.", "HR-BR-56");
  else if (unitPrice.units < 0n) p.add(`${path}.unitPrice`, "Neto cijena ne smije biti negativna; negativan iznos iskazuje se negativnom količinom.", "BR-27");
  if (!isUnitCode(line.unit)) {
    const hint = typeof line.unit === "string" ? UNIT_HINTS[line.unit.toUpperCase()] : undefined;
    p.add(`${path}.unit`, `${JSON.stringify(line.unit)} nije jedinica mjere po UN/ECE preporuci 20/21${hint ? `; za to se koristi "${hint}"` : ' (npr. "H87" komad, "HUR" sat, "KGM" kilogram)'}.`, "BR-CL-23");
  }
  kpdProblems(`${path}.kpd`, line.kpd, type, kpd, p);
  const base = line.baseQuantity === undefined ? null : typeof line.baseQuantity === "string" ? parseDecimal(line.baseQuantity) : null;
  if (line.baseQuantity !== undefined && (!base || base.units <= 0n)) p.add(`${path}.baseQuantity`, "Osnovna količina cijene mora biti pozitivan decimalni zapis.", "HR-BR-56");
  if (!p.money(`${path}.lineTotal`, line.lineTotal)) p.amountsOk = false;
  else if (quantity && unitPrice && (line.baseQuantity === undefined || (base && base.units > 0n))) {
    const expected = expectedLineTotal(line, quantity, unitPrice, base);
    const formula = `${base ? "količina × cijena ÷ osnovna količina" : "količina × cijena"}${line.allowances?.length || line.charges?.length ? " − popusti stavke + troškovi stavke" : ""}`;
    if (parseMoney(line.lineTotal) !== expected) p.add(`${path}.lineTotal`, `Iznos stavke je ${formula} zaokruženo na cente: ${formatMoney(expected)}, a ne ${line.lineTotal}.`, "FISKAL-LINE-NET");
  }
  taxItemProblems(path, line, "line", p);
  periodProblems(`${path}.period`, line.period, p);
  for (const kind of ["allowances", "charges"] as const) {
    (line[kind] ?? []).forEach((a, j) => allowanceChargeProblems(`${path}.${kind}[${j}]`, a, kind, "line", p));
  }
}

/** HR-BR-25: a level-5 KPD 2025 code, written exactly (not needed on credit notes and prepayment invoices). */
export function kpdProblems(path: string, code: unknown, type: DocumentType, kpd: KpdIndex, p: ProblemList): void {
  if (code === undefined || code === "") {
    if (!KPD_OPTIONAL.includes(type)) p.add(path, "Svaka stavka treba KPD 2025 šifru razine 5 (osim odobrenja i računa za predujam).", "HR-BR-25");
  } else if (typeof code !== "string") p.add(path, "KPD šifra je tekst, npr. \"62.10.11\".", "HR-BR-25");
  else {
    const entry = kpd.get(code);
    if (!entry || entry.code !== code) p.add(path, entry ? `Piše se točno ${entry.code}.` : `${code} nije KPD 2025 šifra.`, "HR-BR-CL-2");
    else if (entry.level !== 5) p.add(path, `${entry.code} je ${KPD_LEVEL_NAMES_HR[entry.level] ?? "šifra"} (razina ${entry.level}); potrebna je šifra razine 5 (potkategorija).`, "HR-BR-25");
  }
}

/** quantity × price (÷ base quantity) in cents, less the line's allowances, plus its charges. */
export function expectedLineTotal(line: Pick<EInvoiceLine, "allowances" | "charges">, quantity: Decimal, unitPrice: Decimal, base: Decimal | null): bigint {
  const lineAc = (l: EInvoiceLineAllowanceCharge[] | undefined) => (l ?? []).reduce((sum, a) => sum + (isMoney(a.amount) ? parseMoney(a.amount) : 0n), 0n);
  return (base ? lineNet(quantity, unitPrice, base) : roundDecimal(multiplyDecimal(quantity, unitPrice), 2)) - lineAc(line.allowances) + lineAc(line.charges);
}

/** quantity × price ÷ base quantity in cents, rounded half away from zero. */
function lineNet(q: Decimal, p: Decimal, b: Decimal): bigint {
  const num = q.units * p.units * 10n ** BigInt(b.scale) * 100n;
  const den = b.units * 10n ** BigInt(q.scale + p.scale);
  const negative = num < 0n;
  const abs = negative ? -num : num;
  let cents = abs / den;
  if ((abs % den) * 2n >= den) cents += 1n;
  return negative ? -cents : cents;
}

/** The code lists' examples and the rules of a reason, for allowances and charges of a line or of the document. */
const REASON_RULES = {
  line: {
    allowances: { codeMessage: "Kod razloga popusta mora biti iz UNTDID 5189 (npr. 95 popust).", reasonRule: "BR-42" },
    charges: { codeMessage: "Kod razloga troška mora biti iz UNTDID 7161 (npr. FC prijevoz).", reasonRule: "BR-44" },
  },
  document: {
    allowances: { codeMessage: "Kod razloga popusta mora biti iz UNTDID 5189 (npr. 95 popust, 41 bonus).", reasonRule: "BR-33" },
    charges: { codeMessage: "Kod razloga troška mora biti iz UNTDID 7161 (npr. FC prijevoz, ABL pakiranje).", reasonRule: "BR-38" },
  },
} as const;

/** An allowance or charge of a line or of the document: a positive amount, a reason (text or code from the list) and its percentage. */
export function allowanceChargeProblems(path: string, a: EInvoiceLineAllowanceCharge, kind: "allowances" | "charges", level: "line" | "document", p: ProblemList): void {
  const allowance = kind === "allowances";
  const { codeMessage, reasonRule } = REASON_RULES[level][kind];
  if (!p.money(`${path}.amount`, a.amount)) p.amountsOk = false;
  else if (parseMoney(a.amount) <= 0n) p.add(`${path}.amount`, "Iznos mora biti veći od nule.");
  const codes = allowance ? ALLOWANCE_REASON_CODES : CHARGE_REASON_CODES;
  if (a.reasonCode !== undefined && !codes.has(a.reasonCode)) p.add(`${path}.reasonCode`, codeMessage, allowance ? "BR-CL-19" : "BR-CL-20");
  if (a.reason !== undefined) p.text(`${path}.reason`, a.reason, 1000, false);
  if (!a.reason?.trim() && a.reasonCode === undefined) p.add(`${path}.reason`, "Potreban je razlog (tekst) ili kod razloga.", reasonRule);
  percentProblems(path, a, p);
}

/** A document-level allowance or charge: as one of a line, and with its own VAT category and rate. */
function documentAllowanceChargeProblems(path: string, a: EInvoiceAllowanceCharge, kind: "allowances" | "charges", p: ProblemList): void {
  allowanceChargeProblems(path, a, kind, "document", p);
  taxItemProblems(path, a, kind === "allowances" ? "allowance" : "charge", p);
}

/** What the document's VAT categories require of it and of its parties (BR-O-*, BR-*-02, HR-BR-*-1, BR-IC-*, BR-G-02). */
export function categoryProblems(input: EInvoiceInput, p: ProblemList): void {
  const { seller, buyer } = input;
  const categories = categoriesOf(input);
  const inVat = seller.inVatSystem !== false;
  if (categories.has("O") && categories.size > 1) {
    p.add("lines", `Račun sa stavkama koje ne podliježu PDV-u (O) ne smije imati druge kategorije PDV-a (ovdje i ${[...categories].filter((c) => c !== "O").join(", ")}).`, "BR-O-11");
  }
  if (!inVat) {
    const taxed = [...categories].filter((c) => c !== "E" && c !== "O");
    if (taxed.length) p.add("seller.inVatSystem", `Prodavatelj izvan sustava PDV-a izdaje samo stavke E (s razlogom, npr. „Nije u sustavu PDV-a, čl. 90. Zakona o PDV-u“) ili O; ovdje i ${taxed.join(", ")}.`, categoryRule(taxed[0]!, "02"));
    if (seller.vatId !== undefined) p.add("seller.vatId", "Prodavatelj izvan sustava PDV-a nema PDV identifikator; identificira ga OIB (porezna shema FRE).", "BR-CO-09");
  }
  if (categories.has("O") && (seller.vatId !== undefined || buyer.vatId !== undefined)) {
    p.add(buyer.vatId !== undefined ? "buyer.vatId" : "seller.vatId", "Račun sa stavkama koje ne podliježu PDV-u (O) ne nosi PDV identifikatore prodavatelja i kupca.", "BR-O-02");
  }
  const bt48 = documentBuyerVatId(input);
  for (const c of ["S", "Z", "E", "AE"] as const) {
    if (categories.has(c) && !bt48) p.add("buyer.vatId", `Račun sa stavkama kategorije ${c} mora nositi PDV identifikator kupca (BT-48).`, `HR-BR-${c}-1`);
  }
  if (categories.has("K")) {
    if (!inVat) p.add("seller.inVatSystem", "Isporuku unutar EU (K) iskazuje prodavatelj u sustavu PDV-a.", "BR-IC-02");
    if (!buyer.vatId) p.add("buyer.vatId", "Isporuka unutar EU (K) treba PDV identifikator kupca iz druge države članice.", "BR-IC-02");
    else if (buyer.vatId.startsWith("HR")) p.add("buyer.vatId", "Isporuka unutar EU (K) ide kupcu iz druge države članice, ne kupcu s hrvatskim PDV brojem.", "BR-IC-02");
    if (!input.delivery?.date) p.add("delivery.date", "Isporuka unutar EU (K) treba stvarni datum isporuke.", "BR-IC-11");
    if (!input.delivery?.address?.country) p.add("delivery.address.country", "Isporuka unutar EU (K) treba državu isporuke.", "BR-IC-12");
  }
  if (categories.has("G") && !inVat) p.add("seller.inVatSystem", "Izvoz (G) iskazuje prodavatelj u sustavu PDV-a.", "BR-G-02");
}

/** The issuer's totals against the document's (BR-CO-10 … 16) and its VAT breakdown; recomputed only when every amount could be read. */
export function totalsProblems(input: EInvoiceInput, type: DocumentType, p: ProblemList): void {
  const totals = input.totals;
  if (!totals || typeof totals !== "object") {
    p.add("totals", "Obavezno polje.");
    return;
  }
  const given: Partial<Record<keyof EInvoiceInput["totals"], bigint>> = {};
  for (const k of ["net", "vat", "gross", "lineTotal", "allowances", "charges", "prepaid", "payable"] as const) {
    if (totals[k] === undefined && !["net", "vat", "gross"].includes(k)) continue;
    if (p.money(`totals.${k}`, totals[k])) given[k] = parseMoney(totals[k]);
  }
  if (!p.amountsOk || given.prepaid === undefined && totals.prepaid !== undefined) return;
  const t = documentTotals(input);
  const mismatch = (k: keyof typeof given, expected: bigint, what: string, rule: string) => {
    if (given[k] !== undefined && given[k] !== expected) p.add(`totals.${k}`, `${what}: ${formatMoney(expected)}, a ne ${totals[k]}.`, rule);
  };
  mismatch("lineTotal", t.lineTotal, "Zbroj iznosa stavki", "BR-CO-10");
  mismatch("allowances", t.allowances, "Zbroj popusta na razini dokumenta", "BR-CO-11");
  mismatch("charges", t.charges, "Zbroj troškova na razini dokumenta", "BR-CO-12");
  mismatch("net", t.net, "Iznos bez PDV-a je zbroj stavki − popusti + troškovi", "BR-CO-13");
  if (given.vat !== undefined && given.vat !== t.vat) {
    const detail = t.groups.map((g) => `${g.category}${g.rate !== null ? ` ${g.rate}%` : ""} od ${formatMoney(g.base)} = ${formatMoney(g.vat)}`).join("; ");
    p.add("totals.vat", `PDV je zbroj PDV-a po kategoriji i stopi, svaki zaokružen na cente (${detail}): ${formatMoney(t.vat)}, a ne ${totals.vat}.`, "BR-CO-14");
  }
  if (given.gross !== undefined && given.net !== undefined && given.vat !== undefined && given.gross !== given.net + given.vat) {
    p.add("totals.gross", `Iznos s PDV-om je iznos bez PDV-a + PDV: ${formatMoney(given.net + given.vat)}, a ne ${totals.gross}.`, "BR-CO-15");
  }
  mismatch("payable", t.payable, "Iznos za plaćanje je iznos s PDV-om − plaćeni predujam", "BR-CO-16");
  if (totals.vatBreakdown !== undefined) breakdownProblems(totals.vatBreakdown, t.groups, p);
  if (type === "381" && t.gross < 0n) p.add("totals.gross", "Odobrenje iskazuje iznose koji se odobravaju kao pozitivne; za negativan iznos koristite račun (380) s negativnom količinom.", "BR-CO-15");
}

/** The issuer's VAT breakdown against the document's: one entry per category and rate, equal amounts. */
export function breakdownProblems(given: NonNullable<EInvoiceInput["totals"]["vatBreakdown"]>, groups: VatGroup[], p: ProblemList): void {
  const label = (c: VatCategory, rate: string | null) => `${c}${rate !== null ? ` ${rate}%` : ""}`;
  const seen = new Set<VatGroup>();
  given.forEach((entry, i) => {
    const path = `totals.vatBreakdown[${i}]`;
    if (!(VAT_CATEGORIES as readonly string[]).includes(entry.category)) {
      p.add(`${path}.category`, `Kategorija PDV-a mora biti jedna od: ${VAT_CATEGORIES.join(", ")}.`, "BR-CL-17");
      return;
    }
    const rate = entry.rate === undefined ? null : parseDecimal(entry.rate);
    if (entry.rate !== undefined && !rate) {
      p.add(`${path}.rate`, "Stopa PDV-a mora biti decimalni zapis, npr. \"25\".", "HR-BR-56");
      return;
    }
    const normalized = entry.category === "O" ? null : rate ? normalizeDecimal(rate) : entry.category === "S" ? null : "0";
    const group = groups.find((g) => g.category === entry.category && g.rate === normalized);
    if (!group || seen.has(group)) {
      p.add(path, `${group ? "Ponovljena skupina" : "Nema stavki, popusta ni troškova"} ${label(entry.category, normalized)} u raspodjeli PDV-a.`, categoryRule(entry.category, "08"));
      return;
    }
    seen.add(group);
    for (const [k, expected, rule] of [
      ["taxableAmount", group.base, categoryRule(entry.category, "08")],
      ["taxAmount", group.vat, entry.category === "S" ? "BR-S-09" : categoryRule(entry.category, "09")],
    ] as const) {
      const v = entry[k];
      if (typeof v !== "string" || !isMoney(v)) p.add(`${path}.${k}`, "Iznos mora biti decimalni zapis s najviše dvije decimale.", "BR-DEC-19");
      else if (parseMoney(v) !== expected) p.add(`${path}.${k}`, `${label(entry.category, normalized)}: ${formatMoney(expected)}, a ne ${v}.`, rule);
    }
  });
  for (const g of groups) if (!seen.has(g)) p.add("totals.vatBreakdown", `Raspodjela PDV-a nema skupinu ${label(g.category, g.rate)}.`, categoryRule(g.category, "01"));
}
