import { addressOf, buildMessage } from "./mime.ts";
import { parseSmtpUrl, sendSmtp, type SmtpTarget } from "./smtp.ts";

export type MailInput = {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
};

export type Mailer = {
  /** Sends over SMTP; rejects with SmtpError when the server refuses or cannot be reached. */
  send(mail: MailInput): Promise<{ response: string }>;
  /** Where mail goes, without the password (for logs and the start banner). */
  readonly target: string;
};

const DEFAULT_FROM = "Fiskal <noreply@fiskal.local>";

/** `url`: SMTP_URL (smtp://user:pass@host:port, smtps://…). `from`: MAIL_FROM, "Name <address>" or an address. */
export function createMailer(options: { url: string; from?: string }): Mailer {
  const target: SmtpTarget = parseSmtpUrl(options.url);
  const from = options.from?.trim() || DEFAULT_FROM;
  return {
    target: `${target.secure ? "smtps" : "smtp"}://${target.host}:${target.port}`,
    async send(mail) {
      const to = (Array.isArray(mail.to) ? mail.to : [mail.to]).map((t) => t.trim()).filter(Boolean);
      if (to.length === 0) throw new Error("mail has no recipient");
      for (const t of to) if (/[\r\n<>]/.test(addressOf(t)) || !addressOf(t).includes("@")) throw new Error("invalid recipient address");
      if (/[\r\n]/.test(mail.subject)) throw new Error("subject must be one line");
      const message = buildMessage({ from, to, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) });
      return sendSmtp(target, { from: addressOf(from), to: to.map(addressOf) }, message);
    },
  };
}

/**
 * The mailer of this process from SMTP_URL and MAIL_FROM, or null when SMTP_URL is not set (then
 * callers log that no mail was sent; `pnpm start` and the tests always set it, to the catcher).
 */
export function mailerFromEnv(env: { SMTP_URL?: string; MAIL_FROM?: string }): Mailer | null {
  const url = env.SMTP_URL?.trim();
  if (!url) return null;
  return createMailer({ url, ...(env.MAIL_FROM ? { from: env.MAIL_FROM } : {}) });
}
