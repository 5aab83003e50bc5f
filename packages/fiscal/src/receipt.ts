// The receipt (Fiscalization 1.0) as the API takes it: every field of RacunType in the tax
// authority's FiskalizacijaSchema.xsd, its business rules (CIS spec v2.6 §2.1.1), and the mapping to
// the schema's own field names (`RacunType`, ./cis/racun.ts) that the CIS client serialises.
import { cisXmlDateTime, type RacunType } from "./cis/racun.ts";
import { amountProblem, issueTimeProblem, textLengthProblem, zagrebDate } from "./bounds.ts";
import { formatMoney, formatScaled, parseDecimal, parseMoney, roundDecimal } from "./money.ts";
import { isValidOib } from "./oib.ts";
import { vatRateProblem } from "./vat-rates.ts";

/** NacinPlac: G cash, K cards, T bank transfer, O other (also several methods on one receipt). C (cheque) was withdrawn by CIS. */
export type PaymentMethod = "G" | "K" | "T" | "O";
export const PAYMENT_METHODS: readonly PaymentMethod[] = ["G", "K", "T", "O"];

/** OznSlijed: receipt numbers run per business premises ("P") or per device ("N"). */
export type SequenceMark = "P" | "N";
export const SEQUENCE_MARKS: readonly SequenceMark[] = ["P", "N"];

/** One rate of a tax (PorezType): rate in percent, taxable base, tax amount. Decimal strings. */
export interface TaxLine {
  rate: string;
  base: string;
  amount: string;
}

/** Another tax besides VAT and consumption tax (PorezOstaloType), e.g. luxury tax. */
export interface OtherTax extends TaxLine {
  name: string;
}

/** A fee on the receipt (NaknadaType), e.g. the packaging deposit ("povratna naknada"). */
export interface Fee {
  name: string;
  amount: string;
}

/** A receipt as CIS knows it (RacunType), in this project's names. Amounts are decimal strings. */
export interface Receipt {
  /** Oib: the issuer, who is liable for fiscalization; must match the certificate. */
  oib: string;
  issuedAt: Date;
  /** BrOznRac: the sequential number, digits without leading zeros. */
  number: string;
  /** OznPosPr: the business premises label as registered with the tax authority. */
  premises: string;
  /** OznNapUr: the device label, digits without leading zeros. */
  device: string;
  /** IznosUkupno, 2 decimals, e.g. "125.00"; negative on a storno. */
  total: string;
  paymentMethod: PaymentMethod;
  /** OibOper: the operator at the device who issues the receipt (the issuer's OIB for vending machines). */
  operatorOib: string;
  /** USustPdv: the issuer is in the VAT system. */
  vatRegistered: boolean;
  /** OznSlijed. */
  sequence: SequenceMark;
  /** NakDost: delivered after the receipt was issued without a JIR. Set by the system, never by the customer. */
  lateDelivery?: boolean;
  /** Pdv: VAT, one line per rate. */
  vat?: TaxLine[];
  /** Pnp: consumption tax (porez na potrošnju), one line per rate. */
  consumptionTax?: TaxLine[];
  /** OstaliPor. */
  otherTaxes?: OtherTax[];
  /** IznosOslobPdv: total of VAT-exempt supplies. */
  exemptAmount?: string;
  /** IznosMarza: amount under the margin scheme (used goods, art, antiques). */
  marginAmount?: string;
  /** IznosNePodlOpor: amount not subject to taxation. */
  notTaxableAmount?: string;
  /** Naknade. */
  fees?: Fee[];
  /** OibPrimateljaRacuna: the buyer's OIB, B2B receipts paid in cash or by card only. */
  buyerOib?: string;
  /** ParagonBrRac: the number of the paper (paragon) receipt this one re-enters after a device failure. */
  paragonNumber?: string;
  /** SpecNamj: reserved by the tax authority for data the schema does not foresee. */
  specialPurpose?: string;
}

/** Consumption tax (Local Taxes Act): set by the town, at most 3 %. */
export const CONSUMPTION_TAX_MAX_RATE = "3";
/** A tax amount may differ from base × rate by this much (rounding per item on the till): one cent. */
export const TAX_TOLERANCE_CENTS = 1n;
/** The QR code carries the total in cents in at most 10 characters, a minus sign included (spec v2.6 §2.7). */
export const QR_AMOUNT_MAX_CHARS = 10;

/** Characters that cannot appear in an XML document (the receipt goes to CIS as XML). */
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

export interface ReceiptProblem {
  /** The field as the API's JSON names it, e.g. "vat.0.amount". */
  path: string;
  message: string;
}

/** Rate with exactly two decimals, as CIS wants it: "25" → "25.00". */
export function formatRate(rate: string): string {
  const d = parseDecimal(rate, 2);
  if (!d) throw new RangeError(`not a rate: ${JSON.stringify(rate)}`);
  return formatScaled(roundDecimal(d, 2), 2);
}

/** base × rate / 100, rounded half away from zero to cents. */
export function taxFor(base: string, rate: string): bigint {
  const b = parseDecimal(base, 2);
  const r = parseDecimal(rate, 2);
  if (!b || !r) throw new RangeError("taxFor: base and rate must be decimals with at most 2 places");
  return roundDecimal({ units: b.units * r.units, scale: b.scale + r.scale + 2 }, 2);
}

/**
 * Every business rule of a receipt that can be checked before anything is written or sent, as
 * Croatian messages on the API's field paths. Formats (digits, decimals, lengths) are the API
 * schema's job; this checks what the formats cannot: check digits, dates, amounts that add up per
 * tax line, rates the law knows, combinations the specification forbids.
 */
export function receiptProblems(r: Receipt, now: Date = new Date()): ReceiptProblem[] {
  const problems: ReceiptProblem[] = [];
  const add = (path: string, message: string | null) => {
    if (message) problems.push({ path, message });
  };
  const oib = (path: string, v: string | undefined) => {
    if (v !== undefined && !isValidOib(v)) add(path, "OIB nema ispravnu kontrolnu znamenku.");
  };
  const text = (path: string, v: string | undefined, max: number) => {
    if (v === undefined) return;
    if (v.trim() === "") return add(path, "Tekst ne smije biti prazan.");
    if (NOT_XML_CHAR.test(v)) return add(path, "Tekst sadrži kontrolne znakove koji nisu dopušteni.");
    add(path, textLengthProblem(v, max));
  };

  oib("oib", r.oib);
  oib("operator_oib", r.operatorOib);
  oib("buyer_oib", r.buyerOib);
  add("issued_at", issueTimeProblem(r.issuedAt, now));

  const totalProblem = amountProblem(r.total);
  add("total", totalProblem);
  if (!totalProblem) {
    const cents = parseMoney(r.total).toString();
    if (cents.length > QR_AMOUNT_MAX_CHARS) {
      add("total", `Ukupni iznos u centima smije imati najviše ${QR_AMOUNT_MAX_CHARS} znakova (s predznakom), koliko ih QR kod računa može prikazati.`);
    }
  }
  for (const [field, value] of [
    ["exempt_amount", r.exemptAmount],
    ["margin_amount", r.marginAmount],
    ["not_taxable_amount", r.notTaxableAmount],
  ] as const) {
    if (value !== undefined) add(field, amountProblem(value));
  }

  const lines = (field: string, list: TaxLine[] | undefined, rateProblem: (rate: string) => string | null) => {
    const seen = new Map<string, number>();
    (list ?? []).forEach((line, i) => {
      const at = `${field}.${i}`;
      if ("name" in line) text(`${at}.name`, (line as OtherTax).name, 100);
      const baseProblem = amountProblem(line.base);
      const amountP = amountProblem(line.amount);
      add(`${at}.base`, baseProblem);
      add(`${at}.amount`, amountP);
      const rp = rateProblem(line.rate);
      add(`${at}.rate`, rp);
      if (baseProblem || amountP || rp) return;
      const key = `${"name" in line ? (line as OtherTax).name.trim().toLowerCase() : ""}|${formatRate(line.rate)}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) return add(`${at}.rate`, `Stopa ${formatRate(line.rate)} % već je navedena u stavci ${earlier}; iskažite svaku stopu jednom.`);
      seen.set(key, i);
      const base = parseMoney(line.base);
      const amount = parseMoney(line.amount);
      if ((base < 0n && amount > 0n) || (base > 0n && amount < 0n)) {
        return add(`${at}.amount`, "Iznos poreza mora imati isti predznak kao osnovica.");
      }
      const expected = taxFor(line.base, line.rate);
      const diff = amount - expected;
      if (diff > TAX_TOLERANCE_CENTS || diff < -TAX_TOLERANCE_CENTS) {
        add(
          `${at}.amount`,
          `Iznos poreza ${formatMoney(amount)} ne odgovara osnovici ${formatMoney(base)} po stopi ${formatRate(line.rate)} %: očekuje se ${formatMoney(expected)} (dopušteno odstupanje 0.01).`,
        );
      }
    });
  };
  // The rates in force on the receipt's date in Zagreb (./vat-rates.ts, shared with e-invoices).
  const issueDay = r.issuedAt instanceof Date && !Number.isNaN(r.issuedAt.getTime()) ? zagrebDate(r.issuedAt) : zagrebDate(now);
  lines("vat", r.vat, (rate) => vatRateProblem(rate, issueDay));
  lines("consumption_tax", r.consumptionTax, (rate) => {
    const d = parseDecimal(rate, 2);
    if (!d || d.units <= 0n || roundDecimal(d, 2) > 300n) return `Stopa poreza na potrošnju mora biti veća od 0 i najviše ${CONSUMPTION_TAX_MAX_RATE} (%).`;
    return null;
  });
  lines("other_taxes", r.otherTaxes, (rate) => {
    const d = parseDecimal(rate, 2);
    if (!d || d.units < 0n || roundDecimal(d, 2) > 99_999n) return "Stopa mora biti između 0 i 999.99 (%).";
    return null;
  });
  (r.fees ?? []).forEach((fee, i) => {
    text(`fees.${i}.name`, fee.name, 100);
    add(`fees.${i}.amount`, amountProblem(fee.amount));
  });
  text("paragon_number", r.paragonNumber, 100);
  text("special_purpose", r.specialPurpose, 1000);

  if (!r.vatRegistered && r.vat?.length) {
    add("vat", "Obveznik koji nije u sustavu PDV-a (vat_registered: false) ne iskazuje PDV na računu.");
  }
  if (r.buyerOib !== undefined && r.paymentMethod === "T") {
    add("buyer_oib", "OIB primatelja šalje se samo za račune plaćene gotovinom, karticom ili na drugi način, ne transakcijskim računom (T).");
  }
  if (r.buyerOib !== undefined && r.buyerOib === r.oib) add("buyer_oib", "OIB primatelja ne može biti OIB izdavatelja.");
  return problems;
}

/**
 * The receipt in the schema's own names, ready for the XML builder. Amounts and rates get exactly
 * two decimals; empty lists are left out (the schema wants at least one entry when present).
 * NakDost is the receipt's late-delivery flag, and always true for a re-entered paragon receipt
 * (it was issued to the buyer without a JIR by definition).
 */
export function toRacunType(r: Receipt, zki: string): RacunType {
  const money = (v: string) => formatMoney(parseMoney(v));
  const tax = (l: TaxLine) => ({ Stopa: formatRate(l.rate), Osnovica: money(l.base), Iznos: money(l.amount) });
  // Built in the schema's element order.
  return {
    Oib: r.oib,
    USustPdv: r.vatRegistered,
    DatVrijeme: cisXmlDateTime(r.issuedAt),
    OznSlijed: r.sequence,
    BrRac: { BrOznRac: r.number, OznPosPr: r.premises, OznNapUr: r.device },
    ...(r.vat?.length ? { Pdv: r.vat.map(tax) } : {}),
    ...(r.consumptionTax?.length ? { Pnp: r.consumptionTax.map(tax) } : {}),
    ...(r.otherTaxes?.length ? { OstaliPor: r.otherTaxes.map((t) => ({ Naziv: t.name, ...tax(t) })) } : {}),
    ...(r.exemptAmount !== undefined ? { IznosOslobPdv: money(r.exemptAmount) } : {}),
    ...(r.marginAmount !== undefined ? { IznosMarza: money(r.marginAmount) } : {}),
    ...(r.notTaxableAmount !== undefined ? { IznosNePodlOpor: money(r.notTaxableAmount) } : {}),
    ...(r.fees?.length ? { Naknade: r.fees.map((f) => ({ NazivN: f.name, IznosN: money(f.amount) })) } : {}),
    IznosUkupno: money(r.total),
    NacinPlac: r.paymentMethod,
    OibOper: r.operatorOib,
    ZastKod: zki,
    NakDost: r.lateDelivery === true || r.paragonNumber !== undefined,
    ...(r.paragonNumber !== undefined ? { ParagonBrRac: r.paragonNumber } : {}),
    ...(r.specialPurpose !== undefined ? { SpecNamj: r.specialPurpose } : {}),
    ...(r.buyerOib !== undefined ? { OibPrimateljaRacuna: r.buyerOib } : {}),
  };
}
