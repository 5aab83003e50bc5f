// Which tax authority the API talks to: the real CIS when CIS_URL is set, else the simulator.
import { readFileSync } from "node:fs";
import {
  CIS_DEFAULT_TIMEOUTS,
  CIS_SIGNER_NAMES,
  createCisClient,
  createCisSimulator,
  createF2Client,
  createF2Simulator,
  pemCertificates,
  type CisClientOptions,
  type F2ClientOptions,
  type FiscalizationService,
  type TaxAuthority,
} from "@fiskal/fiscal";
import type { Logger } from "pino";

export interface CisEnv {
  CIS_URL?: string;
  CIS_CA_FILE?: string;
  CIS_SIGNER_CERT_FILE?: string;
  CIS_SIGNER_CA_FILE?: string;
  CIS_SIGNER_NAMES?: string;
  CIS_CONNECT_TIMEOUT_MS: number;
  CIS_TIMEOUT_MS: number;
  F2_URL?: string;
  F2_CA_FILE?: string;
}

function readPemBundle(file: string, what: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(`${what}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const certs = pemCertificates(text);
  if (!certs.length) throw new Error(`${what}: ${file} holds no PEM certificate`);
  return certs;
}

/** The real CIS client's settings from the environment, or null when CIS_URL is not set. Throws on unreadable files. */
export function cisOptionsFromEnv(env: CisEnv): CisClientOptions | null {
  if (!env.CIS_URL) return null;
  const ca = env.CIS_CA_FILE ? readPemBundle(env.CIS_CA_FILE, "CIS_CA_FILE") : undefined;
  const pinned = env.CIS_SIGNER_CERT_FILE ? readPemBundle(env.CIS_SIGNER_CERT_FILE, "CIS_SIGNER_CERT_FILE") : undefined;
  const signerCa = env.CIS_SIGNER_CA_FILE ? readPemBundle(env.CIS_SIGNER_CA_FILE, "CIS_SIGNER_CA_FILE") : ca;
  const test = new URL(env.CIS_URL).hostname.startsWith("cistest.");
  const names = env.CIS_SIGNER_NAMES
    ? env.CIS_SIGNER_NAMES.split(",").map((n) => n.trim()).filter(Boolean)
    : [test ? CIS_SIGNER_NAMES.test : CIS_SIGNER_NAMES.production];
  if (!pinned && !signerCa) {
    throw new Error("CIS_URL is set: set CIS_SIGNER_CERT_FILE (CIS's signing certificate) or CIS_SIGNER_CA_FILE / CIS_CA_FILE (the CA that issues it)");
  }
  return {
    url: env.CIS_URL,
    ca: ca?.join("\n"),
    signer: { pinned, ca: signerCa, names },
    connectTimeoutMs: env.CIS_CONNECT_TIMEOUT_MS,
    timeoutMs: env.CIS_TIMEOUT_MS,
  };
}

/**
 * The lease of a call to the tax authority: how long a receipt stays with the request (or the job)
 * that sends it before any instance may deliver it late — the connection, the whole call twice over,
 * and 5 s to store the answer. A process that dies mid-call, or an answer no database took, delays the
 * receipt by this much at most; until then nobody else sends it.
 */
export function callLeaseMs(cis: Pick<CisClientOptions, "connectTimeoutMs" | "timeoutMs"> | null | undefined): number {
  return (cis?.connectTimeoutMs ?? CIS_DEFAULT_TIMEOUTS.connectMs) + 2 * (cis?.timeoutMs ?? CIS_DEFAULT_TIMEOUTS.totalMs) + 5_000;
}

/** The tax authority port for this process, announced in the log. */
export function createTaxAuthority(cis: CisClientOptions | null | undefined, log: Logger): TaxAuthority {
  if (!cis) {
    log.warn("CIS_URL is not set: receipts get their JIR from the built-in CIS SIMULATOR, not from the tax authority");
    return createCisSimulator();
  }
  const client = createCisClient(cis);
  log.info({ url: client.url, signerNames: cis.signer.names, pinnedSigners: cis.signer.pinned?.length ?? 0 }, "receipts are fiscalized with the tax authority (CIS)");
  return client;
}

/**
 * The Fiscalization 2.0 service's settings, or null when F2_URL is not set. Its answers are signed
 * by the tax authority like CIS's: the same signer trust (CIS_SIGNER_*) applies; the TLS CA bundle
 * is F2_CA_FILE, else CIS_CA_FILE.
 */
export function f2OptionsFromEnv(env: CisEnv): F2ClientOptions | null {
  if (!env.F2_URL) return null;
  const cis = cisOptionsFromEnv({ ...env, CIS_URL: env.F2_URL, CIS_CA_FILE: env.F2_CA_FILE ?? env.CIS_CA_FILE });
  return cis && { url: cis.url, ca: cis.ca, signer: cis.signer, connectTimeoutMs: cis.connectTimeoutMs, timeoutMs: cis.timeoutMs };
}

/** The Fiscalization 2.0 port for this process, announced in the log. */
export function createFiscalizationService(f2: F2ClientOptions | null | undefined, log: Logger): FiscalizationService {
  if (!f2) {
    log.warn("F2_URL is not set: delivered e-invoices, payments and rejections are recorded with the built-in Fiscalization 2.0 SIMULATOR");
    return createF2Simulator();
  }
  const client = createF2Client(f2);
  log.info({ url: client.url }, "e-invoices are recorded with the tax authority (Fiscalization 2.0)");
  return client;
}
