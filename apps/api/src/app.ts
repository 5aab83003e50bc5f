// Composition root: builds the services once and starts the HTTP server.
import type { AddressInfo, Socket } from "node:net";
import pino, { type Logger } from "pino";
import { seedKpd } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
import { createIntermediarySimulator, KpdIndex, type CertificateKeyring, type CisClientOptions, type F2ClientOptions, type FiscalizationService, type Intermediary, type TaxAuthority } from "@fiskal/fiscal";
import { createRateLimiter, type StoreConfig } from "@fiskal/limits";
import { createMeter, pruneUsageEvents } from "@fiskal/usage";
import { createWarningDetector, createWebhooks } from "@fiskal/webhooks";
import { createAuthenticator } from "./auth.ts";
import { createMetrics } from "./metrics.ts";
import { listenForInvalidations } from "./invalidation.ts";
import { createApiServer, type HttpServerOptions } from "./http/server.ts";
import type { SecurityHeaderOptions } from "./http/security-headers.ts";
import { purgeExpiredIdempotencyRecords } from "./idempotency.ts";
import { createAnswerJournal, createReconciler, databaseIdentity, DEFAULT_JOURNAL_DIR } from "./journal.ts";
import type { Services, WarningObserver } from "./services.ts";
import { createLateDelivery } from "./resubmit.ts";
import { createFiscalizationService, createTaxAuthority } from "./tax-authority.ts";
import { createEInvoiceFiscalization } from "./einvoice-fiscalization.ts";
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
  /** rate_limit.warning webhooks: the detector runs on every admitted request; the delivery worker is optional per process. */
  webhooks?: { allowPrivate: boolean; worker: boolean; retryDelaysMs?: number[] } | false;
  meterFlushIntervalMs?: number;
  /** Days the request log keeps each event (default 90); pruned hourly, the hourly totals stay. */
  usageEventRetentionDays?: number;
  /** How long a shared-store call may take before the local fallback decides (default: ENV_DEFAULTS in env.ts). */
  storeTimeoutMs?: number;
  /** Connection cap and request timeouts of the HTTP listener (defaults: ENV_DEFAULTS in env.ts). */
  http?: HttpServerOptions;
  /** Where answers the database refused are journaled (default `<repo>/.data/journal`). */
  journalDir?: string;
  /** How often the reconciler stores journaled answers (default 5000 ms; it also runs at start). */
  reconcileIntervalMs?: number;
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
  const limiter = createRateLimiter({
    store: config.store,
    prefix: config.limiterPrefix ?? ENV_DEFAULTS.RATE_LIMIT_PREFIX,
    redisTimeoutMs: config.storeTimeoutMs ?? ENV_DEFAULTS.RATE_LIMIT_STORE_TIMEOUT_MS,
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
  const meter = createMeter(db, {
    flushIntervalMs: config.meterFlushIntervalMs,
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
    ? createWarningDetector({ webhooks: hooks, onError: (err) => log.error({ err }, "rate_limit.warning detection failed") })
    : null;
  const worker = hooks && config.webhooks && config.webhooks.worker ? await hooks.startWorker() : null;
  const listener = listenForInvalidations(config.databaseUrl, { account: (id) => auth.invalidateAccount(id), all: () => auth.clear() }, log);

  const journal = createAnswerJournal({ dir: config.journalDir ?? DEFAULT_JOURNAL_DIR, database: await databaseIdentity(db), log });
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
  const lateDelivery = createLateDelivery({ ...services, webhooks: hooks, intervalMs: config.lateDeliveryIntervalMs });
  services.lateDelivery = lateDelivery;
  const einvoiceFiscalization = createEInvoiceFiscalization({ ...services, intervalMs: config.lateDeliveryIntervalMs });
  services.einvoiceFiscalization = einvoiceFiscalization;
  if (config.lateDeliveryIntervalMs) {
    lateDelivery.start();
    einvoiceFiscalization.start();
  }

  // Hourly (and once now): idempotency records expire after 24 h, request-log events after the
  // retention period. The first pruning visits every account; later ones only the accounts with
  // usage since the previous complete run. One run at a time; close() stops it between statements.
  const retentionMs = (config.usageEventRetentionDays ?? ENV_DEFAULTS.USAGE_EVENT_RETENTION_DAYS) * 86_400_000;
  const stopPruning = new AbortController();
  let prunedBefore: Date | undefined;
  let running: Promise<unknown> | null = null;
  const prune = async () => {
    const before = new Date(Date.now() - retentionMs);
    try {
      const { deleted, complete } = await pruneUsageEvents(db, { before, since: prunedBefore, signal: stopPruning.signal });
      if (complete) prunedBefore = before;
      if (deleted > 0) log.info({ deleted }, "usage events past retention deleted");
    } catch (err) {
      log.warn({ err }, "usage event retention failed");
    }
  };
  const purge = () => {
    if (running) return running;
    running = Promise.all([
      purgeExpiredIdempotencyRecords(db).catch((err: unknown) => log.warn({ err }, "idempotency purge failed")),
      prune(),
    ]).finally(() => (running = null));
    return running;
  };
  void purge();
  const purgeTimer = setInterval(purge, 60 * 60 * 1000);
  purgeTimer.unref();

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
      clearInterval(purgeTimer);
      stopPruning.abort();
      await running;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
      await Promise.all([...sockets].map((socket) => new Promise((resolve) => socket.once("close", resolve))));
      await lateDelivery.stop();
      await einvoiceFiscalization.stop();
      await reconciler.stop();
      await meter.close();
      await (warnings as { flush?: () => Promise<void> } | null)?.flush?.();
      await worker?.stop();
      await hooks?.close();
      await listener.close();
      await limiter.close();
      await db.$disconnect();
    },
  };
}
