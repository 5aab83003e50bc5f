import pg from "pg";
import { connectionSettings, type ConnectionSettings } from "@fiskal/db";
import type { Db } from "./db.ts";
import { isUuid } from "./validate.ts";
import { chooseLogWriter, existingAccounts, writeBatch, type Batch, type HourCounts, type LogRow, type LogWriter } from "./writer.ts";

/** One metered API request, as the API server reports it. */
export interface UsageRecord {
  accountId: string;
  apiKeyId: string | null;
  requestId: string;
  method: string;
  /** Route template, e.g. "POST /v1/validate/oib". */
  endpoint: string;
  status: number;
  durationMs: number;
  refused: boolean;
  at: Date;
  /** The rate-limit decision the request got and the rate-limit headers it was answered with. */
  rate?: RateRecord | null;
}

/** What the request log keeps of a rate-limit decision, for the portal's request detail. */
export interface RateRecord {
  /** The binding window on admit, the refusing window on 429, e.g. "minute" or "endpoint:kpd". */
  window: string;
  limit: number;
  remaining: number;
  /** Retry-After in whole seconds (429 only), else null. */
  retryAfter: number | null;
  /** The rate-limit response headers as sent, e.g. {"X-RateLimit-Limit": "60", "RateLimit": "…"}. */
  headers: Record<string, string>;
}

export interface MeterOptions {
  /** How often the counts and the request log are written. Default 1000 ms (about what a crash may lose). */
  flushIntervalMs?: number;
  /**
   * Request-log rows that start a flush before the interval is up (the counts are small whatever the
   * traffic; the log is not). Also the rows per INSERT where COPY is unavailable. Default 10 000.
   */
  maxBatch?: number;
  /**
   * Request-log rows kept while the database is unreachable; beyond it the oldest rows are dropped
   * and counted. Their requests stay counted in the hourly totals. Default 100 000.
   */
  maxBuffer?: number;
  /**
   * A flush still unfinished after this long (a lock held elsewhere, a connection that went silent)
   * is abandoned: its connection is closed, PostgreSQL rolls it back, and it is retried. Default 30 000 ms.
   */
  flushTimeoutMs?: number;
  /** Failed writes, dropped or rejected events. Never receives secrets. Default: one line on stderr. */
  onError?: (err: unknown) => void;
}

export interface Meter {
  /** Counts one request and buffers its request-log row. Synchronous, never throws, never touches the database. */
  record(e: UsageRecord): void;
  /** Writes everything recorded so far in one transaction. Never rejects: failures go to `onError` and everything stays buffered. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left (retrying briefly); events recorded afterwards are dropped and counted. */
  close(): Promise<void>;
  /** Recorded requests whose counts are not written yet, including those being written right now. */
  readonly buffered: number;
  /** Events missing from the request log: buffer overflow, invalid records, records after close, accounts deleted meanwhile. */
  readonly dropped: number;
  /** Of those, events missing from the hourly counts too (all but buffer overflow). */
  readonly uncounted: number;
  /** Requests counted in the database (their request-log rows committed with them unless dropped). */
  readonly written: number;
}

/** Reported through `onError`; `events` is how many events the message is about. */
export class MeterError extends Error {
  override readonly name = "MeterError";
  constructor(
    message: string,
    readonly events: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The `application_name` of the meter's own connection (it shows in pg_stat_activity). */
export const METER_APPLICATION_NAME = "fiskal-usage-meter";
const HOUR_MS = 3_600_000;
/** 9999-12-31T23:59:59.999Z: later instants have no 4-digit-year ISO form. */
const LATEST_MS = 253_402_300_799_999;
const DEFAULTS = { flushIntervalMs: 1000, maxBatch: 10_000, maxBuffer: 100_000, flushTimeoutMs: 30_000 };
/** close(): the final flush is tried again after these pauses before what is left is given up. */
const CLOSE_RETRY_MS = [250, 1000];
/** Foreign-key failures (accounts deleted meanwhile) resolved within one flush before it gives up. */
const ORPHAN_ROUNDS = 3;

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`createMeter: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function lastLine(text: string): string {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  return (lines[lines.length - 1] ?? "").trim();
}

function defaultOnError(err: unknown): void {
  if (!(err instanceof Error)) return void console.error(`[usage] ${String(err)}`);
  // Driver errors may carry multi-line frames; their last line holds the database's reason.
  const cause = err.cause instanceof Error ? `: ${lastLine(err.cause.message)}` : "";
  console.error(`[usage] ${err.message}${cause}`);
}

function invalidReason(e: UsageRecord): string | null {
  if (typeof e !== "object" || e === null) return "not an object";
  if (!isUuid(e.accountId)) return "accountId is not a UUID";
  if (e.apiKeyId !== null && !isUuid(e.apiKeyId)) return "apiKeyId is neither null nor a UUID";
  if (typeof e.requestId !== "string") return "requestId is not a string";
  if (typeof e.method !== "string") return "method is not a string";
  if (typeof e.endpoint !== "string") return "endpoint is not a string";
  if (!Number.isInteger(e.status) || e.status < 100 || e.status > 999) return "status is not an HTTP status";
  if (!Number.isFinite(e.durationMs) || e.durationMs < 0) return "durationMs is not a non-negative number";
  if (typeof e.refused !== "boolean") return "refused is not a boolean";
  if (e.rate != null) {
    const r = e.rate;
    if (typeof r.window !== "string") return "rate.window is not a string";
    if (!Number.isInteger(r.limit) || !Number.isInteger(r.remaining)) return "rate.limit or rate.remaining is not an integer";
    if (r.retryAfter !== null && !Number.isInteger(r.retryAfter)) return "rate.retryAfter is neither null nor an integer";
    if (typeof r.headers !== "object" || r.headers === null) return "rate.headers is not an object";
  }
  if (!(e.at instanceof Date)) return "at is not a valid Date";
  const t = e.at.getTime();
  // NaN fails both comparisons' complement; an instant outside 1970–9999 would fail every flush.
  if (!(t >= 0 && t <= LATEST_MS)) return Number.isNaN(t) ? "at is not a valid Date" : "at is out of range";
  return null;
}

/** PostgreSQL 23503: an account deleted while its events were buffered. */
function isForeignKeyViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "23503";
}

/**
 * pg-pool listens for errors on a connection only while it is idle. One that breaks while checked out,
 * while it is being handed over (a FATAL message can arrive in the same read as the ReadyForQuery that
 * completes the connection) or after it was discarded must not take the process down with an
 * unhandled 'error' event: the query in progress fails, and with it the flush.
 */
class MeterClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("error", () => {});
  }
}

/** Counts per UTC hour (epoch ms) → account → endpoint. */
type Counts = Map<number, Map<string, Map<string, HourCounts>>>;

/** What a flush took out of the buffers; given back whole if it fails. */
interface Taken {
  rows: LogRow[];
  counts: Counts;
  lastUsed: Map<string, number>;
  events: number;
}

function flatten(counts: Counts): HourCounts[] {
  const out: HourCounts[] = [];
  for (const byAccount of counts.values()) for (const byEndpoint of byAccount.values()) for (const c of byEndpoint.values()) out.push(c);
  return out;
}

/** Adds `from` into `into` (whose objects it may reuse); returns `into`. */
function mergeCounts(into: Counts, from: Counts): Counts {
  for (const [hour, fromAccounts] of from) {
    const intoAccounts = into.get(hour);
    if (intoAccounts === undefined) {
      into.set(hour, fromAccounts);
      continue;
    }
    for (const [accountId, fromEndpoints] of fromAccounts) {
      const intoEndpoints = intoAccounts.get(accountId);
      if (intoEndpoints === undefined) {
        intoAccounts.set(accountId, fromEndpoints);
        continue;
      }
      for (const [endpoint, c] of fromEndpoints) {
        const t = intoEndpoints.get(endpoint);
        if (t === undefined) {
          intoEndpoints.set(endpoint, c);
          continue;
        }
        t.requests += c.requests;
        t.refused += c.refused;
        t.ok += c.ok;
        t.errors += c.errors;
        t.totalMs += c.totalMs;
      }
    }
  }
  return into;
}

class UsageMeter implements Meter {
  #settings: ConnectionSettings;
  #maxBatch: number;
  #maxBuffer: number;
  #flushTimeoutMs: number;
  #onError: (err: unknown) => void;
  #pool: pg.Pool | null = null;
  /** How request-log rows are written; decided on the first connection. */
  #logWriter: LogWriter | null = null;

  // Pending log rows are #queue[#head..]; advancing #head drops without shifting the array.
  #queue: LogRow[] = [];
  #head = 0;
  #inflightRows = 0;
  #counts: Counts = new Map();
  // The hour most records fall into, and its map: one Map lookup fewer per record.
  #lastHour = -1;
  #lastHourCounts: Map<string, Map<string, HourCounts>> | null = null;
  #lastUsed = new Map<string, number>();
  #pendingEvents = 0;
  #inflightEvents = 0;

  #dropped = 0;
  #uncounted = 0;
  #written = 0;
  #overflowReported = false;
  #rejectedAfterCloseReported = false;

  #timer: NodeJS.Timeout;
  #immediate: NodeJS.Immediate | null = null;
  #flushing = false;
  #failing = false;
  #tail: Promise<void> = Promise.resolve();
  #closing: Promise<void> | null = null;

  constructor(db: Db, opts: MeterOptions) {
    const settings = connectionSettings(db);
    if (settings === undefined) {
      throw new TypeError("createMeter: db must be a client made by createDb (the meter reuses its connection settings)");
    }
    this.#settings = settings;
    const interval = positiveInt("flushIntervalMs", opts.flushIntervalMs, DEFAULTS.flushIntervalMs);
    this.#maxBuffer = positiveInt("maxBuffer", opts.maxBuffer, DEFAULTS.maxBuffer);
    this.#maxBatch = Math.min(positiveInt("maxBatch", opts.maxBatch, DEFAULTS.maxBatch), this.#maxBuffer);
    this.#flushTimeoutMs = positiveInt("flushTimeoutMs", opts.flushTimeoutMs, DEFAULTS.flushTimeoutMs);
    this.#onError = opts.onError ?? defaultOnError;
    this.#timer = setInterval(() => {
      if (!this.#flushing && this.#pendingEvents > 0) void this.flush();
    }, interval);
    this.#timer.unref();
  }

  get buffered(): number {
    return this.#pendingEvents + this.#inflightEvents;
  }
  get dropped(): number {
    return this.#dropped;
  }
  get uncounted(): number {
    return this.#uncounted;
  }
  get written(): number {
    return this.#written;
  }

  get #pendingRows(): number {
    return this.#queue.length - this.#head;
  }

  record(e: UsageRecord): void {
    if (this.#closing) {
      this.#dropped++;
      this.#uncounted++;
      if (!this.#rejectedAfterCloseReported) {
        this.#rejectedAfterCloseReported = true;
        this.#report(new MeterError("usage event recorded after close; dropped", 1));
      }
      return;
    }
    const reason = invalidReason(e);
    if (reason !== null) {
      this.#dropped++;
      this.#uncounted++;
      this.#report(new MeterError(`usage event rejected: ${reason}`, 1));
      return;
    }
    const { accountId, apiKeyId, endpoint, status, durationMs, refused } = e;
    const at = e.at.getTime();
    // A copy, so that callers may reuse their objects; the instant is formatted at flush time.
    this.#queue.push({ accountId, apiKeyId, requestId: e.requestId, method: e.method, endpoint, status, durationMs, refused, at, rate: e.rate ?? null });

    const hour = at - (at % HOUR_MS);
    let byAccount = hour === this.#lastHour ? this.#lastHourCounts : null;
    if (byAccount === null) {
      byAccount = this.#counts.get(hour) ?? null;
      if (byAccount === null) this.#counts.set(hour, (byAccount = new Map()));
      this.#lastHour = hour;
      this.#lastHourCounts = byAccount;
    }
    let byEndpoint = byAccount.get(accountId);
    if (byEndpoint === undefined) byAccount.set(accountId, (byEndpoint = new Map()));
    let c = byEndpoint.get(endpoint);
    if (c === undefined) {
      c = { accountId, endpoint, hour, requests: 0, refused: 0, ok: 0, errors: 0, totalMs: 0 };
      byEndpoint.set(endpoint, c);
    }
    c.requests++;
    if (refused) c.refused++;
    if (status >= 200 && status <= 299) c.ok++;
    else if (status >= 400 && status !== 429) c.errors++;
    c.totalMs += durationMs;
    if (apiKeyId !== null) {
      const seen = this.#lastUsed.get(apiKeyId);
      if (seen === undefined || at > seen) this.#lastUsed.set(apiKeyId, at);
    }
    this.#pendingEvents++;

    if (this.#pendingRows + this.#inflightRows > this.#maxBuffer) {
      // Rows being written cannot be recalled, so the oldest pending row goes; its request stays counted.
      this.#head++;
      this.#dropped++;
      this.#reportOverflow();
    }
    if (this.#head > 4096 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    // Deferred so that record() itself never starts a query; not while the database is failing,
    // where the interval alone paces the retries.
    if (this.#pendingRows >= this.#maxBatch && !this.#flushing && !this.#failing && this.#immediate === null) {
      this.#immediate = setImmediate(() => {
        this.#immediate = null;
        if (!this.#flushing) void this.flush();
      });
      this.#immediate.unref();
    }
  }

  flush(): Promise<void> {
    const run = this.#tail.then(() => this.#drain());
    this.#tail = run;
    return run;
  }

  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    clearInterval(this.#timer);
    if (this.#immediate !== null) clearImmediate(this.#immediate);
    this.#closing = (async () => {
      await this.flush();
      // A graceful stop should lose nothing: a connection that just broke gets another chance or two.
      for (const pause of CLOSE_RETRY_MS) {
        if (this.buffered === 0) break;
        await new Promise((resolve) => setTimeout(resolve, pause));
        await this.flush();
      }
      const left = this.buffered;
      if (left > 0) this.#report(new MeterError(`meter closed with ${left} usage events not written`, left));
      await this.#pool?.end().catch(() => {});
    })();
    return this.#closing;
  }

  async #drain(): Promise<void> {
    if (this.#pendingEvents === 0 && this.#pendingRows === 0) return;
    this.#flushing = true;
    try {
      for (let round = 0; ; round++) {
        const taken = this.#take();
        let error: unknown = null;
        try {
          await this.#write(taken);
        } catch (err) {
          error = err;
        }
        this.#inflightRows = 0;
        this.#inflightEvents = 0;
        if (error === null) {
          this.#written += taken.events;
          this.#failing = false;
          this.#overflowReported = false;
          return;
        }
        this.#giveBack(taken);
        if (isForeignKeyViolation(error) && round < ORPHAN_ROUNDS && (await this.#dropOrphans())) continue;
        this.#failing = true;
        this.#report(
          new MeterError(`usage flush failed; ${this.buffered} events kept for the next flush`, this.buffered, { cause: error }),
        );
        return;
      }
    } finally {
      this.#flushing = false;
    }
  }

  /** Everything buffered, handed to one flush; records made meanwhile go to fresh buffers. */
  #take(): Taken {
    const rows = this.#head === 0 ? this.#queue : this.#queue.slice(this.#head);
    const taken: Taken = { rows, counts: this.#counts, lastUsed: this.#lastUsed, events: this.#pendingEvents };
    this.#queue = [];
    this.#head = 0;
    this.#counts = new Map();
    this.#lastHour = -1;
    this.#lastHourCounts = null;
    this.#lastUsed = new Map();
    this.#pendingEvents = 0;
    this.#inflightRows = rows.length;
    this.#inflightEvents = taken.events;
    return taken;
  }

  /** A failed flush's rows go back in front of newer ones, its counts are added to theirs. */
  #giveBack(taken: Taken): void {
    this.#queue = taken.rows.concat(this.#head === 0 ? this.#queue : this.#queue.slice(this.#head));
    this.#head = 0;
    const excess = this.#queue.length - this.#maxBuffer;
    if (excess > 0) {
      this.#head = excess;
      this.#dropped += excess;
      this.#reportOverflow();
    }
    this.#counts = mergeCounts(taken.counts, this.#counts);
    this.#lastHour = -1;
    this.#lastHourCounts = null;
    for (const [id, at] of this.#lastUsed) {
      const seen = taken.lastUsed.get(id);
      if (seen === undefined || at > seen) taken.lastUsed.set(id, at);
    }
    this.#lastUsed = taken.lastUsed;
    this.#pendingEvents += taken.events;
  }

  #connections(): pg.Pool {
    if (this.#pool === null) {
      // One connection: flushes run one at a time. Same URL and session settings as the db's pool.
      const pool = new pg.Pool({
        connectionString: this.#settings.connectionString,
        options: this.#settings.options,
        max: 1,
        connectionTimeoutMillis: 5_000,
        idleTimeoutMillis: 10_000,
        allowExitOnIdle: true,
        keepAlive: true,
        application_name: METER_APPLICATION_NAME,
        Client: MeterClient,
      });
      // An idle connection that breaks is replaced at the next flush.
      pool.on("error", () => {});
      this.#pool = pool;
    }
    return this.#pool;
  }

  async #write(taken: Taken): Promise<void> {
    const client = await this.#connections().connect();
    const batch: Batch = { rows: taken.rows, counts: flatten(taken.counts), lastUsed: taken.lastUsed };
    let timedOut = false;
    // Closing the socket fails whatever is in progress on it (a COPY included, which pg's own
    // query_timeout cannot interrupt); the server rolls the transaction back.
    const timer = setTimeout(() => {
      timedOut = true;
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    }, this.#flushTimeoutMs);
    try {
      this.#logWriter ??= await chooseLogWriter(client);
      await writeBatch(client, batch, this.#logWriter, this.#maxBatch);
      clearTimeout(timer);
    } catch (cause) {
      clearTimeout(timer);
      const err = timedOut ? new Error(`usage flush timed out after ${this.#flushTimeoutMs} ms`, { cause }) : cause;
      let clean = false;
      try {
        await client.query("ROLLBACK");
        clean = true;
      } catch {
        // The connection is gone or unusable: it is discarded below.
      }
      client.release(clean ? undefined : (err as Error));
      throw err;
    }
    client.release();
  }

  /**
   * An account deleted while its events were buffered would block every later flush: its rows and
   * counts are dropped and reported. False when nothing was orphaned (or the check failed).
   */
  async #dropOrphans(): Promise<boolean> {
    const ids = new Set<string>();
    for (const byAccount of this.#counts.values()) for (const id of byAccount.keys()) ids.add(id.toLowerCase());
    let existing: Set<string>;
    try {
      const client = await this.#connections().connect();
      try {
        existing = await existingAccounts(client, [...ids]);
      } catch (err) {
        client.release(err as Error);
        throw err;
      }
      client.release();
    } catch {
      return false;
    }
    const gone = (id: string) => !existing.has(id.toLowerCase());
    let events = 0;
    for (const byAccount of this.#counts.values()) {
      for (const [id, byEndpoint] of byAccount) {
        if (!gone(id)) continue;
        for (const c of byEndpoint.values()) events += c.requests;
        byAccount.delete(id);
      }
    }
    if (events === 0) return false;
    const pending = this.#head === 0 ? this.#queue : this.#queue.slice(this.#head);
    this.#queue = pending.filter((r) => !gone(r.accountId));
    this.#head = 0;
    this.#dropped += pending.length - this.#queue.length;
    this.#uncounted += events;
    this.#pendingEvents -= events;
    this.#report(new MeterError(`${events} usage events dropped: their account no longer exists`, events));
    return true;
  }

  #reportOverflow(): void {
    if (this.#overflowReported) return;
    this.#overflowReported = true;
    this.#report(
      new MeterError(
        `usage log buffer full (${this.#maxBuffer} rows); dropping the oldest request-log rows (their requests stay counted)`,
        1,
      ),
    );
  }

  #report(err: unknown): void {
    try {
      this.#onError(err);
    } catch {
      // A failing error handler must not break metering.
    }
  }
}

/**
 * Meters API requests without a database write on the request path. record() adds each request to
 * in-process counts per account, endpoint and UTC hour (what "UsageHour" holds) and buffers its
 * request-log row. Every `flushIntervalMs` one transaction COPYs the log rows into "UsageEvent",
 * upserts the counts into "UsageHour" (one multi-row statement, in key order) and moves
 * ApiKey.lastUsedAt forward. A failed flush keeps everything for the next one; log and counts commit
 * together, so a retry cannot count twice. close() writes what is left.
 */
export function createMeter(db: Db, opts: MeterOptions = {}): Meter {
  return new UsageMeter(db, opts);
}
