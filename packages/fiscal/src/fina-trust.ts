// Which CA issued a signing certificate: FINA's production CAs, FINA's demo CAs, or neither. The
// public CA certificates ship with the package (../certs, see its README; embedded by fina-ca-certificates.ts); a certificate is FINA's
// when its chain ends in one of the bundled roots, through a bundled intermediate, with every
// signature and every validity period checked.
import { X509Certificate } from "node:crypto";
import { FINA_DEMO_CA_PEM, FINA_PRODUCTION_CA_PEM } from "./fina-ca-certificates.ts";

/** `fina_production`: chains to Fina Root CA; `fina_demo`: to Fina Demo Root CA; `untrusted`: neither (self-signed, another CA). */
export type CertificateTrust = "fina_production" | "fina_demo" | "untrusted";

/** What an endpoint takes: FINA production certificates only, FINA demo certificates only, or any (simulators, a local CIS). */
export type CertificateAcceptance = "fina_production" | "fina_demo" | "any";

function bundle(text: string): X509Certificate[] {
  return (text.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []).map((pem) => new X509Certificate(pem));
}

let cached: { production: X509Certificate[]; demo: X509Certificate[] } | null = null;
function finaCas() {
  cached ??= { production: bundle(FINA_PRODUCTION_CA_PEM), demo: bundle(FINA_DEMO_CA_PEM) };
  return cached;
}

function validAt(cert: X509Certificate, now: Date): boolean {
  return now >= new Date(cert.validFrom) && now <= new Date(cert.validTo);
}

/** The chain from `leaf` to a self-signed CA of `cas` (leaf first), or null when there is none. */
function chainTo(leaf: X509Certificate, cas: X509Certificate[], now: Date): X509Certificate[] | null {
  const chain = [leaf];
  let current = leaf;
  for (let depth = 0; depth < 5; depth++) {
    const issuer = cas.find((ca) => ca.ca && current.checkIssued(ca) && current.verify(ca.publicKey) && validAt(ca, now));
    if (!issuer || issuer.fingerprint256 === current.fingerprint256) return null;
    chain.push(issuer);
    if (issuer.checkIssued(issuer)) return chain;
    current = issuer;
  }
  return null;
}

/** The common name of a certificate's issuer, e.g. "Fina RDC 2020". */
export function issuerCommonName(cert: X509Certificate): string | null {
  return /(?:^|\n)CN=([^\n]+)/.exec(cert.issuer)?.[1] ?? null;
}

export interface CertificateChain {
  trust: CertificateTrust;
  /** Subjects' common names from the certificate's issuer up to the root, e.g. ["Fina RDC 2020", "Fina Root CA"]; empty when untrusted. */
  chain: string[];
}

/** Where a certificate chains to among the bundled FINA CAs, at `now`. */
export function finaChain(certPem: string, now: Date = new Date()): CertificateChain {
  const leaf = new X509Certificate(certPem);
  const { production, demo } = finaCas();
  const names = (c: X509Certificate[]) => c.slice(1).map((x) => /(?:^|\n)CN=([^\n]+)/.exec(x.subject)?.[1] ?? x.subject);
  const prod = chainTo(leaf, production, now);
  if (prod) return { trust: "fina_production", chain: names(prod) };
  const dem = chainTo(leaf, demo, now);
  if (dem) return { trust: "fina_demo", chain: names(dem) };
  return { trust: "untrusted", chain: [] };
}

/** Whether an endpoint that takes `acceptance` takes a certificate of `trust`. */
export function acceptsCertificate(acceptance: CertificateAcceptance, trust: CertificateTrust): boolean {
  return acceptance === "any" || acceptance === trust;
}

/**
 * The certificates a CIS / Fiscalization 2.0 address takes: the tax authority's test hosts
 * (`cistest.*`) FINA demo certificates, loopback addresses (a local CIS) any, every other host FINA
 * production certificates (a proxy in front of production is production).
 */
export function certificateAcceptanceFor(url: string): CertificateAcceptance {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (host.startsWith("cistest.")) return "fina_demo";
  if (host === "localhost" || host === "::1" || /^127\./.test(host)) return "any";
  return "fina_production";
}
