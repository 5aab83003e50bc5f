// Pacing shared by several processes using one API key: every process records its sends in one
// sliding log per window in Redis, so together they never send more than a window admits.
//
// Each entry of a window's log is a sorted-set member scored by the time it leaves the window, on
// Redis's clock (TIME), so processes on different machines share one clock:
// - reserve: drop the entries that have left; if every window has room, add the request to each,
//   leaving at (now + the longest an answer can take + the span); else answer how long until the
//   slot that is needed comes back. One script, so two processes never take the same slot.
// - settle: when the answer arrives, the entry leaves at (now + span): the server admitted the
//   request no later than that. A refused request (429) is removed: the server counted it nowhere.
// All keys of one API key share a hash tag, so the scripts also run on Redis Cluster.

/** A window the shared log applies to. */
export interface PacingWindow {
  name: string;
  limit: number;
  spanMs: number;
}

/** Where processes using one key keep their common log of sends. */
export interface PacingStore {
  /** 0 when the request may be sent now (and is recorded); otherwise ms until a slot comes back. */
  reserve(id: string, windows: readonly PacingWindow[]): Promise<number>;
  /** The request's answer arrived: `counted` false for a 429 (the server recorded nothing). */
  settle(id: string, windows: readonly PacingWindow[], counted: boolean): Promise<void>;
  close(): Promise<void>;
}

/** Any Redis client that can send one raw command, e.g. node-redis `client.sendCommand(args)`. */
export interface RedisCommandSender {
  sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisPacingOptions {
  /** `redis://[:password@]host:port[/db]`, or a connected client to send commands through. */
  redis: string | RedisCommandSender;
  /**
   * Keys are named after this (default: a SHA-256 of the API key, so every process with the same
   * key shares one log and the key itself is never stored). Give every key of one account the same
   * namespace to pace them together.
   */
  namespace?: string;
  /** Key prefix (default "fiskal:pace"). */
  prefix?: string;
  /** Longest an answer is waited for, so the entry of a process that died mid-request expires (default 60,000). */
  inFlightMs?: number;
  /** Per command (default 2,000): a slower store is treated as failed and the client paces alone. */
  timeoutMs?: number;
}

const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local inflight = tonumber(ARGV[2])
local wait = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[1 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local n = redis.call('ZCARD', key)
  if n >= limit then
    local e = redis.call('ZRANGE', key, n - limit, n - limit, 'WITHSCORES')
    local w = tonumber(e[2]) - now
    if w > wait then wait = w end
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  local span = tonumber(ARGV[2 + 2 * i])
  redis.call('ZADD', key, now + inflight + span, ARGV[1])
  redis.call('PEXPIRE', key, inflight + span + 1000)
end
return 0
`;

const SETTLE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i, key in ipairs(KEYS) do
  if ARGV[2] == '1' then
    redis.call('ZADD', key, 'XX', now + tonumber(ARGV[2 + i]) + 2, ARGV[1])
  else
    redis.call('ZREM', key, ARGV[1])
  end
end
return 0
`;

/** The shared log in Redis: `new FiskalClient({ …, sharedPacing: { redis: process.env.REDIS_URL } })`. */
export function redisPacingStore(apiKey: string, opts: RedisPacingOptions): PacingStore {
  // A connection the store opened is the store's to close; a client passed in stays the caller's.
  const own = typeof opts.redis === "string" ? new RespConnection(opts.redis, opts.timeoutMs ?? 2_000) : null;
  const conn: RedisCommandSender = own ?? (opts.redis as RedisCommandSender);
  const prefix = opts.prefix ?? "fiskal:pace";
  const inFlightMs = opts.inFlightMs ?? 60_000;
  const namespace = opts.namespace !== undefined ? Promise.resolve(opts.namespace) : sha256Hex(apiKey).then((h) => h.slice(0, 32));
  const keys = async (windows: readonly PacingWindow[]) => {
    const ns = await namespace;
    return windows.map((w) => `${prefix}:{${ns}}:${w.name}`);
  };
  return {
    async reserve(id, windows) {
      const k = await keys(windows);
      const args = ["EVAL", RESERVE, String(k.length), ...k, id, String(inFlightMs)];
      for (const w of windows) args.push(String(w.limit), String(Math.ceil(w.spanMs)));
      const reply = await conn.sendCommand(args);
      return Number(reply);
    },
    async settle(id, windows, counted) {
      const k = await keys(windows);
      await conn.sendCommand(["EVAL", SETTLE, String(k.length), ...k, id, counted ? "1" : "0", ...windows.map((w) => String(Math.ceil(w.spanMs)))]);
    },
    async close() {
      await own?.close();
    },
  };
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// --- a minimal RESP connection over node:net (no dependency) ---------------------------------------

interface NetSocket {
  write(data: string): boolean;
  on(event: "data", cb: (chunk: Uint8Array) => void): unknown;
  on(event: "error", cb: (err: Error) => void): unknown;
  on(event: "close", cb: () => void): unknown;
  once(event: "connect", cb: () => void): unknown;
  destroy(): void;
  end(): void;
  setNoDelay(noDelay: boolean): unknown;
  unref(): unknown;
}
interface NetModule {
  connect(opts: { host: string; port: number }): NetSocket;
}

type Reply = string | number | null | Reply[] | Error;

/** One connection speaking RESP2, commands pipelined in order; reconnects on the next command after a failure. */
export class RespConnection implements RedisCommandSender {
  private socket: Promise<NetSocket> | null = null;
  private pending: Array<{ resolve: (r: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }> = [];
  private buffer = "";
  private closed = false;
  private readonly target: { host: string; port: number; password?: string; username?: string; db: number };

  constructor(
    url: string,
    private readonly timeoutMs: number,
  ) {
    const u = new URL(url);
    if (u.protocol !== "redis:") throw new TypeError(`sharedPacing.redis must be a redis:// URL (or a connected client), got ${u.protocol}//`);
    this.target = {
      host: u.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1",
      port: u.port ? Number(u.port) : 6379,
      username: u.username ? decodeURIComponent(u.username) : undefined,
      password: u.password ? decodeURIComponent(u.password) : undefined,
      db: u.pathname && u.pathname !== "/" ? Number(u.pathname.slice(1)) : 0,
    };
  }

  async sendCommand(args: string[]): Promise<unknown> {
    if (this.closed) throw new Error("the pacing store is closed");
    const socket = await this.connect();
    return this.command(socket, args);
  }

  async close(): Promise<void> {
    this.closed = true;
    const s = this.socket;
    this.socket = null;
    if (s) (await s.catch(() => null))?.end();
  }

  private command(socket: NetSocket, args: string[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(`Redis did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      this.pending.push({ resolve, reject, timer });
      let out = `*${args.length}\r\n`;
      for (const a of args) out += `$${utf8Length(a)}\r\n${a}\r\n`;
      socket.write(out);
    });
  }

  private connect(): Promise<NetSocket> {
    if (this.socket) return this.socket;
    this.socket = (async () => {
      const spec = "node:net";
      const net = (await import(spec)) as NetModule;
      const socket = net.connect({ host: this.target.host, port: this.target.port });
      socket.setNoDelay(true);
      const decoder = new TextDecoder();
      socket.on("data", (chunk) => {
        this.buffer += decoder.decode(chunk, { stream: true });
        this.drain();
      });
      socket.on("error", (err) => this.fail(err));
      socket.on("close", () => this.fail(new Error("Redis connection closed")));
      await new Promise<void>((resolve, reject) => {
        socket.once("connect", resolve);
        socket.on("error", reject);
      });
      socket.unref();
      if (this.target.password !== undefined) {
        await this.command(socket, this.target.username ? ["AUTH", this.target.username, this.target.password] : ["AUTH", this.target.password]);
      }
      if (this.target.db) await this.command(socket, ["SELECT", String(this.target.db)]);
      return socket;
    })();
    this.socket.catch(() => {
      this.socket = null;
    });
    return this.socket;
  }

  /** Drops the connection and fails every command in flight; the next command reconnects. */
  private fail(err: Error): void {
    const s = this.socket;
    this.socket = null;
    this.buffer = "";
    s?.then((x) => x.destroy(), () => undefined);
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(err);
    }
  }

  private drain(): void {
    for (;;) {
      const parsed = parse(this.buffer, 0);
      if (!parsed) return;
      this.buffer = this.buffer.slice(parsed.end);
      const p = this.pending.shift();
      if (!p) continue;
      clearTimeout(p.timer);
      if (parsed.value instanceof Error) p.reject(parsed.value);
      else p.resolve(parsed.value);
    }
  }
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** One RESP2 reply from `buf` at `at`; null when incomplete. Bulk strings are measured in UTF-8 bytes. */
function parse(buf: string, at: number): { value: Reply; end: number } | null {
  const eol = buf.indexOf("\r\n", at);
  if (eol < 0) return null;
  const kind = buf[at];
  const line = buf.slice(at + 1, eol);
  switch (kind) {
    case "+":
      return { value: line, end: eol + 2 };
    case "-":
      return { value: new Error(line), end: eol + 2 };
    case ":":
      return { value: Number(line), end: eol + 2 };
    case "$": {
      const n = Number(line);
      if (n < 0) return { value: null, end: eol + 2 };
      // Walk n UTF-8 bytes of characters.
      let i = eol + 2;
      let bytes = 0;
      while (bytes < n && i < buf.length) {
        const c = buf.codePointAt(i)!;
        bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        i += c >= 0x10000 ? 2 : 1;
      }
      if (bytes < n || buf.length < i + 2) return null;
      return { value: buf.slice(eol + 2, i), end: i + 2 };
    }
    case "*": {
      const n = Number(line);
      if (n < 0) return { value: null, end: eol + 2 };
      const out: Reply[] = [];
      let end = eol + 2;
      for (let k = 0; k < n; k++) {
        const item = parse(buf, end);
        if (!item) return null;
        out.push(item.value);
        end = item.end;
      }
      return { value: out, end };
    }
    default:
      return { value: new Error(`unexpected RESP reply ${JSON.stringify(buf.slice(at, at + 20))}`), end: buf.length };
  }
}
