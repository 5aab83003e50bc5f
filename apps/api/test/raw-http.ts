// A raw HTTP/1.1 client over node:net: sends bytes no well-behaved client would send and parses
// whatever comes back, so tests can check the server's answer to malformed requests byte by byte.
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  reason: string;
  /** lower-case names; repeated headers joined with ", " */
  headers: Record<string, string>;
  text: string;
  body: any;
}

export interface RawExchange {
  responses: RawResponse[];
  /** every byte received, as latin1 */
  received: string;
  /** the server closed the connection before the wait ended */
  closed: boolean;
  /** ms from the first byte sent to the last response parsed (or to the close) */
  elapsedMs: number;
}

/** Parses as many complete responses as `buf` holds (Content-Length or chunked framing). */
function parseResponses(buf: Buffer, opts: { headOnly?: boolean } = {}): { responses: RawResponse[]; rest: Buffer } {
  const responses: RawResponse[] = [];
  let at = 0;
  for (;;) {
    const end = buf.indexOf("\r\n\r\n", at, "latin1");
    if (end === -1) break;
    const head = buf.subarray(at, end).toString("latin1").split("\r\n");
    const m = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(head[0] ?? "");
    if (!m) throw new Error(`not an HTTP response: ${JSON.stringify(head[0])}`);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new Error(`malformed header line: ${JSON.stringify(line)}`);
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const status = Number(m[1]);
    const bodyless = opts.headOnly || status === 304 || status === 204 || (status >= 100 && status < 200);
    let text: string;
    let next: number;
    if (!bodyless && /chunked/i.test(headers["transfer-encoding"] ?? "")) {
      const chunked = dechunk(buf, end + 4);
      if (!chunked) break;
      text = chunked.body.toString("utf8");
      next = chunked.end;
    } else {
      const length = bodyless ? 0 : Number(headers["content-length"] ?? NaN);
      if (!Number.isFinite(length)) throw new Error(`response without Content-Length: ${head.join(" | ")}`);
      if (buf.length < end + 4 + length) break;
      text = buf.subarray(end + 4, end + 4 + length).toString("utf8");
      next = end + 4 + length;
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    responses.push({ status, reason: m[2] ?? "", headers, text, body });
    at = next;
  }
  return { responses, rest: buf.subarray(at) };
}

/** A chunked body starting at `from`: its bytes and where the message ends, or null if incomplete. */
function dechunk(buf: Buffer, from: number): { body: Buffer; end: number } | null {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const eol = buf.indexOf("\r\n", at, "latin1");
    if (eol === -1) return null;
    const size = parseInt(buf.subarray(at, eol).toString("latin1"), 16);
    if (!Number.isFinite(size)) throw new Error("malformed chunk size");
    if (size === 0) {
      const trailerEnd = buf.indexOf("\r\n", eol + 2, "latin1");
      return trailerEnd === -1 ? null : { body: Buffer.concat(parts), end: trailerEnd + 2 };
    }
    if (buf.length < eol + 2 + size + 2) return null;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/**
 * Opens a connection, writes `chunks` (a number between chunks is a pause in ms), and collects
 * responses until `expect` of them arrived (and, with `untilClose`, the server closed), the server
 * closed, or `waitMs` passed.
 */
export function rawExchange(
  port: number,
  chunks: (string | Buffer | number)[],
  opts: { expect?: number; waitMs?: number; untilClose?: boolean; localAddress?: string; headOnly?: boolean; onSocket?: (s: Socket) => void } = {},
): Promise<RawExchange> {
  const expect = opts.expect ?? 1;
  const waitMs = opts.waitMs ?? 5_000;
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress: opts.localAddress });
    opts.onSocket?.(socket);
    const received: Buffer[] = [];
    let started = 0;
    let done = false;
    let responses: RawResponse[] = [];
    let closed = false;
    let lastAt = 0;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ responses, received: Buffer.concat(received).toString("latin1"), closed, elapsedMs: (lastAt || performance.now()) - started });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("data", (d: Buffer) => {
      received.push(d);
      try {
        responses = parseResponses(Buffer.concat(received), { headOnly: opts.headOnly }).responses;
      } catch {
        // keep the bytes; the caller sees them in `received`
      }
      lastAt = performance.now();
      if (responses.length >= expect && !opts.untilClose) finish();
    });
    socket.on("close", () => {
      closed = true;
      if (!lastAt) lastAt = performance.now();
      finish();
    });
    socket.on("error", () => {});
    const send = async () => {
      started = performance.now();
      for (const c of chunks) {
        if (done) return;
        if (typeof c === "number") await new Promise((r) => setTimeout(r, c));
        else socket.write(typeof c === "string" ? Buffer.from(c, "latin1") : c);
      }
    };
    socket.on("connect", () => void send());
  });
}
