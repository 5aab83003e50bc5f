// The embedded database serves every connection from one PGlite session. An extended-protocol
// batch (Parse … Sync) of one connection must not be cut by another connection's batch: otherwise
// the second Parse replaces the first's unnamed statement, and the first Bind fails or runs the
// wrong query (under `pnpm start` a session check then found "no user" and signed a live session
// out of the portal). Two raw protocol connections interleave exactly that way here.
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { md5PasswordAnswer } from "./embedded-auth.ts";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded.ts";

const cstr = (s: string) => Buffer.concat([Buffer.from(s, "utf8"), Buffer.from([0])]);
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const message = (type: string, body: Buffer) => Buffer.concat([Buffer.from(type), int32(body.length + 4), body]);
const parse = (sql: string) => message("P", Buffer.concat([cstr(""), cstr(sql), int16(0)]));
const bind = (values: string[]) =>
  message("B", Buffer.concat([cstr(""), cstr(""), int16(0), int16(values.length), ...values.flatMap((v) => [int32(Buffer.byteLength(v)), Buffer.from(v)]), int16(0)]));
const describePortal = () => message("D", Buffer.concat([Buffer.from("P"), cstr("")]));
const execute = () => message("E", Buffer.concat([cstr(""), int32(0)]));
const sync = () => message("S", Buffer.alloc(0));

type Reply = { type: string; body: Buffer };

/** A raw protocol connection: startup, then messages written exactly as the test orders them. */
class Raw {
  #buf = Buffer.alloc(0);
  #replies: Reply[] = [];
  #waiters: (() => void)[] = [];
  private constructor(readonly socket: net.Socket) {
    socket.on("data", (d) => {
      this.#buf = Buffer.concat([this.#buf, d]);
      while (this.#buf.length >= 5) {
        const len = this.#buf.readInt32BE(1);
        if (this.#buf.length < len + 1) break;
        this.#replies.push({ type: String.fromCharCode(this.#buf[0]!), body: this.#buf.subarray(5, len + 1) });
        this.#buf = this.#buf.subarray(len + 1);
      }
      for (const w of this.#waiters.splice(0)) w();
    });
  }

  /** Connects as postgres with `password` (the embedded port asks for it: MD5 challenge). */
  static async open(port: number, password: string): Promise<Raw> {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    socket.setNoDelay(true);
    const raw = new Raw(socket);
    const body = Buffer.concat([int32(196608), cstr("user"), cstr("postgres"), cstr("database"), cstr("postgres"), Buffer.from([0])]);
    socket.write(Buffer.concat([int32(body.length + 4), body]));
    const challenge = await raw.reply("R");
    expect(challenge.body.readInt32BE(0)).toBe(5);
    socket.write(message("p", cstr(md5PasswordAnswer(password, "postgres", challenge.body.subarray(4, 8)))));
    await raw.readyForQuery();
    raw.take();
    return raw;
  }

  /** The first reply of `type`, waiting for it. */
  async reply(type: string, timeoutMs = 10_000): Promise<Reply> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.#replies.find((r) => r.type === type);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no reply ${type}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** Resolves once a ReadyForQuery ('Z') has arrived. */
  async readyForQuery(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#replies.some((r) => r.type === "Z")) {
      if (Date.now() > deadline) throw new Error("no ReadyForQuery");
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** The replies so far, emptied. */
  take(): Reply[] {
    return this.#replies.splice(0);
  }

  write(...messages: Buffer[]): void {
    this.socket.write(Buffer.concat(messages));
  }
}

/** Error texts and the first column of each DataRow, in order. */
function outcome(replies: Reply[]): { errors: string[]; values: string[] } {
  const errors: string[] = [];
  const values: string[] = [];
  for (const r of replies) {
    if (r.type === "E") {
      const fields = r.body.toString("utf8").split("\0");
      errors.push(fields.find((f) => f.startsWith("M"))?.slice(1) ?? "error");
    }
    if (r.type === "D") {
      const len = r.body.readInt32BE(2);
      values.push(r.body.subarray(6, 6 + len).toString("utf8"));
    }
  }
  return { errors, values };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe("embedded PostgreSQL (PGlite over a socket)", () => {
  let dir: string;
  let pg: EmbeddedPostgres;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "fiskal-embedded-batches-"));
    pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg") });
  }, 120_000);
  afterAll(async () => {
    await pg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps one connection's Parse … Sync batch whole while another connection sends its own", async () => {
    const a = await Raw.open(pg.port, decodeURIComponent(new URL(pg.url).password));
    const b = await Raw.open(pg.port, decodeURIComponent(new URL(pg.url).password));
    try {
      for (let round = 0; round < 3; round++) {
        // A has parsed its statement; B's whole batch arrives before A's Bind.
        a.write(parse("select ($1::int + 1)::text as v"));
        await settle();
        b.write(parse("select $1::text || $2::text as v"), bind(["x", String(round)]), describePortal(), execute(), sync());
        await settle();
        a.write(bind([String(40 + round)]), describePortal(), execute(), sync());
        await Promise.all([a.readyForQuery(), b.readyForQuery()]);
        expect(outcome(a.take())).toEqual({ errors: [], values: [String(41 + round)] });
        expect(outcome(b.take())).toEqual({ errors: [], values: [`x${round}`] });
      }
    } finally {
      a.socket.destroy();
      b.socket.destroy();
    }
  });

  it("gives the turn back when a connection leaves in the middle of its batch", async () => {
    const a = await Raw.open(pg.port, decodeURIComponent(new URL(pg.url).password));
    const b = await Raw.open(pg.port, decodeURIComponent(new URL(pg.url).password));
    try {
      a.write(parse("select 1::text as v"));
      await settle();
      b.write(parse("select 'b'::text as v"), bind([]), describePortal(), execute(), sync());
      await settle();
      a.socket.destroy();
      await b.readyForQuery();
      expect(outcome(b.take())).toEqual({ errors: [], values: ["b"] });
    } finally {
      b.socket.destroy();
    }
  });
});
