import type { PeriodOptions } from "~/lib/days";

/** The archive export's period: both days, within the years the archive can hold. */
export const EXPORT_PERIOD: PeriodOptions = { required: true, min: "2000-01-01", max: "2099-12-31" };
