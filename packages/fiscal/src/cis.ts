// Fiscalization 1.0 (CIS): ZKI, CIS date format, the tax-authority port and its simulator.
import { X509Certificate, createPrivateKey, randomUUID, sign, createHash } from "node:crypto";
import type { CisOperationAnswer, CisOperationRequest } from "./cis/operations.ts";
import type { CertificateAcceptance } from "./fina-trust.ts";
import { formatMoney, isMoney, parseMoney } from "./money.ts";
import { checkOib } from "./oib.ts";
import { formatCisDateTime } from "./zagreb.ts";
import { TaxAuthorityError } from "./tax-authority-error.ts";
import type { RacunType } from "./cis/racun.ts";

import { PAYMENT_METHODS, SEQUENCE_MARKS, type Receipt } from "./receipt.ts";

// The receipt model lives in ./receipt.ts; re-exported here for the modules that import it from the port.
export { PAYMENT_METHODS, type PaymentMethod, type Receipt } from "./receipt.ts";

export type ZkiInput = Pick<Receipt, "oib" | "issuedAt" | "number" | "premises" | "device" | "total">;

// "dd.MM.yyyy HH:mm:ss" in Zagreb (zagreb.ts); re-exported here, beside the ZKI that signs it.
export { formatCisDateTime };

/** The exact string the ZKI signs: OIB + date/time + number + premises + device + total (2 decimals). */
export function zkiInputString(input: ZkiInput): string {
  return input.oib + formatCisDateTime(input.issuedAt) + input.number + input.premises + input.device + formatMoney(parseMoney(input.total));
}

/**
 * ZKI (zaštitni kod izdavatelja): MD5 hex (lowercase, 32 chars) of the RSA-SHA1 PKCS#1 v1.5
 * signature over `zkiInputString(input)`. Throws on an unreadable key, an invalid date or total.
 */
export function computeZki(input: ZkiInput, privateKeyPem: string): string {
  const key = createPrivateKey(privateKeyPem);
  const signature = sign("sha1", Buffer.from(zkiInputString(input), "utf8"), key);
  return createHash("md5").update(signature).digest("hex");
}

export interface FiscalizeRequest {
  receipt: Receipt;
  zki: string;
  certPem: string;
  messageId: string;
  /** The receipt exactly as CIS receives it (RacunType); the real CIS client sends this. */
  racun?: RacunType;
  /** The certificate's private key (PEM), to sign the request; the real CIS client needs it. */
  keyPem?: string;
  /** The signed RacunZahtjev from `signRequest`, recorded by the caller: sent as it is instead of signing again. */
  signedRequest?: string;
}

/**
 * A call to CIS as it went over the wire: the signed RacunZahtjev exactly as sent (the SOAP Body's
 * content, with its XML-DSig) and CIS's answer exactly as received (the SOAP message, RacunOdgovor
 * with CIS's signature in its Body: CIS signs with inclusive c14n, so the envelope is part of it).
 */
export interface CisExchange {
  request: Buffer;
  answer: Buffer;
}

export interface FiscalizeAnswer {
  jir: string;
  /** When CIS received the request, as it answered. */
  receivedAt: Date;
  /** The messages of the call (the real CIS client; simulators have none). */
  exchange?: CisExchange;
}

export interface TaxAuthority {
  fiscalize(req: FiscalizeRequest): Promise<FiscalizeAnswer>;
  /**
   * The signed RacunZahtjev `fiscalize` would send (the real CIS client; absent on simulators), so
   * that the caller records it before the call and passes it back as `signedRequest`. Throws
   * TaxAuthorityError "rejected" (s001, s002) as `fiscalize` does for a request it cannot sign.
   */
  signRequest?(req: FiscalizeRequest): string;
  /**
   * The signing certificates this endpoint takes (fina-trust.ts): CIS in production FINA production
   * certificates, the CIS demo FINA demo certificates; absent or `any` for simulators and a local CIS.
   */
  readonly certificates?: CertificateAcceptance;
  /** napojnica, promijeniNacPlac, provjera (cis/operations.ts); absent where the port does not offer them. */
  operation?(req: CisOperationRequest): Promise<CisOperationAnswer>;
}

// The port's error (tax-authority-error.ts), re-exported beside the port.
export { TaxAuthorityError };

/**
 * CIS error codes the simulator uses, as CIS documents them:
 * s001 message does not conform to the schema, s002 certificate not valid (expired, not yet valid,
 * unreadable), s005 OIB in the message differs from the certificate's, s006 system error.
 */
export const CIS_ERRORS = {
  schema: "s001",
  certificate: "s002",
  oibMismatch: "s005",
  system: "s006",
} as const;

export interface CisSimulatorOptions {
  /** Response time range in ms, default [20, 80]. */
  latencyMs?: [min: number, max: number];
  /** Requests in flight beyond this are refused at once as "unavailable" (no code). Default 50. */
  maxConcurrent?: number;
  /** Probability that an accepted request fails with s006 "unavailable". Default 0. */
  failureRate?: number;
  /** Source of randomness for latency and failures (tests pass a seeded one). Default Math.random. */
  random?: () => number;
  /** The next N requests fail with s006 "unavailable". */
  failNext?: number;
}

export interface CisSimulator extends TaxAuthority {
  inject(f: { failNext?: number; failureRate?: number }): void;
  readonly inFlight: number;
}

const ZKI_FORMAT = /^[0-9a-f]{32}$/;
const CIS_TOTAL = /^-?\d+\.\d{2}$/;
// CIS limits: invoice number is digits, premises alphanumeric up to 20, device digits.
const RECEIPT_NUMBER = /^\d{1,20}$/;
const PREMISES = /^[0-9a-zA-Z]{1,20}$/;
const DEVICE = /^\d{1,20}$/;

/** What CIS would refuse in a request, as [code, message], or null when it would accept it. */
export function cisRequestProblem(req: FiscalizeRequest, now: Date = new Date()): [code: string, message: string] | null {
  const r = req.receipt;
  if (!r || typeof r !== "object") return [CIS_ERRORS.schema, "receipt is missing"];
  if (typeof req.messageId !== "string" || req.messageId.trim() === "") return [CIS_ERRORS.schema, "IdPoruke (messageId) is missing"];
  const oib = checkOib(r.oib);
  if (!oib.valid) return [CIS_ERRORS.schema, `OIB ${JSON.stringify(r.oib)} is not valid (${oib.reason})`];
  if (typeof r.operatorOib !== "string" || !checkOib(r.operatorOib).valid) return [CIS_ERRORS.schema, `OibOper (operator OIB) ${JSON.stringify(r.operatorOib)} is missing or not valid`];
  if (typeof r.vatRegistered !== "boolean") return [CIS_ERRORS.schema, "USustPdv (vatRegistered) must be true or false"];
  if (!SEQUENCE_MARKS.includes(r.sequence)) return [CIS_ERRORS.schema, "OznSlijed (sequence) must be P or N"];
  if (!(r.issuedAt instanceof Date) || Number.isNaN(r.issuedAt.getTime())) return [CIS_ERRORS.schema, "DatVrijeme (issuedAt) is not a valid date"];
  if (typeof r.number !== "string" || !RECEIPT_NUMBER.test(r.number)) return [CIS_ERRORS.schema, "BrOznRac (number) must be 1-20 digits"];
  if (typeof r.premises !== "string" || !PREMISES.test(r.premises)) return [CIS_ERRORS.schema, "OznPosPr (premises) must be 1-20 letters or digits"];
  if (typeof r.device !== "string" || !DEVICE.test(r.device)) return [CIS_ERRORS.schema, "OznNapUr (device) must be 1-20 digits"];
  if (typeof r.total !== "string" || !CIS_TOTAL.test(r.total)) return [CIS_ERRORS.schema, "IznosUkupno (total) must be a decimal with exactly 2 places"];
  if (!PAYMENT_METHODS.includes(r.paymentMethod)) return [CIS_ERRORS.schema, "NacinPlac (paymentMethod) must be one of G, K, T, O"];
  for (const [i, v] of (r.vat ?? []).entries()) {
    if (![v.rate, v.base, v.amount].every((x) => typeof x === "string" && isMoney(x))) {
      return [CIS_ERRORS.schema, `Pdv[${i}]: rate, base and amount must be decimals with at most 2 places`];
    }
  }
  if (typeof req.zki !== "string" || !ZKI_FORMAT.test(req.zki)) return [CIS_ERRORS.schema, "ZastKod (zki) must be 32 lowercase hex characters"];
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(req.certPem);
  } catch {
    return [CIS_ERRORS.certificate, "certificate cannot be read"];
  }
  if (now < new Date(cert.validFrom) || now > new Date(cert.validTo)) return [CIS_ERRORS.certificate, "certificate is expired or not yet valid"];
  if (!cert.subject.includes(r.oib)) return [CIS_ERRORS.oibMismatch, "OIB in the message differs from the OIB in the certificate"];
  return null;
}

/**
 * In-process CIS: random latency, a ceiling on concurrent requests, injectable outages, and the
 * request checks CIS makes. A success carries a fresh UUID v4 as JIR.
 */
export function createCisSimulator(opts: CisSimulatorOptions = {}): CisSimulator {
  const [minMs, maxMs] = opts.latencyMs ?? [20, 80];
  const maxConcurrent = opts.maxConcurrent ?? 50;
  const random = opts.random ?? Math.random;
  let failureRate = opts.failureRate ?? 0;
  let failNext = opts.failNext ?? 0;
  let inFlight = 0;

  return {
    get inFlight() {
      return inFlight;
    },
    inject(f) {
      if (f.failNext !== undefined) failNext = f.failNext;
      if (f.failureRate !== undefined) failureRate = f.failureRate;
    },
    async operation(req) {
      const d = req.detail;
      const method = d.operation === "napojnica" ? d.tip.paymentMethod : d.operation === "promijeniNacPlac" ? d.paymentMethod : "G";
      if (!/^[GKTO]$/.test(method)) throw new TaxAuthorityError("payment method: G, K, T or O", "rejected", "s001");
      if (d.operation === "napojnica" && !/^\d{1,15}\.\d{2}$/.test(d.tip.amount)) throw new TaxAuthorityError("tip: a positive amount with two decimals", "rejected", "s001");
      await delay(minMs + random() * Math.max(0, maxMs - minMs));
      const header = { idPoruke: req.messageId, datumVrijeme: new Date().toISOString(), greske: [] };
      return req.detail.operation === "provjera" ? header : { ...header, poruka: { sifra: "p001", poruka: "Zahtjev je zaprimljen." } };
    },
    async fiscalize(req) {
      if (inFlight >= maxConcurrent) {
        throw new TaxAuthorityError(`CIS is at capacity (${maxConcurrent} requests in flight)`, "unavailable");
      }
      // Decided on arrival so that failNext counts requests in the order they were made.
      let fail = false;
      if (failNext > 0) {
        failNext--;
        fail = true;
      } else if (failureRate > 0 && random() < failureRate) fail = true;
      inFlight++;
      try {
        await delay(minMs + random() * Math.max(0, maxMs - minMs));
        if (fail) throw new TaxAuthorityError("CIS system error, try again later", "unavailable", CIS_ERRORS.system);
        const problem = cisRequestProblem(req);
        if (problem) throw new TaxAuthorityError(problem[1], "rejected", problem[0]);
        return { jir: randomUUID(), receivedAt: new Date() };
      } finally {
        inFlight--;
      }
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
