// The usage meter's local spool: every metered request is appended to a file of its own API instance
// within a few milliseconds, long before the meter's next flush, and the records a stopped instance
// did not get into PostgreSQL are counted when the next instance starts on that host.
//
// Layout: <dir>/<database key>/<host>.<pid>.<spool id>/<segment>.rows. Each segment starts with a
// header line (JSON); each further record is framed as MAGIC (4 bytes), its sequence number (float64),
// its length (int32) and the request-log row exactly as the meter encoded it for COPY (rows.ts), so
// appending a record costs a copy of its bytes. A flush records in "UsageSpool" how far its spool is
// counted, in the same transaction as the counts, so a replay skips what a killed process had already
// written: nothing is counted twice. Flushed segments are deleted; a meter closed with everything
// written deletes its folder. Segments of the earlier JSON-lines format (.jsonl) are still replayed.
//
// The appends are asynchronous (one write at a time, on libuv's thread pool, of everything recorded
// since the previous one), so the request thread never waits for the file. What survives: a record
// whose write was issued is in the operating system's page cache once the write returns, which a
// killed process (SIGKILL, OOM kill, crash) leaves behind. Only a crash of the machine itself can lose
// the last few seconds of records (the files are not fsynced), and a kill loses the records of the
// last few milliseconds (not appended yet). A graceful stop (close(), process.exit) appends what is
// waiting synchronously, together with the bytes of a write still in progress, whose outcome it
// cannot know: a record can therefore be in a segment twice, and a replay counts each sequence number
// once.
import { createHash, randomUUID } from "node:crypto";
import { close as closeFd, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, write as writeFd, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import type { PoolClient } from "pg";
import { decodeRow, rowEnd, type LogRow } from "./rows.ts";
import { writeBatch, type Batch, type LogWriter } from "./writer.ts";

export interface SpoolOptions {
  /** Folder of the spools; each database gets a sub-folder, each meter one below it. */
  dir: string;
  /** The database the records are counted in (e.g. "name#oid"): spools of another database are left alone. */
  database: string;
  /** How long a record may wait before it is appended (one write per batch). Default 5 ms. */
  intervalMs?: number;
  /** Size after which a new segment file is started (flushed segments are deleted). Default 8 MiB. */
  segmentBytes?: number;
}

const DEFAULT_INTERVAL_MS = 5;
const DEFAULT_SEGMENT_BYTES = 8 * 1024 * 1024;
const PENDING_BYTES = 64 * 1024;
/** Starts every record, so that a reader finds the next one after a damaged one. */
const MAGIC = 0xf15c_a1e5;
const FRAME = 16;

/** Spool folders of this process that are in use (another meter of the process must not replay them). */
const inUse = new Set<string>();
/** Spools with records not appended yet: written out when the process exits (process.exit included). */
const open = new Set<Spool>();
let exitHook = false;

const HOST = hostname().replace(/[^A-Za-z0-9-]/g, "_") || "host";

/** The sub-folder of one database's spools. */
function databaseDir(dir: string, database: string): string {
  return path.join(dir, createHash("sha256").update(database).digest("hex").slice(0, 16));
}

/** A write on the thread pool: its bytes, its file, and the last sequence number it holds. */
interface InFlight {
  fd: number;
  data: Buffer;
  done: number;
}

export class Spool {
  readonly id = randomUUID();
  readonly dir: string;
  readonly #database: string;
  readonly #intervalMs: number;
  readonly #segmentBytes: number;
  #fd: number | null = null;
  #segment = 0;
  #bytes = 0;
  /** Earlier segments of this spool and the last sequence number each holds. */
  #full: { file: string; lastSeq: number }[] = [];
  /** Framed records waiting for the next write: those of #filled, then #pending[0..#pendingAt). */
  #filled: Buffer[] = [];
  #pending: Buffer = Buffer.allocUnsafe(PENDING_BYTES);
  #pendingAt = 0;
  /** Sequence number of the latest record handed to append(). */
  #seq = 0;
  #inflight: InFlight | null = null;
  /** File descriptors of rotated segments, closed once their last write returns. */
  #retired = new Set<number>();
  /** Writes in progress per file descriptor. */
  #busy = new Map<number, number>();
  #timer: NodeJS.Timeout | null = null;
  #failed = false;
  readonly #onError: (err: unknown) => void;

  constructor(opts: SpoolOptions, onError: (err: unknown) => void) {
    this.#database = opts.database;
    this.#intervalMs = opts.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.#segmentBytes = opts.segmentBytes ?? DEFAULT_SEGMENT_BYTES;
    this.#onError = onError;
    this.dir = path.join(databaseDir(opts.dir, opts.database), `${HOST}.${process.pid}.${this.id}`);
    inUse.add(path.basename(this.dir));
    mkdirSync(this.dir, { recursive: true });
    this.#openSegment();
    open.add(this);
    if (!exitHook) {
      exitHook = true;
      process.on("exit", () => {
        for (const spool of open) spool.writeNow();
      });
    }
  }

  /** The sequence number of the latest record appended or waiting to be. */
  get seq(): number {
    return this.#seq;
  }

  /** Takes a copy of the record (bytes [start, end) of `buf`: one encoded row) for the next write, within intervalMs; no I/O here. */
  append(buf: Buffer, start: number, end: number): void {
    this.#seq++;
    const n = end - start;
    if (this.#pendingAt + FRAME + n > this.#pending.length) {
      if (this.#pendingAt > 0) this.#filled.push(this.#pending.subarray(0, this.#pendingAt));
      this.#pending = Buffer.allocUnsafe(Math.max(PENDING_BYTES, FRAME + n));
      this.#pendingAt = 0;
    }
    const p = this.#pending;
    let at = this.#pendingAt;
    p.writeUInt32BE(MAGIC, at);
    p.writeDoubleBE(this.#seq, at + 4);
    p.writeInt32BE(n, at + 12);
    at += FRAME;
    buf.copy(p, at, start, end);
    this.#pendingAt = at + n;
    if (this.#timer === null && this.#inflight === null) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.write();
      }, this.#intervalMs);
      this.#timer.unref();
    }
  }

  /** The records waiting, handed over; the next ones go into a fresh buffer. */
  #takePending(): Buffer {
    const last = this.#pending.subarray(0, this.#pendingAt);
    const data = this.#filled.length === 0 ? last : Buffer.concat([...this.#filled, last]);
    this.#filled = [];
    this.#pending = Buffer.allocUnsafe(PENDING_BYTES);
    this.#pendingAt = 0;
    return data;
  }

  /** Starts appending every waiting record, in one asynchronous write (after the one in progress). */
  write(): void {
    if ((this.#pendingAt === 0 && this.#filled.length === 0) || this.#fd === null || this.#inflight !== null) return;
    const fd = this.#fd;
    const done = this.#seq;
    const data = this.#takePending();
    this.#inflight = { fd, data, done };
    this.#bytes += data.length;
    if (this.#bytes >= this.#segmentBytes) {
      this.#full.push({ file: this.#file(this.#segment), lastSeq: done });
      this.#retired.add(fd);
      this.#openSegment();
    }
    this.#issue(fd, data, 0);
  }

  #issue(fd: number, data: Buffer, from: number): void {
    if (from === 0) this.#busy.set(fd, (this.#busy.get(fd) ?? 0) + 1);
    writeFd(fd, data, from, data.length - from, null, (err, written) => {
      const current = this.#inflight !== null && this.#inflight.data === data;
      if (current && err === null && from + written < data.length) return this.#issue(fd, data, from + written);
      this.#busy.set(fd, this.#busy.get(fd)! - 1);
      this.#release(fd);
      if (!current) return; // superseded by writeNow(), which wrote these bytes again
      this.#inflight = null;
      if (err) {
        // A full or broken disk: the records stay in the meter's memory and are still flushed.
        if (!this.#failed) this.#onError(new Error(`usage spool ${this.dir}: records could not be appended`, { cause: err }));
        this.#failed = true;
      } else this.#failed = false;
      if ((this.#pendingAt > 0 || this.#filled.length > 0) && this.#timer === null) this.write();
    });
  }

  /** Closes a rotated segment's descriptor (or the last one, after close()) once no write uses it. */
  #release(fd: number): void {
    if (!this.#retired.has(fd) || (this.#busy.get(fd) ?? 0) > 0) return;
    this.#retired.delete(fd);
    this.#busy.delete(fd);
    closeFd(fd, () => {});
  }

  /**
   * Appends every waiting record now, synchronously, with the bytes of a write still in progress (the
   * process may end before it returns): what close() and the exit hook rely on.
   */
  writeNow(): void {
    const flight = this.#inflight;
    if ((this.#pendingAt === 0 && this.#filled.length === 0 && flight === null) || this.#fd === null) return;
    this.#inflight = null;
    const waiting = this.#takePending();
    const data = flight ? Buffer.concat([flight.data, waiting]) : waiting;
    try {
      let at = 0;
      while (at < data.length) at += writeSync(this.#fd, data, at);
      this.#bytes += waiting.length;
      this.#failed = false;
    } catch (err) {
      if (!this.#failed) this.#onError(new Error(`usage spool ${this.dir}: records could not be appended`, { cause: err }));
      this.#failed = true;
    }
  }

  /** Everything up to `seq` is counted in the database: the segments holding only such records go. */
  committed(seq: number): void {
    while (this.#full.length > 0 && this.#full[0]!.lastSeq <= seq) {
      const { file } = this.#full.shift()!;
      try {
        unlinkSync(file);
      } catch {
        // Already gone; a replay would skip its records anyway.
      }
    }
  }

  /** Stops appending. With `counted` (everything is in the database) the spool's folder is deleted. */
  close(counted: boolean): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.writeNow();
    open.delete(this);
    if (this.#fd !== null) this.#retired.add(this.#fd);
    this.#fd = null;
    for (const fd of [...this.#retired]) this.#release(fd);
    if (counted) rmSync(this.dir, { recursive: true, force: true });
    inUse.delete(path.basename(this.dir));
  }

  #file(segment: number): string {
    return path.join(this.dir, `${String(segment).padStart(6, "0")}.rows`);
  }

  #openSegment(): void {
    this.#segment++;
    this.#fd = openSync(this.#file(this.#segment), "a");
    const header = Buffer.from(JSON.stringify({ spool: this.id, database: this.#database, segment: this.#segment, format: "rows" }) + "\n");
    writeSync(this.#fd, header);
    this.#bytes = header.length;
  }
}

/** A mark "this spool is counted up to seq", upserted in the transaction that counted it. */
export interface SpoolMark {
  id: string;
  seq: number;
}

const TRANSACTION_CONTROL = /^\s*(BEGIN|START\s+TRANSACTION|COMMIT|END)\s*;?\s*$/i;

/**
 * Writes the batch and moves the spool's mark in one transaction. The batch is written by
 * writeBatch as always; the transaction is opened and committed here, around it, so that the mark
 * commits with the counts or not at all.
 */
export async function writeCounted(client: PoolClient, batch: Batch, log: LogWriter, rowsPerInsert: number, mark: SpoolMark | null): Promise<void> {
  if (mark === null) return writeBatch(client, batch, log, rowsPerInsert);
  await client.query("BEGIN");
  const inner = new Proxy(client, {
    get(target, prop) {
      if (prop === "query") {
        return (query: unknown, ...rest: unknown[]) =>
          typeof query === "string" && TRANSACTION_CONTROL.test(query)
            ? Promise.resolve({ rows: [], rowCount: null, command: "", oid: 0, fields: [] })
            : (target.query as (...args: unknown[]) => unknown)(query, ...rest);
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  await writeBatch(inner, batch, log, rowsPerInsert);
  await client.query(
    `INSERT INTO "UsageSpool" (id, seq, "updatedAt") VALUES ($1, $2, now())
     ON CONFLICT (id) DO UPDATE SET seq = GREATEST("UsageSpool".seq, EXCLUDED.seq), "updatedAt" = now()`,
    [mark.id, mark.seq],
  );
  await client.query("COMMIT");
}

/** How far a spool is counted (0: nothing of it yet). */
export async function countedUpTo(client: PoolClient, id: string): Promise<number> {
  const { rows } = await client.query<{ seq: string }>(`SELECT seq::text AS seq FROM "UsageSpool" WHERE id = $1`, [id]);
  return rows[0] ? Number(rows[0].seq) : 0;
}

export async function forgetSpool(client: PoolClient, id: string): Promise<void> {
  await client.query(`DELETE FROM "UsageSpool" WHERE id = $1`, [id]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A spool left behind on this host by a process that is gone, claimed (renamed) for this one. */
export interface LeftSpool {
  id: string;
  dir: string;
  /** Segment files, oldest first. */
  files: string[];
}

/**
 * Claims the spools of this database left by stopped processes on this host: each folder is renamed
 * to carry this process's id, which is atomic, so two instances starting at once never replay the
 * same spool. A spool whose process id now belongs to another live process waits for a later start.
 */
export function claimLeftSpools(opts: Pick<SpoolOptions, "dir" | "database">): LeftSpool[] {
  const base = databaseDir(opts.dir, opts.database);
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return [];
  }
  const claimed: LeftSpool[] = [];
  for (const name of names) {
    const m = /^(.+)\.(\d+)\.([0-9a-f-]{36})$/.exec(name);
    if (!m || m[1] !== HOST || inUse.has(name)) continue;
    const pid = Number(m[2]);
    if (pid !== process.pid && alive(pid)) continue;
    const mine = `${HOST}.${process.pid}.${m[3]}`;
    const dir = path.join(base, mine);
    try {
      if (mine !== name) renameSync(path.join(base, name), dir);
    } catch {
      continue; // another instance claimed it first
    }
    const files = readdirSync(dir)
      .filter((f) => /^\d+\.(jsonl|rows)$/.test(f))
      .sort()
      .map((f) => path.join(dir, f));
    claimed.push({ id: m[3]!, dir, files });
  }
  return claimed;
}

/**
 * The records of a left spool's segment with a sequence number above `after`. A record that does not
 * read (the last one, cut by a crash) is skipped and counted in `unreadable`. A record written twice
 * (see the header) is returned each time: the caller counts each sequence number once.
 */
export function readSegment(file: string, database: string, after: number): { records: { seq: number; row: LogRow }[]; unreadable: number } {
  const data = readFileSync(file);
  const nl = data.indexOf(10);
  try {
    const header = JSON.parse(data.subarray(0, nl === -1 ? data.length : nl).toString("utf8")) as { database?: unknown };
    if (header.database !== database) return { records: [], unreadable: 0 };
  } catch {
    return { records: [], unreadable: 1 };
  }
  if (nl === -1) return { records: [], unreadable: 0 };
  return file.endsWith(".jsonl") ? readJsonLines(data.subarray(nl + 1).toString("utf8"), after) : readFramed(data, nl + 1, after);
}

function readFramed(data: Buffer, from: number, after: number): { records: { seq: number; row: LogRow }[]; unreadable: number } {
  const records: { seq: number; row: LogRow }[] = [];
  let unreadable = 0;
  let p = from;
  while (p < data.length) {
    let ok = false;
    if (p + FRAME <= data.length && data.readUInt32BE(p) === MAGIC) {
      const seq = data.readDoubleBE(p + 4);
      const n = data.readInt32BE(p + 12);
      const start = p + FRAME;
      if (n > 0 && start + n <= data.length) {
        try {
          if (rowEnd(data, start) === start + n) {
            if (seq > after) records.push({ seq, row: decodeRow(data, start) });
            ok = true;
            p = start + n;
          }
        } catch {
          // not a row: unreadable, below
        }
      }
    }
    if (ok) continue;
    // A damaged or cut record: counted once, and the next record looked for after it.
    unreadable++;
    let next = p + 1;
    while (next + 4 <= data.length && data.readUInt32BE(next) !== MAGIC) next++;
    p = next + 4 <= data.length ? next : data.length;
  }
  return { records, unreadable };
}

/** Segments of the earlier format: one JSON array per line. */
function readJsonLines(text: string, after: number): { records: { seq: number; row: LogRow }[]; unreadable: number } {
  const records: { seq: number; row: LogRow }[] = [];
  let unreadable = 0;
  for (const l of text.split("\n")) {
    if (l === "") continue;
    try {
      const v = JSON.parse(l) as unknown[];
      if (!Array.isArray(v) || v.length !== 11 || typeof v[0] !== "number") throw new Error("not a record");
      const seq = v[0];
      if (seq <= after) continue;
      const [, accountId, apiKeyId, requestId, method, endpoint, status, durationMs, refused, at, rate] = v;
      records.push({ seq, row: { accountId, apiKeyId, requestId, method, endpoint, status, durationMs, refused, at, rate } as LogRow });
    } catch {
      unreadable++;
    }
  }
  return { records, unreadable };
}
