import type { Db } from "./db.ts";
import { isUuid } from "./validate.ts";

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
}

export interface MeterOptions {
  /** How often buffered events are written. Default 1000 ms (the most a crash may lose). */
  flushIntervalMs?: number;
  /** Rows per INSERT; reaching it also starts a flush early. Default 2000. */
  maxBatch?: number;
  /** Events kept while the database is unreachable; beyond it the oldest are dropped and counted. Default 100 000. */
  maxBuffer?: number;
  /** Failed writes, dropped or rejected events. Never receives secrets. Default: one line on stderr. */
  onError?: (err: unknown) => void;
}

export interface Meter {
  /** Buffers one event. Synchronous, never throws, never touches the database. */
  record(e: UsageRecord): void;
  /** Writes everything buffered so far. Never rejects: failures go to `onError` and the events stay buffered. */
  flush(): Promise<void>;
  /** Stops the timer and makes a final flush; events recorded afterwards are dropped and counted. */
  close(): Promise<void>;
  /** Events not yet written, including a batch being written right now. */
  readonly buffered: number;
  /** Events discarded: buffer overflow, invalid records, records after close, accounts deleted meanwhile. */
  readonly dropped: number;
  /** Events written to the database. */
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

/**
 * A copy made in record() so callers may reuse their objects; the time is kept as epoch ms
 * (no Date allocation per request) and formatted at flush time.
 */
interface Row {
  accountId: string;
  apiKeyId: string | null;
  requestId: string;
  method: string;
  endpoint: string;
  status: number;
  durationMs: number;
  refused: boolean;
  at: number;
}

const DEFAULTS = { flushIntervalMs: 1000, maxBatch: 2000, maxBuffer: 100_000 };

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
  // Driver errors carry multi-line code frames; their last line holds the database's reason.
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
  if (!(e.at instanceof Date) || Number.isNaN(e.at.getTime())) return "at is not a valid Date";
  return null;
}

interface DriverErrorShape {
  code?: unknown;
  meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
}

/** PostgreSQL 23503, as Prisma reports it for a raw query (P2010) or a model query (P2003). */
function isForeignKeyViolation(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as DriverErrorShape;
  return e.code === "P2003" || e.meta?.driverAdapterError?.cause?.originalCode === "23503";
}

class UsageMeter implements Meter {
  #db: Db;
  #maxBatch: number;
  #maxBuffer: number;
  #onError: (err: unknown) => void;

  // Pending rows are #queue[#head..]; advancing #head drops or dequeues without shifting the array.
  #queue: Row[] = [];
  #head = 0;
  #inflight = 0;

  #dropped = 0;
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
    this.#db = db;
    const interval = positiveInt("flushIntervalMs", opts.flushIntervalMs, DEFAULTS.flushIntervalMs);
    this.#maxBuffer = positiveInt("maxBuffer", opts.maxBuffer, DEFAULTS.maxBuffer);
    this.#maxBatch = Math.min(
      positiveInt("maxBatch", opts.maxBatch, DEFAULTS.maxBatch),
      this.#maxBuffer,
    );
    this.#onError = opts.onError ?? defaultOnError;
    this.#timer = setInterval(() => {
      if (!this.#flushing && this.#pending > 0) void this.flush();
    }, interval);
    this.#timer.unref();
  }

  get buffered(): number {
    return this.#pending + this.#inflight;
  }
  get dropped(): number {
    return this.#dropped;
  }
  get written(): number {
    return this.#written;
  }

  get #pending(): number {
    return this.#queue.length - this.#head;
  }

  record(e: UsageRecord): void {
    if (this.#closing) {
      this.#dropped++;
      if (!this.#rejectedAfterCloseReported) {
        this.#rejectedAfterCloseReported = true;
        this.#report(new MeterError("usage event recorded after close; dropped", 1));
      }
      return;
    }
    const reason = invalidReason(e);
    if (reason !== null) {
      this.#dropped++;
      this.#report(new MeterError(`usage event rejected: ${reason}`, 1));
      return;
    }
    this.#queue.push({
      accountId: e.accountId,
      apiKeyId: e.apiKeyId,
      requestId: e.requestId,
      method: e.method,
      endpoint: e.endpoint,
      status: e.status,
      durationMs: e.durationMs,
      refused: e.refused,
      at: e.at.getTime(),
    });
    if (this.buffered > this.#maxBuffer) {
      // The batch being written cannot be recalled, so the oldest pending event goes.
      this.#head++;
      this.#dropped++;
      if (!this.#overflowReported) {
        this.#overflowReported = true;
        this.#report(
          new MeterError(`usage buffer full (${this.#maxBuffer} events); dropping the oldest events`, 1),
        );
      }
    }
    if (this.#head > 4096 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    // Deferred so that record() itself never starts a query; not while the database is failing,
    // where the interval alone paces the retries.
    if (this.#pending >= this.#maxBatch && !this.#flushing && !this.#failing && this.#immediate === null) {
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
    this.#closing = this.flush().then(() => {
      const left = this.buffered;
      if (left > 0) {
        this.#report(new MeterError(`meter closed with ${left} usage events not written`, left));
      }
    });
    return this.#closing;
  }

  async #drain(): Promise<void> {
    this.#flushing = true;
    try {
      while (this.#pending > 0) {
        const n = Math.min(this.#maxBatch, this.#pending);
        const batch = this.#queue.slice(this.#head, this.#head + n);
        this.#head += n;
        this.#inflight = n;
        let error: unknown = null;
        try {
          await this.#write(batch);
        } catch (err) {
          error = err;
        }
        this.#inflight = 0;
        if (error === null) {
          this.#written += n;
          this.#failing = false;
          this.#overflowReported = false;
          continue;
        }
        if (isForeignKeyViolation(error) && (await this.#dropOrphans(batch))) continue;
        this.#requeue(batch);
        this.#failing = true;
        this.#report(
          new MeterError(`usage flush failed; ${this.buffered} events kept for the next flush`, this.buffered, {
            cause: error,
          }),
        );
        return;
      }
    } finally {
      this.#flushing = false;
    }
  }

  async #write(batch: Row[]): Promise<void> {
    const lastUsed = new Map<string, number>();
    for (const row of batch) {
      if (row.apiKeyId === null) continue;
      const seen = lastUsed.get(row.apiKeyId);
      if (seen === undefined || row.at > seen) lastUsed.set(row.apiKeyId, row.at);
    }
    // Keys are updated in id order so that concurrent flushes from several instances lock
    // ApiKey rows in the same order and cannot deadlock; the condition keeps lastUsedAt monotonic.
    const keys = [...lastUsed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const db = this.#db;
    // One INSERT over unnest()ed column arrays: nine parameters whatever the batch size, and
    // several times cheaper per row than createMany's generated multi-row VALUES (see bench/meter.ts).
    // Each column travels as one array literal string: handing Prisma thousands of array elements
    // kept the event loop busy for 15–20 ms per 1,000 events, long enough to show in API tail latency.
    // Instants go in as ISO strings: a bound Date is sent without its offset and would be read in
    // the session's time zone.
    await db.$transaction([
      db.$executeRaw`
        INSERT INTO "UsageEvent"
          ("accountId", "apiKeyId", "requestId", method, endpoint, status, "durationMs", refused, "createdAt")
        SELECT * FROM unnest(
          ${pgArray(batch.map((r) => r.accountId))}::uuid[],
          ${pgArray(batch.map((r) => r.apiKeyId))}::uuid[],
          ${pgArray(batch.map((r) => r.requestId))}::text[],
          ${pgArray(batch.map((r) => r.method))}::text[],
          ${pgArray(batch.map((r) => r.endpoint))}::text[],
          ${pgArray(batch.map((r) => r.status))}::int[],
          ${pgArray(batch.map((r) => r.durationMs))}::float8[],
          ${pgArray(batch.map((r) => r.refused))}::bool[],
          ${pgArray(batch.map((r) => new Date(r.at).toISOString()))}::timestamptz[])`,
      ...keys.map(([id, at]) => {
        const iso = new Date(at).toISOString();
        return db.$executeRaw`
          UPDATE "ApiKey" SET "lastUsedAt" = ${iso}::timestamptz
           WHERE id = ${id}::uuid AND ("lastUsedAt" IS NULL OR "lastUsedAt" < ${iso}::timestamptz)`;
      }),
    ]);
  }

  /**
   * An account deleted while its events were buffered would block every later flush; its events
   * are dropped and the rest goes back to the front of the queue. False when nothing was orphaned.
   */
  async #dropOrphans(batch: Row[]): Promise<boolean> {
    let existing: Set<string>;
    try {
      const ids = [...new Set(batch.map((r) => r.accountId))];
      const found = await this.#db.account.findMany({ where: { id: { in: ids } }, select: { id: true } });
      existing = new Set(found.map((a) => a.id));
    } catch {
      return false;
    }
    const kept = batch.filter((r) => existing.has(r.accountId));
    const orphans = batch.length - kept.length;
    if (orphans === 0) return false;
    this.#dropped += orphans;
    this.#report(new MeterError(`${orphans} usage events dropped: their account no longer exists`, orphans));
    this.#requeue(kept);
    return true;
  }

  /** Puts a batch back in front of newer events, then enforces maxBuffer by dropping the oldest. */
  #requeue(batch: Row[]): void {
    if (batch.length === 0) return;
    this.#queue = batch.concat(this.#queue.slice(this.#head));
    this.#head = 0;
    const excess = this.#queue.length - this.#maxBuffer;
    if (excess > 0) {
      this.#head = excess;
      this.#dropped += excess;
    }
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
 * Buffers usage events in memory and writes them in batches (one multi-row INSERT each) every
 * `flushIntervalMs`, together with ApiKey.lastUsedAt, in one transaction per batch.
 * A failed write keeps its batch for the next flush (bounded by `maxBuffer`).
 */
export function createMeter(db: Db, opts: MeterOptions = {}): Meter {
  return new UsageMeter(db, opts);
}

/** A PostgreSQL array literal: strings quoted and escaped, null as NULL. */
export function pgArray(values: readonly (string | number | boolean | null)[]): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i) out += ",";
    if (v === null) out += "NULL";
    else if (typeof v === "string") out += `"${v.replace(/[\\"]/g, "\\$&")}"`;
    else if (typeof v === "boolean") out += v ? "t" : "f";
    else out += String(v);
  }
  return out + "}";
}
