// A virtual clock and a scripted fetch, so the waiting rules are checked to the millisecond
// without waiting.
import type { Clock } from "../src/clock.ts";

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

export class FakeClock implements Clock {
  private timers: Timer[] = [];
  private seq = 0;
  /** Every sleep requested, in ms, in order. */
  readonly sleeps: number[] = [];

  constructor(public t = Date.UTC(2026, 0, 15, 10, 0, 0)) {}

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer: Timer = {
        at: this.t + Math.max(0, ms),
        seq: this.seq++,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.timers.push(timer);
    });
  }

  /** Runs virtual time forward, timer by timer, until `p` settles. */
  async run<T>(p: Promise<T>): Promise<T> {
    let settled = false;
    p.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (;;) {
      await drain();
      if (settled) return p;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift();
      if (!next) throw new Error("FakeClock: nothing scheduled and the promise is still pending");
      this.t = Math.max(this.t, next.at);
      next.resolve();
    }
  }
}

/** Lets every pending promise callback and I/O-free macrotask run. */
async function drain(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
}

interface SeenRequest {
  at: number;
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Responder = (req: SeenRequest, index: number) => Response | Promise<Response>;

/**
 * A fetch that answers from `responder` and records what it was asked. GET /v1/limits, which the
 * client reads before a burst, is answered by `limits` (default: 404) and recorded apart in
 * `limitsRequests`, so `responder` and `requests` see only the calls under test.
 */
export function fakeFetch(clock: FakeClock, responder: Responder, limits?: Responder) {
  const requests: SeenRequest[] = [];
  const limitsRequests: SeenRequest[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    init.signal?.throwIfAborted();
    const url = String(input);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const req: SeenRequest = {
      at: clock.now(),
      method: init.method ?? "GET",
      url,
      path: new URL(url).pathname + new URL(url).search,
      headers,
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
    };
    const free = req.method === "GET" && req.path === "/v1/limits";
    const log = free ? limitsRequests : requests;
    log.push(req);
    const index = log.length - 1;
    const answer: Responder = free ? (limits ?? (() => json(404, { error: { code: "not_found", message: "Nema.", doc_url: "http://portal.test/docs/errors#not_found" } }))) : responder;
    const signal = init.signal;
    const aborted = new Promise<never>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true }));
    const res = await Promise.race([Promise.resolve().then(() => answer(req, index)), aborted]);
    signal?.throwIfAborted();
    return res;
  };
  return { fetch, requests, limitsRequests };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** The 429 the API sends. */
export function tooMany(retryAfter: number | null, extra: Record<string, string> = {}): Response {
  const headers: Record<string, string> = { "x-ratelimit-limit": "10", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "0", "x-request-id": "req_429", ...extra };
  if (retryAfter !== null) headers["retry-after"] = String(retryAfter);
  return json(429, { error: { code: "rate_limit_exceeded", message: "Previše zahtjeva.", doc_url: "http://portal.test/docs/rate-limits" } }, headers);
}

/** Rate-limit headers with the reset given as epoch ms (sent as Unix seconds). */
export function standing(remaining: number, resetMs: number, limit = 10): Record<string, string> {
  return { "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": String(remaining), "x-ratelimit-reset": String(Math.ceil(resetMs / 1000)) };
}

/**
 * An API with exact sliding-log windows on the virtual clock, sending the X-RateLimit-* headers and
 * the IETF `RateLimit` / `RateLimit-Policy` fields the way the real one does; `limits` answers
 * GET /v1/limits. `used` pre-fills windows with requests of other clients at given times.
 */
export interface ExactServerOptions {
  latencyMs?: number;
  used?: number[];
  /** Extra ms before the answer of request `index` leaves, after the decision (out-of-order answers). */
  answerDelay?: (index: number) => number;
  /** The answer of request `index` is lost after the decision (the connection drops). */
  drop?: (index: number) => boolean;
  /** Send only the X-RateLimit-* headers (a proxy strips the IETF fields). */
  xOnly?: boolean;
  /** Windows named in the IETF fields but not enforced (e.g. the per-address "ip:burst"). */
  shown?: Array<{ name: string; limit: number; seconds: number; remaining: number }>;
}

export function exactServer(clock: FakeClock, windows: Array<{ name: string; limit: number; seconds: number }>, opts: ExactServerOptions = {}) {
  const latency = opts.latencyMs ?? 5;
  const logs = new Map(windows.map((w) => [w.name, [...(opts.used ?? [])]]));
  const admitted: number[] = [];
  const refusedAt: number[] = [];
  let refused = 0;
  const state = (now: number) =>
    windows.map((w) => {
      const log = logs.get(w.name)!.filter((t) => t > now - w.seconds * 1000);
      logs.set(w.name, log);
      const nextMs = log.length === 0 ? 0 : log[0]! + w.seconds * 1000 - now;
      return { ...w, remaining: w.limit - log.length, nextMs };
    });
  const headers = (now: number, binding?: string) => {
    const s = state(now);
    const b = s.find((w) => w.name === binding) ?? [...s].sort((x, y) => x.remaining - y.remaining)[0]!;
    const x = {
      "x-ratelimit-limit": String(b.limit),
      "x-ratelimit-remaining": String(b.remaining),
      "x-ratelimit-reset": String(Math.ceil((now + b.nextMs) / 1000)),
    };
    if (opts.xOnly) return x;
    const shown = [...(opts.shown ?? []).map((w) => ({ ...w, nextMs: 1_000 })), ...s];
    return {
      ...x,
      "ratelimit-policy": shown.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(", "),
      ratelimit: shown.map((w) => `"${w.name}";r=${w.remaining};t=${Math.ceil(w.nextMs / 1000)}`).join(", "),
    };
  };
  const responder: Responder = async (req, index) => {
    await clock.sleep(latency);
    const now = clock.now();
    const full = state(now).filter((w) => w.remaining <= 0);
    if (full.length > 0) {
      refused++;
      refusedAt.push(now);
      const worst = full.sort((a, b) => b.nextMs - a.nextMs)[0]!;
      const h = headers(now, worst.name);
      await clock.sleep(latency);
      return tooMany(Math.ceil(worst.nextMs / 1000), h);
    }
    for (const w of windows) logs.get(w.name)!.push(now);
    admitted.push(now);
    const h = headers(now);
    await clock.sleep(latency + (opts.answerDelay?.(index) ?? 0));
    if (opts.drop?.(index)) throw new TypeError("fetch failed: the connection was reset");
    return json(200, { oib: (req.body as { oib?: string } | undefined)?.oib ?? "", valid: true }, h);
  };
  const limits: Responder = async () => {
    await clock.sleep(latency);
    const now = clock.now();
    const s = state(now);
    const body = {
      plan: "SANDBOX",
      limits: {},
      windows: s.map((w) => ({ name: w.name, policy: w.name, limit: w.limit, remaining: w.remaining, reset: Math.ceil((now + w.nextMs) / 1000), window_seconds: w.seconds })),
      endpoints: [],
    };
    return json(200, body, headers(now));
  };
  return { responder, limits, admitted, refused: () => refused, refusedAt };
}
