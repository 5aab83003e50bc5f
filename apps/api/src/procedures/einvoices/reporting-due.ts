// The monthly eIzvještavanje deadline: payments and rejections of a month's e-invoices are reported
// by the 20th of the following month. From the 15th (5 days before) to the 20th, an account whose
// previous month still has delivered e-invoices with neither a payment nor a rejection reported gets
// one `reporting.due` event — the webhook, and the notice the portal shows — once per month: the
// event's dedupe key "reporting.due:<YYYY-MM>" is unique per account across every API instance.
import { zagrebDate } from "@fiskal/fiscal";
import type { Db } from "@fiskal/db";
import type { ReportingDueData, Webhooks } from "@fiskal/webhooks";
import { periodicJob, type PeriodicJob } from "../../periodic.ts";

const REPORTING_DEADLINE_DAY = 20;
const WARNING_DAYS = 5;


export interface DuePeriod {
  /** "YYYY-MM": the month being reported. */
  period: string;
  /** "YYYY-MM-DD": its deadline, the 20th of the next month. */
  deadline: string;
}

/** The month whose deadline is within the warning days of `now` (Zagreb), or null outside them. */
export function duePeriod(now: Date): DuePeriod | null {
  const [y, m, d] = zagrebDate(now).split("-").map(Number) as [number, number, number];
  if (d < REPORTING_DEADLINE_DAY - WARNING_DAYS || d > REPORTING_DEADLINE_DAY) return null;
  const prevYear = m === 1 ? y - 1 : y;
  const prevMonth = m === 1 ? 12 : m - 1;
  return { period: `${prevYear}-${String(prevMonth).padStart(2, "0")}`, deadline: `${y}-${String(m).padStart(2, "0")}-${REPORTING_DEADLINE_DAY}` };
}

const dedupeKey = (period: string) => `reporting.due:${period}`;

interface Unreported {
  accountId: string;
  id: string;
  number: string;
  issueDate: string;
}

/** Delivered e-invoices issued in `period` without a payment or rejection report, per account (all accounts, or one). */
async function unreported(db: Db, period: string, accountId?: string): Promise<Map<string, Unreported[]>> {
  const rows = await db.$queryRaw<Unreported[]>`
    SELECT e."accountId", e.id, e.number, e."issueDate" FROM "EInvoice" e
    WHERE e.status IN ('accepted', 'queued') AND e."issueDate" LIKE ${period + "-%"}
      AND (${accountId ?? null}::uuid IS NULL OR e."accountId" = ${accountId ?? null}::uuid)
      AND NOT EXISTS (SELECT 1 FROM "EInvoiceReport" r WHERE r."eInvoiceId" = e.id AND r.status IN ('pending', 'recorded', 'unknown'))
      AND NOT EXISTS (SELECT 1 FROM "WebhookEvent" w WHERE w."accountId" = e."accountId" AND w."dedupeKey" = ${dedupeKey(period)})
    ORDER BY e."accountId", e."issueDate", e."createdAt"`;
  const byAccount = new Map<string, Unreported[]>();
  for (const row of rows) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);
  return byAccount;
}

/** One pass: emits `reporting.due` for every account that needs it now; resolves to the events recorded. */
export async function warnReportingDue(db: Db, webhooks: Pick<Webhooks, "emit">, now: Date, scope: { accountId?: string } = {}): Promise<number> {
  const due = duePeriod(now);
  if (!due) return 0;
  let recorded = 0;
  for (const [accountId, list] of await unreported(db, due.period, scope.accountId)) {
    const data: ReportingDueData = {
      account_id: accountId,
      period: due.period,
      deadline: due.deadline,
      unreported_einvoices: list.length,
      examples: list.slice(0, 20).map((e) => ({ id: e.id, number: e.number, issue_date: e.issueDate })),
    };
    if (await webhooks.emit(accountId, "reporting.due", data, dedupeKey(due.period))) recorded++;
  }
  return recorded;
}

/** The notice of the current warning days for one account: the event recorded for it, if any. */
export async function reportingNotice(db: Db, accountId: string, now: Date = new Date()): Promise<(ReportingDueData & { recorded_at: string }) | null> {
  const due = duePeriod(now);
  if (!due) return null;
  const event = await db.webhookEvent.findUnique({ where: { accountId_dedupeKey: { accountId, dedupeKey: dedupeKey(due.period) } } });
  if (!event) return null;
  return { ...((event.payload as { data: ReportingDueData }).data), recorded_at: event.createdAt.toISOString() };
}

/** Runs the pass every `intervalMs` (hourly by default) in each API process. */
export function createReportingDueJob(opts: { db: Db; webhooks: Pick<Webhooks, "emit">; now?: () => Date; intervalMs?: number }): PeriodicJob {
  return periodicJob((scope) => warnReportingDue(opts.db, opts.webhooks, opts.now?.() ?? new Date(), scope), opts.intervalMs ?? 3_600_000);
}
