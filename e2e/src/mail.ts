// Reads the e-mail the stack sent, from the SMTP catcher that global setup started (GET /messages).
type CaughtMail = {
  subject: string;
  from: string;
  to: string;
  text: string;
  html: string | null;
  envelope: { from: string; to: string[] };
  receivedAt: string;
};

function mailUrl(): string {
  const url = process.env.FISKAL_E2E_MAIL_URL;
  if (!url) throw new Error("FISKAL_E2E_MAIL_URL is not set (global setup starts the SMTP catcher)");
  return url;
}

/** Every message sent to `to` so far, oldest first. */
export async function mailTo(to: string): Promise<CaughtMail[]> {
  const res = await fetch(`${mailUrl()}/messages?to=${encodeURIComponent(to)}`);
  if (!res.ok) throw new Error(`catcher answered ${res.status}`);
  return (await res.json()) as CaughtMail[];
}

/** Waits for the first message to `to` whose subject matches, polling the catcher. */
export async function waitForMail(to: string, subject: RegExp, timeoutMs = 15_000): Promise<CaughtMail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailTo(to)).find((m) => subject.test(m.subject));
    if (found) return found;
    if (Date.now() > until) throw new Error(`no e-mail to ${to} with a subject matching ${subject} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
