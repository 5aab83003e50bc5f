// When a receipt reaches the tax authority later than it was issued (CIS specification v2.6 §2.1:
// a receipt is delivered at the moment it is issued; anything later is a late delivery, NakDost),
// and until when the law still takes it (Fiscalization Act art. 21(2): within two working days).
import { croatianDate, ISSUE_TIME_MAX_SKEW_MS, zagrebDate } from "./bounds.ts";
import { zagrebMidnight } from "./zagreb.ts";

/**
 * A receipt issued more than this before Fiskal received it goes to CIS as a late delivery
 * (NakDost = true). The same five minutes a till's clock may run fast (ISSUE_TIME_MAX_SKEW_MS): a
 * till whose clock runs that much slow, or a request that took a few seconds, is still on time.
 */
export const LATE_DELIVERY_TOLERANCE_MS = ISSUE_TIME_MAX_SKEW_MS;

/** Easter Sunday (Gregorian, anonymous algorithm) as YYYY-MM-DD. */
function easter(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/**
 * Croatian public holidays (Zakon o blagdanima, spomendanima i neradnim danima, NN 110/2019) of a
 * year: the fixed ones, Easter Monday and Corpus Christi (Easter Sunday is a Sunday).
 */
export function croatianHolidays(year: number): Set<string> {
  const fixed = ["01-01", "01-06", "05-01", "05-30", "06-22", "08-05", "08-15", "11-01", "11-18", "12-25", "12-26"].map((md) => `${year}-${md}`);
  const e = easter(year);
  return new Set([...fixed, addDays(e, 1), addDays(e, 60)]);
}

/** A working day in Croatia: Monday to Friday and not a public holiday. */
export function isWorkingDay(day: string): boolean {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !croatianHolidays(Number(day.slice(0, 4))).has(day);
}

/**
 * The end of the legal window for delivering a receipt issued at `issuedAt`: 24:00 Zagreb time of
 * the second working day after its issue day (weekends and public holidays skipped). Later than
 * that, CIS must no longer be sent it as a late delivery.
 */
export function lateDeliveryWindowEnd(issuedAt: Date): Date {
  let day = zagrebDate(issuedAt);
  for (let working = 0; working < 2; ) {
    day = addDays(day, 1);
    if (isWorkingDay(day)) working++;
  }
  return zagrebMidnight(addDays(day, 1));
}

/** Whether a receipt issued at `issuedAt` and received `now` is a late delivery (NakDost). */
export function isLateDelivery(issuedAt: Date, now: Date = new Date()): boolean {
  return now.getTime() - issuedAt.getTime() > LATE_DELIVERY_TOLERANCE_MS;
}

/** The refusal of a receipt whose legal window for late delivery has passed, or null. */
export function lateDeliveryWindowProblem(issuedAt: Date, now: Date = new Date()): string | null {
  if (!(issuedAt instanceof Date) || Number.isNaN(issuedAt.getTime())) return null;
  const end = lateDeliveryWindowEnd(issuedAt);
  if (now < end) return null;
  const last = croatianDate(zagrebDate(new Date(end.getTime() - 1)));
  return `Račun izdan ${croatianDate(zagrebDate(issuedAt))} mogao se naknadno dostaviti Poreznoj upravi najkasnije ${last} (dva radna dana, čl. 21. st. 2. Zakona o fiskalizaciji); taj je rok istekao i Fiskal ga više ne šalje.`;
}
