// Wall-clock time in Europe/Zagreb (CET/CEST): the one formatter behind the CIS date format, the QR
// code's date, Fiscalization 2.0's send time, the receipt's calendar checks and late-delivery
// deadline, the e-mails' dates and the portal's day boundaries and exports (imported there as
// `@fiskal/fiscal/zagreb`, which needs nothing from Node). The instant decides the offset, so the
// repeated hour at the end of DST reads as the same wall-clock time twice, exactly as a till in
// Zagreb would print it.

export const ZAGREB_TIME_ZONE = "Europe/Zagreb";

const zagreb = new Intl.DateTimeFormat("en-GB", {
  timeZone: ZAGREB_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** Zero-padded fields of an instant's date and time in Zagreb ("2026", "03", "29", "02", "30", "00"). */
export interface ZagrebTime {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

export function zagrebTime(d: Date): ZagrebTime {
  const p: Record<string, string> = {};
  for (const part of zagreb.formatToParts(d)) p[part.type] = part.value;
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour!, minute: p.minute!, second: p.second! };
}

/** The calendar date (YYYY-MM-DD) of an instant in Zagreb. */
export function zagrebDate(d: Date): string {
  const p = zagrebTime(d);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The instant Zagreb's calendar day `day` (YYYY-MM-DD) begins: 00:00 CET or CEST, whichever names that date. */
export function zagrebMidnight(day: string): Date {
  for (const offset of ["+01:00", "+02:00"]) {
    const candidate = new Date(`${day}T00:00:00${offset}`);
    if (zagrebDate(candidate) === day && zagrebDate(new Date(candidate.getTime() - 1)) !== day) return candidate;
  }
  return new Date(`${day}T00:00:00+01:00`);
}

/** "2026-11-23 17:05:09" in Zagreb local time: sortable, for CSV exports. */
export function zagrebDateTime(d: Date): string {
  const p = zagrebTime(d);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** "dd.MM.yyyy HH:mm:ss" in Zagreb local time, which is what CIS expects in the ZKI input. */
export function formatCisDateTime(d: Date): string {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new RangeError("formatCisDateTime: invalid date");
  const p = zagrebTime(d);
  return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}:${p.second}`;
}

/** "23. 11. 2026. u 17:05" in Zagreb local time: unpadded day and month, as Croatian prose writes it. */
export function croatianDateTime(d: Date): string {
  const p = zagrebTime(d);
  return `${Number(p.day)}. ${Number(p.month)}. ${p.year}. u ${p.hour}:${p.minute}`;
}
