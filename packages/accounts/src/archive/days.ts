// Calendar days in Zagreb (CET/CEST), as periods of lists and archive exports are given.
import { zagrebTime } from "@fiskal/fiscal";

/** The instant a day (GGGG-MM-DD) starts in Zagreb. */
export function zagrebDayStart(day: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  for (const offsetHours of [1, 2]) {
    const candidate = new Date(midnightUtc - offsetHours * 3_600_000);
    const parts = zagrebTime(candidate);
    if (`${parts.year}-${parts.month}-${parts.day}` === day && parts.hour === "00") return candidate;
  }
  return new Date(midnightUtc - 3_600_000);
}

/** The day after a GGGG-MM-DD date. */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
