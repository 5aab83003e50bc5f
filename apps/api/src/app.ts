// Composition root: builds the services once and starts the HTTP server.
import type { AddressInfo, Socket } from "node:net";
import pino, { type Logger } from "pino";
import { seedKpd } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
import { createIntermediarySimulator, KpdIndex, type CertificateKeyring, type CisClientOptions, type F2ClientOptions, type FiscalizationService, type Intermediary, type ReceivedValidator, type TaxAuthority } from "@fiskal/fiscal";
import { createRateLimiter, type StoreConfig } from "@fiskal/limits";
import { createMeter, maintainRequestLog, replaySpools } from "@fiskal/usage";
import { createWarningDetector, createWebhooks } from "@fiskal/webhooks";
import type { Mailer } from "@fiskal/mail";
import { warningMailer } from "./warning-mail.ts";
import { createReportingDueJob } from "./procedures/einvoices/reporting-due.ts";
import { createArchiveJob } from "./archive/job.ts";
import { createAuthenticator } from "./auth.ts";
import { createMetrics } from "./metrics.ts";
import { createLimiterInstances } from "./limiter-instances.ts";
import { listenForInvalidations } from "./invalidation.ts";
import { createApiServer, type HttpServerOptions } from "./http/server.ts";
import type { SecurityHeaderOptions } from "./http/security-headers.ts";
import { closeReadinessProbe } from "./http/readiness.ts";
import { purgeExpiredIdempotencyRecords } from "./idempotency.ts";
import { periodicJob } from "./periodic.ts";
import { createAnswerJournal, createReconciler, createSharedJournal, databaseIdentity, DEFAULT_JOURNAL_DIR } from "./records/journal.ts";
import type { Services, WarningObserver } from "./services.ts";
import { createLateDelivery } from "./records/resubmit.ts";
import { callLeaseMs, createFiscalizationService, createTaxAuthority } from "./tax-authority.ts";
import { createEInvoiceFiscalization } from "./einvoice-fiscalization.ts";
import { createReceivedEInvoices } from "./received-einvoices.ts";
import { defaultCertificateKeyring } from "./procedures/certificates/keyring.ts";
import { ENV_DEFAULTS } from "./env.ts";

export interface ApiConfig {
  databaseUrl: string;
  store: StoreConfig;
  portalUrl: string;
  /** Public base URL written into the OpenAPI document; defaults to the listening address. */
  apiUrl?: string;
  /** Strict-Transport-Security on every response; by default on exactly when `apiUrl` is https. */
  hsts?: boolean;
  host?: string;
  port?: number;
  trustProxyHops?: number;
  authCacheTtlMs?: number;
  logger?: Logger;
  /** Key prefix in the shared store (tests use a unique one; default: ENV_DEFAULTS in env.ts). */
  limiterPrefix?: string;
  taxAuthority?: TaxAuthority;
  /** The real CIS client (CIS_URL …); without it and without `taxAuthority`, the simulator, announced at start. */
  cis?: CisClientOptions | null;
  /** Fiscalization 2.0 service (F2_URL …); without it and without `fiscalization`, the simulator, announced at start. */
  f2?: F2ClientOptions | null;
  fiscalization?: FiscalizationService;
  /** Late delivery of receipts and Fiscalization 2.0 of delivered e-invoices: how often those jobs run here (default: not in this process; main.ts turns them on). */
  lateDeliveryIntervalMs?: number;
  /** Encrypts certificate private keys at rest; default: CERT_ENCRYPTION_KEY, else a key file in the data folder. */
  certificateKeys?: CertificateKeyring;
  intermediary?: Intermediary;
  /** How received e-invoices are validated (default `receivedValidator()`: UBL 2.1 XSD, EN 16931, HR CIUS). */
  receivedValidator?: ReceivedValidator;
  /** rate_limit.warning also by e-mail to the account's owners (SMTP_URL); without it, the webhook only. */
  mailer?: Mailer | null;
  /** rate_limit.warning webhooks: the detector runs on every admitted request; the delivery worker is optional per process. */
  webhooks?: { allowPrivate: boolean; worker: boolean; retryDelaysMs?: number[] } | false;
  meterFlushIntervalMs?: number;
  /**
   * The usage meter's local spool (main.ts: USAGE_SPOOL_DIR, default FISKAL_DATA_DIR/usage-spool).
   * Spools left by stopped processes on this host are counted at start. Without it a kill loses up to
   * one flush interval of usage, and a stop while the database is unreachable what was not flushed.
   */
  usageSpoolDir?: string;
  /** Days the request log keeps each event, at least (default 30); its daily partitions are dropped hourly, the hourly totals stay. */
  usageEventRetentionDays?: number;
  /** How long a shared-store call may take before the local fallback decides (default: ENV_DEFAULTS in env.ts). */
  storeTimeoutMs?: number;
  /** Tests only: the rate limiter decides at this clock (Unix ms), see `now` of createRateLimiter; refused in a production build. */
  rateLimitClock?: () => number;
  /** Connection cap and request timeouts of the HTTP listener (defaults: ENV_DEFAULTS in env.ts). */
  http?: HttpServerOptions;
  /** Where answers the database refused are journaled (default `<repo>/.data/journal`). */
  journalDir?: string;
  /** How often the reconciler stores journaled answers (default 5000 ms; it also runs at start). */
  reconcileIntervalMs?: number;
  /** How long a call to the tax authority holds its receipt before late delivery may take it (default: `callLeaseMs` of the CIS settings). */
  callLeaseMs?: number;
}

export interface RunningApi {
  url: string;
  port: number;
  services: Services;
  close(): Promise<void>;
}

export async function startApi(config: ApiConfig): Promise<RunningApi> {
  const log = config.logger ?? pino({ level: "info", redact: ["req.headers.authorization"] });
  const db = createDb(config.databaseUrl, { max: 10 });
  let rows = await db.kpdCode.findMany({ select: { code: true, name: true, level: true, section: true, parentCode: true } });
  if (rows.length === 0) {
    await seedKpd(db);
    rows = await db.kpdCode.findMany({ select: { code: true, name: true, level: true, section: true, parentCode: true } });
  }
  const kpd = KpdIndex.fromRows(rows);
  const metrics = createMetrics();
  if (config.store.kind === "memory") {
    log.warn(
      "RATE LIMITS USE THE IN-PROCESS STORE: counts live in this process only. Fine for a single-process trial; " +
        "set REDIS_URL, REDIS_CLUSTER_NODES or UPSTASH_REDIS_REST_URL/TOKEN for anything shared or scaled.",
    );
  }
  // every process that shares the store counts itself here: while the store is unreachable, each
  // admits only its share of every limit (limit ÷ live processes)
  const limiterInstances = config.store.kind === "memory"
    ? null
    : createLimiterInstances(db, { onError: (err) => log.warn({ err }, "limiter heartbeat could not be written; keeping the last count of processes") });
  await limiterInstances?.start();
  const limiter = createRateLimiter({
    store: config.store,
    liveInstances: limiterInstances ?? undefined,
    prefix: config.limiterPrefix ?? ENV_DEFAULTS.RATE_LIMIT_PREFIX,
    redisTimeoutMs: config.storeTimeoutMs ?? ENV_DEFAULTS.RATE_LIMIT_STORE_TIMEOUT_MS,
    ...(config.rateLimitClock ? { now: config.rateLimitClock } : {}),
    onEvent: (e) => {
      if (e.type === "fallback") {
        metrics.storeFallbacks.inc();
        metrics.storeDegraded.set(1);
        log.error({ reason: e.reason }, "rate-limit store unreachable: deciding with the local fallback limiter");
      } else if (e.type === "recovered") {
        metrics.storeDegraded.set(0);
        log.warn("rate-limit store reachable again: back to shared limits");
      }
    },
  });
  const database = await databaseIdentity(db);
  const spool = config.usageSpoolDir ? { dir: config.usageSpoolDir, database } : undefined;
  if (spool) {
    // Before the first request: what a killed or stopped instance did not write is counted now.
    try {
      const replayed = await replaySpools(db, { ...spool, onError: (err) => log.warn({ err }, "usage spool replay") });
      if (replayed.spools > 0) log.info(replayed, "usage of stopped instances counted from their spools");
    } catch (err) {
      log.error({ err }, "usage spools of stopped instances could not be counted; they are kept for the next start");
    }
  }
  const meter = createMeter(db, {
    flushIntervalMs: config.meterFlushIntervalMs,
    spool,
    onError: (err) => log.error({ err }, "usage events could not be written; keeping them for the next flush"),
  });
  const auth = createAuthenticator({ db, ttlMs: config.authCacheTtlMs ?? ENV_DEFAULTS.AUTH_CACHE_TTL_MS });
  const hooks = config.webhooks === false || config.webhooks === undefined
    ? null
    : createWebhooks({
        db,
        databaseUrl: config.databaseUrl,
        allowPrivate: config.webhooks.allowPrivate,
        retryDelaysMs: config.webhooks.retryDelaysMs,
        onError: (err) => log.error({ err }, "webhook engine error"),
      });
  await hooks?.ready();
  const warnings: WarningObserver | null = hooks
    ? createWarningDetector({
        webhooks: hooks,
        onError: (err) => log.error({ err }, "rate_limit.warning detection failed"),
        ...(config.mailer ? { onWarning: warningMailer(db, config.mailer, config.portalUrl.replace(/\/$/, ""), log) } : {}),
      })
    : null;
  const worker = hooks && config.webhooks && config.webhooks.worker ? await hooks.startWorker() : null;
  const listener = listenForInvalidations(config.databaseUrl, { account: (id) => auth.invalidateAccount(id), all: () => auth.clear() }, log);

  // Answers reach every instance through the shared store as well as this disk (journal.ts).
  const shared = createSharedJournal({ store: config.store, prefix: config.limiterPrefix ?? ENV_DEFAULTS.RATE_LIMIT_PREFIX, database, log });
  const journal = createAnswerJournal({ dir: config.journalDir ?? DEFAULT_JOURNAL_DIR, database, log, shared });
  const reconciler = createReconciler({ db, journal, log, intervalMs: config.reconcileIntervalMs });
  // Before the first request: answers journaled before a stop are stored now.
  await reconciler.start();

  const services: Services = {
    db,
    kpd,
    taxAuthority: config.taxAuthority ?? createTaxAuthority(config.cis, log),
    fiscalization: config.fiscalization ?? createFiscalizationService(config.f2, log),
    certificateKeys: config.certificateKeys ?? defaultCertificateKeyring(log),
    intermediary: config.intermediary ?? createIntermediarySimulator(),
    journal,
    reconciler,
    limiter,
    meter,
    auth,
    metrics,
    log,
    warnings,
    portalUrl: config.portalUrl.replace(/\/$/, ""),
    trustProxyHops: config.trustProxyHops ?? ENV_DEFAULTS.TRUST_PROXY_HOPS,
  };
  const lateDelivery = createLateDelivery({ ...services, webhooks: hooks, intervalMs: config.lateDeliveryIntervalMs, leaseMs: config.callLeaseMs ?? callLeaseMs(config.cis) });
  services.lateDelivery = lateDelivery;
  const einvoiceFiscalization = createEInvoiceFiscalization({ ...services, webhooks: hooks, intervalMs: config.lateDeliveryIntervalMs, leaseMs: lateDelivery.leaseMs });
  services.einvoiceFiscalization = einvoiceFiscalization;
  // Incoming e-invoices: inbox, Fiscalization 2.0 type U, rejection reports (received-einvoices.ts).
  const receivedEInvoices = createReceivedEInvoices({ ...services, webhooks: hooks, validate: config.receivedValidator, intervalMs: config.lateDeliveryIntervalMs });
  services.receivedEInvoices = receivedEInvoices;
  if (config.lateDeliveryIntervalMs) {
    lateDelivery.start();
    einvoiceFiscalization.start();
    receivedEInvoices.start();
  }
  // reporting.due: hourly, in the 5 days before each 20th (procedures/einvoices/reporting-due.ts).
  const reportingDue = hooks ? createReportingDueJob({ db, webhooks: hooks }) : null;
  if (config.lateDeliveryIntervalMs) reportingDue?.start();
  // The archive: final documents sealed into their account's hash chain every 10 minutes (archive/job.ts).
  const archive = createArchiveJob({ db });
  if (config.lateDeliveryIntervalMs) archive.start();

  // Hourly (and once now): idempotency records expire after 24 h; the request log gets its daily
  // partitions for today and the next two days, and loses those past the retention period (whole
  // partitions, never a DELETE). One run at a time (periodic.ts).
  const retentionDays = config.usageEventRetentionDays ?? ENV_DEFAULTS.USAGE_EVENT_RETENTION_DAYS;
  const prune = async () => {
    try {
      const { created, dropped } = await maintainRequestLog(db, { retentionDays });
      if (created.length > 0 || dropped.length > 0) log.info({ created, dropped }, "request log partitions created and expired");
    } catch (err) {
      log.warn({ err }, "request log maintenance failed");
    }
  };
  const maintenance = periodicJob(async () => {
    await Promise.all([purgeExpiredIdempotencyRecords(db).catch((err: unknown) => log.warn({ err }, "idempotency purge failed")), prune()]);
    return 0;
  }, 60 * 60 * 1000);
  maintenance.start();

  const host = config.host ?? "127.0.0.1";
  let url = "";
  const serverOptions: SecurityHeaderOptions & { apiUrl: () => string } = { apiUrl: () => config.apiUrl ?? url, hsts: config.hsts };
  const server = createApiServer(services, { ...serverOptions, http: config.http });
  // Requests are metered when their response closes. A socket destroyed at the end of the shutdown
  // grace period closes only after the server's own 'close' event: close() waits for those too,
  // so that the meter's final flush sees every request.
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  return {
    url,
    port,
    services,
    async close() {
      await maintenance.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
      await Promise.all([...sockets].map((socket) => new Promise((resolve) => socket.once("close", resolve))));
      await lateDelivery.stop();
      await einvoiceFiscalization.stop();
      await receivedEInvoices.stop();
      await reportingDue?.stop();
      await archive.stop();
      await reconciler.stop();
      await journal.close();
      await meter.close();
      await (warnings as { flush?: () => Promise<void> } | null)?.flush?.();
      await worker?.stop();
      await hooks?.close();
      await listener.close();
      await limiter.close();
      await limiterInstances?.stop();
      await closeReadinessProbe(db);
      await db.$disconnect();
    },
  };
}
