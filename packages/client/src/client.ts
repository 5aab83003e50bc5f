// FiskalClient: typed methods for every v1 endpoint over one request path that applies the
// documented rate-limit behaviour, retries, idempotency keys and the KPD cache.
import { MemoryKpdCache, isStorable, maxAgeSeconds, type KpdCache, type KpdCacheEntry } from "./cache.js";
import { systemClock, type Clock } from "./clock.js";
import { FiskalError, isErrorEnvelope, type FiskalErrorCode } from "./errors.js";
import { RateGate, WindowExhaustedError, parseRateLimitFields, type GatePause, type GateScope, type GateTicket, type RateLimitStanding, type RateLimitWindow } from "./gate.js";
import { redisPacingStore, type PacingStore, type RedisPacingOptions } from "./pacing-store.js";
import type * as Api from "./types.js";

/** Values per batch request the API accepts (a batch counts as one request). */
export const MAX_BATCH = 100;

/** Default cap on a single wait: a 60 s Retry-After can double twice before the cap binds. */
const DEFAULT_MAX_DELAY_MS = 300_000;

export interface RetryOptions {
  /** Times a call may be sent in total, the first included (default 5). */
  maxAttempts?: number;
  /**
   * Cap on any single wait in ms, and the longest Retry-After worth waiting for (default 300,000:
   * five times the usual 60 s Retry-After, so that further 429s really double the wait).
   */
  maxDelayMs?: number;
  /**
   * Base of the backoff after a network error, a timeout or a 500/502/503/504 of an idempotent
   * request, doubled each time (default 500); the wait is drawn at random up to it (full jitter).
   */
  networkDelayMs?: number;
  /**
   * Randomize waits (default true): backoffs are drawn between 0 and their bound (full jitter), a
   * Retry-After gets a random extra of up to 1 s, and once the server's counts show other clients
   * of the account, so do waits for a window's slot. `false` makes every wait exact.
   */
  jitter?: boolean;
}

export interface RateLimitOptions {
  /** Pause until X-RateLimit-Reset when X-RateLimit-Remaining is below this (default 5). */
  lowRemaining?: number;
  /** X-RateLimit-Remaining assumed when the header is absent (default 100). */
  defaultRemaining?: number;
  /** Retry-After assumed on a 429 without one, in seconds (default 60). */
  defaultRetryAfterSeconds?: number;
  /**
   * Before the first burst of concurrent calls, and when the record is more than a minute old and
   * several calls are queued, read the account's standing from the free GET /v1/limits instead of
   * assuming it (default true).
   */
  learn?: boolean;
}

export interface RetryEvent {
  method: string;
  path: string;
  /** The attempt that failed (1 = the first send). */
  attempt: number;
  reason: "rate_limited" | "upstream_unavailable" | "server_error" | "network_error" | "timeout";
  /** How long this call waits before its next attempt, in ms. */
  waitMs: number;
  requestId: string | null;
  idempotencyKey: string | null;
}

export interface FiskalClientOptions {
  /** `fsk_test_…` or `fsk_live_…`. */
  apiKey: string;
  /** e.g. `http://127.0.0.1:3001`; paths start with /v1. */
  baseUrl: string;
  /** Defaults to the global fetch (Node 20+). */
  fetch?: typeof globalThis.fetch;
  /** Defaults to the system clock; tests pass a fake one. */
  clock?: Clock;
  /** Per-attempt timeout in ms, body included (default 30,000). */
  timeoutMs?: number;
  /**
   * Overall time a call may take in ms, waits and retries included (default: none). A call that
   * runs out fails with code `timeout`; a wait that would end after it is not started.
   */
  deadlineMs?: number;
  retry?: RetryOptions;
  /**
   * Pace together with the other processes using this API key, through a common log in Redis:
   * `{ redis: "redis://127.0.0.1:6379" }` (or a connected client with `sendCommand`), or any
   * PacingStore. Without it each process paces on its own log and jitters its waits.
   */
  sharedPacing?: RedisPacingOptions | PacingStore;
  /** Reports a failure of the shared pacing store; the client then paces on its own log. */
  onPacingStoreError?: (err: unknown) => void;
  /** [0, 1) for the jitter; Math.random by default. */
  random?: () => number;
  rateLimit?: RateLimitOptions;
  /** Where KPD responses are kept (default: in memory); false turns caching off. */
  kpdCache?: KpdCache | false;
  /** Sent with every request, e.g. a User-Agent on Node. */
  headers?: Record<string, string>;
  onRetry?: (event: RetryEvent) => void;
  /** Called whenever the shared gate starts or extends a pause. */
  onPause?: (pause: GatePause) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout for this call. */
  timeoutMs?: number;
  /** Overrides the client's overall deadline for this call. */
  deadlineMs?: number;
}

export interface IdempotentCallOptions extends CallOptions {
  /** Defaults to a new random UUID per call; reused on every retry of that call. */
  idempotencyKey?: string;
}

export interface RequestSpec extends CallOptions {
  method: "GET" | "POST";
  /** Starts with /v1/. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Makes a POST safe to retry after a network error, timeout or 503. */
  idempotencyKey?: string;
  /** Use the KPD cache for this GET. */
  cache?: boolean;
}

export interface FiskalResponse<T> {
  data: T;
  /** 200, or 304 when a cached body was revalidated; 0 when served from the cache without a request. */
  status: number;
  requestId: string | null;
  /** The rate-limit headers of this response (the last seen ones when served from the cache). */
  rateLimit: RateLimitStanding | null;
  /** The API answered from its idempotency store (Idempotent-Replayed: true). */
  replayed: boolean;
  /** "fresh": no request was made; "revalidated": the API answered 304. */
  cache: "fresh" | "revalidated" | null;
  attempts: number;
}

export class FiskalClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof globalThis.fetch;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly maxDelayMs: number;
  private readonly networkDelayMs: number;
  private readonly defaultRemaining: number;
  private readonly defaultRetryAfterSeconds: number;
  private readonly cache: KpdCache | null;
  private readonly gate: RateGate;
  private readonly jitter: boolean;
  private readonly random: () => number;
  private readonly deadlineMs: number | null;
  private readonly pacingStore: PacingStore | null;
  private readonly ownsStore: boolean;
  /** Identical cached GETs in flight, shared by every caller. */
  private readonly inFlight = new Map<string, Promise<FiskalResponse<unknown>>>();

  constructor(private readonly options: FiskalClientOptions) {
    if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") throw new TypeError("FiskalClient: apiKey is required");
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new TypeError(`FiskalClient: baseUrl must be an absolute URL, got ${JSON.stringify(options.baseUrl)}`);
    }
    this.baseUrl = base.toString().replace(/\/+$/, "");
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== "function") throw new TypeError("FiskalClient: no fetch available; pass options.fetch");
    this.fetchImpl = fetchImpl;
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = positive("timeoutMs", options.timeoutMs ?? 30_000);
    this.maxAttempts = positiveInt("retry.maxAttempts", options.retry?.maxAttempts ?? 5);
    this.maxDelayMs = positive("retry.maxDelayMs", options.retry?.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
    this.networkDelayMs = nonNegative("retry.networkDelayMs", options.retry?.networkDelayMs ?? 500);
    this.defaultRemaining = nonNegative("rateLimit.defaultRemaining", options.rateLimit?.defaultRemaining ?? 100);
    this.defaultRetryAfterSeconds = nonNegative("rateLimit.defaultRetryAfterSeconds", options.rateLimit?.defaultRetryAfterSeconds ?? 60);
    this.cache = options.kpdCache === false ? null : (options.kpdCache ?? new MemoryKpdCache());
    this.jitter = options.retry?.jitter !== false;
    this.random = options.random ?? Math.random;
    this.deadlineMs = options.deadlineMs === undefined ? null : positive("deadlineMs", options.deadlineMs);
    const shared = options.sharedPacing;
    this.pacingStore = !shared ? null : "reserve" in shared ? shared : redisPacingStore(options.apiKey, shared);
    this.ownsStore = !!shared && !("reserve" in shared);
    this.gate = new RateGate({
      clock: this.clock,
      lowRemaining: nonNegative("rateLimit.lowRemaining", options.rateLimit?.lowRemaining ?? 5),
      defaultRemaining: this.defaultRemaining,
      maxDelayMs: this.maxDelayMs,
      learn: options.rateLimit?.learn === false ? undefined : () => this.learnLimits(),
      onPause: options.onPause,
      jitter: this.jitter,
      random: this.random,
      store: this.pacingStore,
      onStoreError: options.onPacingStoreError,
    });
  }

  /** The rate-limit headers of the most recent response, or null before the first one. */
  get rateLimit(): RateLimitStanding | null {
    return this.gate.standing;
  }

  /** Closes the shared pacing store's connection if the client opened it (a store passed in stays open). */
  async close(): Promise<void> {
    if (this.ownsStore) await this.pacingStore?.close();
  }

  // --- invoices and e-invoices -------------------------------------------------------------

  /** POST /v1/invoices/fiscalize. Retries reuse one Idempotency-Key, so a receipt is fiscalized at most once. */
  async fiscalize(receipt: Api.FiscalizeRequest, options: IdempotentCallOptions = {}): Promise<Api.Invoice> {
    const idempotencyKey = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    return (await this.request<Api.Invoice>({ ...options, method: "POST", path: "/v1/invoices/fiscalize", body: receipt, idempotencyKey })).data;
  }

  /** GET /v1/invoices/{id}. */
  async getInvoice(id: string, options: CallOptions = {}): Promise<Api.Invoice> {
    return (await this.request<Api.Invoice>({ ...options, method: "GET", path: `/v1/invoices/${encodeURIComponent(id)}` })).data;
  }

  /** POST /v1/einvoices/send, with an Idempotency-Key like fiscalize. */
  async sendEInvoice(invoice: Api.SendEInvoiceRequest, options: IdempotentCallOptions = {}): Promise<Api.EInvoice> {
    const idempotencyKey = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    return (await this.request<Api.EInvoice>({ ...options, method: "POST", path: "/v1/einvoices/send", body: invoice, idempotencyKey })).data;
  }

  /** GET /v1/einvoices/{id}: the e-invoice, issued or received (`direction`), with its UBL XML and Fiscalization 2.0 state. */
  async getEInvoice(id: string, options: CallOptions = {}): Promise<Api.EInvoiceDocument> {
    return (await this.request<Api.EInvoiceDocument>({ ...options, method: "GET", path: `/v1/einvoices/${encodeURIComponent(id)}` })).data;
  }

  /** POST /v1/einvoices/{id}/acceptance: the recipient accepts a received e-invoice (recorded in Fiskal; nothing is sent to the tax authority). */
  async acceptEInvoice(id: string, options: CallOptions = {}): Promise<Api.ReceivedEInvoiceDocument> {
    return (await this.request<Api.ReceivedEInvoiceDocument>({ ...options, method: "POST", path: `/v1/einvoices/${encodeURIComponent(id)}/acceptance`, body: {} })).data;
  }

  /**
   * POST /v1/einvoices/{id}/rejection: the recipient rejects a received e-invoice (art. 52) and the
   * rejection is reported to the tax authority; retries reuse one Idempotency-Key, so it is reported once.
   */
  async rejectEInvoice(id: string, rejection: Api.EInvoiceRejection, options: IdempotentCallOptions = {}): Promise<Api.EInvoiceReport> {
    const idempotencyKey = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    return (await this.request<Api.EInvoiceReport>({ ...options, method: "POST", path: `/v1/einvoices/${encodeURIComponent(id)}/rejection`, body: rejection, idempotencyKey })).data;
  }

  // --- KPD 2025 (cached) ---------------------------------------------------------------------

  /** GET /v1/kpd/{code}, e.g. "62.10.11", "62" or "J". */
  async getKpd(code: string, options: CallOptions = {}): Promise<Api.KpdCode> {
    return (await this.request<Api.KpdCode>({ ...options, method: "GET", path: `/v1/kpd/${encodeURIComponent(code)}`, cache: true })).data;
  }

  /** GET /v1/kpd/search; a string is the query `q`. */
  async searchKpd(params: Api.KpdSearchParams | string, options: CallOptions = {}): Promise<Api.KpdSearchResult> {
    const p: Api.KpdSearchParams = typeof params === "string" ? { q: params } : params;
    const query = { q: p.q, limit: p.limit, offset: p.offset, level: p.level, section: p.section };
    return (await this.request<Api.KpdSearchResult>({ ...options, method: "GET", path: "/v1/kpd/search", query, cache: true })).data;
  }

  /**
   * Every result of a KPD search, in ranked order, fetched a page (`limit`, default 100) at a time
   * as the loop consumes them: `for await (const code of client.searchKpdAll("psenica")) …`.
   */
  async *searchKpdAll(params: Omit<Api.KpdSearchParams, "offset"> | string, options: CallOptions = {}): AsyncGenerator<Api.KpdSearchResult["results"][number]> {
    const p: Api.KpdSearchParams = typeof params === "string" ? { q: params, limit: 100 } : { limit: 100, ...params };
    let offset = 0;
    for (;;) {
      const page = await this.searchKpd({ ...p, offset }, options);
      yield* page.results;
      offset += page.results.length;
      if (page.results.length === 0 || offset >= page.total) return;
    }
  }

  /** GET /v1/kpd/batch: at most 100 codes in one request; use lookupKpd for longer lists. */
  async kpdBatch(codes: readonly string[], options: CallOptions = {}): Promise<Api.KpdBatchResult> {
    checkBatch("kpdBatch", codes, "lookupKpd");
    const query = { codes: codes.join(",") };
    return (await this.request<Api.KpdBatchResult>({ ...options, method: "GET", path: "/v1/kpd/batch", query, cache: true })).data;
  }

  /** Any number of codes: batches of 100, results merged in input order. */
  async lookupKpd(codes: readonly string[], options: CallOptions = {}): Promise<Api.KpdBatchResult> {
    const parts = await Promise.all(chunk(codes, MAX_BATCH).map((c) => this.kpdBatch(c, options)));
    const results = parts.flatMap((p) => p.results);
    return { results, found: results.filter((r) => r.found).length, missing: results.filter((r) => !r.found).map((r) => r.code) };
  }

  // --- OIB -------------------------------------------------------------------------------------

  /** POST /v1/validate/oib. An invalid OIB is a result (`valid: false`), not an error. */
  async validateOib(oib: string, options: CallOptions = {}): Promise<Api.OibResult> {
    return (await this.request<Api.OibResult>({ ...options, method: "POST", path: "/v1/validate/oib", body: { oib } })).data;
  }

  /** POST /v1/validate/oib/batch: at most 100 OIBs in one request; use validateOibs for longer lists. */
  async validateOibBatch(oibs: readonly string[], options: CallOptions = {}): Promise<Api.OibBatchResult> {
    checkBatch("validateOibBatch", oibs, "validateOibs");
    return (await this.request<Api.OibBatchResult>({ ...options, method: "POST", path: "/v1/validate/oib/batch", body: { oibs } })).data;
  }

  /** Any number of OIBs: batches of 100, results merged in input order. */
  async validateOibs(oibs: readonly string[], options: CallOptions = {}): Promise<Api.OibBatchResult> {
    const parts = await Promise.all(chunk(oibs, MAX_BATCH).map((c) => this.validateOibBatch(c, options)));
    const results = parts.flatMap((p) => p.results);
    const valid = results.filter((r) => r.valid).length;
    return { results, valid, invalid: results.length - valid };
  }

  // --- account ---------------------------------------------------------------------------------

  /** GET /v1/limits: the account's standing in every window (free: consumes no quota). */
  async limits(options: CallOptions = {}): Promise<Api.Limits> {
    return (await this.request<Api.Limits>({ ...options, method: "GET", path: "/v1/limits" })).data;
  }

  /** GET /v1/openapi.json: the API's OpenAPI 3.1 document. */
  async openApiDocument(options: CallOptions = {}): Promise<Record<string, unknown>> {
    return (await this.request<Record<string, unknown>>({ ...options, method: "GET", path: "/v1/openapi.json" })).data;
  }

  // --- the one request path ----------------------------------------------------------------------

  /** Sends one API call with the client's waiting, retry, idempotency and cache rules. */
  async request<T>(spec: RequestSpec): Promise<FiskalResponse<T>> {
    const cacheKey = spec.cache && spec.method === "GET" && this.cache ? pathWithQuery(spec.path, spec.query) : null;
    if (!cacheKey) return this.run<T>(spec);
    // Identical lookups in flight share one request; each caller keeps its own signal.
    let shared = this.inFlight.get(cacheKey);
    if (!shared) {
      shared = this.run<unknown>({ ...spec, signal: undefined }).finally(() => this.inFlight.delete(cacheKey));
      this.inFlight.set(cacheKey, shared);
    }
    return raceSignal(shared as Promise<FiskalResponse<T>>, spec.signal);
  }

  private async run<T>(spec: RequestSpec): Promise<FiskalResponse<T>> {
    const progress = { sent: 0 };
    const deadlineMs = spec.deadlineMs === undefined ? this.deadlineMs : positive("deadlineMs", spec.deadlineMs);
    const deadline = deadlineMs === null ? null : this.startDeadline(deadlineMs, spec.signal);
    this.gate.enter();
    try {
      return await this.send<T>({ ...spec, signal: deadline?.signal ?? spec.signal }, progress, this.maxAttempts, deadline?.at ?? Infinity);
    } catch (err) {
      throw err instanceof FiskalError ? withCall(err, progress.sent, spec.idempotencyKey) : err;
    } finally {
      deadline?.stop();
      this.gate.leave();
    }
  }

  /** A signal that aborts with a `timeout` FiskalError at the deadline, or with the caller's signal. */
  private startDeadline(ms: number, outer: AbortSignal | undefined): { signal: AbortSignal; at: number; stop: () => void } {
    const controller = new AbortController();
    const timer = new AbortController();
    const onAbort = () => controller.abort(outer!.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener("abort", onAbort, { once: true });
    this.clock.sleep(ms, timer.signal).then(
      () => controller.abort(new FiskalError({ code: "timeout", message: `The call did not complete within its deadline of ${ms} ms.` })),
      () => undefined,
    );
    return {
      signal: controller.signal,
      at: this.clock.now() + ms,
      stop: () => {
        timer.abort();
        outer?.removeEventListener("abort", onAbort);
      },
    };
  }

  /** Reads every window from GET /v1/limits (free) into the shared gate; one attempt. */
  private async learnLimits(): Promise<void> {
    const sentAt = this.clock.now();
    const res = await this.send<Api.Limits>({ method: "GET", path: "/v1/limits" }, { sent: 0 }, 1, Infinity);
    const nowS = this.clock.now() / 1000;
    const windows: RateLimitWindow[] = [];
    const add = (w: { name: string; policy?: string; limit: number; remaining: number; reset: number; window_seconds: number } | undefined) => {
      if (!w || typeof w.limit !== "number" || typeof w.remaining !== "number" || typeof w.reset !== "number" || typeof w.window_seconds !== "number") return;
      windows.push({ name: w.policy ?? w.name, limit: w.limit, windowSeconds: w.window_seconds, remaining: w.remaining, resetSeconds: Math.max(0, w.reset - nowS) });
    };
    for (const w of res.data.windows ?? []) add(w);
    for (const e of res.data.endpoints ?? []) add(e.window);
    if (windows.length > 0) this.gate.observeLimits(windows, sentAt);
  }

  /** The backoff after a network error, a timeout or a 5xx: doubled each time, full jitter. */
  private backoffMs(n: number): number {
    const bound = Math.min(this.maxDelayMs, this.networkDelayMs * 2 ** n);
    return this.jitter ? Math.floor(this.random() * bound) : bound;
  }

  /** A random extra after a server-given wait (never shorter than the server asked). */
  private extraMs(waitMs: number): number {
    return this.jitter ? Math.floor(this.random() * Math.min(waitMs, 1_000)) : 0;
  }

  private async send<T>(spec: RequestSpec, progress: { sent: number }, maxAttempts: number, deadlineAt: number): Promise<FiskalResponse<T>> {
    const target = pathWithQuery(spec.path, spec.query);
    const url = this.baseUrl + target;
    const cacheKey = spec.cache && spec.method === "GET" && this.cache ? target : null;
    const cached = cacheKey ? await this.cache!.get(cacheKey) : undefined;
    if (cached && this.clock.now() < cached.freshUntil) {
      return { data: cached.body as T, status: 0, requestId: null, rateLimit: this.gate.standing, replayed: false, cache: "fresh", attempts: 0 };
    }

    const idempotent = spec.method === "GET" || spec.idempotencyKey !== undefined;
    const headers: Record<string, string> = { ...this.options.headers, accept: "application/json", authorization: `Bearer ${this.options.apiKey}` };
    if (spec.body !== undefined) headers["content-type"] = "application/json";
    if (spec.idempotencyKey !== undefined) headers["idempotency-key"] = spec.idempotencyKey;
    if (cached?.etag) headers["if-none-match"] = cached.etag;
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const timeoutMs = spec.timeoutMs ?? this.timeoutMs;
    const retried = { rateLimited: 0, serverWait: 0, backoff: 0 };
    /** Waits before the next attempt; false (and no wait) when it would end after the deadline. */
    const retry = async (attempt: number, reason: RetryEvent["reason"], waitMs: number, requestId: string | null): Promise<boolean> => {
      if (this.clock.now() + waitMs > deadlineAt) return false;
      this.options.onRetry?.({ method: spec.method, path: spec.path, attempt, reason, waitMs, requestId, idempotencyKey: spec.idempotencyKey ?? null });
      await this.sleep(waitMs, spec.signal);
      return true;
    };

    const scope = gateScope(spec.method, spec.path);
    for (let attempt = 1; ; attempt++) {
      const ticket = await this.acquire(scope, spec.signal, attempt);
      progress.sent = attempt;
      let res: Response;
      let text: string;
      try {
        ({ res, text } = await this.exchange(url, { method: spec.method, headers, body }, spec.signal, timeoutMs));
      } catch (err) {
        this.gate.release(ticket, { kind: "lost" });
        const error = err as FiskalError;
        if (error.code !== "aborted" && !spec.signal?.aborted && idempotent && attempt < maxAttempts) {
          if (await retry(attempt, error.code === "timeout" ? "timeout" : "network_error", this.backoffMs(retried.backoff++), null)) continue;
        }
        throw error;
      }

      const requestId = res.headers.get("x-request-id");
      const standing = this.readStanding(res.headers);
      if (res.status === 429) {
        const sent = retryAfterSeconds(res.headers, this.clock.now());
        const retryAfterMs = (sent ?? this.defaultRetryAfterSeconds) * 1000;
        // Nothing within the cap can succeed when the server asks for more (e.g. the daily quota).
        const fits = retryAfterMs <= this.maxDelayMs;
        // Every call waits the server's Retry-After; only this call doubles it on further 429s.
        this.gate.release(ticket, { kind: "refused", standing, retryAfterMs: fits ? retryAfterMs : null });
        if (fits && attempt < maxAttempts) {
          const waitMs = Math.min(this.maxDelayMs, retryAfterMs * 2 ** retried.rateLimited++);
          if (await retry(attempt, "rate_limited", waitMs + this.extraMs(waitMs), requestId)) continue;
        }
        throw this.apiError(res, text, requestId, attempt, sent);
      }
      this.gate.release(ticket, { kind: "response", standing });

      if (RETRIED_STATUSES.has(res.status) && idempotent && attempt < maxAttempts) {
        const retryAfter = retryAfterSeconds(res.headers, this.clock.now());
        const envelope = parseJson(text);
        const reason = isErrorEnvelope(envelope) && envelope.error.code === "upstream_unavailable" ? "upstream_unavailable" : "server_error";
        let waitMs: number | null;
        if (retryAfter === null) waitMs = this.backoffMs(retried.backoff++);
        else if (retryAfter * 1000 > this.maxDelayMs) waitMs = null;
        else {
          const ms = Math.min(this.maxDelayMs, retryAfter * 1000 * 2 ** retried.serverWait++);
          waitMs = ms + this.extraMs(ms);
        }
        if (waitMs !== null && (await retry(attempt, reason, waitMs, requestId))) continue;
      }

      if (res.status === 304 && cacheKey && cached) {
        const cc = res.headers.get("cache-control");
        const entry: KpdCacheEntry = { body: cached.body, etag: res.headers.get("etag") ?? cached.etag, freshUntil: this.clock.now() + maxAgeSeconds(cc) * 1000, bytes: cached.bytes };
        await this.cache!.set(cacheKey, entry);
        return { data: cached.body as T, status: 304, requestId, rateLimit: standing, replayed: false, cache: "revalidated", attempts: attempt };
      }
      if (!res.ok) throw this.apiError(res, text, requestId, attempt, retryAfterSeconds(res.headers, this.clock.now()));

      const data = parseJson(text);
      if (data === undefined) {
        throw new FiskalError({
          code: "invalid_response",
          message: `Expected a JSON body from ${spec.method} ${spec.path} (status ${res.status}).`,
          status: res.status,
          requestId,
          attempts: attempt,
        });
      }
      if (cacheKey) {
        const cc = res.headers.get("cache-control");
        const etag = res.headers.get("etag");
        if (isStorable(cc) && (etag || maxAgeSeconds(cc) > 0)) {
          await this.cache!.set(cacheKey, { body: data, etag, freshUntil: this.clock.now() + maxAgeSeconds(cc) * 1000, bytes: text.length });
        }
      }
      const replayed = res.headers.get("idempotent-replayed") === "true";
      return { data: data as T, status: res.status, requestId, rateLimit: standing, replayed, cache: null, attempts: attempt };
    }
  }

  private async acquire(scope: GateScope, signal: AbortSignal | undefined, attempt: number): Promise<GateTicket> {
    try {
      return await this.gate.acquire(scope, signal);
    } catch (err) {
      if (err instanceof WindowExhaustedError) {
        // Known to be refused (e.g. the day's quota is used up): fail without sending.
        const retryAfter = Math.max(0, Math.ceil((err.until - this.clock.now()) / 1000));
        throw new FiskalError({ code: "rate_limit_exceeded", message: `${err.message} Nothing was sent.`, retryAfter, attempts: attempt - 1, cause: err });
      }
      throw aborted(signal, err);
    }
  }

  private async sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.clock.sleep(ms, signal);
    } catch (err) {
      throw aborted(signal, err);
    }
  }

  /** One fetch with the per-attempt timeout, body read included. Throws FiskalError only. */
  private async exchange(url: string, init: RequestInit, signal: AbortSignal | undefined, timeoutMs: number): Promise<{ res: Response; text: string }> {
    if (signal?.aborted) throw aborted(signal, signal.reason);
    const controller = new AbortController();
    const stopTimer = new AbortController();
    let timedOut = false;
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    this.clock.sleep(timeoutMs, stopTimer.signal).then(
      () => {
        timedOut = true;
        controller.abort(new FiskalError({ code: "timeout", message: `No answer within ${timeoutMs} ms.` }));
      },
      () => undefined,
    );
    try {
      const res = await this.fetchImpl(url, { ...init, signal: controller.signal });
      const text = await res.text();
      return { res, text };
    } catch (err) {
      if (signal?.aborted) throw aborted(signal, err);
      if (timedOut) throw new FiskalError({ code: "timeout", message: `No answer within ${timeoutMs} ms.`, cause: err });
      throw new FiskalError({ code: "network_error", message: `Network error: ${(err as Error)?.message ?? String(err)}`, cause: err });
    } finally {
      stopTimer.abort();
      signal?.removeEventListener("abort", onAbort);
    }
  }

  private readStanding(h: Headers): RateLimitStanding {
    return {
      limit: intHeader(h, "x-ratelimit-limit"),
      remaining: intHeader(h, "x-ratelimit-remaining") ?? this.defaultRemaining,
      reset: intHeader(h, "x-ratelimit-reset"),
      windows: parseRateLimitFields(h.get("ratelimit"), h.get("ratelimit-policy")),
    };
  }

  private apiError(res: Response, text: string, requestId: string | null, attempts: number, retryAfter: number | null): FiskalError {
    const body = parseJson(text);
    if (isErrorEnvelope(body)) {
      return new FiskalError({
        code: body.error.code as FiskalErrorCode,
        message: body.error.message,
        status: res.status,
        docUrl: body.error.doc_url ?? null,
        details: body.error.details,
        requestId,
        retryAfter,
        attempts,
      });
    }
    return new FiskalError({
      code: res.status >= 500 ? "internal_error" : "invalid_response",
      message: `HTTP ${res.status} without the API's error envelope.`,
      status: res.status,
      requestId,
      retryAfter,
      attempts,
    });
  }
}

/** The windows a request counts in: GET /v1/limits is free; the endpoint groups have their own window. */
function gateScope(method: string, path: string): GateScope {
  if (method === "GET" && path === "/v1/limits") return { counted: false, group: null };
  if (method === "POST" && path === "/v1/invoices/fiscalize") return { counted: true, group: "fiscalize" };
  if (method === "POST" && (path === "/v1/einvoices/send" || path === "/v1/einvoices/supplies" || /^\/v1\/einvoices\/[^/]+\/(payments|rejection)$/.test(path))) return { counted: true, group: "einvoice" };
  if (method === "GET" && path.startsWith("/v1/kpd/")) return { counted: true, group: "kpd" };
  if (method === "POST" && path.startsWith("/v1/validate/oib")) return { counted: true, group: "oib" };
  return { counted: true, group: null };
}

/** Statuses an idempotent call is retried after: the server failed or was unavailable, nothing was done twice. */
const RETRIED_STATUSES = new Set([500, 502, 503, 504]);

/** The error for a call ended by its signal: `timeout` when the signal timed out (a deadline, AbortSignal.timeout). */
function aborted(signal: AbortSignal | undefined, cause: unknown): FiskalError {
  const reason: unknown = signal?.reason;
  if (reason instanceof FiskalError) return reason;
  if (cause instanceof FiskalError) return cause;
  if (typeof reason === "object" && reason !== null && (reason as { name?: unknown }).name === "TimeoutError") {
    return new FiskalError({ code: "timeout", message: "The call's signal timed out.", cause: reason });
  }
  return new FiskalError({ code: "aborted", message: "The call was aborted.", cause: reason ?? cause });
}

/** Settles with `p`, or rejects when `signal` aborts first (`p` carries on for its other callers). */
function raceSignal<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(aborted(signal, signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted(signal, signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

function withCall(err: FiskalError, attempts: number, idempotencyKey: string | undefined): FiskalError {
  if (err.attempts === attempts && err.idempotencyKey === (idempotencyKey ?? null)) return err;
  return new FiskalError({
    code: err.code,
    message: err.message,
    status: err.status,
    docUrl: err.docUrl,
    details: err.details,
    requestId: err.requestId,
    retryAfter: err.retryAfter,
    attempts,
    idempotencyKey,
    cause: err.cause,
  });
}

function pathWithQuery(path: string, query: RequestSpec["query"]): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

function intHeader(h: Headers, name: string): number | null {
  const v = h.get(name);
  if (v === null || !/^\s*\d+\s*$/.test(v)) return null;
  return Number(v);
}

/** Retry-After as whole seconds (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(h: Headers, now: number): number | null {
  const v = h.get("retry-after")?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

function checkBatch(method: string, values: readonly string[], helper: string): void {
  if (!Array.isArray(values) || values.length === 0) throw new RangeError(`${method}: pass at least one value`);
  if (values.length > MAX_BATCH) throw new RangeError(`${method}: at most ${MAX_BATCH} values per request, got ${values.length}; ${helper}() splits longer lists`);
}

function positive(name: string, v: number): number {
  if (!(typeof v === "number" && v > 0 && Number.isFinite(v))) throw new RangeError(`FiskalClient: ${name} must be a positive number, got ${v}`);
  return v;
}

function positiveInt(name: string, v: number): number {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`FiskalClient: ${name} must be a positive integer, got ${v}`);
  return v;
}

function nonNegative(name: string, v: number): number {
  if (!(typeof v === "number" && v >= 0 && Number.isFinite(v))) throw new RangeError(`FiskalClient: ${name} must be a non-negative number, got ${v}`);
  return v;
}
