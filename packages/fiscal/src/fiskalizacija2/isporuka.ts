// Fiscalization Act art. 51: a supply for which no e-invoice was issued is reported to the tax
// authority (EvidentirajIsporukuZaKojuNijeIzdanERacunZahtjev, eIzvjestavanjeSchema.xsd): the invoice
// as issued another way (paper, PDF), with its header, parties, totals, VAT breakdown and lines.
// Elements in the order of the schema's sequences (Racun, DokumentUkupanIznos, RaspodjelaPdv,
// StavkaRacuna); optional ones left out when absent.
import { escapeXml } from "../cis/xml.ts";
import { EIZV_NS, el, f2DateTime } from "./messages.ts";

interface IsporukaRaspodjelaPdv {
  /** S, O, E, AE, Z, K, G, L, M */
  kategorijaPdv: string;
  oporeziviIznos: string;
  iznosPoreza: string;
  stopa?: string;
  razlogOslobodenja?: string;
  tekstRazlogaOslobodenja?: string;
}

interface IsporukaStavka {
  kolicina: string;
  /** UN/ECE rec. 20/21, e.g. H87 */
  jedinicaMjere: string;
  neto: string;
  artiklNetoCijena: string;
  artiklKategorijaPdv: string;
  artiklStopaPdv?: string;
  artiklNaziv: string;
  artiklOpis?: string;
  /** KPD 2025 code (identifikatorSheme "CG"). */
  kpd?: string;
}

export interface Isporuka {
  brojDokumenta: string;
  /** YYYY-MM-DD, from 2026-01-01 */
  datumIzdavanja: string;
  /** UNTDID 1001, e.g. 380 */
  vrstaDokumenta: string;
  valutaRacuna: string;
  datumDospijecaPlacanja?: string;
  vrstaPoslovnogProcesa: string;
  datumIsporuke?: string;
  prethodniRacuni?: { brojDokumenta: string; datumIzdavanja: string }[];
  izdavatelj: { ime: string; oibPorezniBroj: string; oibOperatera: string };
  primatelj: { ime: string; oibPorezniBroj: string };
  iban?: string;
  ukupno: { neto: string; iznosBezPdv: string; pdv: string; iznosSPdv: string; placeniIznos?: string; iznosKojiDospijevaZaPlacanje: string };
  raspodjelaPdv: IsporukaRaspodjelaPdv[];
  stavke: IsporukaStavka[];
  indikatorKopije: boolean;
}

const n = "eizv";
const wrap = (name: string, inner: string) => `<${n}:${name}>${inner}</${n}:${name}>`;
const e = (name: string, value: string | undefined) => el(n, name, value);

function racun(r: Isporuka): string {
  return wrap(
    "Racun",
    e("brojDokumenta", r.brojDokumenta) +
      e("datumIzdavanja", r.datumIzdavanja) +
      e("vrstaDokumenta", r.vrstaDokumenta) +
      e("valutaRacuna", r.valutaRacuna) +
      e("datumDospijecaPlacanja", r.datumDospijecaPlacanja) +
      e("vrstaPoslovnogProcesa", r.vrstaPoslovnogProcesa) +
      e("datumIsporuke", r.datumIsporuke) +
      (r.prethodniRacuni ?? []).map((p) => wrap("PrethodniRacun", e("brojDokumenta", p.brojDokumenta) + e("datumIzdavanja", p.datumIzdavanja))).join("") +
      wrap("Izdavatelj", e("ime", r.izdavatelj.ime) + e("oibPorezniBroj", r.izdavatelj.oibPorezniBroj) + e("oibOperatera", r.izdavatelj.oibOperatera)) +
      wrap("Primatelj", e("ime", r.primatelj.ime) + e("oibPorezniBroj", r.primatelj.oibPorezniBroj)) +
      (r.iban ? wrap("PrijenosSredstava", e("identifikatorRacunaZaPlacanje", r.iban)) : "") +
      wrap(
        "DokumentUkupanIznos",
        e("neto", r.ukupno.neto) +
          e("iznosBezPdv", r.ukupno.iznosBezPdv) +
          e("pdv", r.ukupno.pdv) +
          e("iznosSPdv", r.ukupno.iznosSPdv) +
          e("placeniIznos", r.ukupno.placeniIznos) +
          e("iznosKojiDospijevaZaPlacanje", r.ukupno.iznosKojiDospijevaZaPlacanje),
      ) +
      r.raspodjelaPdv
        .map((v) =>
          wrap(
            "RaspodjelaPdv",
            e("kategorijaPdv", v.kategorijaPdv) +
              e("oporeziviIznos", v.oporeziviIznos) +
              e("iznosPoreza", v.iznosPoreza) +
              e("stopa", v.stopa) +
              e("razlogOslobodenja", v.razlogOslobodenja) +
              e("tekstRazlogaOslobodenja", v.tekstRazlogaOslobodenja),
          ),
        )
        .join("") +
      r.stavke
        .map((s) =>
          wrap(
            "StavkaRacuna",
            e("kolicina", s.kolicina) +
              e("jedinicaMjere", s.jedinicaMjere) +
              e("neto", s.neto) +
              e("artiklNetoCijena", s.artiklNetoCijena) +
              e("artiklKategorijaPdv", s.artiklKategorijaPdv) +
              e("artiklStopaPdv", s.artiklStopaPdv) +
              e("artiklNaziv", s.artiklNaziv) +
              e("artiklOpis", s.artiklOpis) +
              (s.kpd ? wrap("ArtiklIdentifikatorKlasifikacija", e("identifikatorKlasifikacije", s.kpd) + e("identifikatorSheme", "CG")) : ""),
          ),
        )
        .join("") +
      e("indikatorKopije", String(r.indikatorKopije)),
  );
}

/** Unsigned EvidentirajIsporukuZaKojuNijeIzdanERacunZahtjev (1–100 invoices). */
export function isporukaZahtjevXml(id: string, sentAt: Date, racuni: Isporuka[]): string {
  if (racuni.length < 1 || racuni.length > 100) throw new Error("a supply report holds 1 to 100 invoices");
  return (
    `<${n}:EvidentirajIsporukuZaKojuNijeIzdanERacunZahtjev xmlns:${n}="${EIZV_NS}" ${n}:id="${escapeXml(id)}">` +
    wrap("Zaglavlje", e("datumVrijemeSlanja", f2DateTime(sentAt)) + e("vrstaRacuna", "IR")) +
    racuni.map(racun).join("") +
    `</${n}:EvidentirajIsporukuZaKojuNijeIzdanERacunZahtjev>`
  );
}
