// Croatian VAT rates and the dates they apply: one list for receipts (by the receipt's issue date)
// and e-invoices (category S carries the non-zero ones).
import { FISCAL_FIRST_DATE } from "./bounds.ts";

/** A VAT rate in percent and the Zagreb calendar dates (YYYY-MM-DD, inclusive) it applies. */
export interface VatRatePeriod {
  rate: string;
  from: string;
  /** Absent: still in force. */
  until?: string;
}

/**
 * The rates of today are those of HR-TB-2 in the HR CIUS (checked by HR-BR-CL-1 in
 * reference/hr-cius/: HR:PDV25, HR:PDV13, HR:PDV5 and HR:Z for 0 %). The 10 % reduced rate was in
 * force when fiscalization began and was replaced by 13 % from 1 January 2014; receipts issued in
 * 2013 may still carry it. The reference documents date no other change within the fiscal period,
 * so 25, 13, 5 and 0 apply from its first day.
 */
export const HR_VAT_RATE_PERIODS: readonly VatRatePeriod[] = [
  { rate: "25", from: FISCAL_FIRST_DATE },
  { rate: "13", from: FISCAL_FIRST_DATE },
  { rate: "5", from: FISCAL_FIRST_DATE },
  { rate: "0", from: FISCAL_FIRST_DATE },
  { rate: "10", from: FISCAL_FIRST_DATE, until: "2013-12-31" },
];

/** Rates of category S today (HR:PDV25, HR:PDV13, HR:PDV5). */
export const HR_STANDARD_RATES = ["25", "13", "5"] as const;
/** Every rate in force today: the standard ones and 0 % (HR:Z). */
export const HR_VAT_RATES = ["25", "13", "5", "0"] as const;

/** The rates in force on a Zagreb calendar date (YYYY-MM-DD), highest first. */
export function vatRatesOn(date: string): string[] {
  return HR_VAT_RATE_PERIODS.filter((p) => p.from <= date && (p.until === undefined || date <= p.until))
    .map((p) => p.rate)
    .sort((a, b) => Number(b) - Number(a));
}

/**
 * Null when `rate` (a decimal in percent, "13" or "13.00") is in force on `date`, otherwise the
 * Croatian message naming the date and the rates that are.
 */
export function vatRateProblem(rate: string, date: string): string | null {
  const allowed = vatRatesOn(date);
  const n = Number(rate);
  if (/^\d{1,3}(\.\d{1,2})?$/.test(rate) && allowed.some((r) => Number(r) === n)) return null;
  const [y, m, d] = date.split("-");
  const shown = /^\d{1,3}(\.\d{1,2})?$/.test(rate) ? n.toFixed(2) : rate;
  return `Stopa PDV-a ${shown} % ne vrijedi na dan ${Number(d)}. ${Number(m)}. ${y}.; dopuštene su ${allowed.join(", ")} (%).`;
}
