// Croatian texts of every e-mail the portal sends: a subject, a plain-text body and the same in HTML.
import { croatianDateTime } from "@fiskal/fiscal/zagreb";

export type MailContent = { subject: string; text: string; html: string };

export type Role = "OWNER" | "DEVELOPER" | "ACCOUNTANT";

export const ROLE_NAMES: Record<Role, string> = {
  OWNER: "vlasnik",
  DEVELOPER: "programer",
  ACCOUNTANT: "računovođa",
};

const number = new Intl.NumberFormat("hr-HR");

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Paragraphs of plain text; a link (if any) follows as its own line and as a button in HTML. */
function compose(subject: string, paragraphs: string[], link?: { label: string; url: string }): MailContent {
  const closing = "Fiskal";
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.url}`] : []), "", `— ${closing}`].join("\n\n").replace(/\n\n\n\n/g, "\n\n");
  const html = [
    `<!doctype html><html lang="hr"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    `<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2933">`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`] : []),
    `<p>— ${closing}</p></body></html>`,
  ].join("\n");
  return { subject, text, html };
}

export function invitationMail(input: { accountName: string; invitedBy: string; role: Role; url: string; expiresAt: Date }): MailContent {
  return compose(
    `Poziv u tim tvrtke ${input.accountName} na Fiskalu`,
    [
      "Poštovani,",
      `${input.invitedBy} poziva vas da se pridružite timu tvrtke ${input.accountName} na Fiskalu s ulogom: ${ROLE_NAMES[input.role]}.`,
      `Poziv vrijedi do ${croatianDateTime(input.expiresAt)}. Ako poziv niste očekivali, zanemarite ovu poruku.`,
    ],
    { label: "Prihvati poziv", url: input.url },
  );
}

export function planApprovedMail(input: { accountName: string; plan: string; portalUrl: string }): MailContent {
  return compose(
    `Odobren je paket ${input.plan}`,
    [
      "Poštovani,",
      `zahtjev tvrtke ${input.accountName} za prelazak na paket ${input.plan} je odobren. Nove kvote vrijede odmah za sve API ključeve.`,
    ],
    { label: "Pregled paketa", url: `${input.portalUrl.replace(/\/$/, "")}/plan` },
  );
}

export function rateLimitWarningMail(input: {
  accountName: string;
  used: number;
  limit: number;
  threshold: number;
  resetsAt: Date;
  portalUrl: string;
}): MailContent {
  const percent = Math.round(input.threshold * 100);
  return compose(
    `Potrošeno je ${percent} % dnevne kvote`,
    [
      "Poštovani,",
      `tvrtka ${input.accountName} danas je iskoristila ${number.format(input.used)} od ${number.format(input.limit)} zahtjeva dnevne kvote (${percent} % ili više).`,
      `Kvota se obnavlja ${croatianDateTime(input.resetsAt)}. Kad se potroši, API odgovara statusom 429 do obnove. Veći paket možete zatražiti u portalu.`,
    ],
    { label: "Pregled potrošnje", url: `${input.portalUrl.replace(/\/$/, "")}/dashboard` },
  );
}

export function newDeviceSignInMail(input: { at: Date; ip: string; device: string; sessionsUrl: string }): MailContent {
  return compose(
    "Nova prijava na Fiskal s novog uređaja",
    [
      "Poštovani,",
      `${croatianDateTime(input.at)} netko se prijavio na vaš račun s uređaja koji dosad nismo vidjeli: ${input.device} (adresa ${input.ip}).`,
      "Ako ste to bili vi, ne trebate ništa poduzeti. Ako niste, odmah završite tu sesiju i promijenite lozinku.",
    ],
    { label: "Pregled sesija", url: input.sessionsUrl },
  );
}

export function signupExistingAccountMail(input: { email: string; loginUrl: string }): MailContent {
  return compose(
    "Pokušaj registracije s vašom adresom",
    [
      "Poštovani,",
      `netko je pokušao otvoriti novi račun na Fiskalu s adresom ${input.email}, no za nju račun već postoji. Novi račun nije otvoren.`,
      "Ako ste to bili vi, prijavite se postojećim računom. Ako niste, ne trebate ništa poduzeti.",
    ],
    { label: "Prijava", url: input.loginUrl },
  );
}
