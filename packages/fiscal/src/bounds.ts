// Bounds a request must respect before anything is recorded or sent to the tax authority or the
// intermediary: dates the law and the database allow, amounts that fit the money columns, text
// that fits its limit. Every check returns a Croatian message for the client, or null when it holds.
import { parseDecimal } from "./money.ts";
import { zagrebDate } from "./zagreb.ts";

/** Fiscalization of receipts in Croatia started on 1 January 2013 (Zagreb time). */
export const FISCAL_FIRST_DATE = "2013-01-01";
/** The last date a receipt or e-invoice may carry. */
export const FISCAL_LAST_DATE = "2099-12-31";
/**
 * How far ahead of the server's clock an issue time may be: a till's clock may run a little fast,
 * but a receipt cannot be issued in the future. Five minutes.
 */
export const ISSUE_TIME_MAX_SKEW_MS = 5 * 60_000;
/** Money columns are numeric(14, 2): at most 12 digits before the decimal point and 2 after. */
export const MONEY_PRECISION = { precision: 14, scale: 2 } as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
// Midnight in Zagreb on the first day, and on the day after the last one (both in winter: +01:00).
const FIRST_INSTANT = Date.parse(`${FISCAL_FIRST_DATE}T00:00:00+01:00`);
const END_INSTANT = Date.parse("2100-01-01T00:00:00+01:00");
// The calendar date (YYYY-MM-DD) of an instant in Zagreb: one home in zagreb.ts, re-exported for this module's users.
export { zagrebDate };

/** Croatian count forms: 1, 21 → `one`; 2–4, 22–24 → `few`; 0, 5–20, 25… → `many`. */
function plural(n: number, one: string, few: string, many: string): string {
  const ten = n % 10;
  const hundred = n % 100;
  if (ten === 1 && hundred !== 11) return one;
  if (ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14)) return few;
  return many;
}

/** "2013-01-01" → "1. 1. 2013." as Croatian text writes dates. */
export function croatianDate(iso: string): string {
  const [y, m, d] = iso.split("-");
  return `${Number(d)}. ${Number(m)}. ${y}.`;
}

function isCalendarDate(s: string): boolean {
  if (!ISO_DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * A receipt's issue time: a real instant whose Zagreb date lies in FISCAL_FIRST_DATE …
 * FISCAL_LAST_DATE, and no more than ISSUE_TIME_MAX_SKEW_MS ahead of `now`.
 */
export function issueTimeProblem(issuedAt: Date, now: Date = new Date()): string | null {
  if (!(issuedAt instanceof Date) || Number.isNaN(issuedAt.getTime())) return "Vrijeme izdavanja nije ispravan datum i vrijeme.";
  const t = issuedAt.getTime();
  if (t < FIRST_INSTANT) return `Vrijeme izdavanja mora biti ${croatianDate(FISCAL_FIRST_DATE)} ili kasnije (početak fiskalizacije).`;
  if (t >= END_INSTANT) return `Vrijeme izdavanja mora biti najkasnije ${croatianDate(FISCAL_LAST_DATE)}`;
  if (t > now.getTime() + ISSUE_TIME_MAX_SKEW_MS) {
    return `Vrijeme izdavanja ne smije biti u budućnosti (dopušteno odstupanje sata je ${ISSUE_TIME_MAX_SKEW_MS / 60_000} minuta).`;
  }
  return null;
}

/**
 * An e-invoice's issue date (YYYY-MM-DD): from `first` (default FISCAL_FIRST_DATE) to
 * FISCAL_LAST_DATE, and not after today in Zagreb (with the same clock skew as issue times).
 */
export function issueDateProblem(date: string, now: Date = new Date(), first: string = FISCAL_FIRST_DATE): string | null {
  if (typeof date !== "string" || !isCalendarDate(date)) return "Datum izdavanja mora biti kalendarski datum u obliku GGGG-MM-DD.";
  if (date < first) return `Datum izdavanja mora biti ${croatianDate(first)} ili kasnije.`;
  if (date > FISCAL_LAST_DATE) return `Datum izdavanja mora biti najkasnije ${croatianDate(FISCAL_LAST_DATE)}`;
  if (date > zagrebDate(new Date(now.getTime() + ISSUE_TIME_MAX_SKEW_MS))) return "Datum izdavanja ne smije biti u budućnosti.";
  return null;
}

/** A date that may lie ahead (e.g. a due date): a calendar date no later than FISCAL_LAST_DATE. */
export function laterDateProblem(date: string, label = "Datum"): string | null {
  if (typeof date !== "string" || !isCalendarDate(date)) return `${label} mora biti kalendarski datum u obliku GGGG-MM-DD.`;
  if (date > FISCAL_LAST_DATE) return `${label} mora biti najkasnije ${croatianDate(FISCAL_LAST_DATE)}`;
  return null;
}

/** A decimal amount that fits numeric(precision, scale) — by default the money columns' (14, 2). */
export function amountProblem(value: string, { precision, scale }: { precision: number; scale: number } = MONEY_PRECISION): string | null {
  const d = typeof value === "string" ? parseDecimal(value, scale) : null;
  if (!d) return `Iznos mora biti decimalni zapis, najviše ${scale} ${plural(scale, "decimala", "decimale", "decimala")} iza točke.`;
  const digits = (d.units < 0n ? -d.units : d.units).toString();
  const integerDigits = Math.max(0, digits.length - d.scale);
  const max = precision - scale;
  if (integerDigits > max) return `Iznos smije imati najviše ${max} ${plural(max, "znamenku", "znamenke", "znamenki")} prije decimalne točke.`;
  return null;
}

/** Text no longer than `max` characters (Unicode code points). */
export function textLengthProblem(value: string, max: number): string | null {
  if (typeof value !== "string") return "Vrijednost mora biti tekst.";
  const length = [...value].length;
  return length > max ? `Tekst smije imati najviše ${max} ${plural(max, "znak", "znaka", "znakova")} (ima ${length}).` : null;
}
