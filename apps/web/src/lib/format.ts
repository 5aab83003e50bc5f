// Croatian formatting of numbers, dates and durations shared by every page.
import { ZAGREB_TIME_ZONE as TZ } from "@fiskal/fiscal/zagreb";

const integer = new Intl.NumberFormat("hr-HR", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("hr-HR", { maximumFractionDigits: 1 });
const percentFmt = new Intl.NumberFormat("hr-HR", { style: "percent", maximumFractionDigits: 1 });
const dateTime = new Intl.DateTimeFormat("hr-HR", {
  day: "numeric",
  month: "numeric",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: TZ,
});
const shortDateTime = new Intl.DateTimeFormat("hr-HR", {
  day: "numeric",
  month: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: TZ,
});
const dateOnly = new Intl.DateTimeFormat("hr-HR", { day: "numeric", month: "numeric", year: "numeric", timeZone: TZ });

export function formatInt(n: number): string {
  return integer.format(n);
}

/** Ratio 0..1 as a percentage; null means "no data". */
export function formatPercent(ratio: number | null | undefined): string {
  if (ratio == null || !Number.isFinite(ratio)) return "—";
  return percentFmt.format(ratio);
}

export function formatMs(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return "—";
  if (ms >= 1000) return `${oneDecimal.format(ms / 1000)} s`;
  return `${oneDecimal.format(ms)} ms`;
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

export function formatDateTime(value: Date | string | number | null | undefined): string {
  if (value == null) return "—";
  return dateTime.format(toDate(value));
}

/** Without the year, for dense logs. */
export function formatShortDateTime(value: Date | string | number): string {
  return shortDateTime.format(toDate(value));
}

export function formatDate(value: Date | string | number | null | undefined): string {
  if (value == null) return "—";
  return dateOnly.format(toDate(value));
}

/** "2026-11-21" (a UTC calendar day) → "21. 11." for chart axes. */
export function formatDayLabel(isoDay: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDay);
  if (!m) return isoDay;
  return `${Number(m[3])}. ${Number(m[2])}.`;
}

/** Relative time in Croatian for "last used" columns; `now` is injectable for tests. */
export function formatRelative(value: Date | string | null | undefined, now: Date = new Date()): string {
  if (value == null) return "nikad";
  const seconds = Math.round((now.getTime() - toDate(value).getTime()) / 1000);
  if (seconds < 45) return "upravo sada";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `prije ${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `prije ${hours} h`;
  const days = Math.round(hours / 24);
  if (days < 30) return `prije ${days} ${plural(days, "dan", "dana", "dana")}`;
  return formatDate(value);
}

/** Croatian plural: one (1, 21, 31…), few (2–4, 22–24…), many (0, 5–20, 25…). */
export function plural(n: number, one: string, few: string, many: string): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return one;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return few;
  return many;
}

export const PLAN_LABELS: Record<string, string> = {
  SANDBOX: "Sandbox",
  STARTER: "Starter",
  BUSINESS: "Business",
  ENTERPRISE: "Enterprise",
};

export const UPGRADE_STATUS_LABELS: Record<string, string> = {
  PENDING: "Na čekanju",
  APPROVED: "Odobreno",
  REJECTED: "Odbijeno",
  CANCELLED: "Otkazano",
};

/** Whole seconds as a human duration: "45 s", "1 min 30 s", "17 h 28 min", "1 dan 1 h" (two largest units). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  const seconds = s % 60;
  const parts: string[] = [];
  if (days > 0) parts.push(`${days} ${plural(days, "dan", "dana", "dana")}`);
  if (hours > 0) parts.push(`${hours} h`);
  if (minutes > 0) parts.push(`${minutes} min`);
  if (seconds > 0 || parts.length === 0) parts.push(`${seconds} s`);
  return parts.slice(0, 2).join(" ");
}
