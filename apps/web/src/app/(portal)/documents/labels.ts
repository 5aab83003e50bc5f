// Croatian names of the document states shown on the Dokumenti page.
export const STATUS_LABELS: Record<string, string> = {
  fiscalized: "Fiskaliziran (JIR)",
  pending: "Čeka odgovor",
  accepted: "Isporučen",
  queued: "U redu za isporuku",
  rejected: "Odbijen (posrednik)",
};

export const FISCALIZATION_LABELS: Record<string, string> = {
  fiscalized: "Fiskaliziran",
  pending: "Čeka evidentiranje",
  recorded: "Evidentiran",
  refused: "Odbijen (Porezna uprava)",
  not_delivered: "Nije isporučen",
};

export const label = (table: Record<string, string>, key: string | null | undefined) => (key ? (table[key] ?? key) : "—");

/** Received e-invoices: the recipient's decision. */
export const RECEIVED_STATUS_LABELS: Record<string, string> = {
  received: "Čeka odluku",
  accepted: "Prihvaćen",
  rejected: "Odbijen",
};

export const VALIDATION_LABELS: Record<string, string> = {
  valid: "Ispravan",
  invalid: "Neispravan",
};

/** Fiscalization 2.0 of a received e-invoice (type U); an invalid document is not recorded. */
export const RECEIVED_FISCALIZATION_LABELS: Record<string, string> = {
  pending: "Čeka evidentiranje",
  recorded: "Evidentiran (U)",
  refused: "Odbijen (Porezna uprava)",
  not_fiscalized: "Ne evidentira se (neispravan dokument)",
};

/** The rejection's report to the tax authority (eIzvještavanje, art. 52). */
export const REPORT_LABELS: Record<string, string> = {
  pending: "Šalje se Poreznoj upravi",
  recorded: "Zaprimljeno u Poreznoj upravi",
  refused: "Porezna uprava nije prihvatila prijavu",
  unknown: "Ishod prijave nije poznat",
};

/** Reason types of a rejection (VrstaRazlogaOdbijanja, eIzvjestavanjeSchema.xsd). */
export const REJECTION_REASONS: { value: "N" | "U" | "O"; label: string }[] = [
  { value: "N", label: "N — neusklađenost podataka koji ne utječu na obračun poreza" },
  { value: "U", label: "U — neusklađenost podataka koji utječu na obračun poreza" },
  { value: "O", label: "O — ostalo" },
];

/** The three lists of the Dokumenti page. */
export const KINDS = [
  { value: "einvoices", label: "Izdani e-računi" },
  { value: "received", label: "Primljeni e-računi" },
  { value: "receipts", label: "Računi (fiskalizacija)" },
] as const;
export type Kind = (typeof KINDS)[number]["value"];
