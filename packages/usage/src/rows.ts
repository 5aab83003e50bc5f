// The request log's rows as the usage meter keeps them between flushes: each record is encoded at
// record() time into PostgreSQL's binary COPY format, in off-heap buffers (RowLog), so that nothing
// of a request stays on the JavaScript heap until the flush a second later (a row kept as objects
// survived two scavenges and was promoted: about 1 KB of old generation per request). The flush
// sends these bytes as they are; the local spool appends the same bytes. Also the shared types of
// the meter, its writer and its spool, so that none of them imports another for them.

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

/** One request-log row: a usage record with its time as epoch ms. */
export type LogRow = Omit<UsageRecord, "at"> & { at: number };

/*
 * The rate-limit headers of a request, as stored: packed, most of their bytes being names and the
 * window names repeated in RateLimit. A packed text starts with PACKED; then one line per header, in
 * the order sent, a code letter and the value:
 *   L X-RateLimit-Limit, M X-RateLimit-Remaining, T X-RateLimit-Reset, A Retry-After, P RateLimit-Policy,
 *   R RateLimit (each followed by the value as sent);
 *   p RateLimit-Policy of items "name";q=Q;w=W, as "name Q W" joined by ",";
 *   r RateLimit of items "name";r=R;t=T naming the policy's windows in its order, as "R T" joined by ",";
 *   = any other header, as "Name: value".
 * Anything of another shape is kept as sent. Older rows hold "Name: value" lines (no PACKED);
 * parseHeaderLines reads both. About 110 bytes instead of 330 for a request with four windows.
 */
const PACKED = "\u0001";
const CODE_OF: Record<string, string> = {
  "X-RateLimit-Limit": "L",
  "X-RateLimit-Remaining": "M",
  "X-RateLimit-Reset": "T",
  "Retry-After": "A",
  "RateLimit-Policy": "P",
  RateLimit: "R",
};
const NAME_OF: Record<string, string> = Object.fromEntries(Object.entries(CODE_OF).map(([name, code]) => [code, name]));
const POLICY_ITEM = /^"([A-Za-z0-9:_.-]+)";q=(\d+);w=(\d+)$/;

/** "name Q W,…" and the window names, or null when the policy is not of that shape. */
function parsePolicy(value: string): { text: string; names: string[] } | null {
  const names: string[] = [];
  let text = "";
  for (const item of value.split(", ")) {
    const m = POLICY_ITEM.exec(item);
    if (!m) return null;
    names.push(m[1]!);
    text += (text ? "," : "") + m[1] + " " + m[2] + " " + m[3];
  }
  return { text, names };
}

/** An account's policy is the same on every request: packed once per distinct value. */
const policies = new Map<string, { text: string; names: string[] } | null>();
function packPolicy(value: string): { text: string; names: string[] } | null {
  let packed = policies.get(value);
  if (packed === undefined) {
    packed = parsePolicy(value);
    if (policies.size >= 1024) policies.clear();
    policies.set(value, packed);
  }
  return packed;
}

/** The end of the digits from `p` (p itself when there are none). */
function digitsEnd(s: string, p: number): number {
  while (p < s.length) {
    const c = s.charCodeAt(p);
    if (c < 48 || c > 57) break;
    p++;
  }
  return p;
}

/** "R T,…" when RateLimit names exactly the policy's windows, in order, as "name";r=R;t=T items; else null. */
function packRate(value: string, names: string[]): string | null {
  let text = "";
  let p = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (i > 0) {
      if (value.charCodeAt(p) !== 44 || value.charCodeAt(p + 1) !== 32) return null; // ", "
      p += 2;
    }
    if (value.charCodeAt(p) !== 34 || !value.startsWith(name, p + 1) || !value.startsWith('";r=', p + 1 + name.length)) return null;
    p += name.length + 5;
    const r = digitsEnd(value, p);
    if (r === p || !value.startsWith(";t=", r)) return null;
    const t = digitsEnd(value, r + 3);
    if (t === r + 3) return null;
    text += (i ? "," : "") + value.slice(p, r) + " " + value.slice(r + 3, t);
    p = t;
  }
  return p === value.length ? text : null;
}

/** Headers as stored (packed, see above); parseHeaderLines reads them back, in order. */
export function headerLines(headers: Record<string, string>): string {
  let out = PACKED;
  let names: string[] | null = null;
  let first = true;
  for (const name in headers) {
    const value = headers[name]!;
    const code = CODE_OF[name];
    let line: string;
    if (code === "P") {
      const packed = packPolicy(value);
      names = packed?.names ?? null;
      line = packed ? "p" + packed.text : "P" + value;
    } else if (code === "R") {
      const packed = names ? packRate(value, names) : null;
      line = packed === null ? "R" + value : "r" + packed;
    } else {
      line = code ? code + value : "=" + name + ": " + value;
    }
    out += (first ? "" : "\n") + line;
    first = false;
  }
  return out;
}

/** The headers of a stored text, packed or as "Name: value" lines, in order. */
export function parseHeaderLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!text.startsWith(PACKED)) {
    for (const line of text.split("\n")) {
      const i = line.indexOf(": ");
      if (i > 0) out[line.slice(0, i)] = line.slice(i + 2);
    }
    return out;
  }
  if (text.length === PACKED.length) return out;
  let names: string[] = [];
  for (const line of text.slice(PACKED.length).split("\n")) {
    const code = line[0];
    const rest = line.slice(1);
    if (code === "p") {
      names = [];
      out["RateLimit-Policy"] = rest
        .split(",")
        .map((item) => {
          const [name, q, w] = item.split(" ");
          names.push(name!);
          return `"${name}";q=${q};w=${w}`;
        })
        .join(", ");
    } else if (code === "r") {
      out.RateLimit = rest
        .split(",")
        .map((item, i) => {
          const [r, t] = item.split(" ");
          return `"${names[i]}";r=${r};t=${t}`;
        })
        .join(", ");
    } else if (code === "=") {
      const i = rest.indexOf(": ");
      if (i > 0) out[rest.slice(0, i)] = rest.slice(i + 2);
    } else if (code !== undefined && NAME_OF[code]) {
      out[NAME_OF[code]] = rest;
    }
  }
  return out;
}

/** Columns of a row, in the order of LOG_COLUMNS (writer.ts). */
const FIELDS = 14;
/** PostgreSQL's epoch (2000-01-01T00:00:00Z) in Unix ms: timestamptz travels as µs since then. */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_32 = 4_294_967_296;
const DAY_MS = 86_400_000;
/** Size of one buffer of rows (off the JavaScript heap: above Node's pooled sizes). */
const SLAB_BYTES = 64 * 1024;
/** Hex digit value by character code, -1 for any other character. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUE[i.toString(16).charCodeAt(0)] = i;
  HEX_VALUE[i.toString(16).toUpperCase().charCodeAt(0)] = i;
}
const HEX_DIGITS = "0123456789abcdef";

/**
 * Request-log rows in COPY's binary format (without the stream's header and trailer), each row whole
 * within one buffer: no text to parse on the server (UUIDs, instants and numbers arrive as their
 * binary values). Rows are appended at the end and dropped at the start; `chunks()` are the bytes to
 * send. The first field of every row is its account's UUID (bytes 6–21 of the row).
 */
export class RowLog {
  /** Full buffers, each exactly its rows' bytes. */
  #full: Buffer[] = [];
  #buf: Buffer = Buffer.allocUnsafe(SLAB_BYTES);
  /** Live rows of #buf are [#from, #at). */
  #from = 0;
  #at = 0;
  /** Start of the row being written (a row that does not fit moves whole to a new buffer). */
  #row = 0;
  #rows = 0;
  #bytes = 0;
  #lastDay = Number.NaN;
  /** UTC days (epoch days) of the rows appended; may name a day whose rows were dropped since. */
  readonly days = new Set<number>();

  get rows(): number {
    return this.#rows;
  }
  /** Bytes of the live rows. */
  get bytes(): number {
    return this.#bytes + this.#at - this.#from;
  }

  #room(n: number): void {
    if (this.#at + n <= this.#buf.length) return;
    const partial = this.#at - this.#row;
    const next = Buffer.allocUnsafe(Math.max(SLAB_BYTES, 2 * (partial + n)));
    this.#buf.copy(next, 0, this.#row, this.#at);
    if (this.#row > this.#from) {
      const done = this.#buf.subarray(this.#from, this.#row);
      this.#full.push(done);
      this.#bytes += done.length;
    }
    this.#buf = next;
    this.#from = 0;
    this.#row = 0;
    this.#at = partial;
  }

  #null(): void {
    this.#room(4);
    this.#buf.writeInt32BE(-1, this.#at);
    this.#at += 4;
  }

  /** A UUID (checked by the meter: 32 hex digits and 4 dashes, either case). */
  #uuid(s: string): void {
    this.#room(20);
    const b = this.#buf;
    b.writeInt32BE(16, this.#at);
    let o = this.#at + 4;
    const end = o + 16;
    for (let i = 0; i < s.length && o < end; i++) {
      const hi = HEX_VALUE[s.charCodeAt(i)] ?? -1;
      if (hi < 0) continue;
      const lo = HEX_VALUE[s.charCodeAt(++i)] ?? -1;
      if (lo < 0) break;
      b[o++] = (hi << 4) | lo;
    }
    if (o !== end) throw new TypeError(`not a UUID: ${s}`);
    this.#at = o;
  }

  /** Text as UTF-8; NUL, which PostgreSQL text cannot hold, is removed. */
  #text(s: string): void {
    // At most 3 bytes per UTF-16 unit; the length is written once the text is.
    this.#room(4 + 3 * s.length);
    const b = this.#buf;
    const from = this.#at + 4;
    let o = from;
    // Short ASCII without NUL (nearly every value here) byte by byte: cheaper than a call into C++.
    if (s.length <= 64) {
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c === 0 || c > 127) {
          o = -1;
          break;
        }
        b[o++] = c;
      }
    } else o = -1;
    if (o < 0) {
      const v = s.includes("\0") ? s.replace(/\0/g, "") : s;
      o = from + (v.length === 0 ? 0 : b.write(v, from));
    }
    b.writeInt32BE(o - from, this.#at);
    this.#at = o;
  }

  #int4(v: number): void {
    if (!Number.isInteger(v) || v < -2_147_483_648 || v > 2_147_483_647) throw new RangeError(`value out of range for type integer: ${v}`);
    this.#room(8);
    this.#buf.writeInt32BE(4, this.#at);
    this.#buf.writeInt32BE(v, this.#at + 4);
    this.#at += 8;
  }

  #float8(v: number): void {
    this.#room(12);
    this.#buf.writeInt32BE(8, this.#at);
    this.#buf.writeDoubleBE(v, this.#at + 4);
    this.#at += 12;
  }

  #bool(v: boolean): void {
    this.#room(5);
    this.#buf.writeInt32BE(1, this.#at);
    this.#buf[this.#at + 4] = v ? 1 : 0;
    this.#at += 5;
  }

  /** Epoch ms as timestamptz: int64 µs since 2000-01-01 (exact: below 2^53). */
  #timestamptz(ms: number): void {
    const us = (ms - PG_EPOCH_MS) * 1000;
    const hi = Math.floor(us / TWO_32);
    this.#room(12);
    this.#buf.writeInt32BE(8, this.#at);
    this.#buf.writeInt32BE(hi, this.#at + 4);
    this.#buf.writeUInt32BE(us - hi * TWO_32, this.#at + 8);
    this.#at += 12;
  }

  /**
   * Appends one row; `at` is its instant in epoch ms. Returns the buffer holding it and its start
   * (it ends at that buffer's `lastEnd`). Throws on a value PostgreSQL would refuse; nothing of the
   * row is kept then.
   */
  push(r: Omit<LogRow, "at">, at: number): Buffer {
    this.#row = this.#at;
    try {
      this.#room(2);
      this.#buf.writeInt16BE(FIELDS, this.#at);
      this.#at += 2;
      this.#uuid(r.accountId);
      if (r.apiKeyId === null) this.#null();
      else this.#uuid(r.apiKeyId);
      this.#text(r.requestId);
      this.#text(r.method);
      this.#text(r.endpoint);
      this.#int4(r.status);
      this.#float8(r.durationMs);
      this.#bool(r.refused);
      this.#timestamptz(at);
      const rate = r.rate;
      if (rate) {
        this.#text(rate.window);
        this.#int4(rate.limit);
        this.#int4(rate.remaining);
        if (rate.retryAfter === null) this.#null();
        else this.#int4(rate.retryAfter);
        this.#text(headerLines(rate.headers));
      } else {
        for (let i = 0; i < 5; i++) this.#null();
      }
    } catch (err) {
      this.#at = this.#row;
      throw err;
    }
    this.#rows++;
    const day = Math.floor(at / DAY_MS);
    if (day !== this.#lastDay) {
      this.days.add(day);
      this.#lastDay = day;
    }
    this.lastStart = this.#row;
    this.#row = this.#at;
    return this.#buf;
  }

  /** Start of the row appended last, within the buffer push() returned; it ends at `lastEnd`. */
  lastStart = 0;
  get lastEnd(): number {
    return this.#at;
  }

  /** Appends a row already encoded (bytes [start, end) of `src`: one whole row). */
  pushEncoded(src: Buffer, start: number, end: number): void {
    this.#row = this.#at;
    this.#room(end - start);
    src.copy(this.#buf, this.#at, start, end);
    this.#at += end - start;
    this.#rows++;
    const day = Math.floor(instantOf(src, start) / DAY_MS);
    if (day !== this.#lastDay) {
      this.days.add(day);
      this.#lastDay = day;
    }
    this.#row = this.#at;
  }

  /** The live rows' bytes, oldest first. */
  chunks(): Buffer[] {
    return this.#at > this.#from ? [...this.#full, this.#buf.subarray(this.#from, this.#at)] : [...this.#full];
  }

  /** Drops the oldest row (none when empty). */
  dropOldest(): void {
    if (this.#rows === 0) return;
    const first = this.#full[0];
    if (first !== undefined) {
      const end = rowEnd(first, 0);
      this.#bytes -= end;
      if (end >= first.length) this.#full.shift();
      else this.#full[0] = first.subarray(end);
    } else {
      this.#from = rowEnd(this.#buf, this.#from);
    }
    this.#rows--;
  }

  /** Calls `fn` with each live row's buffer and byte range, oldest first. */
  forEach(fn: (buf: Buffer, start: number, end: number) => void): void {
    for (const chunk of this.chunks()) {
      for (let p = 0; p < chunk.length; ) {
        const end = rowEnd(chunk, p);
        fn(chunk, p, end);
        p = end;
      }
    }
  }

  /** A new log of the rows of this one, then those of `later`. */
  concat(later: RowLog): RowLog {
    const out = new RowLog();
    out.#full = [...this.chunks(), ...later.chunks()];
    out.#bytes = this.bytes + later.bytes;
    out.#rows = this.#rows + later.#rows;
    for (const d of this.days) out.days.add(d);
    for (const d of later.days) out.days.add(d);
    return out;
  }

  /** A new log of the rows whose account (lower-case UUID) `keep` accepts. */
  filter(keep: (accountId: string) => boolean): RowLog {
    const out = new RowLog();
    this.forEach((buf, start, end) => {
      if (keep(accountOf(buf, start))) out.pushEncoded(buf, start, end);
    });
    return out;
  }

  /** The rows decoded (the embedded database's INSERT path, tests). */
  decode(): LogRow[] {
    const out: LogRow[] = [];
    this.forEach((buf, start) => out.push(decodeRow(buf, start)));
    return out;
  }
}

/** The end of the row starting at `p`. */
export function rowEnd(buf: Buffer, p: number): number {
  const fields = buf.readInt16BE(p);
  p += 2;
  for (let i = 0; i < fields; i++) {
    const n = buf.readInt32BE(p);
    p += 4 + (n > 0 ? n : 0);
  }
  return p;
}

function uuidAt(buf: Buffer, p: number): string {
  let s = "";
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) s += "-";
    const b = buf[p + i]!;
    s += HEX_DIGITS[b >> 4]! + HEX_DIGITS[b & 15]!;
  }
  return s;
}

/** The account (lower-case UUID) of the row starting at `p`. */
function accountOf(buf: Buffer, p: number): string {
  return uuidAt(buf, p + 6);
}

/** The instant (epoch ms) of the row starting at `p`. */
function instantOf(buf: Buffer, p: number): number {
  let o = p + 2;
  for (let i = 0; i < 8; i++) {
    const n = buf.readInt32BE(o);
    o += 4 + (n > 0 ? n : 0);
  }
  return (buf.readInt32BE(o + 4) * TWO_32 + buf.readUInt32BE(o + 8)) / 1000 + PG_EPOCH_MS;
}

/** The row starting at `p`, as the meter was given it (UUIDs in lower case, NUL removed from texts). */
export function decodeRow(buf: Buffer, p: number): LogRow {
  const fields = buf.readInt16BE(p);
  if (fields !== FIELDS) throw new TypeError(`not a request-log row (${fields} fields)`);
  p += 2;
  const values: (Buffer | null)[] = [];
  for (let i = 0; i < FIELDS; i++) {
    const n = buf.readInt32BE(p);
    p += 4;
    if (n < 0) values.push(null);
    else {
      values.push(buf.subarray(p, p + n));
      p += n;
    }
  }
  const v = (i: number) => values[i] ?? null;
  const text = (i: number) => v(i)!.toString("utf8");
  const int = (i: number) => v(i)!.readInt32BE(0);
  const ts = v(8)!;
  const row: LogRow = {
    accountId: uuidAt(v(0)!, 0),
    apiKeyId: v(1) === null ? null : uuidAt(v(1)!, 0),
    requestId: text(2),
    method: text(3),
    endpoint: text(4),
    status: int(5),
    durationMs: v(6)!.readDoubleBE(0),
    refused: v(7)![0] === 1,
    at: (ts.readInt32BE(0) * TWO_32 + ts.readUInt32BE(4)) / 1000 + PG_EPOCH_MS,
    rate: null,
  };
  if (v(9) !== null) {
    row.rate = {
      window: text(9),
      limit: int(10),
      remaining: int(11),
      retryAfter: v(12) === null ? null : int(12),
      headers: v(13) === null ? {} : parseHeaderLines(text(13)),
    };
  }
  return row;
}
