// rate_limit.warning by e-mail besides the webhook: each OWNER of the account gets the Croatian
// message once per warning (the detector calls this only from the process that recorded it).
import type { Db } from "@fiskal/db";
import { rateLimitWarningMail, type Mailer } from "@fiskal/mail";
import type { RateLimitWarningData } from "@fiskal/webhooks";
import type { Logger } from "pino";

export function warningMailer(db: Db, mailer: Mailer, portalUrl: string, log: Logger) {
  return async (accountId: string, data: RateLimitWarningData): Promise<void> => {
    const account = await db.account.findUnique({
      where: { id: accountId },
      select: { name: true, memberships: { where: { role: "OWNER" }, select: { user: { select: { email: true } } } } },
    });
    if (!account) return;
    const mail = rateLimitWarningMail({
      accountName: account.name,
      used: data.used,
      limit: data.limit,
      threshold: data.threshold,
      resetsAt: new Date(data.resets_at),
      portalUrl,
    });
    for (const m of account.memberships) {
      // A failed send is logged and not retried: the webhook and the dashboard carry the same warning.
      await mailer.send({ to: m.user.email, ...mail }).catch((err: unknown) => log.warn({ err, accountId, target: mailer.target }, "rate_limit.warning e-mail not sent"));
    }
  };
}
