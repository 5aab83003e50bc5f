/**
 * Lets the real @upstash/redis client (and so @upstash/ratelimit) talk to any Redis/Valkey over
 * TCP or TLS, on one pipelined connection speaking RESP directly. The parts, each beside its rules:
 *
 * - command-pipeline.ts: commands issued in the same turn of the event loop go out in one write: a
 *   decision's windows are evaluated in one round trip, and concurrent requests share writes.
 * - redis-connection.ts: the connection (connecting, connected, closed) and its reconnections. No
 *   offline queue: while disconnected a command fails at once. A limit() replayed later would
 *   consume quota for a request the fallback already answered.
 * - command-watchdog.ts: a command unanswered after `timeoutMs` closes the connection and fails
 *   everything in flight (the caller falls back); the connection is re-established in the background.
 * - ready-waiters.ts: the callers of `ready(ms)` waiting for the connection.
 * - Upstash's script commands (the shebang Redis 7 refuses, NOSCRIPT, SCRIPT LOAD) are handled in
 *   upstash-scripts.ts, shared with cluster-requester.ts; here a known script goes as EVALSHA, and
 *   as EVAL when the server answers NOSCRIPT.
 */
import type tls from "node:tls";
import type { Requester } from "@upstash/redis";
import { CommandWatchdog } from "./command-watchdog.ts";
import { RedisConnection, type RedisTarget } from "./redis-connection.ts";
import { RedisReplyError, type Arg, type Reply } from "./resp.ts";
import { upstashCommands, upstashRequest, type StrippedScript } from "./upstash-scripts.ts";

export interface RedisRequester extends Requester {
  /** resolves once connected (and authenticated), or rejects after `ms` or on a refused connection */
  ready(ms: number): Promise<void>;
  /** one raw command; rejects with the server's error reply, or when not connected */
  send(args: readonly Arg[]): Promise<Reply>;
  lastError(): string | undefined;
  close(): Promise<void>;
}

export function parseRedisUrl(url: string): RedisTarget {
  const u = new URL(url);
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") {
    throw new Error(`REDIS_URL must start with redis:// or rediss://, got ${u.protocol}//`);
  }
  const db = u.pathname && u.pathname !== "/" ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new Error(`REDIS_URL: invalid database number in ${u.pathname}`);
  return {
    host: u.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1",
    port: u.port ? Number(u.port) : 6379,
    tls: u.protocol === "rediss:",
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db,
  };
}

export interface RedisRequesterOptions {
  /** extra TLS settings for rediss:// (e.g. `ca`); by default the system's CAs and NODE_EXTRA_CA_CERTS */
  tls?: tls.ConnectionOptions;
}

export function createRedisRequester(url: string, timeoutMs: number, opts: RedisRequesterOptions = {}): RedisRequester {
  const connection = new RedisConnection(parseRedisUrl(url), timeoutMs, opts.tls);
  const watchdog = new CommandWatchdog(timeoutMs, () => connection.oldestAt(), (err) => connection.drop(err));
  const send = (args: readonly Arg[]): Promise<Reply> => connection.send(args);

  const evalScript = (script: StrippedScript, args: readonly Arg[]): Promise<Reply> => {
    // args[0] is the hash or script Upstash sent; the rest (numkeys, keys, arguments) go as they are
    const withSha = args.slice();
    withSha[0] = script.sha;
    return send(["EVALSHA", ...withSha]).catch((err: unknown) => {
      if (!(err instanceof RedisReplyError) || !err.message.startsWith("NOSCRIPT")) throw err;
      withSha[0] = script.body;
      return send(["EVAL", ...withSha]);
    });
  };

  return {
    send,
    lastError: () => connection.lastError,
    request: upstashRequest(upstashCommands({ evalScript, send })),
    ready: (ms) => connection.ready(ms),
    close: async () => {
      watchdog.stop();
      connection.close();
    },
  };
}
