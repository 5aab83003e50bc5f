// Days as the portal shows and takes them: typed as "20. 11. 2026." (the Croatian way, like every
// date the portal prints), kept as "2026-11-20" in URLs and queries. One home for the dashboard's
// period, the Dokumenti filters and the archive export.

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const HR_DAY = /^\s*(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})\.?\s*$/;

/** What a day field shows while empty. */
export const DAY_PLACEHOLDER = "dd. mm. gggg.";
/** How a day is to be typed, with an example. */
export const DAY_HINT = "Unesite datum u obliku dd. mm. gggg., npr. 20. 11. 2026.";

/** A real calendar day in the form "2026-11-20" (no 30 February). */
export function validDay(day: string | undefined): day is string {
  return !!day && ISO_DAY.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);
}

/** A day as typed, "20. 11. 2026." (the final dot and spaces optional), or as in a URL, "2026-11-20", as "2026-11-20"; anything else as given. */
export function normalizeDay(day: string | undefined): string | undefined {
  const m = day === undefined ? null : HR_DAY.exec(day);
  return m ? `${m[3]}-${m[2]!.padStart(2, "0")}-${m[1]!.padStart(2, "0")}` : day;
}

/** "2026-11-20" → "20. 11. 2026.", as typed in a day field. */
export function croatianDay(day: string): string {
  const [y, m, d] = day.split("-");
  return `${Number(d)}. ${Number(m)}. ${y}.`;
}

/** The first and last day of a period as typed in two fields ("od", "do"). */
interface PeriodInput {
  from?: string | undefined;
  to?: string | undefined;
}

export interface PeriodOptions {
  /** Both days must be given (an export); otherwise an empty field means "no limit". */
  required?: boolean;
  /** Earliest and latest day accepted, "YYYY-MM-DD". */
  min?: string;
  max?: string;
}

/** The period as days ("YYYY-MM-DD"; undefined where a field was left empty) and a Croatian message per field that is wrong. */
interface ParsedPeriod {
  from: string | undefined;
  to: string | undefined;
  errors: { from?: string; to?: string };
}

function parseOne(text: string | undefined, which: "od" | "do", opts: PeriodOptions): { day?: string; error?: string } {
  const raw = (text ?? "").trim();
  if (!raw) return opts.required ? { error: `Unesite datum „${which}”, npr. 20. 11. 2026.` } : {};
  const day = normalizeDay(raw)!;
  if (!ISO_DAY.test(day)) return { error: `„${raw.slice(0, 40)}” nije datum u obliku dd. mm. gggg., npr. 20. 11. 2026.` };
  if (!validDay(day)) return { error: `Datum ${croatianDay(day)} ne postoji u kalendaru.` };
  if ((opts.min && day < opts.min) || (opts.max && day > opts.max)) {
    return { error: `Datum mora biti između ${croatianDay(opts.min ?? "0001-01-01")} i ${croatianDay(opts.max ?? "9999-12-31")}` };
  }
  return { day };
}

/** Checks the two days of a period on the server; nothing here relies on the browser's own checks. */
export function parsePeriod(input: PeriodInput, opts: PeriodOptions = {}): ParsedPeriod {
  const from = parseOne(input.from, "od", opts);
  const to = parseOne(input.to, "do", opts);
  const errors: ParsedPeriod["errors"] = {};
  if (from.error) errors.from = from.error;
  if (to.error) errors.to = to.error;
  if (from.day && to.day && from.day > to.day) errors.to = `Datum „do” (${croatianDay(to.day)}) je prije datuma „od” (${croatianDay(from.day)}).`;
  return { from: from.day, to: to.day, errors };
}
