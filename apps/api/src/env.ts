// The API's environment, read and validated once.
import { fileURLToPath } from "node:url";
import path from "node:path";
import { z } from "zod";
import { storeConfigFrom, type StoreConfig } from "@fiskal/limits";
import { parseEncryptionKey } from "@fiskal/fiscal";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** host:port, [IPv6]:port or host (port 6379) */
const CLUSTER_NODE = /^(?:\[[0-9a-fA-F:.]+\]|[^\s:,/@[\]]+)(?::(\d{1,5}))?$/;
const isClusterNode = (node: string): boolean => {
  const m = CLUSTER_NODE.exec(node.trim());
  return m !== null && (m[1] === undefined || (Number(m[1]) >= 1 && Number(m[1]) <= 65_535));
};

/**
 * The defaults of settings other modules also need when a caller leaves them out (tests start the
 * API without the environment): the one place they are written.
 */
export const ENV_DEFAULTS = {
  RATE_LIMIT_PREFIX: "fiskal",
  /** Generous on purpose: a busy event loop must not be mistaken for an unreachable store. */
  RATE_LIMIT_STORE_TIMEOUT_MS: 1_000,
  TRUST_PROXY_HOPS: 0,
  AUTH_CACHE_TTL_MS: 5_000,
  USAGE_EVENT_RETENTION_DAYS: 30,
  HTTP_MAX_CONNECTIONS: 2_048,
  HTTP_HEADERS_TIMEOUT_MS: 10_000,
  HTTP_REQUEST_TIMEOUT_MS: 30_000,
} as const;

/**
 * REST answers are checked against their procedure's output schema in development and in the tests,
 * not in production (NODE_ENV=production): there the resolvers' return types are the compiler's to
 * check, and the schemas the tests'. /trpc checks them always (tRPC's caller).
 */
export const VALIDATE_OUTPUT = process.env.NODE_ENV !== "production";

const isEncryptionKey = (v: string): boolean => {
  try {
    parseEncryptionKey(v);
    return true;
  } catch {
    return false;
  }
};

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z.string().min(1).optional(),
  /** `redis://…`/`rediss://…` for one Redis, or `redis+cluster://[user:password@]host:port,host:port,…` (`rediss+cluster://`) for a Redis Cluster */
  REDIS_URL: z.string().min(1).optional(),
  /** Seed nodes of a Redis Cluster, "host:port,host:port,…" (wins over REDIS_URL); for TLS use a rediss+cluster:// REDIS_URL. */
  REDIS_CLUSTER_NODES: z
    .string()
    .trim()
    .min(1)
    .refine((v) => v.split(",").every(isClusterNode), {
      message: 'expected "host:port,host:port,…"',
    })
    .optional(),
  /** Credentials for REDIS_CLUSTER_NODES (the ACL user name is optional). */
  REDIS_USERNAME: z.string().min(1).optional(),
  REDIS_PASSWORD: z.string().min(1).optional(),
  UPSTASH_REDIS_REST_URL: z.string().url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  PORTAL_URL: z.string().url().default("http://127.0.0.1:3000"),
  /** Mail (rate_limit.warning to the owners): smtp://user:pass@host:port or smtps://…; unset: no e-mail. */
  SMTP_URL: z.string().trim().min(1).optional(),
  MAIL_FROM: z.string().trim().min(1).optional(),
  API_URL: z.string().url().optional(),
  /** Proxies in front of the API that append to X-Forwarded-For; 0 uses the socket address. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(ENV_DEFAULTS.TRUST_PROXY_HOPS),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(ENV_DEFAULTS.AUTH_CACHE_TTL_MS),
  /** Key prefix in the shared limiter store (separate deployments or test runs on one Redis). */
  RATE_LIMIT_PREFIX: z.string().min(1).default(ENV_DEFAULTS.RATE_LIMIT_PREFIX),
  RATE_LIMIT_STORE_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(ENV_DEFAULTS.RATE_LIMIT_STORE_TIMEOUT_MS),
  /** Connections the API holds at once; one more is closed on arrival (default in ENV_DEFAULTS). */
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  /** Time a request's headers may take (default in ENV_DEFAULTS); capped by HTTP_REQUEST_TIMEOUT_MS. */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).optional(),
  /** Time a whole request may take, body included, before it is answered 408 (default in ENV_DEFAULTS). */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
  /** Set by the launcher when DATABASE_URL points at the embedded database it serves. */
  FISKAL_EMBEDDED: z.enum(["0", "1"]).default("0").transform((v) => v === "1"),
  FISKAL_DATA_DIR: z.string().default(path.join(REPO_ROOT, ".data")),
  /** Written with the API's URL once it listens (replaced whole, never half-written): with PORT=0, how a supervisor learns the port the system gave. */
  FISKAL_URL_FILE: z.string().min(1).optional(),
  /** The usage meter's local spool (one folder per instance; default FISKAL_DATA_DIR/usage-spool): a killed instance's usage is counted at the next start on this host. */
  USAGE_SPOOL_DIR: z.string().min(1).optional(),
  /** Days the request log (one row per request) is kept; the hourly totals behind the dashboard stay. */
  USAGE_EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(ENV_DEFAULTS.USAGE_EVENT_RETENTION_DAYS),
  WEBHOOK_WORKER: z.enum(["0", "1", "true", "false"]).default("1").transform((v) => v === "1" || v === "true"),
  WEBHOOKS_ALLOW_PRIVATE: z.enum(["0", "1", "true", "false"]).default("0").transform((v) => v === "1" || v === "true"),
  /** The tax authority's service (https); unset: the built-in CIS simulator. Test: https://cistest.apis-it.hr:8449/FiskalizacijaServiceTest */
  CIS_URL: z.string().url().refine((v) => v.startsWith("https://"), "CIS_URL must be an https address").optional(),
  /** PEM bundle of the CAs that issue the CIS server's TLS certificate (FINA RDC CA; FINA Demo CA for the test service); default: the system's roots. */
  CIS_CA_FILE: z.string().min(1).optional(),
  /** PEM of the certificate CIS signs its answers with (pinned); or trust CIS_SIGNER_CA_FILE + CIS_SIGNER_NAMES. */
  CIS_SIGNER_CERT_FILE: z.string().min(1).optional(),
  /** PEM bundle of the CAs that issue CIS's signing certificate (default: CIS_CA_FILE). */
  CIS_SIGNER_CA_FILE: z.string().min(1).optional(),
  /** Accepted subject CNs of CIS's signing certificate (default: fiskalcistest for cistest.*, else fiskalcis). */
  CIS_SIGNER_NAMES: z.string().min(1).optional(),
  CIS_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  /** Time a CIS call may take in all (CIS itself answers within 2 s, spec v2.6 §2.1). */
  CIS_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(5_000),
  /** The tax authority's Fiscalization 2.0 service (https); unset: the built-in simulator. Test: https://cistest.apis-it.hr:8509/FiskalizacijaServiceEprod */
  F2_URL: z.string().url().refine((v) => v.startsWith("https://"), "F2_URL must be an https address").optional(),
  /** PEM bundle of the CAs of the Fiscalization 2.0 service's TLS certificate (default: CIS_CA_FILE). */
  F2_CA_FILE: z.string().min(1).optional(),
  /** The e-invoice intermediary's address (https; http only on loopback) and API key; unset: the built-in simulator (docs/einvoices.md). */
  INTERMEDIARY_URL: z.string().url().optional(),
  INTERMEDIARY_API_KEY: z.string().min(1).optional(),
  /** How often receipts issued without a JIR are delivered late and delivered e-invoices recorded (0: not in this process). */
  LATE_DELIVERY_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
  /** 32 bytes (base64 or hex) that encrypt certificate private keys at rest; without it a key is generated into FISKAL_DATA_DIR. */
  CERT_ENCRYPTION_KEY: z.string().trim().min(1).refine(isEncryptionKey, "expected 32 random bytes, base64 (openssl rand -base64 32) or 64 hex characters").optional(),
  /** Former CERT_ENCRYPTION_KEYs, comma-separated, still accepted for decrypting while keys are rotated. */
  CERT_ENCRYPTION_PREVIOUS_KEYS: z.string().trim().min(1).refine((v) => v.split(",").every((k) => isEncryptionKey(k.trim())), "expected comma-separated keys of 32 bytes (base64 or hex)").optional(),
  /** `pnpm fiskal certificate upload`: the certificate's password, when not given in --password-file. */
  FISKAL_CERT_PASSWORD: z.string().optional(),
});

/**
 * What the certificate keyring needs, for a process that starts the API without loading the whole
 * environment (the tests): the keys and the data folder a generated key is kept in.
 */
export function certificateKeyEnv(source: NodeJS.ProcessEnv = process.env): { CERT_ENCRYPTION_KEY?: string; CERT_ENCRYPTION_PREVIOUS_KEYS?: string; dataDir: string } {
  return {
    CERT_ENCRYPTION_KEY: source.CERT_ENCRYPTION_KEY?.trim() || undefined,
    CERT_ENCRYPTION_PREVIOUS_KEYS: source.CERT_ENCRYPTION_PREVIOUS_KEYS?.trim() || undefined,
    dataDir: source.FISKAL_DATA_DIR ?? path.join(REPO_ROOT, ".data"),
  };
}

export type Env = z.infer<typeof Env> & { store: StoreConfig; apiUrl: string };

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = Env.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const env = parsed.data;
  if (env.REDIS_USERNAME !== undefined && env.REDIS_PASSWORD === undefined) {
    throw new Error("Invalid environment:\n  REDIS_USERNAME: set REDIS_PASSWORD too");
  }
  return { ...env, store: storeConfigFrom(env), apiUrl: env.API_URL ?? `http://${env.HOST}:${env.PORT}` };
}
