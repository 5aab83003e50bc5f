// A small SMTP client (RFC 5321) over node:net / node:tls: EHLO, STARTTLS when offered, AUTH PLAIN
// or LOGIN, one message per connection. Enough for a relay such as Postmark, SES, Mailgun or a
// local Postfix, and for the catcher in tests.
import net from "node:net";
import os from "node:os";
import tls from "node:tls";

export class SmtpError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
    this.name = "SmtpError";
  }
}

export type SmtpTarget = {
  secure: boolean;
  host: string;
  port: number;
  user?: string;
  pass?: string;
  /** smtp:// only: upgrade with STARTTLS when the server offers it (default true; `?starttls=false` turns it off). */
  starttls: boolean;
  /** Verify the server's certificate (default true; `?tls_verify=false` for a self-signed relay). */
  verify: boolean;
  timeoutMs: number;
};

/** smtp://user:pass@host:port or smtps://…; user and password percent-decoded. */
export function parseSmtpUrl(url: string): SmtpTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error("SMTP_URL is not a URL (smtp://user:pass@host:port or smtps://…)");
  }
  if (u.protocol !== "smtp:" && u.protocol !== "smtps:") throw new Error("SMTP_URL must start with smtp:// or smtps://");
  const secure = u.protocol === "smtps:";
  return {
    secure,
    host: u.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    ...(u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : {}),
    starttls: u.searchParams.get("starttls") !== "false",
    verify: u.searchParams.get("tls_verify") !== "false",
    timeoutMs: Number(u.searchParams.get("timeout_ms") ?? 30_000),
  };
}

type Reply = { code: number; lines: string[] };

class Connection {
  private buffer = "";
  private lines: string[] = [];
  private waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void } | null = null;
  private ready: Reply[] = [];
  private failure: Error | null = null;

  constructor(
    public socket: net.Socket,
    timeoutMs: number,
  ) {
    this.attach(socket, timeoutMs);
  }

  attach(socket: net.Socket, timeoutMs: number) {
    this.socket = socket;
    socket.setTimeout(timeoutMs);
    socket.on("data", (chunk: Buffer) => this.onData(chunk.toString("latin1")));
    socket.on("timeout", () => this.fail(new SmtpError("SMTP server did not answer in time", null)));
    socket.on("error", (err) => this.fail(new SmtpError(`SMTP connection failed: ${err.message}`, null)));
    socket.on("close", () => this.fail(new SmtpError("SMTP server closed the connection", null)));
  }

  private onData(text: string) {
    this.buffer += text;
    let nl: number;
    while ((nl = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, "");
      this.buffer = this.buffer.slice(nl + 1);
      this.lines.push(line);
      if (/^\d{3}(?: |$)/.test(line)) {
        const reply = { code: Number(line.slice(0, 3)), lines: this.lines.map((l) => l.slice(4)) };
        this.lines = [];
        if (this.waiting) {
          const w = this.waiting;
          this.waiting = null;
          w.resolve(reply);
        } else this.ready.push(reply);
      }
    }
  }

  private fail(err: Error) {
    this.failure ??= err;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.reject(err);
    }
  }

  /** Detaches the listeners (before a STARTTLS upgrade wraps the socket). */
  detach() {
    this.socket.removeAllListeners("data");
    this.socket.removeAllListeners("timeout");
    this.socket.removeAllListeners("error");
    this.socket.removeAllListeners("close");
  }

  read(): Promise<Reply> {
    const r = this.ready.shift();
    if (r) return Promise.resolve(r);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  async command(line: string, expect: number[], shown = line): Promise<Reply> {
    this.socket.write(line + "\r\n");
    const reply = await this.read();
    if (!expect.includes(reply.code)) throw new SmtpError(`SMTP ${shown.split(" ")[0]} refused: ${reply.code} ${reply.lines.join(" ")}`, reply.code);
    return reply;
  }
}

function connect(target: SmtpTarget): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(new SmtpError(`cannot reach the SMTP server ${target.host}:${target.port}: ${err.message}`, null));
    const socket = target.secure
      ? tls.connect({ host: target.host, port: target.port, servername: net.isIP(target.host) ? undefined : target.host, rejectUnauthorized: target.verify }, () =>
          resolve(socket),
        )
      : net.connect({ host: target.host, port: target.port }, () => resolve(socket));
    socket.once("error", onError);
    socket.setTimeout(target.timeoutMs, () => {
      socket.destroy();
      reject(new SmtpError(`the SMTP server ${target.host}:${target.port} did not answer in time`, null));
    });
    socket.once(target.secure ? "secureConnect" : "connect", () => {
      socket.off("error", onError);
      socket.setTimeout(0);
    });
  });
}

/** Lines starting with "." get another "." (RFC 5321 §4.5.2); the terminator follows. */
function dotStuff(message: string): string {
  const body = message.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..");
  return body.endsWith("\r\n") ? body : body + "\r\n";
}

/** Sends one message: envelope sender, recipients, and the complete message (ASCII, CRLF). */
export async function sendSmtp(target: SmtpTarget, envelope: { from: string; to: string[] }, message: string): Promise<{ response: string }> {
  const socket = await connect(target);
  const conn = new Connection(socket, target.timeoutMs);
  const name = os.hostname().replace(/[^A-Za-z0-9.-]/g, "") || "localhost";
  try {
    const greeting = await conn.read();
    if (greeting.code !== 220) throw new SmtpError(`SMTP greeting refused: ${greeting.code} ${greeting.lines.join(" ")}`, greeting.code);
    let ehlo = await conn.command(`EHLO ${name}`, [250]);
    let caps = ehlo.lines.slice(1).map((l) => l.toUpperCase());
    if (!target.secure && target.starttls && caps.some((c) => c === "STARTTLS")) {
      await conn.command("STARTTLS", [220]);
      conn.detach();
      const secured = await new Promise<tls.TLSSocket>((resolve, reject) => {
        const s = tls.connect({ socket, servername: net.isIP(target.host) ? undefined : target.host, rejectUnauthorized: target.verify }, () => resolve(s));
        s.once("error", (err) => reject(new SmtpError(`STARTTLS failed: ${err.message}`, null)));
      });
      conn.attach(secured, target.timeoutMs);
      ehlo = await conn.command(`EHLO ${name}`, [250]);
      caps = ehlo.lines.slice(1).map((l) => l.toUpperCase());
    }
    if (target.user !== undefined) {
      const auth = caps.find((c) => c.startsWith("AUTH")) ?? "AUTH PLAIN";
      if (/\bPLAIN\b/.test(auth)) {
        const token = Buffer.from(`\0${target.user}\0${target.pass ?? ""}`, "utf8").toString("base64");
        await conn.command(`AUTH PLAIN ${token}`, [235], "AUTH PLAIN");
      } else {
        await conn.command("AUTH LOGIN", [334]);
        await conn.command(Buffer.from(target.user, "utf8").toString("base64"), [334], "AUTH user");
        await conn.command(Buffer.from(target.pass ?? "", "utf8").toString("base64"), [235], "AUTH password");
      }
    }
    await conn.command(`MAIL FROM:<${envelope.from}>`, [250]);
    for (const rcpt of envelope.to) await conn.command(`RCPT TO:<${rcpt}>`, [250, 251]);
    await conn.command("DATA", [354]);
    const done = await conn.command(`${dotStuff(message)}.`, [250], "DATA");
    await conn.command("QUIT", [221]).catch(() => undefined);
    return { response: `${done.code} ${done.lines.join(" ")}` };
  } finally {
    conn.detach();
    conn.socket.on("error", () => undefined);
    conn.socket.destroy();
  }
}
