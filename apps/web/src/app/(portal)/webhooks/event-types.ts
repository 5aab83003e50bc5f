// The event types an address can subscribe to, with their Croatian names. The list is the one of
// @fiskal/webhooks (EVENT_TYPES; a test checks they match), kept here because importing the package
// would bring zod into the browser, whose eval probe the Content Security Policy blocks.
export const EVENT_LABELS: Record<string, string> = {
  "rate_limit.warning": "Upozorenje o potrošnji (80 % dnevne kvote)",
  "invoice.fiscalized": "Račun naknadno fiskaliziran (dobio JIR)",
  "reporting.due": "Rok eIzvještavanja (20. u mjesecu) za 5 dana",
  "einvoice.received": "Primljen e-račun",
  "einvoice.fiscalized": "E-račun evidentiran u Poreznoj upravi (Fiskalizacija 2.0)",
  "einvoice.rejected": "Primljeni e-račun odbijen i prijavljen Poreznoj upravi",
};

export const EVENT_CHOICES = Object.keys(EVENT_LABELS);
