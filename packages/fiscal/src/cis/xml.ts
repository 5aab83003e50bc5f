// The XML of CIS messages: RacunZahtjev (per FiskalizacijaSchema.xsd, element order of RacunType),
// its SOAP 1.1 envelope, and reading the RacunOdgovor that comes back.
import { DOMParser, XMLSerializer, type Element as XmlElement } from "@xmldom/xmldom";
import type { Porez, PorezOstalo, RacunType } from "./racun.ts";

export const CIS_NS = "http://www.apis-it.hr/fin/2012/types/f73";
export const SOAP_NS = "http://schemas.xmlsoap.org/soap/envelope/";
/** soapAction of the "racuni" operation (FiskalizacijaService.wsdl). */
export const RACUNI_SOAP_ACTION = "http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService/racuni";

export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const el = (name: string, value: string) => `<tns:${name}>${escapeXml(value)}</tns:${name}>`;
const porez = (p: Porez) => `<tns:Porez>${el("Stopa", p.Stopa)}${el("Osnovica", p.Osnovica)}${el("Iznos", p.Iznos)}</tns:Porez>`;
const porezOstalo = (p: PorezOstalo) =>
  `<tns:Porez>${el("Naziv", p.Naziv)}${el("Stopa", p.Stopa)}${el("Osnovica", p.Osnovica)}${el("Iznos", p.Iznos)}</tns:Porez>`;

/** The `tns:Racun` element: every field of RacunType present in `r`, in schema order. */
export function racunXml(r: RacunType): string {
  const parts: string[] = [
    el("Oib", r.Oib),
    el("USustPdv", String(r.USustPdv)),
    el("DatVrijeme", r.DatVrijeme),
    el("OznSlijed", r.OznSlijed),
    `<tns:BrRac>${el("BrOznRac", r.BrRac.BrOznRac)}${el("OznPosPr", r.BrRac.OznPosPr)}${el("OznNapUr", r.BrRac.OznNapUr)}</tns:BrRac>`,
  ];
  if (r.Pdv) parts.push(`<tns:Pdv>${r.Pdv.map(porez).join("")}</tns:Pdv>`);
  if (r.Pnp) parts.push(`<tns:Pnp>${r.Pnp.map(porez).join("")}</tns:Pnp>`);
  if (r.OstaliPor) parts.push(`<tns:OstaliPor>${r.OstaliPor.map(porezOstalo).join("")}</tns:OstaliPor>`);
  if (r.IznosOslobPdv !== undefined) parts.push(el("IznosOslobPdv", r.IznosOslobPdv));
  if (r.IznosMarza !== undefined) parts.push(el("IznosMarza", r.IznosMarza));
  if (r.IznosNePodlOpor !== undefined) parts.push(el("IznosNePodlOpor", r.IznosNePodlOpor));
  if (r.Naknade) parts.push(`<tns:Naknade>${r.Naknade.map((n) => `<tns:Naknada>${el("NazivN", n.NazivN)}${el("IznosN", n.IznosN)}</tns:Naknada>`).join("")}</tns:Naknade>`);
  parts.push(el("IznosUkupno", r.IznosUkupno), el("NacinPlac", r.NacinPlac), el("OibOper", r.OibOper), el("ZastKod", r.ZastKod), el("NakDost", String(r.NakDost)));
  if (r.ParagonBrRac !== undefined) parts.push(el("ParagonBrRac", r.ParagonBrRac));
  if (r.SpecNamj !== undefined) parts.push(el("SpecNamj", r.SpecNamj));
  if (r.OibPrimateljaRacuna !== undefined) parts.push(el("OibPrimateljaRacuna", r.OibPrimateljaRacuna));
  return `<tns:Racun>${parts.join("")}</tns:Racun>`;
}

/** Unsigned `RacunZahtjev` with `Id="RacunZahtjev"` (the spec's recommended Id), ready for signEnveloped. */
export function racunZahtjevXml(header: { idPoruke: string; datumVrijeme: string }, r: RacunType): string {
  return (
    `<tns:RacunZahtjev xmlns:tns="${CIS_NS}" Id="RacunZahtjev">` +
    `<tns:Zaglavlje>${el("IdPoruke", header.idPoruke)}${el("DatumVrijeme", header.datumVrijeme)}</tns:Zaglavlje>` +
    racunXml(r) +
    `</tns:RacunZahtjev>`
  );
}

/** Wraps a (signed) message in a SOAP 1.1 envelope. */
export function soapEnvelope(bodyXml: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_NS}"><soapenv:Body>${bodyXml.replace(/^<\?xml[^>]*\?>\s*/, "")}</soapenv:Body></soapenv:Envelope>`;
}

export class SoapError extends Error {
  override readonly name = "SoapError";
  constructor(
    message: string,
    /** faultcode/faultstring of a SOAP Fault, when the body was one. */
    readonly fault?: { code: string; string: string },
  ) {
    super(message);
  }
}

function parse(xml: string) {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, msg) => {
      if (level !== "warning") errors.push(msg);
    },
  }).parseFromString(xml, "text/xml");
  if (errors.length || !doc.documentElement) throw new SoapError(`the answer is not well-formed XML: ${errors[0] ?? "empty"}`);
  return doc;
}

const elements = (node: XmlElement) => Array.from(node.childNodes).filter((n): n is XmlElement => n.nodeType === 1);

/**
 * The first element of a SOAP envelope's Body, serialised on its own (with the namespaces it uses).
 * A SOAP Fault throws SoapError with the fault.
 */
export function soapBodyElement(envelopeXml: string): string {
  const doc = parse(envelopeXml);
  const env = doc.documentElement!;
  if (env.localName !== "Envelope" || env.namespaceURI !== SOAP_NS) throw new SoapError("the answer is not a SOAP 1.1 envelope");
  const body = elements(env).find((e) => e.localName === "Body" && e.namespaceURI === SOAP_NS);
  if (!body) throw new SoapError("the SOAP envelope has no Body");
  const first = elements(body)[0];
  if (!first) throw new SoapError("the SOAP Body is empty");
  if (first.localName === "Fault" && first.namespaceURI === SOAP_NS) {
    const text = (name: string) => elements(first).find((e) => e.localName === name)?.textContent?.trim() ?? "";
    throw new SoapError(`SOAP Fault: ${text("faultstring") || "(no faultstring)"}`, { code: text("faultcode"), string: text("faultstring") });
  }
  // Namespaces declared on the envelope must travel with the element that is verified on its own.
  for (const a of Array.from(env.attributes)) {
    if ((a.name === "xmlns" || a.name.startsWith("xmlns:")) && !first.hasAttribute(a.name)) first.setAttribute(a.name, a.value);
  }
  for (const a of Array.from(body.attributes)) {
    if ((a.name === "xmlns" || a.name.startsWith("xmlns:")) && !first.hasAttribute(a.name)) first.setAttribute(a.name, a.value);
  }
  return new XMLSerializer().serializeToString(first);
}

export interface RacunOdgovor {
  idPoruke: string;
  datumVrijeme: string;
  jir?: string;
  greske: { sifra: string; poruka: string }[];
}

/** Reads a RacunOdgovor element (the signed bytes of one, preferably). */
export function parseRacunOdgovor(xml: string): RacunOdgovor {
  const root = parse(xml).documentElement!;
  if (root.localName !== "RacunOdgovor" || root.namespaceURI !== CIS_NS) throw new SoapError(`expected RacunOdgovor, got ${root.localName}`);
  const kids = elements(root);
  const child = (parent: XmlElement, name: string) => elements(parent).find((e) => e.localName === name && e.namespaceURI === CIS_NS);
  const zaglavlje = kids.find((e) => e.localName === "Zaglavlje" && e.namespaceURI === CIS_NS);
  if (!zaglavlje) throw new SoapError("RacunOdgovor has no Zaglavlje");
  const jir = child(root, "Jir")?.textContent?.trim();
  const greske = child(root, "Greske");
  return {
    idPoruke: child(zaglavlje, "IdPoruke")?.textContent?.trim() ?? "",
    datumVrijeme: child(zaglavlje, "DatumVrijeme")?.textContent?.trim() ?? "",
    jir: jir || undefined,
    greske: greske
      ? elements(greske)
          .filter((g) => g.localName === "Greska")
          .map((g) => ({ sifra: child(g, "SifraGreske")?.textContent?.trim() ?? "", poruka: child(g, "PorukaGreske")?.textContent?.trim() ?? "" }))
      : [],
  };
}
