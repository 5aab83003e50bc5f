// Starts the API from the environment. Without DATABASE_URL it runs on the embedded database.
import pino from "pino";
import { EmbeddedPostgresBusyError, migrate, startEmbeddedPostgres } from "@fiskal/db";
import path from "node:path";
import { loadEnv } from "./env.ts";
import { startApi } from "./app.ts";

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
  trustProxy: env.TRUST_PROXY,
  authCacheTtlMs: embeddedDatabase ? 0 : env.AUTH_CACHE_TTL_MS,
  storeTimeoutMs: env.RATE_LIMIT_STORE_TIMEOUT_MS,
  limiterPrefix: env.RATE_LIMIT_PREFIX,
  webhooks: { allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE, worker: env.WEBHOOK_WORKER },
  logger: log,
});
log.info({ url: api.url, store: env.store.kind }, "Fiskal API listening");

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    await api.close();
    await embedded?.close();
    process.exit(0);
  });
}
