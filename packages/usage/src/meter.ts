import { rmSync } from "node:fs";
import pg from "pg";
import { connectionSettings, type ConnectionSettings } from "@fiskal/db";
import type { Db } from "./db.ts";
import { isUuid } from "./validate.ts";
import { RowLog, type LogRow, type UsageRecord } from "./rows.ts";
import { chooseLogWriter, existingAccounts, type Batch, type HourCounts, type KeyHourCounts, type LogWriter } from "./writer.ts";
export type { RateRecord, UsageRecord } from "./rows.ts";
import { claimLeftSpools, countedUpTo, forgetSpool, readSegment, Spool, writeCounted, type SpoolOptions } from "./spool.ts";

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
  /**
   * Appends every record to a local file within a few milliseconds (see spool.ts), so that a killed
   * process or a stop while the database is unreachable loses nothing: replaySpools() counts what was
   * not written at the next start. Without it, a stop can lose up to one flush interval of records.
   */
  spool?: SpoolOptions;
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
  /** The folder of this meter's spool, or null without one. */
  readonly spoolDir: string | null;
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
/** Counts per UTC hour (epoch ms) → API key. */
type KeyCounts = Map<number, Map<string, KeyHourCounts>>;

function addKeyCounts(into: KeyHourCounts, from: KeyHourCounts): void {
  into.requests += from.requests;
  into.refused += from.refused;
  into.errors += from.errors;
  if (from.lastAt > into.lastAt) into.lastAt = from.lastAt;
}

/** Adds `from` into `into` (whose objects it may reuse); returns `into`. */
function mergeKeyCounts(into: KeyCounts, from: KeyCounts): KeyCounts {
  for (const [hour, fromKeys] of from) {
    const intoKeys = into.get(hour);
    if (intoKeys === undefined) {
      into.set(hour, fromKeys);
      continue;
    }
    for (const [key, c] of fromKeys) {
      const t = intoKeys.get(key);
      if (t === undefined) intoKeys.set(key, c);
      else addKeyCounts(t, c);
    }
  }
  return into;
}

/** What a flush took out of the buffers; given back whole if it fails. */
interface Taken {
  rows: RowLog;
  counts: Counts;
  keyCounts: KeyCounts;
  lastUsed: Map<string, number>;
  events: number;
  /** The spool's sequence number of the latest record taken: every record up to it is in this flush. */
  seq: number;
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

  // Pending log rows, encoded (rows.ts): nothing of a request is kept on the heap until the flush.
  #queue = new RowLog();
  #inflightRows = 0;
  #counts: Counts = new Map();
  // The hour most records fall into, and its map: one Map lookup fewer per record.
  #lastHour = -1;
  #lastHourCounts: Map<string, Map<string, HourCounts>> | null = null;
  #lastUsed = new Map<string, number>();
  #keyCounts: KeyCounts = new Map();
  #lastKeyHour = -1;
  #lastKeyHourCounts: Map<string, KeyHourCounts> | null = null;
  #pendingEvents = 0;
  #inflightEvents = 0;

  #dropped = 0;
  #uncounted = 0;
  #written = 0;
  #overflowReported = false;
  #rejectedAfterCloseReported = false;

  #spool: Spool | null = null;
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
    if (opts.spool) this.#spool = new Spool(opts.spool, (err) => this.#report(err));
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
  get spoolDir(): string | null {
    return this.#spool?.dir ?? null;
  }

  get #pendingRows(): number {
    return this.#queue.rows;
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
    // Encoded now, as the flush's COPY sends it, so that callers may reuse their objects and the
    // row leaves nothing on the heap; a value PostgreSQL would refuse is rejected here, not at flush.
    let buf: Buffer;
    try {
      buf = this.#queue.push(e, at);
    } catch (err) {
      this.#dropped++;
      this.#uncounted++;
      this.#report(new MeterError(`usage event rejected: ${err instanceof Error ? err.message : String(err)}`, 1));
      return;
    }
    // The same bytes, appended to the spool file within a few milliseconds by a timer: no I/O here.
    this.#spool?.append(buf, this.#queue.lastStart, this.#queue.lastEnd);

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
      let byKey = hour === this.#lastKeyHour ? this.#lastKeyHourCounts : null;
      if (byKey === null) {
        byKey = this.#keyCounts.get(hour) ?? null;
        if (byKey === null) this.#keyCounts.set(hour, (byKey = new Map()));
        this.#lastKeyHour = hour;
        this.#lastKeyHourCounts = byKey;
      }
      let k = byKey.get(apiKeyId);
      if (k === undefined) byKey.set(apiKeyId, (k = { accountId, apiKeyId, hour, requests: 0, refused: 0, errors: 0, lastAt: at }));
      k.requests++;
      if (status === 429) k.refused++;
      else if (status >= 400) k.errors++;
      if (at > k.lastAt) k.lastAt = at;
    }
    this.#pendingEvents++;

    if (this.#pendingRows + this.#inflightRows > this.#maxBuffer) {
      // Rows being written cannot be recalled, so the oldest pending row goes; its request stays counted.
      this.#queue.dropOldest();
      this.#dropped++;
      this.#reportOverflow();
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
    // Everything recorded is in the spool file before the final flush is even tried.
    this.#spool?.writeNow();
    this.#closing = (async () => {
      await this.flush();
      // A graceful stop should lose nothing: a connection that just broke gets another chance or two.
      for (const pause of CLOSE_RETRY_MS) {
        if (this.buffered === 0) break;
        await new Promise((resolve) => setTimeout(resolve, pause));
        await this.flush();
      }
      const left = this.buffered;
      const spool = this.#spool;
      if (left > 0) {
        this.#report(
          new MeterError(
            spool
              ? `meter closed with ${left} usage events not written; kept in ${spool.dir}, counted at the next start`
              : `meter closed with ${left} usage events not written`,
            left,
          ),
        );
      }
      if (spool) {
        spool.close(left === 0);
        // Counted and deleted: its mark is no longer needed (a leftover row is harmless).
        if (left === 0 && this.#written > 0) await this.#forgetMark(spool.id);
      }
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
          this.#spool?.committed(taken.seq);
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

  async #forgetMark(id: string): Promise<void> {
    try {
      const client = await this.#connections().connect();
      try {
        await forgetSpool(client, id);
        client.release();
      } catch (err) {
        client.release(err as Error);
      }
    } catch {
      // Unreachable again: the row stays, harmless.
    }
  }

  /** Everything buffered, handed to one flush; records made meanwhile go to fresh buffers. */
  #take(): Taken {
    const rows = this.#queue;
    const taken: Taken = { rows, counts: this.#counts, keyCounts: this.#keyCounts, lastUsed: this.#lastUsed, events: this.#pendingEvents, seq: this.#spool?.seq ?? 0 };
    this.#queue = new RowLog();
    this.#keyCounts = new Map();
    this.#lastKeyHour = -1;
    this.#lastKeyHourCounts = null;
    this.#counts = new Map();
    this.#lastHour = -1;
    this.#lastHourCounts = null;
    this.#lastUsed = new Map();
    this.#pendingEvents = 0;
    this.#inflightRows = rows.rows;
    this.#inflightEvents = taken.events;
    return taken;
  }

  /** A failed flush's rows go back in front of newer ones, its counts are added to theirs. */
  #giveBack(taken: Taken): void {
    this.#queue = taken.rows.concat(this.#queue);
    const excess = this.#queue.rows - this.#maxBuffer;
    if (excess > 0) {
      for (let i = 0; i < excess; i++) this.#queue.dropOldest();
      this.#dropped += excess;
      this.#reportOverflow();
    }
    this.#counts = mergeCounts(taken.counts, this.#counts);
    this.#lastHour = -1;
    this.#lastHourCounts = null;
    this.#keyCounts = mergeKeyCounts(taken.keyCounts, this.#keyCounts);
    this.#lastKeyHour = -1;
    this.#lastKeyHourCounts = null;
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
    const keyCounts: KeyHourCounts[] = [];
    for (const byKey of taken.keyCounts.values()) for (const c of byKey.values()) keyCounts.push(c);
    const batch: Batch = { rows: taken.rows, counts: flatten(taken.counts), keyCounts, lastUsed: taken.lastUsed };
    let timedOut = false;
    // Closing the socket fails whatever is in progress on it (a COPY included, which pg's own
    // query_timeout cannot interrupt); the server rolls the transaction back.
    const timer = setTimeout(() => {
      timedOut = true;
      (client as typeof client & { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    }, this.#flushTimeoutMs);
    try {
      this.#logWriter ??= await chooseLogWriter(client);
      const mark = this.#spool ? { id: this.#spool.id, seq: taken.seq } : null;
      await writeCounted(client, batch, this.#logWriter, this.#maxBatch, mark);
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
    for (const byKey of this.#keyCounts.values()) {
      for (const [key, c] of byKey) if (gone(c.accountId)) byKey.delete(key);
    }
    const pending = this.#queue;
    this.#queue = pending.filter((id) => !gone(id));
    this.#dropped += pending.rows - this.#queue.rows;
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

export interface ReplayOptions extends SpoolOptions {
  /** Records per transaction. Default 10 000. */
  maxBatch?: number;
  onError?: (err: unknown) => void;
}

export interface ReplayResult {
  /** Spools of stopped processes found and counted (then deleted). */
  spools: number;
  /** Their records not counted before, now counted. */
  counted: number;
  /** Records left out: invalid, cut by a crash, or of an account deleted meanwhile. */
  skipped: number;
}

/** Request-log rows with their hourly counts and the keys' last use, as one flush writes them. */
function batchOf(rows: LogRow[]): Batch {
  const counts = new Map<string, HourCounts>();
  const keyCounts = new Map<string, KeyHourCounts>();
  const lastUsed = new Map<string, number>();
  for (const r of rows) {
    const hour = r.at - (r.at % HOUR_MS);
    const key = `${hour} ${r.accountId} ${r.endpoint}`;
    let c = counts.get(key);
    if (c === undefined) counts.set(key, (c = { accountId: r.accountId, endpoint: r.endpoint, hour, requests: 0, refused: 0, ok: 0, errors: 0, totalMs: 0 }));
    c.requests++;
    if (r.refused) c.refused++;
    if (r.status >= 200 && r.status <= 299) c.ok++;
    else if (r.status >= 400 && r.status !== 429) c.errors++;
    c.totalMs += r.durationMs;
    if (r.apiKeyId !== null) {
      const seen = lastUsed.get(r.apiKeyId);
      if (seen === undefined || r.at > seen) lastUsed.set(r.apiKeyId, r.at);
      const k = `${hour} ${r.apiKeyId}`;
      const one = { accountId: r.accountId, apiKeyId: r.apiKeyId, hour, requests: 1, refused: r.status === 429 ? 1 : 0, errors: r.status >= 400 && r.status !== 429 ? 1 : 0, lastAt: r.at };
      const t = keyCounts.get(k);
      if (t === undefined) keyCounts.set(k, one);
      else addKeyCounts(t, one);
    }
  }
  const log = new RowLog();
  for (const r of rows) log.push(r, r.at);
  return { rows: log, counts: [...counts.values()], keyCounts: [...keyCounts.values()], lastUsed };
}

/**
 * Counts the spools that stopped processes left on this host for this database (a kill, a crash, a
 * stop while the database was unreachable) and deletes them. Records a flush had already counted are
 * skipped (the spool's mark in "UsageSpool"), so a replay never counts twice, even when it is itself
 * interrupted and run again. Call it at start, before serving. Rejects when the database fails; the
 * spools then stay for the next start.
 */
export async function replaySpools(db: Db, opts: ReplayOptions): Promise<ReplayResult> {
  const result: ReplayResult = { spools: 0, counted: 0, skipped: 0 };
  const left = claimLeftSpools(opts);
  if (left.length === 0) return result;
  const settings = connectionSettings(db);
  if (settings === undefined) throw new TypeError("replaySpools: db must be a client made by createDb");
  const maxBatch = positiveInt("maxBatch", opts.maxBatch, DEFAULTS.maxBatch);
  const report = opts.onError ?? defaultOnError;
  const pool = new pg.Pool({
    connectionString: settings.connectionString,
    options: settings.options,
    max: 1,
    connectionTimeoutMillis: 5_000,
    application_name: METER_APPLICATION_NAME,
    Client: MeterClient,
  });
  pool.on("error", () => {});
  try {
    const client = await pool.connect();
    try {
      const log = await chooseLogWriter(client);
      for (const spool of left) {
        let mark = await countedUpTo(client, spool.id);
        // A record can be in a spool twice (spool.ts, a graceful stop during a write): counted once.
        const seen = new Set<number>();
        for (const file of spool.files) {
          const read = readSegment(file, opts.database, mark);
          result.skipped += read.unreadable;
          const records = read.records.filter((r) => !seen.has(r.seq) && seen.add(r.seq));
          for (let i = 0; i < records.length; i += maxBatch) {
            const chunk = records.slice(i, i + maxBatch);
            const valid = chunk.map((r) => r.row).filter((r) => invalidReason({ ...r, at: new Date(r.at) }) === null);
            const existing = await existingAccounts(client, [...new Set(valid.map((r) => r.accountId.toLowerCase()))]);
            const rows = valid.filter((r) => existing.has(r.accountId.toLowerCase()));
            const seq = chunk[chunk.length - 1]!.seq;
            try {
              await writeCounted(client, batchOf(rows), log, maxBatch, { id: spool.id, seq });
            } catch (err) {
              await client.query("ROLLBACK").catch(() => {});
              throw err;
            }
            mark = seq;
            result.counted += rows.length;
            result.skipped += chunk.length - rows.length;
          }
        }
        rmSync(spool.dir, { recursive: true, force: true });
        await forgetSpool(client, spool.id);
        result.spools++;
      }
      client.release();
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
  } finally {
    await pool.end().catch(() => {});
  }
  if (result.skipped > 0) report(new MeterError(`usage spool replay: ${result.skipped} records left out (invalid, cut by a crash, or of a deleted account)`, result.skipped));
  return result;
}
