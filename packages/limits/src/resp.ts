/**
 * RESP2, the Redis wire protocol: command encoding and an incremental reply parser.
 *
 * Small on purpose: the limiter sends EVALSHA/EVAL, MGET, DECRBY and PING, and reads integers,
 * bulk strings, arrays and errors back. Replies are parsed straight out of the socket's chunks,
 * without an intermediate object per line.
 */

/** An error reply (`-ERR …`) from the server. */
export class RedisReplyError extends Error {
  override readonly name = "RedisReplyError";
}

/** The stream is not RESP (or not the Redis we expect); the connection cannot be trusted. */
export class RespProtocolError extends Error {
  override readonly name = "RespProtocolError";
}

export type Reply = string | number | null | RedisReplyError | Reply[];
export type Arg = string | number | boolean;

const CR = 13;

/** `*N\r\n$len\r\narg\r\n…` for one command. */
export function encodeCommand(args: readonly Arg[]): string {
  let out = `*${args.length}\r\n`;
  for (const arg of args) {
    const s = typeof arg === "string" ? arg : String(arg);
    out += `$${Buffer.byteLength(s)}\r\n${s}\r\n`;
  }
  return out;
}

const INCOMPLETE = Symbol("incomplete");
type Parsed = Reply | typeof INCOMPLETE;

/**
 * Feeds socket chunks in, calls `onReply` once per complete top-level reply, in order. A reply split
 * across chunks is kept until the rest arrives.
 */
export class RespParser {
  private rest: Buffer | null = null;
  /** position just past the last reply parsed by parseAt */
  private end = 0;

  constructor(private readonly onReply: (reply: Reply) => void) {}

  feed(chunk: Buffer): void {
    const data = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let pos = 0;
    while (pos < data.length) {
      const reply = this.parseAt(data, pos);
      if (reply === INCOMPLETE) break;
      pos = this.end;
      this.onReply(reply);
    }
    this.rest = pos < data.length ? Buffer.from(data.subarray(pos)) : null;
  }

  reset(): void {
    this.rest = null;
  }

  private parseAt(b: Buffer, pos: number): Parsed {
    if (pos >= b.length) return INCOMPLETE;
    const type = b[pos]!;
    const lineEnd = b.indexOf(CR, pos + 1);
    // the header line must be complete, \n included
    if (lineEnd === -1 || lineEnd + 1 >= b.length) return INCOMPLETE;
    const after = lineEnd + 2;
    switch (type) {
      case 0x2b: // +simple string
        this.end = after;
        return b.toString("utf8", pos + 1, lineEnd);
      case 0x2d: // -error
        this.end = after;
        return new RedisReplyError(b.toString("utf8", pos + 1, lineEnd));
      case 0x3a: // :integer
        this.end = after;
        return integer(b, pos + 1, lineEnd);
      case 0x24: {
        // $bulk string, $-1 is nil
        const len = integer(b, pos + 1, lineEnd);
        if (len < 0) {
          this.end = after;
          return null;
        }
        if (after + len + 2 > b.length) return INCOMPLETE;
        this.end = after + len + 2;
        return b.toString("utf8", after, after + len);
      }
      case 0x2a: {
        // *array, *-1 is nil
        const n = integer(b, pos + 1, lineEnd);
        if (n < 0) {
          this.end = after;
          return null;
        }
        const items: Reply[] = new Array<Reply>(n);
        let p = after;
        for (let i = 0; i < n; i++) {
          const item = this.parseAt(b, p);
          if (item === INCOMPLETE) return INCOMPLETE;
          items[i] = item;
          p = this.end;
        }
        this.end = p;
        return items;
      }
      default:
        throw new RespProtocolError(`unexpected RESP type byte 0x${type.toString(16)} at offset ${pos}`);
    }
  }
}

function integer(b: Buffer, from: number, to: number): number {
  let i = from;
  let negative = false;
  if (b[i] === 0x2d) {
    negative = true;
    i++;
  }
  if (i >= to) throw new RespProtocolError("empty integer in RESP header");
  let n = 0;
  for (; i < to; i++) {
    const d = b[i]! - 0x30;
    if (d < 0 || d > 9) throw new RespProtocolError(`invalid integer ${b.toString("latin1", from, to)}`);
    n = n * 10 + d;
  }
  return negative ? -n : n;
}
