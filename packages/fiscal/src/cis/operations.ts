// The other receipt operations of CIS (FiskalizacijaService.wsdl v1.9, FiskalizacijaSchema.xsd):
// a tip on a fiscalized receipt (`napojnica`, fiscalized since 2025), a change of its payment
// method (`promijeniNacPlac`), and `provjera`, which checks a receipt without recording it and is
// offered on the test endpoint only. Each request repeats the receipt (RacunType, with its ZKI)
// and adds what changes; each is signed as RacunZahtjev is (§7: enveloped, exclusive c14n,
// RSA-SHA1, the certificate and X509IssuerSerial in KeyInfo) on its own root Id.
import { DOMParser, type Element as XmlElement } from "@xmldom/xmldom";
import { TaxAuthorityError } from "../tax-authority-error.ts";
import { cisXmlDateTime, racunProblems, type RacunType } from "./racun.ts";
import { signEnveloped } from "./sign.ts";
import { CIS_NS, escapeXml, racunXml, SoapError } from "./xml.ts";

const SERVICE = "http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService";

/** Each operation: its request and answer elements and its SOAPAction. */
export const CIS_OPERATIONS = {
  napojnica: { request: "NapojnicaZahtjev", answer: "NapojnicaOdgovor", soapAction: `${SERVICE}/napojnica` },
  promijeniNacPlac: { request: "PromijeniNacPlacZahtjev", answer: "PromijeniNacPlacOdgovor", soapAction: `${SERVICE}/promijeniNacPlac` },
  provjera: { request: "ProvjeraZahtjev", answer: "ProvjeraOdgovor", soapAction: `${SERVICE}/provjera` },
} as const;
export type CisOperation = keyof typeof CIS_OPERATIONS;

/** NacinPlacanjaType: G cash, K cards, T transfer, O other (C, cheque, withdrawn). */
const PAYMENT = /^[GKTO]$/;
const AMOUNT = /^-?\d{1,15}\.\d{2}$/;

/** What an operation adds to the receipt: the tip (amount and how it was paid), or the new payment method. */
export type CisOperationDetail =
  | { operation: "napojnica"; tip: { amount: string; paymentMethod: string } }
  | { operation: "promijeniNacPlac"; paymentMethod: string }
  | { operation: "provjera" };

/** Problems of the detail against the schema (IznosType, NacinPlacanjaType), each `{path, message}`. */
export function cisOperationProblems(detail: CisOperationDetail): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  if (detail.operation === "napojnica") {
    if (!AMOUNT.test(detail.tip.amount) || detail.tip.amount.startsWith("-") || /^0+\.00$/.test(detail.tip.amount)) {
      out.push({ path: "amount", message: "Napojnica je pozitivan iznos s dvije decimale, npr. \"5.00\"." });
    }
    if (!PAYMENT.test(detail.tip.paymentMethod)) out.push({ path: "payment_method", message: "Način plaćanja napojnice: G, K, T ili O." });
  }
  if (detail.operation === "promijeniNacPlac" && !PAYMENT.test(detail.paymentMethod)) out.push({ path: "payment_method", message: "Novi način plaćanja: G, K, T ili O." });
  return out;
}

/** The unsigned request of an operation: the receipt with what the operation adds, root `Id` = the element's name. */
export function cisOperationXml(header: { idPoruke: string; datumVrijeme: string }, racun: RacunType, detail: CisOperationDetail): string {
  const { request } = CIS_OPERATIONS[detail.operation];
  let body = racunXml(racun);
  const extra =
    detail.operation === "napojnica"
      ? `<tns:Napojnica><tns:iznosNapojnice>${escapeXml(detail.tip.amount)}</tns:iznosNapojnice><tns:nacinPlacanjaNapojnice>${escapeXml(detail.tip.paymentMethod)}</tns:nacinPlacanjaNapojnice></tns:Napojnica>`
      : detail.operation === "promijeniNacPlac"
        ? `<tns:PromijenjeniNacinPlac>${escapeXml(detail.paymentMethod)}</tns:PromijenjeniNacinPlac>`
        : "";
  body = body.replace(/<\/tns:Racun>$/, `${extra}</tns:Racun>`);
  return (
    `<tns:${request} xmlns:tns="${CIS_NS}" Id="${request}">` +
    `<tns:Zaglavlje><tns:IdPoruke>${escapeXml(header.idPoruke)}</tns:IdPoruke><tns:DatumVrijeme>${escapeXml(header.datumVrijeme)}</tns:DatumVrijeme></tns:Zaglavlje>` +
    body +
    `</tns:${request}>`
  );
}

export interface CisOperationRequest {
  /** The receipt as it was fiscalized (RacunType with its ZKI; NakDost as sent). */
  racun: RacunType;
  detail: CisOperationDetail;
  messageId: string;
  certPem: string;
  keyPem: string;
}

/** The signed request, or TaxAuthorityError "rejected" (s001) when it would break the schema. */
export function signedCisOperation(req: CisOperationRequest, now: Date = new Date()): string {
  const problems = [...racunProblems(req.racun), ...cisOperationProblems(req.detail)];
  if (problems.length) {
    throw new TaxAuthorityError(`the request does not conform to the CIS schema: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}`, "rejected", "s001");
  }
  const xml = cisOperationXml({ idPoruke: req.messageId, datumVrijeme: cisXmlDateTime(now) }, req.racun, req.detail);
  return signEnveloped(xml, { keyPem: req.keyPem, certPem: req.certPem });
}

export interface CisOperationAnswer {
  idPoruke: string;
  datumVrijeme: string;
  /** PorukaOdgovora of napojnica / promijeniNacPlac when accepted. */
  poruka?: { sifra: string; poruka: string };
  greske: { sifra: string; poruka: string }[];
}

/** Reads the answer element of an operation (its signed bytes, preferably). */
export function parseCisOperationAnswer(xml: string, operation: CisOperation): CisOperationAnswer {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const root = doc.documentElement;
  const expected = CIS_OPERATIONS[operation].answer;
  if (!root || root.localName !== expected || root.namespaceURI !== CIS_NS) throw new SoapError(`expected ${expected}, got ${root?.localName ?? "nothing"}`);
  const kids = (e: XmlElement) => Array.from(e.childNodes).filter((n): n is XmlElement => n.nodeType === 1 && (n as XmlElement).namespaceURI === CIS_NS);
  const child = (e: XmlElement, name: string) => kids(e).find((k) => k.localName === name);
  const text = (e: XmlElement | undefined, name: string) => (e ? child(e, name)?.textContent?.trim() ?? "" : "");
  const header = child(root, "Zaglavlje");
  if (!header) throw new SoapError(`${expected} has no Zaglavlje`);
  const poruka = child(root, "PorukaOdgovora");
  const greske = child(root, "Greske");
  return {
    idPoruke: text(header, "IdPoruke"),
    datumVrijeme: text(header, "DatumVrijeme"),
    poruka: poruka ? { sifra: text(poruka, "SifraPoruke"), poruka: text(poruka, "Poruka") } : undefined,
    greske: greske ? kids(greske).filter((g) => g.localName === "Greska").map((g) => ({ sifra: text(g, "SifraGreske"), poruka: text(g, "PorukaGreske") })) : [],
  };
}
