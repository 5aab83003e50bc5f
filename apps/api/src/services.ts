// The dependencies every procedure and the HTTP layer share, built once per process.
import type { Db } from "@fiskal/db";
import type { CertificateKeyring, FiscalizationService, Intermediary, KpdIndex, TaxAuthority } from "@fiskal/fiscal";
import type { RateLimiter } from "@fiskal/limits";
import type { Meter } from "@fiskal/usage";
import type { Logger } from "pino";
import type { Metrics } from "./metrics.ts";
import type { Authenticator } from "./auth.ts";
import type { AnswerJournal, Reconciler } from "./records/journal.ts";
import type { LateDelivery } from "./records/resubmit.ts";
import type { EInvoiceFiscalization } from "./einvoice-fiscalization.ts";
import type { ReceivedEInvoices } from "./received-einvoices.ts";

export interface WarningObserver {
  observe(input: {
    accountId: string;
    plan: string;
    limitsVersion: number;
    day: { limit: number; remaining: number; reset: number };
  }): void;
}

export interface Services {
  db: Db;
  kpd: KpdIndex;
  taxAuthority: TaxAuthority;
  /** Encrypts and decrypts the private keys of account certificates (CERT_ENCRYPTION_KEY). */
  certificateKeys: CertificateKeyring;
  intermediary: Intermediary;
  /** Delivers receipts issued without a JIR to CIS (NakDost); runs periodically where enabled. */
  lateDelivery?: LateDelivery;
  /** Fiscalization 2.0: records delivered e-invoices, reports payments and rejections. */
  fiscalization: FiscalizationService;
  /** Records accepted e-invoices with the tax authority; runs periodically where enabled. */
  einvoiceFiscalization?: EInvoiceFiscalization;
  /** Incoming e-invoices: the intermediary's inbox, their Fiscalization 2.0 (type U), rejection reports; runs periodically where enabled. */
  receivedEInvoices?: ReceivedEInvoices;
  /** Answers of the tax authority / intermediary that the database refused, kept on disk until stored. */
  journal: AnswerJournal;
  /** Stores journaled answers in the database (at start, periodically, and when a retry asks). */
  reconciler: Reconciler;
  limiter: RateLimiter;
  meter: Meter;
  auth: Authenticator;
  metrics: Metrics;
  log: Logger;
  warnings: WarningObserver | null;
  portalUrl: string;
  /** Proxies in front of the API that append to X-Forwarded-For (0: use the socket address). */
  trustProxyHops: number;
}
