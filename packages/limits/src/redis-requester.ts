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
 * - Upstash scripts start with `#!lua flags=allow-key-locking`, which plain Redis 7 rejects, so
 *   scripts run without that line and the hash Upstash asks for is mapped to the stripped script's.
 */
import { createHash } from "node:crypto";
import net from "node:net";
import tls from "node:tls";
import type { Requester, UpstashRequest, UpstashResponse } from "@upstash/redis";
import { encodeCommand, RedisReplyError, RespParser, type Arg, type Reply } from "./resp.ts";

const sha1 = (s: string): string => createHash("sha1").update(s).digest("hex");
const SHEBANG = /^\s*#!lua[^\n]*\n/;

export interface RedisRequester extends Requester {
  /** resolves once connected (and authenticated), or rejects after `ms` or on a refused connection */
  ready(ms: number): Promise<void>;
  /** one raw command; rejects with the server's error reply, or when not connected */
  send(args: readonly Arg[]): Promise<Reply>;
  lastError(): string | undefined;
  close(): Promise<void>;
}

interface Pending {
  resolve: (reply: Reply) => void;
  reject: (err: Error) => void;
  /** performance.now() when the command was queued */
  at: number;
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

  // in flight, in send order; `head` avoids shifting the array on every reply
  let pending: Pending[] = [];
  let head = 0;
  let outbox = "";
  let flushScheduled = false;

  const parser = new RespParser((reply) => {
    const p = pending[head];
    if (!p) {
      fail(socket, new Error("Redis sent a reply nobody asked for"));
      return;
    }
    pending[head++] = undefined as unknown as Pending;
    if (head > 1024 && head * 2 > pending.length) {
      pending = pending.slice(head);
      head = 0;
    }
    if (reply instanceof RedisReplyError) p.reject(reply);
    else p.resolve(reply);
  });

  const flush = (): void => {
    flushScheduled = false;
    if (!socket || outbox.length === 0) return;
    socket.write(outbox);
    outbox = "";
  };

  const enqueue = (args: readonly Arg[]): Promise<Reply> =>
    new Promise<Reply>((resolve, reject) => {
      pending.push({ resolve, reject, at: performance.now() });
      outbox += encodeCommand(args);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
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
    outbox = "";
    parser.reset();
    const inFlight = pending.slice(head);
    pending = [];
    head = 0;
    for (const p of inFlight) p.reject(err);
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
      const oldest = pending[head];
      if (oldest && performance.now() - oldest.at > timeoutMs) {
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

  // upstash hash of the original script → stripped script and its hash
  const scripts = new Map<string, { sha: string; body: string }>();

  const evalScript = (script: { sha: string; body: string }, args: readonly Arg[]): Promise<Reply> => {
    // args[0] is the hash or script Upstash sent; the rest (numkeys, keys, arguments) go as they are
    const withSha = args.slice();
    withSha[0] = script.sha;
    return send(["EVALSHA", ...withSha]).catch((err: unknown) => {
      if (!(err instanceof RedisReplyError) || !err.message.startsWith("NOSCRIPT")) throw err;
      withSha[0] = script.body;
      return send(["EVAL", ...withSha]);
    });
  };

  const execute = (command: string, args: readonly Arg[]): Promise<Reply> => {
    const name = command.toLowerCase();
    if (name === "evalsha") {
      const known = scripts.get(String(args[0]));
      // Upstash answers NOSCRIPT by sending the script itself with `eval`
      if (!known) return Promise.reject(new RedisReplyError("NOSCRIPT No matching script. Please use EVAL."));
      return evalScript(known, args);
    }
    if (name === "eval") {
      const original = String(args[0]);
      const body = original.replace(SHEBANG, "");
      const script = { sha: sha1(body), body };
      if (scripts.size < 64) scripts.set(sha1(original), script);
      return evalScript(script, args);
    }
    return send([command, ...args]);
  };

  return {
    send,
    lastError: () => lastError,
    request: <TResult>(req: UpstashRequest): Promise<UpstashResponse<TResult>> => {
      if (req.path && req.path.length > 0) return Promise.resolve({ error: "ERR pipelines are not supported over TCP" });
      const body = req.body as Arg[];
      return execute(String(body[0]), body.slice(1)).then(
        (result) => ({ result: result as TResult }),
        (err: Error) => ({ error: err.message }),
      );
    },
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
        flush();
        fail(s, new Error("the Redis requester is closed"));
      }
    },
  };
}
