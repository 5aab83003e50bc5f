// CSV (RFC 4180): comma-separated, CRLF line ends, fields quoted when they hold a comma, a quote or a
// line break (quotes doubled). Text that a spreadsheet would run as a formula (=, +, -, @, tab, CR at
// the start) gets a leading apostrophe, so that a key name cannot become a formula.
const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "da" : "ne";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: (string | number | boolean | null | undefined)[]): string {
  return values.map(csvField).join(",") + "\r\n";
}
