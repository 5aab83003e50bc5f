// Sending the portal's e-mail over SMTP_URL. Without SMTP_URL (a bare `next dev`) nothing is sent
// and one warning line says so; `pnpm start` and the tests always set it (the local catcher).
import { mailerFromEnv, type MailContent, type Mailer } from "@fiskal/mail";
import type { Db } from "@fiskal/db";
import { env } from "~/env";
import { logWarning } from "~/server/log";

let mailer: Mailer | null | undefined;

function current(): Mailer | null {
  if (mailer === undefined) mailer = mailerFromEnv(env().mail);
  return mailer;
}

/** Sends `content` to each address; resolves false (and logs without the content) when not sent. */
export async function sendMail(to: string | string[], content: MailContent, kind: string): Promise<boolean> {
  const m = current();
  if (!m) {
    logWarning("mail not sent: SMTP_URL is not set", { kind });
    return false;
  }
  try {
    await m.send({ to, ...content });
    return true;
  } catch (err) {
    logWarning("mail not sent", { kind, target: m.target, reason: err instanceof Error ? err.message : String(err) });
    return false;
  }
}

/** Sends to every OWNER of the account (one message each); returns how many were sent. */
export async function mailOwners(db: Db, accountId: string, content: (accountName: string) => MailContent, kind: string): Promise<number> {
  const account = await db.account.findUnique({
    where: { id: accountId },
    select: { name: true, memberships: { where: { role: "OWNER" }, select: { user: { select: { email: true } } } } },
  });
  if (!account) return 0;
  const mail = content(account.name);
  let sent = 0;
  for (const m of account.memberships) if (await sendMail(m.user.email, mail, kind)) sent++;
  return sent;
}
