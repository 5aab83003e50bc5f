// Labels of the dashboard's chart buckets, in Europe/Zagreb.
import { ZAGREB_TIME_ZONE as TZ } from "@fiskal/fiscal/zagreb";
import type { Bar } from "~/components/BarChart";
import type { PortalOutputs } from "~/lib/portal-types";

type Overview = PortalOutputs["usage"]["overview"];
const hourFmt = new Intl.DateTimeFormat("hr-HR", { hour: "2-digit", hourCycle: "h23", timeZone: TZ });
const dayFmt = new Intl.DateTimeFormat("hr-HR", { day: "numeric", month: "numeric", timeZone: TZ });
const dayLongFmt = new Intl.DateTimeFormat("hr-HR", { weekday: "short", day: "numeric", month: "numeric", year: "numeric", timeZone: TZ });
const hourLongFmt = new Intl.DateTimeFormat("hr-HR", { day: "numeric", month: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: TZ });

function localHour(at: Date): number {
  return Number(hourFmt.format(at));
}

/** Chart bars of the overview's series: hours as "HH", days as "d. M.", tooltips with the whole period. */
export function seriesBars(o: Overview): Bar[] {
  return o.series.map((s) => {
    const start = new Date(s.start);
    const other = Math.max(0, s.requests - s.ok - s.errors - s.refused);
    const counts = { ok: s.ok, other, errors: s.errors, refused: s.refused };
    if (o.view.bucket === "hour") {
      const h = localHour(start);
      const next = new Date(start.getTime() + 3_600_000);
      return { ...counts, hour: h, label: String(h).padStart(2, "0"), title: `${hourLongFmt.format(start)}–${hourFmt.format(next)}:00` };
    }
    return { ...counts, label: dayFmt.format(start).replace(/\.$/, "."), title: dayLongFmt.format(start) };
  });
}

const periodFmt = new Intl.DateTimeFormat("hr-HR", { day: "numeric", month: "numeric", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: TZ });

/** "od 22. 11. 2026. 17:00 do 23. 11. 2026. 16:42" */
export function periodText(o: Overview): string {
  return `od ${periodFmt.format(new Date(o.view.from))} do ${periodFmt.format(new Date(o.view.to))}`;
}
