// Fiscalization 2.0 messages to the tax authority (technical specification "Fiskalizacija eRačuna i
// eIzvještavanje"): recording an issued e-invoice (EvidentirajERacunZahtjev, eFiskalizacijaSchema.xsd)
// and e-reporting its payment (EvidentirajNaplatuZahtjev) or its rejection by the buyer
// (EvidentirajOdbijanjeZahtjev, eIzvjestavanjeSchema.xsd). Each request carries a qualified `id`
// attribute (the schemas set attributeFormDefault="qualified") that its enveloped signature references.
import { escapeXml } from "../cis/xml.ts";
import { zagrebTime } from "../zagreb.ts";

export const EFIS_NS = "http://www.porezna-uprava.gov.hr/fin/2024/types/eFiskalizacija";
export const EIZV_NS = "http://www.porezna-uprava.gov.hr/fin/2024/types/eIzvjestavanje";

/** The tax authority's Fiscalization 2.0 service (specification, table 130). */
export const F2_URLS = {
  test: "https://cistest.apis-it.hr:8509/FiskalizacijaServiceEprod",
  production: "https://cis.porezna-uprava.hr:8509/FiskalizacijaService",
} as const;

/** NacinPlacanja of a payment report: T bank transfer, O set-off ("obračunsko plaćanje"), Z other. */
export type NacinPlacanjaNaplate = "T" | "O" | "Z";
/** Reason class of a rejection: N data mismatch not affecting tax, U mismatch affecting tax, O other. */
export type VrstaRazlogaOdbijanja = "N" | "U" | "O";

export interface Naplata {
  brojDokumenta: string;
  /** YYYY-MM-DD */
  datumIzdavanja: string;
  oibPorezniBrojIzdavatelja: string;
  oibPorezniBrojPrimatelja: string;
  /** YYYY-MM-DD */
  datumNaplate: string;
  /** Decimal with at most 2 places. */
  naplaceniIznos: string;
  nacinPlacanja: NacinPlacanjaNaplate;
}

export interface Odbijanje {
  brojDokumenta: string;
  datumIzdavanja: string;
  oibPorezniBrojIzdavatelja: string;
  oibPorezniBrojPrimatelja: string;
  datumOdbijanja: string;
  vrstaRazlogaOdbijanja: VrstaRazlogaOdbijanja;
  /** 1–1024 characters. */
  razlogOdbijanja: string;
}

/** datumVrijemeSlanja: "YYYY-MM-DDTHH:mm:ss.ffff" in Zagreb local time (four fraction digits, as the schema's pattern wants). */
export function f2DateTime(d: Date): string {
  const p = zagrebTime(d);
  const frac = String(d.getUTCMilliseconds()).padStart(3, "0") + "0";
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}.${frac}`;
}

export const el = (prefix: string, name: string, value: string | undefined | null): string =>
  value === undefined || value === null ? "" : `<${prefix}:${name}>${escapeXml(value)}</${prefix}:${name}>`;

/** Unsigned EvidentirajNaplatuZahtjev (1–100 payments). */
export function naplataZahtjevXml(id: string, sentAt: Date, payments: Naplata[]): string {
  const n = "eizv";
  const body = payments
    .map(
      (p) =>
        `<${n}:Naplata>${el(n, "brojDokumenta", p.brojDokumenta)}${el(n, "datumIzdavanja", p.datumIzdavanja)}` +
        `${el(n, "oibPorezniBrojIzdavatelja", p.oibPorezniBrojIzdavatelja)}${el(n, "oibPorezniBrojPrimatelja", p.oibPorezniBrojPrimatelja)}` +
        `${el(n, "datumNaplate", p.datumNaplate)}${el(n, "naplaceniIznos", p.naplaceniIznos)}${el(n, "nacinPlacanja", p.nacinPlacanja)}</${n}:Naplata>`,
    )
    .join("");
  return `<${n}:EvidentirajNaplatuZahtjev xmlns:${n}="${EIZV_NS}" ${n}:id="${escapeXml(id)}"><${n}:Zaglavlje>${el(n, "datumVrijemeSlanja", f2DateTime(sentAt))}</${n}:Zaglavlje>${body}</${n}:EvidentirajNaplatuZahtjev>`;
}

/** Unsigned EvidentirajOdbijanjeZahtjev (1–100 rejections). */
export function odbijanjeZahtjevXml(id: string, sentAt: Date, rejections: Odbijanje[]): string {
  const n = "eizv";
  const body = rejections
    .map(
      (r) =>
        `<${n}:Odbijanje>${el(n, "brojDokumenta", r.brojDokumenta)}${el(n, "datumIzdavanja", r.datumIzdavanja)}` +
        `${el(n, "oibPorezniBrojIzdavatelja", r.oibPorezniBrojIzdavatelja)}${el(n, "oibPorezniBrojPrimatelja", r.oibPorezniBrojPrimatelja)}` +
        `${el(n, "datumOdbijanja", r.datumOdbijanja)}${el(n, "vrstaRazlogaOdbijanja", r.vrstaRazlogaOdbijanja)}${el(n, "razlogOdbijanja", r.razlogOdbijanja)}</${n}:Odbijanje>`,
    )
    .join("");
  return `<${n}:EvidentirajOdbijanjeZahtjev xmlns:${n}="${EIZV_NS}" ${n}:id="${escapeXml(id)}"><${n}:Zaglavlje>${el(n, "datumVrijemeSlanja", f2DateTime(sentAt))}</${n}:Zaglavlje>${body}</${n}:EvidentirajOdbijanjeZahtjev>`;
}

/** Unsigned EvidentirajERacunZahtjev: `racuni` are ERacun elements (see eRacunFromUbl), "I" outgoing or "U" incoming. */
export function eRacunZahtjevXml(id: string, sentAt: Date, vrsta: "I" | "U", racuni: string[]): string {
  const n = "efis";
  return (
    `<${n}:EvidentirajERacunZahtjev xmlns:${n}="${EFIS_NS}" ${n}:id="${escapeXml(id)}">` +
    `<${n}:Zaglavlje>${el(n, "datumVrijemeSlanja", f2DateTime(sentAt))}${el(n, "vrstaERacuna", vrsta)}</${n}:Zaglavlje>` +
    racuni.join("") +
    `</${n}:EvidentirajERacunZahtjev>`
  );
}
