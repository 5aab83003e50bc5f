/**
 * The connection of a single-Redis requester (redis-requester.ts), on its own: one pipelined RESP
 * connection over TCP or TLS, its state (connecting, connected, closed) and when it is opened again.
 *
 * - Connecting: the socket is open (or opening) and AUTH/SELECT are not answered yet. Commands are
 *   refused; the connection setup alone goes out. A connection not set up within the connect
 *   timeout is dropped.
 * - Connected: AUTH/SELECT answered; commands go out on the pipeline (command-pipeline.ts).
 * - No offline queue: while disconnected a command fails at once. A limit() replayed later would
 *   consume quota for a request the fallback already answered.
 * - Dropped (by the server, an error, a reply nobody asked for, or `drop`): every command in flight
 *   fails, every `ready` waiting is refused, and the connection is opened again in the background,
 *   after `reconnectDelayMs`, until `close`.
 * - Closed: for good; what was queued is written before the socket goes.
 */
import net from "node:net";
import tls from "node:tls";
import { CommandPipeline } from "./command-pipeline.ts";
import { ReadyWaiters } from "./ready-waiters.ts";
import { RespParser, type Arg, type Reply } from "./resp.ts";

export interface RedisTarget {
  host: string;
  port: number;
  tls: boolean;
  username?: string;
  password?: string;
  db: number;
}

/**
 * The wait before each reconnection: 25 ms, every time. The limiter is back on Redis one
 * reconnection, a probe and a write-back after Redis answers again (promised within 100 ms;
 * limiter-store-faults.test.ts), so the wait is most of that budget; a refused connection to a
 * Redis still away costs an instance 40 SYNs a second.
 */
const RECONNECT_DELAY_MS = 25;

const closedError = (): Error => new Error("the Redis requester is closed");

export class RedisConnection {
  private socket: net.Socket | null = null;
  /** socket open and AUTH/SELECT answered */
  private connected = false;
  private closed = false;
  private lastErrorMessage: string | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly waiters = new ReadyWaiters();
  private readonly pipeline = new CommandPipeline((data) => {
    if (!this.socket) return false;
    this.socket.write(data);
    return true;
  });
  private readonly parser = new RespParser((reply) => {
    if (!this.pipeline.answer(reply)) this.fail(this.socket, new Error("Redis sent a reply nobody asked for"));
  });
  private readonly connectTimeoutMs: number;

  /** Starts connecting at once; `timeoutMs` is the command timeout (the connect timeout is 5 times it, at least 500 ms). */
  constructor(
    private readonly target: RedisTarget,
    timeoutMs: number,
    private readonly tlsOptions: tls.ConnectionOptions | undefined,
  ) {
    this.connectTimeoutMs = Math.max(timeoutMs * 5, 500);
    this.connect();
  }

  get lastError(): string | undefined {
    return this.lastErrorMessage;
  }

  /** When the oldest command in flight was queued (performance.now()), if one is. */
  oldestAt(): number | undefined {
    return this.pipeline.oldestAt();
  }

  /** One command; refused at once unless connected. */
  send(args: readonly Arg[]): Promise<Reply> {
    if (this.closed) return Promise.reject(closedError());
    if (!this.connected || !this.socket) {
      return Promise.reject(new Error(`Redis is not connected${this.lastErrorMessage ? `: ${this.lastErrorMessage}` : ""}`));
    }
    return this.pipeline.enqueue(args);
  }

  /** Resolves once connected (and authenticated), or rejects after `ms` or when the connection is lost. */
  ready(ms: number): Promise<void> {
    if (this.connected) return Promise.resolve();
    if (this.closed) return Promise.reject(closedError());
    return this.waiters.wait(ms, () => this.lastErrorMessage);
  }

  /** Drops the current connection, failing every command in flight with `err`; it is opened again in the background. */
  drop(err: Error): void {
    this.fail(this.socket, err);
  }

  /** Closes for good: what was queued is written, then everything in flight fails. */
  close(): void {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const s = this.socket;
    if (s) {
      this.pipeline.flush();
      this.fail(s, closedError());
    }
  }

  /** Drops `which` if it is still the current connection, failing every command in flight. */
  private fail(which: net.Socket | null, err: Error): void {
    if (!which || which !== this.socket) return;
    this.lastErrorMessage = err.message;
    which.destroy();
    this.onClosed(which, err);
  }

  private onClosed(which: net.Socket, err: Error): void {
    if (which !== this.socket) return;
    this.socket = null;
    this.connected = false;
    this.parser.reset();
    this.pipeline.failAll(err);
    this.waiters.rejectAll(new Error(`Redis unreachable: ${err.message}`));
    if (!this.closed) {
      // keep reconnecting in the background so the limiter can return to Redis
      this.reconnectTimer = setTimeout(this.connect, RECONNECT_DELAY_MS);
      this.reconnectTimer.unref();
    }
  }

  private readonly connect = (): void => {
    this.reconnectTimer = undefined;
    if (this.closed) return;
    const { target } = this;
    const s = target.tls
      ? tls.connect({ ...this.tlsOptions, host: target.host, port: target.port, servername: net.isIP(target.host) ? undefined : target.host })
      : net.connect({ host: target.host, port: target.port });
    this.socket = s;
    s.setNoDelay(true);
    s.setKeepAlive(true, 10_000);
    const connectTimer = setTimeout(() => this.fail(s, new Error(`connect timeout after ${this.connectTimeoutMs} ms`)), this.connectTimeoutMs);
    s.on("data", (chunk: Buffer) => {
      try {
        this.parser.feed(chunk);
      } catch (err) {
        this.fail(s, err as Error);
      }
    });
    s.on("error", (err: Error) => {
      this.lastErrorMessage = err.message;
    });
    s.on("close", () => {
      clearTimeout(connectTimer);
      const last = this.lastErrorMessage;
      this.onClosed(s, new Error(last ? `Redis connection closed: ${last}` : "Redis connection closed"));
    });
    s.once(target.tls ? "secureConnect" : "connect", () => {
      clearTimeout(connectTimer);
      this.setUp(s);
    });
  };

  /** AUTH and SELECT, the only commands sent before the connection counts as connected. */
  private setUp(s: net.Socket): void {
    const { target } = this;
    const setup: Promise<Reply>[] = [];
    if (target.password !== undefined) {
      setup.push(this.pipeline.enqueue(target.username ? ["AUTH", target.username, target.password] : ["AUTH", target.password]));
    }
    if (target.db !== 0) setup.push(this.pipeline.enqueue(["SELECT", target.db]));
    Promise.all(setup).then(
      () => {
        if (this.socket !== s) return;
        this.connected = true;
        this.lastErrorMessage = undefined;
        this.waiters.resolveAll();
      },
      (err: Error) => this.fail(s, new Error(`Redis refused the connection setup: ${err.message}`)),
    );
  }
}
