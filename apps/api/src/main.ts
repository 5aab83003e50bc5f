// Starts the API from the environment. Without DATABASE_URL it runs on the embedded database.
import pino from "pino";
import { EmbeddedPostgresBusyError, migrate, startEmbeddedPostgres } from "@fiskal/db";
import { renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadEnv } from "./env.ts";
import { startApi } from "./app.ts";
import { mailerFromEnv } from "@fiskal/mail";
import { cisOptionsFromEnv, f2OptionsFromEnv } from "./tax-authority.ts";
import { createHttpIntermediary } from "@fiskal/fiscal";

const env = loadEnv();
const log = pino({ level: env.LOG_LEVEL, base: { service: "fiskal-api" }, redact: ["req.headers.authorization", "authorization"] });

let databaseUrl = env.DATABASE_URL;
// On the embedded database a NOTIFY reaches only the connection that sent it, so cached keys could
// not be invalidated across processes: there every request reads its key afresh instead.
let embeddedDatabase = env.FISKAL_EMBEDDED;
let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
if (!databaseUrl) {
  try {
    embedded = await startEmbeddedPostgres({ dataDir: path.join(env.FISKAL_DATA_DIR, "pglite"), port: 0 });
    databaseUrl = embedded.url;
  } catch (err) {
    // Another process (e.g. `pnpm start`) already serves the embedded database: share it.
    if (!(err instanceof EmbeddedPostgresBusyError)) throw err;
    databaseUrl = err.url;
  }
  embeddedDatabase = true;
  log.warn({ dataDir: env.FISKAL_DATA_DIR }, "DATABASE_URL is not set: using the embedded database");
}
await migrate(databaseUrl);

const api = await startApi({
  databaseUrl,
  store: env.store,
  portalUrl: env.PORTAL_URL,
  apiUrl: env.API_URL,
  host: env.HOST,
  port: env.PORT,
  trustProxyHops: env.TRUST_PROXY_HOPS,
  authCacheTtlMs: embeddedDatabase ? 0 : env.AUTH_CACHE_TTL_MS,
  storeTimeoutMs: env.RATE_LIMIT_STORE_TIMEOUT_MS,
  limiterPrefix: env.RATE_LIMIT_PREFIX,
  webhooks: { allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE, worker: env.WEBHOOK_WORKER },
  usageEventRetentionDays: env.USAGE_EVENT_RETENTION_DAYS,
  http: {
    maxConnections: env.HTTP_MAX_CONNECTIONS,
    headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
  },
  journalDir: path.join(env.FISKAL_DATA_DIR, "journal"),
  usageSpoolDir: env.USAGE_SPOOL_DIR ?? path.join(env.FISKAL_DATA_DIR, "usage-spool"),
  cis: cisOptionsFromEnv(env),
  f2: f2OptionsFromEnv(env),
  ...(env.INTERMEDIARY_URL ? { intermediary: createHttpIntermediary({ url: env.INTERMEDIARY_URL, apiKey: env.INTERMEDIARY_API_KEY ?? "" }) } : {}),
  lateDeliveryIntervalMs: env.LATE_DELIVERY_INTERVAL_MS,
  mailer: mailerFromEnv(env),
  logger: log,
});
log.info({ url: api.url, store: env.store.kind }, "Fiskal API listening");
if (env.FISKAL_URL_FILE) {
  writeFileSync(`${env.FISKAL_URL_FILE}.${process.pid}`, api.url);
  renameSync(`${env.FISKAL_URL_FILE}.${process.pid}`, env.FISKAL_URL_FILE);
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) {
      log.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, "shutting down");
    // In-flight requests get a moment to finish; a hung dependency must not keep the process alive.
    setTimeout(() => {
      log.error("shutdown took longer than 15 s: exiting");
      process.exit(1);
    }, 15_000).unref();
    (async () => {
      await api.close();
      await embedded?.close();
    })().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  });
}
