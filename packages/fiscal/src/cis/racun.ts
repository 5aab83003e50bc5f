// The receipt as CIS receives it: a field-by-field mirror of `RacunType` in the tax authority's
// FiskalizacijaSchema.xsd (namespace http://www.apis-it.hr/fin/2012/types/f73, schema v1.3).
// Element order, optionality and formats follow the schema; `buildRacunZahtjev` (./xml.ts) writes
// exactly these fields, in this order, and nothing else.
//
// Formats the schema imposes (checked by `racunProblems`):
// - amounts (IznosType): `[+-]?\d{1,15}\.\d{2}` — always two decimals, a storno carries negative amounts
// - rates (StopaType): `[+-]?\d{1,3}\.\d{2}` — e.g. "25.00"
// - OIB: 11 digits
// - DatVrijeme: "dd.MM.yyyyTHH:mm:ss" in Europe/Zagreb local time

import { formatCisDateTime } from "../zagreb.ts";

/** DatVrijeme / DatumVrijeme of a CIS message: "dd.MM.yyyyTHH:mm:ss" in Europe/Zagreb local time. */
export function cisXmlDateTime(d: Date): string {
  return formatCisDateTime(d).replace(" ", "T");
}

/** The payment methods RacunType accepts (NacinPlacanjaType). "C" (cheque) was withdrawn by CIS. */
export type NacinPlacanja = "G" | "K" | "T" | "O";
export const NACINI_PLACANJA: readonly NacinPlacanja[] = ["G", "K", "T", "O"];

/** OznakaSlijednostiType: how receipt numbers are assigned — "P" per business premises, "N" per device. */
export type OznakaSlijednosti = "P" | "N";

/** BrojRacunaType: the receipt number as printed, "BrOznRac/OznPosPr/OznNapUr". */
export interface BrojRacuna {
  /** Brojčana oznaka računa: the sequential number, 1–20 digits. */
  BrOznRac: string;
  /** Oznaka poslovnog prostora: premises label as registered, 1–20 letters or digits. */
  OznPosPr: string;
  /** Oznaka naplatnog uređaja: device label, 1–20 digits. */
  OznNapUr: string;
}

/** PorezType: one tax rate line (used by Pdv and Pnp). */
export interface Porez {
  /** Stopa: rate in percent with two decimals, e.g. "25.00". */
  Stopa: string;
  /** Osnovica: taxable base, e.g. "100.00" (negative on a storno). */
  Osnovica: string;
  /** Iznos: tax amount, e.g. "25.00" (negative on a storno). */
  Iznos: string;
}

/** PorezOstaloType: another tax (e.g. luxury tax), named. */
export interface PorezOstalo extends Porez {
  /** Naziv: name of the tax, 1–100 characters. */
  Naziv: string;
}

/** NaknadaType: a fee shown on the receipt, e.g. the deposit on packaging ("povratna naknada"). */
export interface Naknada {
  /** NazivN: name of the fee, 1–100 characters. */
  NazivN: string;
  /** IznosN: amount of the fee. */
  IznosN: string;
}

/** RacunType of FiskalizacijaSchema.xsd, in schema order. */
export interface RacunType {
  /** Oib: OIB of the person liable for fiscalization (the issuer); must match the certificate's OIB. */
  Oib: string;
  /** USustPdv: whether the issuer is in the VAT system. */
  USustPdv: boolean;
  /** DatVrijeme: issue date and time as printed on the receipt ("dd.MM.yyyyTHH:mm:ss", Zagreb time). */
  DatVrijeme: string;
  /** OznSlijed: numbering sequence per premises ("P") or per device ("N"). */
  OznSlijed: OznakaSlijednosti;
  /** BrRac: the receipt number. */
  BrRac: BrojRacuna;
  /** Pdv: VAT breakdown, one line per rate (at least one line when present). */
  Pdv?: Porez[];
  /** Pnp: consumption tax (porez na potrošnju) breakdown, one line per rate. */
  Pnp?: Porez[];
  /** OstaliPor: other taxes besides VAT and consumption tax. */
  OstaliPor?: PorezOstalo[];
  /** IznosOslobPdv: total of VAT-exempt supplies on the receipt. */
  IznosOslobPdv?: string;
  /** IznosMarza: amount under the special margin scheme (VAT Act art. 22.a… used goods, art, antiques). */
  IznosMarza?: string;
  /** IznosNePodlOpor: amount not subject to taxation. */
  IznosNePodlOpor?: string;
  /** Naknade: fees such as the packaging deposit. */
  Naknade?: Naknada[];
  /** IznosUkupno: total amount of the receipt (negative on a storno). */
  IznosUkupno: string;
  /** NacinPlac: G cash, K cards, T bank transfer, O other (also for several methods on one receipt). */
  NacinPlac: NacinPlacanja;
  /** OibOper: OIB of the operator at the device who issues the receipt (mandatory). */
  OibOper: string;
  /** ZastKod: the ZKI, 32 lowercase hex characters. */
  ZastKod: string;
  /** NakDost: late delivery — true when the receipt was issued to the buyer without a JIR and is delivered afterwards. */
  NakDost: boolean;
  /** ParagonBrRac: number of the paper (paragon) receipt that this message re-enters after a device failure, 1–100 characters. */
  ParagonBrRac?: string;
  /** SpecNamj: "specific purpose", reserved by CIS for data not foreseen by the schema, 1–1000 characters. */
  SpecNamj?: string;
  /** OibPrimateljaRacuna: OIB of the receipt's recipient, sent only for B2B exchange. */
  OibPrimateljaRacuna?: string;
}

/** Regular expressions of the schema's simple types. */
export const RACUN_PATTERNS = {
  iznos: /^[+-]?[0-9]{1,15}\.[0-9]{2}$/,
  stopa: /^[+-]?[0-9]{1,3}\.[0-9]{2}$/,
  oib: /^\d{11}$/,
  datVrijeme: /^[0-9]{2}\.[0-9]{2}\.[1-2][0-9]{3}T[0-9]{2}:[0-9]{2}:[0-9]{2}$/,
  brOznRac: /^\d{1,20}$/,
  oznPosPr: /^[0-9a-zA-Z]{1,20}$/,
  oznNapUr: /^\d{1,20}$/,
  zastKod: /^[a-f0-9]{32}$/,
  uuid: /^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/,
} as const;

/** A field of a RacunType that breaks the schema, as a path ("Pdv[0].Stopa") and a message. */
export interface RacunProblem {
  path: string;
  message: string;
}

/**
 * Everything in `r` that the official schema would refuse, before anything is signed or sent.
 * An empty list means the RacunType serialises to a schema-valid `Racun` element.
 */
export function racunProblems(r: RacunType): RacunProblem[] {
  const out: RacunProblem[] = [];
  const P = RACUN_PATTERNS;
  const need = (ok: boolean, path: string, message: string) => {
    if (!ok) out.push({ path, message });
  };
  const str = (v: unknown): v is string => typeof v === "string";
  const amount = (v: unknown, path: string) =>
    need(str(v) && P.iznos.test(v), path, "must be an amount with exactly 2 decimals and at most 15 digits before the point");
  const text = (v: unknown, path: string, max: number) =>
    need(str(v) && v.length >= 1 && v.length <= max, path, `must be 1–${max} characters`);
  const taxes = (list: Porez[] | undefined, path: string, named: boolean) => {
    if (list === undefined) return;
    need(Array.isArray(list) && list.length > 0, path, "must list at least one rate when present");
    if (!Array.isArray(list)) return;
    list.forEach((p, i) => {
      if (named) text((p as PorezOstalo).Naziv, `${path}[${i}].Naziv`, 100);
      need(str(p.Stopa) && P.stopa.test(p.Stopa), `${path}[${i}].Stopa`, "must be a rate with exactly 2 decimals, e.g. 25.00");
      amount(p.Osnovica, `${path}[${i}].Osnovica`);
      amount(p.Iznos, `${path}[${i}].Iznos`);
    });
  };

  need(str(r.Oib) && P.oib.test(r.Oib), "Oib", "must be 11 digits");
  need(typeof r.USustPdv === "boolean", "USustPdv", "must be true or false");
  need(str(r.DatVrijeme) && P.datVrijeme.test(r.DatVrijeme), "DatVrijeme", "must be dd.MM.yyyyTHH:mm:ss");
  need(r.OznSlijed === "P" || r.OznSlijed === "N", "OznSlijed", "must be P (per premises) or N (per device)");
  const b = r.BrRac ?? ({} as BrojRacuna);
  need(str(b.BrOznRac) && P.brOznRac.test(b.BrOznRac), "BrRac.BrOznRac", "must be 1–20 digits");
  need(str(b.OznPosPr) && P.oznPosPr.test(b.OznPosPr), "BrRac.OznPosPr", "must be 1–20 letters or digits");
  need(str(b.OznNapUr) && P.oznNapUr.test(b.OznNapUr), "BrRac.OznNapUr", "must be 1–20 digits");
  taxes(r.Pdv, "Pdv", false);
  taxes(r.Pnp, "Pnp", false);
  taxes(r.OstaliPor, "OstaliPor", true);
  if (r.IznosOslobPdv !== undefined) amount(r.IznosOslobPdv, "IznosOslobPdv");
  if (r.IznosMarza !== undefined) amount(r.IznosMarza, "IznosMarza");
  if (r.IznosNePodlOpor !== undefined) amount(r.IznosNePodlOpor, "IznosNePodlOpor");
  if (r.Naknade !== undefined) {
    need(Array.isArray(r.Naknade) && r.Naknade.length > 0, "Naknade", "must list at least one fee when present");
    if (Array.isArray(r.Naknade))
      r.Naknade.forEach((n, i) => {
        text(n.NazivN, `Naknade[${i}].NazivN`, 100);
        amount(n.IznosN, `Naknade[${i}].IznosN`);
      });
  }
  amount(r.IznosUkupno, "IznosUkupno");
  need(NACINI_PLACANJA.includes(r.NacinPlac), "NacinPlac", "must be one of G, K, T, O");
  need(str(r.OibOper) && P.oib.test(r.OibOper), "OibOper", "must be 11 digits");
  need(str(r.ZastKod) && P.zastKod.test(r.ZastKod), "ZastKod", "must be 32 lowercase hex characters");
  need(typeof r.NakDost === "boolean", "NakDost", "must be true or false");
  if (r.ParagonBrRac !== undefined) text(r.ParagonBrRac, "ParagonBrRac", 100);
  if (r.SpecNamj !== undefined) text(r.SpecNamj, "SpecNamj", 1000);
  if (r.OibPrimateljaRacuna !== undefined) need(str(r.OibPrimateljaRacuna) && P.oib.test(r.OibPrimateljaRacuna), "OibPrimateljaRacuna", "must be 11 digits");
  return out;
}
