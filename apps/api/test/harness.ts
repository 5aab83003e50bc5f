// Integration harness: a real API server on a fresh PostgreSQL database and the local Redis.
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import pino from "pino";
import { createTRPCClient, httpLink } from "@trpc/client";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import type { Plan } from "@fiskal/db";
import type { StoreConfig } from "@fiskal/limits";
import { startApi, type ApiConfig, type RunningApi } from "../src/app.ts";
import type { AppRouter } from "../src/router.ts";

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
export const PORTAL = "http://portal.test";

export interface Harness {
  api: RunningApi;
  url: string;
  databaseUrl: string;
  account(opts?: { plan?: Plan; custom?: { perMinute: number; perDay: number; burst: number }; name?: string }): Promise<{ id: string; key: string; keyId: string }>;
  close(): Promise<void>;
}

export async function startHarness(opts: { store?: StoreConfig["kind"]; config?: Partial<ApiConfig> } = {}): Promise<Harness> {
  const db = await createTestDatabase();
  const store: StoreConfig = opts.store === "memory" ? { kind: "memory" } : { kind: "redis", url: REDIS_URL };
  const api = await startApi({
    databaseUrl: db.url,
    store,
    portalUrl: PORTAL,
    limiterPrefix: `t${randomBytes(6).toString("hex")}`,
    logger: pino({ level: "silent" }),
    meterFlushIntervalMs: 100,
    ...opts.config,
  });
  return {
    api,
    url: api.url,
    databaseUrl: db.url,
    async account(a = {}) {
      const account = await createAccount(api.services.db, { name: a.name ?? "Test d.o.o.", plan: a.plan ?? "SANDBOX", custom: a.custom });
      const key = await createApiKey(api.services.db, account.id, "test");
      return { id: account.id, key: key.key, keyId: key.id };
    },
    async close() {
      await api.close();
      await db.drop();
    },
  };
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function call(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A request from a chosen loopback source address (127.0.0.0/8), for per-IP behaviour. */
export function callFrom(
  localAddress: string,
  base: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<CallResult> {
  const url = new URL(base + path);
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  if (body) headers["content-type"] = "application/json";
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(", ") : v);
        resolve({ status: res.statusCode ?? 0, headers: h, body: parsed, text });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

export function trpcClient(base: string, key?: string) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${base}/trpc`, headers: () => (key ? { authorization: `Bearer ${key}` } : {}) })],
  });
}

export const VALID_OIB = "69435151530";

/**
 * Runs `attempt` until the requests it sent fit its timing precondition (e.g. "all inside one
 * second"), and returns that attempt's result. Only the precondition is retried: the caller asserts
 * the counts once, on the attempt that met it. `attempt` reports the span its requests took.
 */
export async function timely<T>(attempt: () => Promise<{ spanMs: number; result: T }>, maxSpanMs: number, tries = 5): Promise<T> {
  const spans: number[] = [];
  for (let i = 0; i < tries; i++) {
    const { spanMs, result } = await attempt();
    if (spanMs < maxSpanMs) return result;
    spans.push(Math.round(spanMs));
  }
  throw new Error(`timing precondition never met: the requests took ${spans.join(", ")} ms, more than ${maxSpanMs} ms`);
}
