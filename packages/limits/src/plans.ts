/**
 * Plans and the limits an operator may grant: the one home of the plan names, the standard plan
 * limits, the dedicated endpoint limits and the bounds of custom (Enterprise) limits. Pure data and
 * zod, no store client, so the portal's browser code may import it (`@fiskal/limits/plans`).
 */
import { z } from "zod";

/** Every plan, cheapest first. The Prisma enum `Plan` (packages/db/prisma/schema.prisma) must equal it; a test checks. */
export const PLAN_NAMES = ["SANDBOX", "STARTER", "BUSINESS", "ENTERPRISE"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** Plans a customer may ask for by themselves (Enterprise is a contract, asked for by message). */
export const SELF_SERVICE_PLANS = ["STARTER", "BUSINESS"] as const satisfies readonly PlanName[];

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === "string" && (PLAN_NAMES as readonly string[]).includes(value);
}

/** True when `requested` is a higher plan than `current`. */
export function isUpgrade(current: PlanName, requested: PlanName): boolean {
  return PLAN_NAMES.indexOf(requested) > PLAN_NAMES.indexOf(current);
}

export type EndpointGroup = "fiscalize" | "einvoice" | "kpd" | "oib";

export interface Limits {
  /** requests per second (sliding 1 s) */
  burst: number;
  /** requests per minute (sliding 60 s) */
  perMinute: number;
  /** requests per calendar day, UTC */
  perDay: number;
  /** Per-minute overrides of the dedicated endpoint limits (Enterprise contracts); absent groups keep ENDPOINT_LIMITS. */
  endpoints?: Partial<Record<EndpointGroup, number>>;
}

export const PLANS = {
  SANDBOX: { burst: 10, perMinute: 60, perDay: 10_000 },
  STARTER: { burst: 20, perMinute: 120, perDay: 50_000 },
  BUSINESS: { burst: 50, perMinute: 300, perDay: 200_000 },
} as const satisfies Record<Exclude<PlanName, "ENTERPRISE">, Limits>;

/** Dedicated per-minute limits, shared by every endpoint of a group. */
export const ENDPOINT_LIMITS = {
  fiscalize: { perMinute: 30, label: "POST /v1/invoices/fiscalize" },
  einvoice: { perMinute: 60, label: "POST /v1/einvoices/send" },
  kpd: { perMinute: 300, label: "GET /v1/kpd/*" },
  oib: { perMinute: 300, label: "POST /v1/validate/oib*" },
} as const satisfies Record<EndpointGroup, { perMinute: number; label: string }>;

export const ENDPOINT_GROUPS = Object.keys(ENDPOINT_LIMITS) as EndpointGroup[];

/**
 * The largest limit of a rolling window (burst, per minute, endpoint). Up to 100,000 a window keeps
 * the time of every request it counts (13 bytes each); above, counts per 1/100 of the window.
 */
export const MAX_ROLLING_LIMIT = 10_000_000;
/** The largest daily limit (a plain counter; also well inside the database's 32-bit integer column). */
export const MAX_DAY_LIMIT = 1_000_000_000;

type Lang = "hr" | "en";

const FIELD_HR: Record<"burst" | "perMinute" | "perDay" | EndpointGroup, string> = {
  burst: "U sekundi",
  perMinute: "U minuti",
  perDay: "Dnevno",
  fiscalize: "Ograničenje endpointa fiscalize (u minuti)",
  einvoice: "Ograničenje endpointa einvoice (u minuti)",
  kpd: "Ograničenje endpointa kpd (u minuti)",
  oib: "Ograničenje endpointa oib (u minuti)",
};

export const LIMITS_ORDER_MESSAGE = "Ograničenja moraju rasti: u sekundi ≤ u minuti ≤ dnevno.";

function limit(field: keyof typeof FIELD_HR, max: number, lang: Lang) {
  // Croatian for the portal (its messages are shown as they are); English for the CLI and the
  // database layer, where describeLimitIssues() puts the field's path in front.
  const msg = lang === "hr" ? `${FIELD_HR[field]}: unesite cijeli broj od 1 do ${max.toLocaleString("hr-HR")}.` : `must be an integer from 1 to ${max}`;
  return z.number({ error: msg }).int({ error: msg }).min(1, { error: msg }).max(max, { error: msg });
}

/**
 * The one definition of custom (Enterprise) limits: positive integers, rolling windows (burst, per
 * minute, endpoint overrides) up to MAX_ROLLING_LIMIT, the day up to MAX_DAY_LIMIT, endpoint
 * overrides only for known groups, and — with `ordered` — burst ≤ per minute ≤ per day.
 *
 * The limiter itself runs any limits within the bounds (a burst above the minute limit simply never
 * binds; tests use that to isolate one window), so the database accepts those. What an operator may
 * grant (CLI, portal admin) is ordered: a burst above the minute limit promises what the minute
 * window never allows.
 */
export function customLimitsSchema(lang: Lang, opts: { ordered: boolean }) {
  const unknownGroup = lang === "hr" ? "Nepoznata skupina endpointa." : `has a key that is not an endpoint group (${Object.keys(ENDPOINT_LIMITS).join(", ")})`;
  const shape = z.strictObject({
    burst: limit("burst", MAX_ROLLING_LIMIT, lang),
    perMinute: limit("perMinute", MAX_ROLLING_LIMIT, lang),
    perDay: limit("perDay", MAX_DAY_LIMIT, lang),
    /** Per-minute overrides of the dedicated endpoint limits; absent groups keep the standard limit. */
    endpoints: z
      .strictObject(
        {
          fiscalize: limit("fiscalize", MAX_ROLLING_LIMIT, lang).optional(),
          einvoice: limit("einvoice", MAX_ROLLING_LIMIT, lang).optional(),
          kpd: limit("kpd", MAX_ROLLING_LIMIT, lang).optional(),
          oib: limit("oib", MAX_ROLLING_LIMIT, lang).optional(),
        } satisfies Record<EndpointGroup, z.ZodType>,
        { error: unknownGroup },
      )
      .optional(),
  });
  if (!opts.ordered) return shape;
  return shape.superRefine((c, ctx) => {
    const message = (larger: string) => (lang === "hr" ? LIMITS_ORDER_MESSAGE : `must not exceed ${larger} (burst ≤ perMinute ≤ perDay)`);
    if (c.burst > c.perMinute) ctx.addIssue({ code: "custom", path: ["burst"], message: message("perMinute") });
    else if (c.perMinute > c.perDay) ctx.addIssue({ code: "custom", path: ["perMinute"], message: message("perDay") });
  });
}

/** What the database stores and an account is judged by: the bounds, English messages. */
export const CustomLimitsBounds = customLimitsSchema("en", { ordered: false });
/** What an operator may grant from the CLI: the bounds and burst ≤ per minute ≤ per day, English messages. */
export const CustomLimits = customLimitsSchema("en", { ordered: true });
/** The same rule for the portal's admin area, in Croatian. */
export const CustomLimitsHr = customLimitsSchema("hr", { ordered: true });
export type CustomLimits = z.infer<typeof CustomLimitsBounds>;

/** One line per problem, `custom.perMinute must be …`, for CLI output and thrown errors. */
export function describeLimitIssues(error: z.ZodError, root = "custom"): string {
  return error.issues.map((i) => `${[root, ...i.path.map(String)].join(".")} ${i.message}`).join("; ");
}
