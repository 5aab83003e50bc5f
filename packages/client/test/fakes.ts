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

export interface SeenRequest {
  at: number;
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Responder = (req: SeenRequest, index: number) => Response | Promise<Response>;

/** A fetch that answers from `responder` and records what it was asked. */
export function fakeFetch(clock: FakeClock, responder: Responder) {
  const requests: SeenRequest[] = [];
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
    requests.push(req);
    const signal = init.signal;
    const aborted = new Promise<never>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true }));
    const res = await Promise.race([Promise.resolve().then(() => responder(req, requests.length - 1)), aborted]);
    signal?.throwIfAborted();
    return res;
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
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
