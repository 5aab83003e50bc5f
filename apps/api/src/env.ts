// The API's environment, read and validated once.
import { fileURLToPath } from "node:url";
import path from "node:path";
import { z } from "zod";
import { storeConfigFrom, type StoreConfig } from "@fiskal/limits";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** host:port, [IPv6]:port or host (port 6379) */
const CLUSTER_NODE = /^(?:\[[0-9a-fA-F:.]+\]|[^\s:,/@[\]]+)(?::(\d{1,5}))?$/;
const isClusterNode = (node: string): boolean => {
  const m = CLUSTER_NODE.exec(node.trim());
  return m !== null && (m[1] === undefined || (Number(m[1]) >= 1 && Number(m[1]) <= 65_535));
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
  API_URL: z.string().url().optional(),
  /** Proxies in front of the API that append to X-Forwarded-For; 0 uses the socket address. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(5000),
  /** Key prefix in the shared limiter store (separate deployments or test runs on one Redis). */
  RATE_LIMIT_PREFIX: z.string().min(1).default("fiskal"),
  RATE_LIMIT_STORE_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(1_000),
  /** Connections the API holds at once; one more is closed on arrival (default 2048). */
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  /** Time a request's headers may take (default 10 s); capped by HTTP_REQUEST_TIMEOUT_MS. */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).optional(),
  /** Time a whole request may take, body included, before it is answered 408 (default 30 s). */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
  /** Set by the launcher when DATABASE_URL points at the embedded database it serves. */
  FISKAL_EMBEDDED: z.enum(["0", "1"]).default("0").transform((v) => v === "1"),
  FISKAL_DATA_DIR: z.string().default(path.join(REPO_ROOT, ".data")),
  /** Days the request log (one row per request) is kept; the hourly totals behind the dashboard stay. */
  USAGE_EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  WEBHOOK_WORKER: z.enum(["0", "1", "true", "false"]).default("1").transform((v) => v === "1" || v === "true"),
  WEBHOOKS_ALLOW_PRIVATE: z.enum(["0", "1", "true", "false"]).default("0").transform((v) => v === "1" || v === "true"),
});

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
