/**
 * Lets the real @upstash/redis client (and so @upstash/ratelimit) talk to any Redis/Valkey over
 * TCP or TLS, on one pipelined connection speaking RESP directly.
 *
 * - Commands issued in the same turn of the event loop go out in one write: a decision's windows
 *   are evaluated in one round trip, and concurrent requests share writes.
 * - No offline queue: while disconnected a command fails at once. A limit() replayed later would
 *   consume quota for a request the fallback already answered.
 * - A command unanswered after `timeoutMs` closes the connection and fails everything in flight
 *   (the caller falls back); the connection is re-established in the background.
 * - Upstash's script commands (the shebang Redis 7 refuses, NOSCRIPT, SCRIPT LOAD) are handled in
 *   upstash-scripts.ts, shared with cluster-requester.ts; here a known script goes as EVALSHA, and
 *   as EVAL when the server answers NOSCRIPT.
 */
import net from "node:net";
import tls from "node:tls";
import type { Requester } from "@upstash/redis";
import { CommandPipeline } from "./command-pipeline.ts";
import { RedisReplyError, RespParser, type Arg, type Reply } from "./resp.ts";
import { upstashCommands, upstashRequest, type StrippedScript } from "./upstash-scripts.ts";

export interface RedisRequester extends Requester {
  /** resolves once connected (and authenticated), or rejects after `ms` or on a refused connection */
  ready(ms: number): Promise<void>;
  /** one raw command; rejects with the server's error reply, or when not connected */
  send(args: readonly Arg[]): Promise<Reply>;
  lastError(): string | undefined;
  close(): Promise<void>;
}

interface Target {
  host: string;
  port: number;
  tls: boolean;
  username?: string;
  password?: string;
  db: number;
}

export function parseRedisUrl(url: string): Target {
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
  const target = parseRedisUrl(url);
  let socket: net.Socket | null = null;
  let connected = false; // socket open and AUTH/SELECT answered
  let closed = false;
  let attempt = 0;
  let lastError: string | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  const waiters = new Set<{ resolve: () => void; reject: (err: Error) => void }>();

  const inFlight = new CommandPipeline((data) => {
    if (!socket) return false;
    socket.write(data);
    return true;
  });
  const enqueue = (args: readonly Arg[]): Promise<Reply> => inFlight.enqueue(args);

  const parser = new RespParser((reply) => {
    if (!inFlight.answer(reply)) fail(socket, new Error("Redis sent a reply nobody asked for"));
  });

  /** Drops the connection, failing every command in flight. */
  function fail(which: net.Socket | null, err: Error): void {
    if (!which || which !== socket) return;
    lastError = err.message;
    which.destroy();
    onClosed(which, err);
  }

  function onClosed(which: net.Socket, err: Error): void {
    if (which !== socket) return;
    socket = null;
    connected = false;
    parser.reset();
    inFlight.failAll(err);
    for (const w of waiters) w.reject(new Error(`Redis unreachable: ${err.message}`));
    waiters.clear();
    if (!closed) {
      // keep reconnecting in the background so the limiter can return to Redis
      attempt++;
      reconnectTimer = setTimeout(connect, Math.min(25 * attempt, 50));
      reconnectTimer.unref();
    }
  }

  function connect(): void {
    reconnectTimer = undefined;
    if (closed) return;
    const s = target.tls
      ? tls.connect({ ...opts.tls, host: target.host, port: target.port, servername: net.isIP(target.host) ? undefined : target.host })
      : net.connect({ host: target.host, port: target.port });
    socket = s;
    s.setNoDelay(true);
    s.setKeepAlive(true, 10_000);
    const connectTimer = setTimeout(() => fail(s, new Error(`connect timeout after ${connectTimeoutMs} ms`)), connectTimeoutMs);
    s.on("data", (chunk: Buffer) => {
      try {
        parser.feed(chunk);
      } catch (err) {
        fail(s, err as Error);
      }
    });
    s.on("error", (err: Error) => {
      lastError = err.message;
    });
    s.on("close", () => {
      clearTimeout(connectTimer);
      onClosed(s, new Error(lastError ? `Redis connection closed: ${lastError}` : "Redis connection closed"));
    });
    s.once(target.tls ? "secureConnect" : "connect", () => {
      clearTimeout(connectTimer);
      const setup: Promise<Reply>[] = [];
      if (target.password !== undefined) {
        setup.push(enqueue(target.username ? ["AUTH", target.username, target.password] : ["AUTH", target.password]));
      }
      if (target.db !== 0) setup.push(enqueue(["SELECT", target.db]));
      Promise.all(setup).then(
        () => {
          if (socket !== s) return;
          connected = true;
          attempt = 0;
          lastError = undefined;
          for (const w of waiters) w.resolve();
          waiters.clear();
        },
        (err: Error) => fail(s, new Error(`Redis refused the connection setup: ${err.message}`)),
      );
    });
  }

  const connectTimeoutMs = Math.max(timeoutMs * 5, 500);

  // One timer for all commands: the oldest one in flight decides.
  const watchdog = setInterval(
    () => {
      const oldest = inFlight.oldestAt();
      if (oldest !== undefined && performance.now() - oldest > timeoutMs) {
        fail(socket, new Error(`Redis did not answer within ${timeoutMs} ms`));
      }
    },
    Math.max(5, Math.floor(timeoutMs / 4)),
  );
  watchdog.unref();

  connect();

  const send = (args: readonly Arg[]): Promise<Reply> => {
    if (closed) return Promise.reject(new Error("the Redis requester is closed"));
    if (!connected || !socket) {
      return Promise.reject(new Error(`Redis is not connected${lastError ? `: ${lastError}` : ""}`));
    }
    return enqueue(args);
  };

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
    lastError: () => lastError,
    request: upstashRequest(upstashCommands({ evalScript, send })),
    ready: (ms) =>
      new Promise<void>((resolve, reject) => {
        if (connected) return resolve();
        if (closed) return reject(new Error("the Redis requester is closed"));
        const waiter = {
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
          reject: (err: Error) => {
            clearTimeout(timer);
            reject(err);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`Redis not ready within ${ms} ms${lastError ? `: ${lastError}` : ""}`));
        }, ms);
        waiters.add(waiter);
      }),
    close: async () => {
      closed = true;
      clearInterval(watchdog);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const s = socket;
      if (s) {
        inFlight.flush();
        fail(s, new Error("the Redis requester is closed"));
      }
    },
  };
}
