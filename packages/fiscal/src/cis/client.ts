// The real tax-authority port: RacunZahtjev signed with the account's certificate, SOAP 1.1 over
// TLS 1.2+ to CIS_URL (server certificate checked against the configured CA bundle), the answer's
// signature verified against the trusted CIS signer, the JIR read from the signed bytes only.
//
// Outcomes, as the API maps them:
// - JIR: { jir, receivedAt, exchange }: the exchange holds the signed RacunZahtjev exactly as sent and
//   the SOAP answer exactly as received (the receipt's evidence for the archive). `signRequest` gives
//   the signed request before the call, so that it is recorded first and then sent as it is.
// - CIS error s001–s005 and any other code except s006: TaxAuthorityError "rejected" with the code
//   (the customer's data, certificate or OIB is wrong; sending it again will not help).
// - s006 (CIS system error), HTTP errors, SOAP faults, refused or unreachable connections, TLS
//   failures, timeouts, unreadable or untrusted answers: TaxAuthorityError "unavailable" — the
//   receipt is issued without a JIR and delivered later with NakDost = true.
//   `CisNoAnswerError` (a subclass) marks the cases where the request may have reached CIS.
import https from "node:https";
import { X509Certificate } from "node:crypto";
import { formatCisDateTime, TaxAuthorityError, type FiscalizeRequest, type TaxAuthority } from "../cis.ts";
import { certificateAcceptanceFor, type CertificateAcceptance } from "../fina-trust.ts";
import { CIS_OPERATIONS, parseCisOperationAnswer, signedCisOperation, type CisOperationAnswer, type CisOperationRequest } from "./operations.ts";
import { toRacunType } from "../receipt.ts";
import { cisXmlDateTime, racunProblems } from "./racun.ts";
import { SignatureError, signEnveloped, verifyEnveloped, type SignerTrust } from "./sign.ts";
import { parseRacunOdgovor, racunZahtjevXml, RACUNI_SOAP_ACTION, soapBodyElement, soapEnvelope, SoapError } from "./xml.ts";

/** The tax authority's addresses (CIS technical specification v2.6, §6.1). */
export const CIS_URLS = {
  test: "https://cistest.apis-it.hr:8449/FiskalizacijaServiceTest",
  production: "https://cis.porezna-uprava.hr:8449/FiskalizacijaService",
} as const;

/** Subject CN of the certificate CIS signs its answers with: "fiskalcis" in production, "fiskalcistest" in the test environment. */
export const CIS_SIGNER_NAMES = { test: "fiskalcistest", production: "fiskalcis" } as const;

/**
 * CIS itself must answer within 2 s (spec §2.1: "maksimalno vrijeme od 2 sekunde"); the rest of
 * the budget is the network. A connection not established within the connect timeout never
 * carried the request.
 */
export const CIS_DEFAULT_TIMEOUTS = { connectMs: 2_000, totalMs: 5_000 } as const;

/** What both tax-authority clients (CIS and Fiscalization 2.0) are built with. */
export interface SoapEndpointOptions {
  /** The service address, e.g. CIS_URLS.test. Must be https. */
  url: string;
  /** CA certificates (PEM bundle) that issue the server's TLS certificate; default: Node's roots. */
  ca?: string;
  /** Who may sign the answers. */
  signer: SignerTrust;
  connectTimeoutMs?: number;
  timeoutMs?: number;
  /** Clock for the message header and certificate validity (tests). */
  now?: () => Date;
}

export interface CisClientOptions extends SoapEndpointOptions {
  /** The signing certificates the endpoint takes; default from its host (`certificateAcceptanceFor`). */
  certificates?: CertificateAcceptance;
}

/** Thrown when the request may have reached CIS but no usable answer came back (timeout, connection lost). */
export class CisNoAnswerError extends TaxAuthorityError {
  readonly maybeDelivered = true;
  constructor(message: string) {
    super(message, "unavailable");
  }
}

/** The CIS codes that mean "try again later" rather than "this request is wrong". */
export const CIS_RETRYABLE_CODES: ReadonlySet<string> = new Set(["s006"]);

/** "dd.MM.yyyyTHH:mm:ss" (Europe/Zagreb) → instant, or null when unreadable. */
export function parseCisDateTime(s: string): Date | null {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})T(\d{2}):(\d{2}):(\d{2})$/.exec(s);
  if (!m) return null;
  const [, dd, mm, yyyy, hh, mi, ss] = m.map(Number);
  const asUtc = Date.UTC(yyyy!, mm! - 1, dd, hh, mi, ss);
  // Zagreb is UTC+1 or UTC+2: pick the offset whose local rendering matches.
  for (const offsetH of [1, 2]) {
    const candidate = new Date(asUtc - offsetH * 3_600_000);
    if (formatCisDateTime(candidate) === `${m[1]}.${m[2]}.${m[3]} ${m[4]}:${m[5]}:${m[6]}`) return candidate;
  }
  return null;
}

/** The signed RacunZahtjev (no SOAP envelope) for a request; throws TaxAuthorityError "rejected"/s001 when the RacunType breaks the schema. */
export function signedRacunZahtjev(req: FiscalizeRequest, now: Date = new Date()): string {
  const racun = req.racun ?? toRacunType(req.receipt, req.zki);
  const problems = racunProblems(racun);
  if (problems.length) {
    throw new TaxAuthorityError(`the receipt does not conform to the CIS schema: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}`, "rejected", "s001");
  }
  if (!req.keyPem) throw new TaxAuthorityError("no private key to sign the request with", "rejected", "s002");
  const xml = racunZahtjevXml({ idPoruke: req.messageId, datumVrijeme: cisXmlDateTime(now) }, racun);
  return signEnveloped(xml, { keyPem: req.keyPem, certPem: req.certPem });
}

export interface PostResult {
  status: number;
  body: string;
  /** The body's bytes exactly as received. */
  raw: Buffer;
}

/**
 * The answer of a signed SOAP exchange, as both tax-authority clients (CIS and Fiscalization 2.0)
 * read it: the body's element with its enveloped signature checked against `signer`; returns the
 * signed bytes. An answer without a usable message or with a signature not accepted is a
 * TaxAuthorityError "unavailable" naming `service` (the request may have been recorded).
 */
export function signedAnswer(res: PostResult, signer: SignerTrust, at: Date, service: string): string {
  let element: string;
  try {
    element = soapBodyElement(res.body);
  } catch (err) {
    const detail = err instanceof SoapError ? err.message : "unreadable answer";
    throw new TaxAuthorityError(`${service} answered HTTP ${res.status} without a usable message (${detail})`, "unavailable");
  }
  try {
    return verifyEnveloped(element, signer, at).signedXml;
  } catch (err) {
    if (err instanceof SignatureError) throw new TaxAuthorityError(`the ${service} answer is not accepted: ${err.message}`, "unavailable");
    throw err;
  }
}

/**
 * POSTs a SOAP 1.1 message over TLS 1.2+; distinguishes "never connected" (TaxAuthorityError) from
 * "sent, no answer" (CisNoAnswerError).
 */
export function postSoap(url: URL, body: string, opts: { ca?: string; connectTimeoutMs: number; timeoutMs: number; soapAction?: string }): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    let connected = false;
    let settled = false;
    const fail = (err: TaxAuthorityError) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      req.destroy();
      reject(err);
    };
    const req = https.request(
      url,
      {
        method: "POST",
        minVersion: "TLSv1.2",
        ca: opts.ca,
        rejectUnauthorized: true,
        agent: false,
        headers: {
          "Content-Type": "text/xml; charset=utf-8",
          SOAPAction: `"${opts.soapAction ?? RACUNI_SOAP_ACTION}"`,
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > 1_000_000) fail(new CisNoAnswerError("the CIS answer is larger than 1 MB"));
          else chunks.push(c);
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          clearTimeout(connectTimer);
          clearTimeout(totalTimer);
          const raw = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, body: raw.toString("utf8"), raw });
        });
        res.on("error", (err) => fail(new CisNoAnswerError(`the CIS answer was cut off: ${err.message}`)));
      },
    );
    const connectTimer = setTimeout(() => {
      if (!connected) fail(new TaxAuthorityError(`no connection to CIS within ${opts.connectTimeoutMs} ms`, "unavailable"));
    }, opts.connectTimeoutMs);
    const totalTimer = setTimeout(() => fail(new CisNoAnswerError(`no answer from CIS within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on("socket", (socket) => socket.once("secureConnect", () => (connected = true)));
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (!connected) fail(new TaxAuthorityError(`CIS cannot be reached: ${err.code ?? err.message}`, "unavailable"));
      else fail(new CisNoAnswerError(`the connection to CIS was lost: ${err.code ?? err.message}`));
    });
    req.end(body);
  });
}

export interface CisClient extends TaxAuthority {
  readonly url: string;
  /**
   * napojnica, promijeniNacPlac or provjera (./operations.ts): signed, sent, the signed answer
   * verified. CIS's errors are TaxAuthorityError like the receipt's; provjera is refused before
   * sending anywhere but the test endpoint (it exists only there).
   */
  operation(req: CisOperationRequest): Promise<CisOperationAnswer>;
}

export function createCisClient(opts: CisClientOptions): CisClient {
  const url = new URL(opts.url);
  if (url.protocol !== "https:") throw new Error(`CIS_URL must be an https address, got ${url.protocol}`);
  if (!opts.signer.pinned?.length && !(opts.signer.ca?.length && opts.signer.names?.length)) {
    throw new Error("the CIS signer trust needs pinned certificates or a CA with signer names");
  }
  for (const pem of opts.signer.pinned ?? []) new X509Certificate(pem); // fail at start on an unreadable certificate
  const now = opts.now ?? (() => new Date());
  const connectTimeoutMs = opts.connectTimeoutMs ?? CIS_DEFAULT_TIMEOUTS.connectMs;
  const timeoutMs = opts.timeoutMs ?? CIS_DEFAULT_TIMEOUTS.totalMs;

  const certificates = opts.certificates ?? certificateAcceptanceFor(opts.url);
  return {
    url: url.toString(),
    certificates,
    async operation(req) {
      const op = CIS_OPERATIONS[req.detail.operation];
      if (req.detail.operation === "provjera" && certificates === "fina_production") {
        throw new TaxAuthorityError("provjera (checking a receipt without recording it) exists only on the CIS test endpoint", "rejected", "provjera");
      }
      const signed = signedCisOperation(req, now());
      const res = await postSoap(url, soapEnvelope(signed), { ca: opts.ca, connectTimeoutMs, timeoutMs, soapAction: op.soapAction });
      const signedBytes = signedAnswer(res, opts.signer, now(), "CIS");
      const answer = parseCisOperationAnswer(signedBytes, req.detail.operation);
      if (answer.idPoruke !== req.messageId) throw new TaxAuthorityError(`the CIS answer belongs to another message (${answer.idPoruke})`, "unavailable");
      if (answer.greske.length) {
        const first = answer.greske[0]!;
        throw new TaxAuthorityError(answer.greske.map((g) => `${g.sifra}: ${g.poruka}`).join("; "), CIS_RETRYABLE_CODES.has(first.sifra) ? "unavailable" : "rejected", first.sifra);
      }
      return answer;
    },
    signRequest(req) {
      return signedRacunZahtjev(req, now());
    },
    async fiscalize(req) {
      const signed = req.signedRequest ?? signedRacunZahtjev(req, now());
      const res = await postSoap(url, soapEnvelope(signed), { ca: opts.ca, connectTimeoutMs, timeoutMs });
      const signedBytes = signedAnswer(res, opts.signer, now(), "CIS");
      const answer = parseRacunOdgovor(signedBytes);
      if (answer.idPoruke !== req.messageId) {
        throw new TaxAuthorityError(`the CIS answer belongs to another message (${answer.idPoruke})`, "unavailable");
      }
      if (answer.greske.length) {
        const first = answer.greske[0]!;
        const message = answer.greske.map((g) => `${g.sifra}: ${g.poruka}`).join("; ");
        throw new TaxAuthorityError(message, CIS_RETRYABLE_CODES.has(first.sifra) ? "unavailable" : "rejected", first.sifra);
      }
      if (!answer.jir || !/^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/.test(answer.jir)) {
        throw new TaxAuthorityError("the CIS answer carries neither a JIR nor an error", "unavailable");
      }
      return {
        jir: answer.jir,
        receivedAt: parseCisDateTime(answer.datumVrijeme) ?? now(),
        // The request as the envelope carries it (soapEnvelope drops an XML declaration; signing adds none).
        exchange: { request: Buffer.from(signed.replace(/^<\?xml[^>]*\?>\s*/, ""), "utf8"), answer: res.raw },
      };
    },
  };
}
