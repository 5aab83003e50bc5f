/**
 * Lets the real @upstash/redis client (and so @upstash/ratelimit) talk to any Redis/Valkey over
 * TCP through ioredis. Upstash scripts start with `#!lua flags=allow-key-locking`, which plain
 * Redis 7 rejects, so scripts are run without that line and the hash Upstash asks for is mapped
 * to the hash of the stripped script.
 */
import { createHash } from "node:crypto";
import type { Requester, UpstashRequest, UpstashResponse } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";

const sha1 = (s: string): string => createHash("sha1").update(s).digest("hex");
const SHEBANG = /^\s*#!lua[^\n]*\n/;

export interface IORedisRequester extends Requester {
  readonly client: IORedis;
  /** resolves once connected, or rejects after `ms` */
  ready(ms: number): Promise<void>;
  lastError(): string | undefined;
  close(): Promise<void>;
}

export function createIORedisRequester(url: string, timeoutMs: number): IORedisRequester {
  let lastError: string | undefined;
  const client = new IORedis(url, {
    // one write for all the commands issued in the same tick: one round trip per decision
    enableAutoPipelining: true,
    // fail fast instead of queueing while disconnected; a queued limit() replayed later would
    // consume quota for a request that was already answered by the fallback
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs * 5, 500),
    // keep reconnecting in the background so the limiter can return to Redis
    retryStrategy: (attempt) => Math.min(50 * attempt, 1000),
  });
  client.on("error", (err: Error) => {
    lastError = err.message;
  });

  // upstash hash of the original script → stripped script and its hash
  const scripts = new Map<string, { sha: string; body: string }>();

  const evalScript = async (script: { sha: string; body: string }, rest: unknown[]): Promise<unknown> => {
    try {
      return await client.call("evalsha", script.sha, ...(rest as (string | number)[]));
    } catch (err) {
      if (!String(err).includes("NOSCRIPT")) throw err;
      return await client.call("eval", script.body, ...(rest as (string | number)[]));
    }
  };

  const execute = async (command: string, args: unknown[]): Promise<unknown> => {
    if (command === "evalsha") {
      const known = scripts.get(String(args[0]));
      // Upstash answers NOSCRIPT by sending the script itself with `eval`
      if (!known) throw new Error("NOSCRIPT No matching script. Please use EVAL.");
      return evalScript(known, args.slice(1));
    }
    if (command === "eval") {
      const original = String(args[0]);
      const body = original.replace(SHEBANG, "");
      const script = { sha: sha1(body), body };
      if (scripts.size < 64) scripts.set(sha1(original), script);
      return evalScript(script, args.slice(1));
    }
    return client.call(command, ...(args as (string | number)[]));
  };

  return {
    client,
    lastError: () => lastError,
    request: async <TResult>(req: UpstashRequest): Promise<UpstashResponse<TResult>> => {
      if (req.path && req.path.length > 0) return { error: "ERR pipelines are not supported over ioredis" };
      const [command, ...args] = req.body as unknown[];
      try {
        return { result: (await execute(String(command).toLowerCase(), args)) as TResult };
      } catch (err) {
        return { error: (err as Error).message };
      }
    },
    ready: (ms) =>
      new Promise<void>((resolve, reject) => {
        if (client.status === "ready") return resolve();
        const done = (err?: Error): void => {
          clearTimeout(timer);
          client.off("ready", onReady);
          client.off("error", onError);
          if (err) reject(err);
          else resolve();
        };
        const onReady = (): void => done();
        // a refused connection is known at once; no need to wait out the timeout
        const onError = (err: Error): void => done(new Error(`Redis unreachable: ${err.message}`));
        const timer = setTimeout(() => done(new Error(`Redis not ready within ${ms} ms${lastError ? `: ${lastError}` : ""}`)), ms);
        client.once("ready", onReady);
        client.once("error", onError);
      }),
    close: async () => {
      client.disconnect(false);
    },
  };
}
