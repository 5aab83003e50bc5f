// The Fiscalization 2.0 service port: record a delivered e-invoice, report its payment or its
// rejection. The real client signs each request (enveloped XML-DSig, exclusive c14n, RSA-SHA256,
// the certificate in KeyInfo, the Reference on the request's qualified id), sends it as SOAP 1.1
// over TLS 1.2+ to the configured address (CA bundle), verifies the answer's signature against the
// trusted signer and reads the outcome from the signed bytes only.
//
// Outcomes: accepted → { requestId, receivedAt }. The tax authority's S001 (system error), HTTP
// errors, SOAP faults, connection failures, timeouts and answers that are not accepted →
// TaxAuthorityError "unavailable" (try again later). Any other code → "rejected" with that code.
// S008 when recording an e-invoice ("already recorded") counts as accepted: a repeated delivery.
import { randomUUID } from "node:crypto";
import { DOMParser, type Element as XmlElement } from "@xmldom/xmldom";
import { TaxAuthorityError } from "../cis.ts";
import { certificateAcceptanceFor, type CertificateAcceptance } from "../fina-trust.ts";
import { CIS_DEFAULT_TIMEOUTS, postSoap, signedAnswer, type SoapEndpointOptions } from "../cis/client.ts";
import { SIGNATURE_PROFILES, signEnveloped } from "../cis/sign.ts";
import { soapEnvelope, SoapError } from "../cis/xml.ts";
import { ERacunError, eRacunFromUbl } from "./eracun.ts";
import { isporukaZahtjevXml, type Isporuka } from "./isporuka.ts";
import { EFIS_NS, EIZV_NS, eRacunZahtjevXml, naplataZahtjevXml, odbijanjeZahtjevXml, type Naplata, type Odbijanje } from "./messages.ts";

export interface Signer {
  certPem: string;
  keyPem: string;
}

/** vrstaERacuna: "I" izlazni (issued), "U" ulazni (received). */
export type EInvoiceDirection = "I" | "U";

export interface F2Receipt {
  /** The request's id (a UUID), as the answer's idZahtjeva confirms it. */
  requestId: string;
  receivedAt: Date;
}

export interface FiscalizationService {
  /**
   * Records an e-invoice, given as its UBL document: issued ("I", the default, signed by the seller) or
   * received ("U", vrstaERacuna of the Zaglavlje: an incoming e-invoice, signed by the buyer).
   */
  recordEInvoice(req: { ubl: string; operatorOib?: string; signer: Signer; requestId?: string; direction?: EInvoiceDirection }): Promise<F2Receipt>;
  reportPayment(req: { payment: Naplata; signer: Signer; requestId?: string }): Promise<F2Receipt>;
  reportRejection(req: { rejection: Odbijanje; signer: Signer; requestId?: string }): Promise<F2Receipt>;
  /** Art. 51: supplies for which no e-invoice was issued (1–100 invoices). Optional: a port without it cannot report them. */
  reportSupply?(req: { supplies: Isporuka[]; signer: Signer; requestId?: string }): Promise<F2Receipt>;
  /** The signing certificates the service takes (fina-trust.ts); absent or `any` for simulators and a local service. */
  readonly certificates?: CertificateAcceptance;
}

/** Signed request bodies (without the SOAP envelope). */
export const f2Requests = {
  eRacun(requestId: string, now: Date, ubl: string, operatorOib: string | undefined, signer: Signer, direction: EInvoiceDirection = "I"): string {
    let eRacun: string;
    try {
      eRacun = eRacunFromUbl(ubl, { operatorOib });
    } catch (err) {
      // What the service would refuse as not conforming to its schema (S005).
      if (err instanceof ERacunError) throw new TaxAuthorityError(err.message, "rejected", "S005");
      throw err;
    }
    const xml = eRacunZahtjevXml(requestId, now, direction, [eRacun]);
    return signEnveloped(xml, { ...signer, profile: SIGNATURE_PROFILES.fiskalizacija2 });
  },
  naplata(requestId: string, now: Date, payment: Naplata, signer: Signer): string {
    return signEnveloped(naplataZahtjevXml(requestId, now, [payment]), { ...signer, profile: SIGNATURE_PROFILES.fiskalizacija2 });
  },
  odbijanje(requestId: string, now: Date, rejection: Odbijanje, signer: Signer): string {
    return signEnveloped(odbijanjeZahtjevXml(requestId, now, [rejection]), { ...signer, profile: SIGNATURE_PROFILES.fiskalizacija2 });
  },
  isporuka(requestId: string, now: Date, supplies: Isporuka[], signer: Signer): string {
    return signEnveloped(isporukaZahtjevXml(requestId, now, supplies), { ...signer, profile: SIGNATURE_PROFILES.fiskalizacija2 });
  },
};

export type F2ClientOptions = SoapEndpointOptions;

export interface F2Answer {
  idZahtjeva: string;
  prihvacenZahtjev: boolean;
  greska?: { sifra: string; redniBrojZapisa: string; opis: string };
}

/** Reads an Evidentiraj…Odgovor (its signed bytes). */
export function parseF2Answer(xml: string): F2Answer {
  const root = new DOMParser({ onError: () => undefined }).parseFromString(xml, "text/xml").documentElement;
  if (!root || !/^Evidentiraj\w+Odgovor$/.test(root.localName ?? "") || (root.namespaceURI !== EFIS_NS && root.namespaceURI !== EIZV_NS)) {
    throw new SoapError(`expected an Evidentiraj…Odgovor, got ${root?.localName ?? "nothing"}`);
  }
  const child = (e: XmlElement | undefined, name: string) =>
    e ? Array.from(e.childNodes).find((n): n is XmlElement => n.nodeType === 1 && (n as XmlElement).localName === name) : undefined;
  const odgovor = child(root, "Odgovor");
  const greska = child(odgovor, "greska");
  return {
    idZahtjeva: child(odgovor, "idZahtjeva")?.textContent?.trim() ?? "",
    prihvacenZahtjev: child(odgovor, "prihvacenZahtjev")?.textContent?.trim() === "true",
    ...(greska
      ? {
          greska: {
            sifra: child(greska, "sifra")?.textContent?.trim() ?? "",
            redniBrojZapisa: child(greska, "redniBrojZapisa")?.textContent?.trim() ?? "",
            opis: child(greska, "opis")?.textContent?.trim() ?? "",
          },
        }
      : {}),
  };
}

export function createF2Client(opts: F2ClientOptions): FiscalizationService & { readonly url: string } {
  const url = new URL(opts.url);
  if (url.protocol !== "https:") throw new Error(`the Fiscalization 2.0 address must be https, got ${url.protocol}`);
  if (!opts.signer.pinned?.length && !(opts.signer.ca?.length && opts.signer.names?.length)) {
    throw new Error("the Fiscalization 2.0 signer trust needs pinned certificates or a CA with signer names");
  }
  const now = opts.now ?? (() => new Date());
  const connectTimeoutMs = opts.connectTimeoutMs ?? CIS_DEFAULT_TIMEOUTS.connectMs;
  const timeoutMs = opts.timeoutMs ?? CIS_DEFAULT_TIMEOUTS.totalMs;

  async function send(requestId: string, signed: string, alreadyRecordedIsSuccess: boolean): Promise<F2Receipt> {
    const res = await postSoap(url, soapEnvelope(signed), { ca: opts.ca, connectTimeoutMs, timeoutMs, soapAction: "" });
    const signedBytes = signedAnswer(res, opts.signer, now(), "Fiscalization 2.0");
    let answer: F2Answer;
    try {
      answer = parseF2Answer(signedBytes);
    } catch (err) {
      if (err instanceof SoapError) throw new TaxAuthorityError(`the Fiscalization 2.0 answer is not accepted: ${err.message}`, "unavailable");
      throw err;
    }
    if (answer.idZahtjeva !== requestId) throw new TaxAuthorityError(`the answer belongs to another request (${answer.idZahtjeva})`, "unavailable");
    if (answer.prihvacenZahtjev) return { requestId, receivedAt: now() };
    const g = answer.greska;
    if (g?.sifra === "S008" && alreadyRecordedIsSuccess) return { requestId, receivedAt: now() };
    if (!g) throw new TaxAuthorityError("the request was not accepted and no reason was given", "unavailable");
    throw new TaxAuthorityError(`${g.sifra}: ${g.opis}`, g.sifra === "S001" ? "unavailable" : "rejected", g.sifra);
  }

  return {
    url: url.toString(),
    certificates: certificateAcceptanceFor(opts.url),
    async recordEInvoice(req) {
      const id = req.requestId ?? randomUUID();
      return send(id, f2Requests.eRacun(id, now(), req.ubl, req.operatorOib, req.signer, req.direction), true);
    },
    async reportPayment(req) {
      const id = req.requestId ?? randomUUID();
      return send(id, f2Requests.naplata(id, now(), req.payment, req.signer), false);
    },
    async reportRejection(req) {
      const id = req.requestId ?? randomUUID();
      return send(id, f2Requests.odbijanje(id, now(), req.rejection, req.signer), false);
    },
    async reportSupply(req) {
      const id = req.requestId ?? randomUUID();
      return send(id, f2Requests.isporuka(id, now(), req.supplies, req.signer), false);
    },
  };
}

/**
 * The built-in stand-in for embedded runs: builds and signs every message exactly as the real
 * client does (so a document that cannot be recorded fails here too) and accepts it.
 */
export function createF2Simulator(): FiscalizationService {
  const accept = async (build: (id: string) => string, requestId?: string): Promise<F2Receipt> => {
    const id = requestId ?? randomUUID();
    build(id);
    await new Promise((r) => setTimeout(r, 10));
    return { requestId: id, receivedAt: new Date() };
  };
  return {
    recordEInvoice: (req) => accept((id) => f2Requests.eRacun(id, new Date(), req.ubl, req.operatorOib, req.signer, req.direction), req.requestId),
    reportPayment: (req) => accept((id) => f2Requests.naplata(id, new Date(), req.payment, req.signer), req.requestId),
    reportRejection: (req) => accept((id) => f2Requests.odbijanje(id, new Date(), req.rejection, req.signer), req.requestId),
    reportSupply: (req) => accept((id) => f2Requests.isporuka(id, new Date(), req.supplies, req.signer), req.requestId),
  };
}
