// The web app's configuration, read from the process environment once and validated.
import { z } from "zod";
import { storeConfigFrom } from "@fiskal/limits";

const DEFAULT_PORTAL_URL = "http://127.0.0.1:3000";

const schema = z
  .object({
    DATABASE_URL: z.string().min(1, "DATABASE_URL je obavezan"),
    NEXTAUTH_SECRET: z.string().min(16, "NEXTAUTH_SECRET mora imati barem 16 znakova"),
    NEXTAUTH_URL: z.url().optional(),
    PORTAL_URL: z.url().optional(),
    API_URL: z.url().default("http://127.0.0.1:3001"),
    REDIS_URL: z.string().min(1).optional(),
    REDIS_CLUSTER_NODES: z.string().trim().min(1).optional(),
    REDIS_USERNAME: z.string().min(1).optional(),
    REDIS_PASSWORD: z.string().min(1).optional(),
    UPSTASH_REDIS_REST_URL: z.url().optional(),
    UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
    // Development and tests only: lets webhook endpoints point at loopback or private addresses.
    WEBHOOKS_ALLOW_PRIVATE: z.enum(["0", "1", "true", "false"]).default("0"),
    // How many proxies in front of the portal append to X-Forwarded-For (next start itself counts as one).
    TRUST_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
    // Key prefix in the shared limiter store.
    RATE_LIMIT_PREFIX: z.string().min(1).default("fiskal"),
    // How long a limiter store call may take before the in-process fallback decides (as in the API).
    RATE_LIMIT_STORE_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(1_000),
    // Encrypts certificate private keys at rest: the same value as the API's (32 bytes, base64 or hex).
    CERT_ENCRYPTION_KEY: z.string().trim().min(1).optional(),
    CERT_ENCRYPTION_PREVIOUS_KEYS: z.string().trim().min(1).optional(),
    // Mail (invitations, plan approval, quota warnings): smtp://user:pass@host:port or smtps://…
    SMTP_URL: z.string().trim().optional(),
    MAIL_FROM: z.string().trim().optional(),
  })
  .transform((e) => {
    const portalUrl = (e.PORTAL_URL ?? e.NEXTAUTH_URL ?? DEFAULT_PORTAL_URL).replace(/\/+$/, "");
    return {
      databaseUrl: e.DATABASE_URL,
      authSecret: e.NEXTAUTH_SECRET,
      authUrl: e.NEXTAUTH_URL ?? portalUrl,
      portalUrl,
      apiUrl: e.API_URL.replace(/\/+$/, ""),
      // the same store as the API: Upstash REST, a Redis Cluster, one Redis, or in-process
      limiterStore: storeConfigFrom(e),
      webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE === "1" || e.WEBHOOKS_ALLOW_PRIVATE === "true",
      trustProxyHops: e.TRUST_PROXY_HOPS,
      rateLimitPrefix: e.RATE_LIMIT_PREFIX,
      rateLimitStoreTimeoutMs: e.RATE_LIMIT_STORE_TIMEOUT_MS,
      certEncryptionKey: e.CERT_ENCRYPTION_KEY ?? null,
      certEncryptionPreviousKeys: e.CERT_ENCRYPTION_PREVIOUS_KEYS,
      mail: { SMTP_URL: e.SMTP_URL || undefined, MAIL_FROM: e.MAIL_FROM || undefined },
    };
  });

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

/** Parsed lazily so that `next build` does not need runtime secrets. */
export function env(): Env {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      throw new Error(`Neispravna konfiguracija portala: ${problems}`);
    }
    cached = parsed.data;
    // next-auth reads NEXTAUTH_URL itself when building callback URLs.
    process.env.NEXTAUTH_URL ??= cached.authUrl;
  }
  return cached;
}

/** Portal URL without secrets, usable while rendering docs even when the database is not configured. */
export function portalUrl(): string {
  return (process.env.PORTAL_URL ?? process.env.NEXTAUTH_URL ?? DEFAULT_PORTAL_URL).replace(/\/+$/, "");
}

/** `next dev`: the Content Security Policy then allows what React's development build needs. */
export function isDevelopment(): boolean {
  return process.env.NODE_ENV === "development";
}

export function apiUrl(): string {
  return (process.env.API_URL ?? "http://127.0.0.1:3001").replace(/\/+$/, "");
}

/**
 * The session secret and whether session cookies are the https (`__Secure-`) ones, for the proxy's
 * session check; read without the rest of the configuration so that docs pages never depend on it.
 */
export function sessionCookieSettings(): { secret: string | undefined; secure: boolean } {
  return { secret: process.env.NEXTAUTH_SECRET, secure: (process.env.NEXTAUTH_URL ?? portalUrl()).startsWith("https://") };
}
