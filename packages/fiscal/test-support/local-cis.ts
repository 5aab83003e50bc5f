// A local CIS for tests: an HTTPS SOAP server with its own test CA, generated at start.
//
// Every RacunZahtjev is checked the way CIS checks it, with independent tools: the official
// FiskalizacijaSchema.xsd through `xmllint --schema` (s001), the enveloped signature through
// `xmlsec1 --verify` with the certificate from KeyInfo (s004), the certificate's validity (s002),
// that it carries an OIB (s003) and that it is the OIB of the message (s005). A request that passes
// gets a RacunOdgovor with a fresh JIR, signed as CIS signs (inclusive c14n, RSA-SHA1) with a
// "fiskalcistest" certificate issued by the test CA. Tests can make it answer with any error code,
// time out, answer with a broken or untrusted signature, answer a SOAP Fault, or be down.
import { execFile as execFileCb, execFileSync } from "node:child_process";
import { randomUUID, X509Certificate } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { cisXmlDateTime } from "../src/cis/racun.ts";
import { signEnveloped } from "../src/cis/sign.ts";
import { CIS_NS, escapeXml, soapBodyElement, SOAP_NS } from "../src/cis/xml.ts";

const execFile = promisify(execFileCb);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const CIS_XSD = path.join(REPO, "reference/cis/FiskalizacijaSchema.xsd");
export const EFIS_XSD = path.join(REPO, "reference/fiskalizacija2/eFiskalizacijaSchema.xsd");
export const EIZV_XSD = path.join(REPO, "reference/fiskalizacija2/eIzvjestavanjeSchema.xsd");
const XMLDSIG_XSD = path.join(REPO, "reference/ubl-xsd/common/UBL-xmldsig-core-schema-2.1.xsd");

/** CIS's own texts for its error codes (technical specification v2.6, §2.1). */
export const CIS_ERROR_TEXTS: Record<string, string> = {
  s001: "Poruka nije u skladu s XML shemom",
  s002: "Certifikat nije izdan od strane produkcijskog potpisnika pouzdanog izdavatelja certifikata u RH ili je istekao ili je ukinut.",
  s003: "Certifikat ne sadrži obvezan podatak 'OIB'.",
  s004: "Neispravan digitalni potpis.",
  s005: "OIB iz poruke zahtjeva nije jednak OIB-u iz certifikata.",
  s006: "Sistemska pogreška prilikom obrade zahtjeva.",
};

/** Fiscalization 2.0 error texts (eFiskalizacijaSchema.xsd, "greska"). */
export const F2_ERROR_TEXTS: Record<string, string> = {
  S001: "Sistemska greška prilikom obrade zahtjeva.",
  S002: "Lokacija potpisa nije ispravna.",
  S003: "Certifikat nije izdan od davatelja usluga s Pouzdanog popisa, ili je istekao ili je ukinut.",
  S004: "Neispravan potpis zahtjeva.",
  S005: "Poruka nije u skladu s XML shemom",
  S006: "Pristupna točka nije ovlaštena za dostavu.",
  S007: "OIB iz zahtjeva nije formalno ispravan.",
  S008: "Već postoji zabilježen eRačun s istim identifikatorom.",
  S009: "Ne postoji zabilježen eRačun.",
  S010: "Već postoji zabilježen status odbijanja eRačuna s istim identifikatorom.",
};

/**
 * How the next requests are answered. "check": as CIS (default). An `error` code: that error.
 * "timeout": never answers. "bad-signature": a JIR whose answer was altered after signing.
 * "untrusted-signer": a JIR signed by a certificate outside the test CA. "unsigned": a JIR without a
 * signature. "soap-fault": HTTP 500 with a SOAP Fault. "wrong-message": a JIR for another IdPoruke.
 */
export type LocalCisMode =
  | { kind: "check" }
  | { kind: "error"; code: string }
  | { kind: "timeout" }
  | { kind: "bad-signature" }
  | { kind: "untrusted-signer" }
  | { kind: "unsigned" }
  | { kind: "soap-fault" }
  | { kind: "wrong-message" };

export interface LocalCisRequest {
  /** "cis": a RacunZahtjev (Fiscalization 1.0); "f2": an Evidentiraj…Zahtjev (Fiscalization 2.0). */
  kind: "cis" | "f2";
  /** Root element of the request, e.g. "RacunZahtjev", "EvidentirajNaplatuZahtjev". */
  element: string;
  /** The whole HTTP body (SOAP envelope). */
  body: string;
  /** The request element as received (signed): a RacunZahtjev or an Evidentiraj…Zahtjev. */
  racunZahtjev: string;
  soapAction: string | undefined;
  /** What was answered: a JIR, an error code, or nothing. */
  jir?: string;
  /** The HTTP body of the answer exactly as written (absent while none was written). */
  answer?: string;
  error?: string;
}

/**
 * The request as xmllint can check it: libxml2 reads xs:integer only up to 24 digits, while FINA's
 * certificate serials (X509SerialNumber, xs:integer) have up to 39. A longer serial of digits only
 * is valid xs:integer; it is shortened here for libxml2 and for nothing else (the signature is
 * verified on the bytes as sent).
 */
export function forLibxml2(xml: string): string {
  return xml.replace(/(<(?:\w+:)?X509SerialNumber>)(\d{25,})(<\/(?:\w+:)?X509SerialNumber>)/g, (_, open: string, digits: string, close: string) => `${open}${digits.slice(0, 24)}${close}`);
}

/** The receipt operations besides `racuni`, by request element: the answer element. */
const OPERATION_ANSWERS: Record<string, string> = {
  NapojnicaZahtjev: "NapojnicaOdgovor",
  PromijeniNacPlacZahtjev: "PromijeniNacPlacOdgovor",
  ProvjeraZahtjev: "ProvjeraOdgovor",
};

export interface LocalCis {
  url: string;
  /** PEM of the test CA: the TLS server certificate and the signer certificate are issued by it. */
  caPem: string;
  /** The CIS signer certificate (CN=fiskalcistest). */
  signerPem: string;
  /** Folder holding xmldsig-core-schema.xsd, for `xmllint --path` next to the official XSD. */
  schemaPath: string;
  requests: LocalCisRequest[];
  /** Answer the next `times` requests (default: all, until changed) in this mode. */
  setMode(mode: LocalCisMode, times?: number): void;
  /**
   * Runs before each answer is written (after it was decided: `record.jir` is set for a JIR), and the
   * answer waits for it — e.g. to cut the caller's database just as the JIR is on its way. null: none.
   */
  beforeAnswer(hook: ((record: LocalCisRequest) => Promise<void> | void) | null): void;
  /** Stop listening (connections are refused) / listen again on the same port. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

function openssl(dir: string, args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
}

/** The test PKI: CA, TLS server certificate for 127.0.0.1/localhost, CIS signer, and an outsider signer. */
function makePki(dir: string) {
  const days = "3";
  openssl(dir, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", days, "-subj", "/C=HR/O=Local CIS/CN=Local CIS Test CA"]);
  const issue = (name: string, subj: string, ext: string[]) => {
    openssl(dir, ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", subj, ...ext.flatMap((e) => ["-addext", e])]);
    openssl(dir, ["x509", "-req", "-in", `${name}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", `${name}.pem`, "-days", days, "-copy_extensions", "copyall"]);
  };
  issue("server", "/C=HR/O=Local CIS/CN=localhost", ["subjectAltName=DNS:localhost,IP:127.0.0.1", "extendedKeyUsage=serverAuth"]);
  issue("signer", "/C=HR/O=FINA/OU=DEMO/CN=fiskalcistest", ["keyUsage=digitalSignature"]);
  openssl(dir, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "outsider.key", "-out", "outsider.pem", "-days", days, "-subj", "/C=HR/O=FINA/OU=DEMO/CN=fiskalcistest"]);
  const read = (f: string) => readFileSync(path.join(dir, f), "utf8");
  return {
    caPem: read("ca.pem"),
    server: { key: read("server.key"), cert: read("server.pem") },
    signer: { key: read("signer.key"), cert: read("signer.pem") },
    outsider: { key: read("outsider.key"), cert: read("outsider.pem") },
  };
}

const CIS_RESPONSE_PROFILE = {
  signatureAlgorithm: "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
  digestAlgorithm: "http://www.w3.org/2000/09/xmldsig#sha1",
  canonicalizationAlgorithm: "http://www.w3.org/TR/2001/REC-xml-c14n-20010315",
};

function envelope(body: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="${SOAP_NS}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Body>${body}</soap:Body></soap:Envelope>`
  );
}

/** The answer of the "soap-fault" mode: a SOAP Server fault with status 500. */
function serverFault(): { status: number; xml: string } {
  return { status: 500, xml: envelope(`<soap:Fault><faultcode>soap:Server</faultcode><faultstring>Internal error</faultstring></soap:Fault>`) };
}

export async function startLocalCis(opts: { port?: number } = {}): Promise<LocalCis> {
  const dir = mkdtempSync(path.join(tmpdir(), "local-cis-"));
  const pki = makePki(dir);
  const schemaPath = path.join(dir, "schema");
  mkdirSync(schemaPath);
  copyFileSync(XMLDSIG_XSD, path.join(schemaPath, "xmldsig-core-schema.xsd"));

  let mode: LocalCisMode = { kind: "check" };
  let answerHook: ((record: LocalCisRequest) => Promise<void> | void) | null = null;
  let modeTimes = Infinity;
  const requests: LocalCisRequest[] = [];
  const sockets = new Set<Socket>();
  let counter = 0;

  /** The mode this request meets; a mode set for a number of requests returns to "check" after the last. */
  function takeMode(): LocalCisMode {
    const current = mode;
    if (modeTimes !== Infinity && --modeTimes <= 0) {
      mode = { kind: "check" };
      modeTimes = Infinity;
    }
    return current;
  }

  /** What the mode answers instead of checking the request (null: no answer at all), or undefined when it is to be checked. */
  function forcedAnswer(current: LocalCisMode, record: LocalCisRequest, errorXml: (code: string) => string): { status: number; xml: string } | null | undefined {
    if (current.kind === "timeout") return null;
    if (current.kind === "soap-fault") return serverFault();
    if (current.kind === "error") {
      record.error = current.code;
      return { status: 200, xml: errorXml(current.code) };
    }
    return undefined;
  }

  // Signed in place inside the SOAP envelope, as CIS does: with inclusive c14n the envelope's
  // namespace declarations are part of what the signature covers.
  const signedAnswer = (inner: string, signer: { key: string; cert: string }, answer = "RacunOdgovor") =>
    signEnveloped(envelope(`<tns:${answer} xmlns:tns="${CIS_NS}" Id="G0x${(++counter).toString(16)}-4D">${inner}</tns:${answer}>`), {
      keyPem: signer.key,
      certPem: signer.cert,
      profile: CIS_RESPONSE_PROFILE,
      elementXPath: `//*[local-name()='${answer}']`,
    });
  const header = (idPoruke: string) =>
    `<tns:Zaglavlje><tns:IdPoruke>${escapeXml(idPoruke)}</tns:IdPoruke><tns:DatumVrijeme>${cisXmlDateTime(new Date())}</tns:DatumVrijeme></tns:Zaglavlje>`;
  const errorAnswer = (idPoruke: string, code: string, message: string) =>
    signedAnswer(
      `${header(idPoruke)}<tns:Greske><tns:Greska><tns:SifraGreske>${code}</tns:SifraGreske><tns:PorukaGreske>${escapeXml(message.slice(0, 500))}</tns:PorukaGreske></tns:Greska></tns:Greske>`,
      pki.signer,
    );

  /** The checks CIS makes, in its order; null when the request passes. */
  async function check(racunZahtjev: string, element = "RacunZahtjev"): Promise<[code: string, message: string] | null> {
    const work = mkdtempSync(path.join(dir, "req-"));
    try {
      const file = path.join(work, "request.xml");
      writeFileSync(file, racunZahtjev);
      const forSchema = path.join(work, "schema.xml");
      writeFileSync(forSchema, forLibxml2(racunZahtjev));
      try {
        await execFile("xmllint", ["--noout", "--path", schemaPath, "--schema", CIS_XSD, forSchema]);
      } catch (err) {
        const detail = String((err as { stderr?: string }).stderr ?? "").split("\n").find((l) => l.includes("error")) ?? "";
        return ["s001", `${CIS_ERROR_TEXTS.s001} : ${detail.replace(forSchema, "").trim()}`];
      }
      const certB64 = /<(?:\w+:)?X509Certificate>([^<]+)</.exec(racunZahtjev)?.[1];
      if (!certB64) return ["s004", CIS_ERROR_TEXTS.s004!];
      let cert: X509Certificate;
      try {
        cert = new X509Certificate(Buffer.from(certB64.replace(/\s+/g, ""), "base64"));
      } catch {
        return ["s002", CIS_ERROR_TEXTS.s002!];
      }
      const certFile = path.join(work, "cert.pem");
      writeFileSync(certFile, cert.toString());
      try {
        await execFile("xmlsec1", ["--verify", "--id-attr:Id", element, "--pubkey-cert-pem", certFile, file]);
      } catch {
        return ["s004", CIS_ERROR_TEXTS.s004!];
      }
      const now = new Date();
      if (now < new Date(cert.validFrom) || now > new Date(cert.validTo)) return ["s002", CIS_ERROR_TEXTS.s002!];
      const certOib = /(?:serialNumber=|\b)(\d{11})\b/.exec(cert.subject)?.[1];
      if (!certOib) return ["s003", CIS_ERROR_TEXTS.s003!];
      const oib = /<tns:Racun>\s*<tns:Oib>(\d{11})</.exec(racunZahtjev)?.[1];
      if (oib !== certOib) return ["s005", CIS_ERROR_TEXTS.s005!];
      return null;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  // Fiscalization 2.0: the official schema of the message's namespace, xmlsec1 on the qualified id.
  const F2_ANSWER_PROFILE = {
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
    canonicalizationAlgorithm: "http://www.w3.org/TR/2001/REC-xml-c14n-20010315",
  };
  async function checkF2(record: LocalCisRequest): Promise<[code: string, message: string] | null> {
    const ns = /xmlns:[\w.-]+="(http:\/\/www\.porezna-uprava\.gov\.hr\/fin\/2024\/types\/e\w+)"/.exec(record.racunZahtjev)?.[1] ?? "";
    const xsd = ns.endsWith("eFiskalizacija") ? EFIS_XSD : EIZV_XSD;
    const work = mkdtempSync(path.join(dir, "f2-"));
    try {
      const file = path.join(work, "request.xml");
      writeFileSync(file, record.racunZahtjev);
      const forSchema = path.join(work, "schema.xml");
      writeFileSync(forSchema, forLibxml2(record.racunZahtjev));
      try {
        await execFile("xmllint", ["--noout", "--path", schemaPath, "--schema", xsd, forSchema]);
      } catch (err) {
        const detail = String((err as { stderr?: string }).stderr ?? "").split("\n").find((l) => l.includes("error")) ?? "";
        return ["S005", `${F2_ERROR_TEXTS.S005} : ${detail.replace(forSchema, "").trim()}`];
      }
      const certB64 = /<(?:\w+:)?X509Certificate>([^<]+)</.exec(record.racunZahtjev)?.[1];
      if (!certB64) return ["S004", F2_ERROR_TEXTS.S004!];
      const cert = new X509Certificate(Buffer.from(certB64.replace(/\s+/g, ""), "base64"));
      const now = new Date();
      if (now < new Date(cert.validFrom) || now > new Date(cert.validTo)) return ["S003", F2_ERROR_TEXTS.S003!];
      const certFile = path.join(work, "cert.pem");
      writeFileSync(certFile, cert.toString());
      try {
        await execFile("xmlsec1", ["--verify", "--id-attr:id", `${ns}:${record.element}`, "--pubkey-cert-pem", certFile, file]);
      } catch {
        return ["S004", F2_ERROR_TEXTS.S004!];
      }
      return null;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const f2Answer = (record: LocalCisRequest, requestId: string, error: [string, string] | null, signer: { key: string; cert: string }) => {
    const ns = /xmlns:([\w.-]+)="(http:\/\/www\.porezna-uprava\.gov\.hr\/fin\/2024\/types\/e\w+)"/.exec(record.racunZahtjev);
    const [prefix, uri] = [ns?.[1] ?? "tns", ns?.[2] ?? ""];
    const answerName = record.element.replace(/Zahtjev$/, "Odgovor");
    const d = new Date();
    const stamp = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}T${d.toTimeString().slice(0, 8)}.0000`;
    const greska = error ? `<${prefix}:greska><${prefix}:sifra>${error[0]}</${prefix}:sifra><${prefix}:redniBrojZapisa>1</${prefix}:redniBrojZapisa><${prefix}:opis>${escapeXml(error[1].slice(0, 1024))}</${prefix}:opis></${prefix}:greska>` : "";
    const inner =
      `<${prefix}:datumVrijemeSlanja>${stamp}</${prefix}:datumVrijemeSlanja><${prefix}:Odgovor><${prefix}:idZahtjeva>${escapeXml(requestId)}</${prefix}:idZahtjeva>` +
      `<${prefix}:prihvacenZahtjev>${error ? "false" : "true"}</${prefix}:prihvacenZahtjev>${greska}</${prefix}:Odgovor>`;
    return signEnveloped(envelope(`<${prefix}:${answerName} xmlns:${prefix}="${uri}" ${prefix}:id="${randomUUID()}">${inner}</${prefix}:${answerName}>`), {
      keyPem: signer.key,
      certPem: signer.cert,
      profile: F2_ANSWER_PROFILE,
      elementXPath: `//*[local-name()='${answerName}']`,
    });
  };
  async function handleF2(record: LocalCisRequest): Promise<{ status: number; xml: string } | null> {
    const requestId = /\s[\w.-]+:id="([^"]+)"/.exec(record.racunZahtjev)?.[1] ?? "";
    const current = takeMode();
    const forced = forcedAnswer(current, record, (code) => f2Answer(record, requestId, [code, F2_ERROR_TEXTS[code] ?? "Greška."], pki.signer));
    if (forced !== undefined) return forced;
    const problem = await checkF2(record);
    if (problem) {
      record.error = problem[0];
      return { status: 200, xml: f2Answer(record, requestId, problem, pki.signer) };
    }
    record.jir = requestId; // accepted: the request id is what the answer confirms
    switch (current.kind) {
      case "bad-signature":
        return { status: 200, xml: f2Answer(record, requestId, null, pki.signer).replace(">true<", ">false<") };
      case "untrusted-signer":
        return { status: 200, xml: f2Answer(record, requestId, null, pki.outsider) };
      case "wrong-message":
        return { status: 200, xml: f2Answer(record, randomUUID(), null, pki.signer) };
      default:
        return { status: 200, xml: f2Answer(record, requestId, null, pki.signer) };
    }
  }

  /**
   * napojnica, promijeniNacPlac and provjera: the same checks as a receipt (schema, signature on the
   * element's Id, certificate, OIB); the answer carries PorukaOdgovora (p001) for the first two and
   * the receipt itself for provjera, or the errors. The SOAPAction must name the operation.
   */
  async function handleOperation(record: LocalCisRequest, element: string, answer: string): Promise<{ status: number; xml: string } | null> {
    const idPoruke = /<tns:IdPoruke>([^<]*)</.exec(record.racunZahtjev)?.[1] ?? "";
    const current = takeMode();
    const fail = (code: string, message: string) => {
      record.error = code;
      return { status: 200, xml: signedAnswer(`${header(idPoruke)}<tns:Greske><tns:Greska><tns:SifraGreske>${code}</tns:SifraGreske><tns:PorukaGreske>${escapeXml(message.slice(0, 500))}</tns:PorukaGreske></tns:Greska></tns:Greske>`, pki.signer, answer) };
    };
    if (current.kind === "timeout") return null;
    if (current.kind === "error") return fail(current.code, CIS_ERROR_TEXTS[current.code] ?? "Greška.");
    const action = element.replace(/Zahtjev$/, "").replace(/^./, (c) => c.toLowerCase());
    if (!record.soapAction?.replace(/"/g, "").endsWith(`/${action}`)) return fail("s001", `${CIS_ERROR_TEXTS.s001} : SOAPAction ne odgovara poruci ${element}`);
    const problem = await check(record.racunZahtjev, element);
    if (problem) return fail(problem[0], problem[1]);
    record.jir = idPoruke;
    const racun = /<tns:Racun>[\s\S]*<\/tns:Racun>/.exec(record.racunZahtjev)?.[0] ?? "";
    const inner =
      element === "ProvjeraZahtjev"
        ? `${header(idPoruke)}${racun}`
        : `${header(idPoruke)}<tns:PorukaOdgovora><tns:SifraPoruke>p001</tns:SifraPoruke><tns:Poruka>Zahtjev je zaprimljen.</tns:Poruka></tns:PorukaOdgovora>`;
    return { status: 200, xml: signedAnswer(inner, pki.signer, answer) };
  }

  async function handle(body: string, soapAction: string | undefined): Promise<{ status: number; xml: string } | null> {
    let racunZahtjev: string;
    try {
      racunZahtjev = soapBodyElement(body);
    } catch (err) {
      return { status: 500, xml: envelope(`<soap:Fault><faultcode>soap:Client</faultcode><faultstring>${escapeXml((err as Error).message)}</faultstring></soap:Fault>`) };
    }
    const element = /^<(?:[\w.-]+:)?([\w.-]+)/.exec(racunZahtjev)?.[1] ?? "";
    const record: LocalCisRequest = { kind: element.startsWith("Evidentiraj") ? "f2" : "cis", element, body, racunZahtjev, soapAction };
    requests.push(record);
    if (record.kind === "f2") return handleF2(record);
    const operation = OPERATION_ANSWERS[element];
    if (operation) return handleOperation(record, element, operation);
    const idPoruke = /<tns:IdPoruke>([^<]*)</.exec(racunZahtjev)?.[1] ?? "";
    const current = takeMode();
    const forced = forcedAnswer(current, record, (code) => errorAnswer(idPoruke, code, CIS_ERROR_TEXTS[code] ?? "Greška."));
    if (forced !== undefined) return forced;
    const problem = await check(racunZahtjev);
    if (problem) {
      record.error = problem[0];
      return { status: 200, xml: errorAnswer(idPoruke, problem[0], problem[1]) };
    }
    const jir = randomUUID();
    record.jir = jir;
    const inner = (id: string) => `${header(id)}<tns:Jir>${jir}</tns:Jir>`;
    switch (current.kind) {
      case "bad-signature":
        return { status: 200, xml: signedAnswer(inner(idPoruke), pki.signer).replace(jir, randomUUID()) };
      case "untrusted-signer":
        return { status: 200, xml: signedAnswer(inner(idPoruke), pki.outsider) };
      case "unsigned":
        return { status: 200, xml: envelope(`<tns:RacunOdgovor xmlns:tns="${CIS_NS}" Id="G0x1-4D">${inner(idPoruke)}</tns:RacunOdgovor>`) };
      case "wrong-message":
        return { status: 200, xml: signedAnswer(inner(randomUUID()), pki.signer) };
      default:
        return { status: 200, xml: signedAnswer(inner(idPoruke), pki.signer) };
    }
  }

  const server = https.createServer({ key: pki.server.key, cert: pki.server.cert, minVersion: "TLSv1.2" }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const soapAction = typeof req.headers.soapaction === "string" ? req.headers.soapaction : undefined;
      const body = Buffer.concat(chunks).toString("utf8");
      handle(body, soapAction).then(
        async (answer) => {
          if (!answer) return; // "timeout": the connection is held until the client gives up
          const record = requests.findLast((r) => r.body === body);
          if (answerHook && record) await answerHook(record);
          if (record) record.answer = answer.xml;
          res.writeHead(answer.status, { "Content-Type": "text/xml; charset=utf-8" }).end(answer.xml);
        },
        (err: unknown) => res.writeHead(500, { "Content-Type": "text/plain" }).end(String(err)),
      );
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  await listen(opts.port ?? 0);
  const port = (server.address() as AddressInfo).port;

  return {
    url: `https://127.0.0.1:${port}/FiskalizacijaServiceTest`,
    caPem: pki.caPem,
    signerPem: pki.signer.cert,
    schemaPath,
    requests,
    beforeAnswer(hook) {
      answerHook = hook;
    },
    setMode(m, times) {
      mode = m;
      modeTimes = times ?? Infinity;
    },
    down: stop,
    up: () => listen(port),
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
