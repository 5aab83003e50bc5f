// A local SMTP server that keeps every message it receives, for `pnpm start` without SMTP_URL and
// for the tests: a real SMTP conversation over TCP (RFC 5321, no TLS), read back through
// `messages()` in the same process or GET /messages over HTTP from another one.
import http from "node:http";
import net from "node:net";
import { randomUUID } from "node:crypto";
import { parseMessage, type ParsedMessage } from "./mime.ts";

/** A received message: what `parseMessage` reads from it, with its envelope and the message as received. */
export type CaughtMessage = ParsedMessage & {
  id: string;
  receivedAt: string;
  /** Envelope: MAIL FROM and RCPT TO addresses. */
  envelope: { from: string; to: string[] };
  /** The message as received (after un-stuffing), ASCII. */
  raw: string;
};

export type Catcher = {
  /** SMTP_URL to give senders, e.g. smtp://127.0.0.1:2525. */
  smtpUrl: string;
  /** Base URL of the HTTP reader: GET /messages[?to=address], DELETE /messages. */
  httpUrl: string;
  messages(filter?: { to?: string }): CaughtMessage[];
  /** Resolves with the first message matching, waiting up to timeoutMs for it to arrive. */
  waitFor(match: (m: CaughtMessage) => boolean, timeoutMs?: number): Promise<CaughtMessage>;
  clear(): void;
  close(): Promise<void>;
};

const MAX_MESSAGE_BYTES = 5 * 1024 * 1024;
const MAX_KEPT = 500;

function addressIn(arg: string): string | null {
  const m = /^<([^>]*)>/.exec(arg.trim());
  return m ? m[1]!.trim() : null;
}

export async function startCatcher(options: { host?: string; smtpPort?: number; httpPort?: number } = {}): Promise<Catcher> {
  const host = options.host ?? "127.0.0.1";
  const kept: CaughtMessage[] = [];
  const waiters = new Set<() => void>();

  function store(envelope: { from: string; to: string[] }, raw: string) {
    const parsed = parseMessage(raw);
    kept.push({ id: randomUUID(), receivedAt: new Date().toISOString(), envelope, ...parsed, raw });
    if (kept.length > MAX_KEPT) kept.splice(0, kept.length - MAX_KEPT);
    for (const w of [...waiters]) w();
  }

  const sockets = new Set<net.Socket>();
  const smtp = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.setTimeout(60_000, () => socket.destroy());
    const reply = (line: string) => socket.write(line + "\r\n");
    let buffer = "";
    let from: string | null = null;
    let rcpts: string[] = [];
    let data: string[] | null = null;
    let dataBytes = 0;
    let auth: "user" | "pass" | null = null;

    reply("220 fiskal-catcher ESMTP ready");
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("latin1");
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, "");
        buffer = buffer.slice(nl + 1);
        if (data) {
          if (line === ".") {
            const raw = Buffer.from(data.join("\r\n") + "\r\n", "latin1").toString("utf8");
            data = null;
            if (dataBytes > MAX_MESSAGE_BYTES) reply("552 message too large");
            else {
              store({ from: from ?? "", to: rcpts }, raw);
              reply("250 OK stored");
            }
            from = null;
            rcpts = [];
            continue;
          }
          dataBytes += line.length + 2;
          if (dataBytes <= MAX_MESSAGE_BYTES) data.push(line.startsWith(".") ? line.slice(1) : line);
          continue;
        }
        if (auth) {
          auth = auth === "user" ? "pass" : null;
          reply(auth ? "334 UGFzc3dvcmQ6" : "235 accepted");
          continue;
        }
        const [verb = "", ...rest] = line.split(" ");
        const arg = rest.join(" ");
        switch (verb.toUpperCase()) {
          case "EHLO":
            reply("250-fiskal-catcher");
            reply("250-8BITMIME");
            reply("250-AUTH PLAIN LOGIN");
            reply(`250 SIZE ${MAX_MESSAGE_BYTES}`);
            break;
          case "HELO":
            reply("250 fiskal-catcher");
            break;
          case "AUTH":
            // Any credentials are accepted: the catcher checks that senders speak SMTP, not who they are.
            if (/^PLAIN\s+\S+/i.test(arg)) reply("235 accepted");
            else if (/^PLAIN$/i.test(arg)) {
              auth = "pass";
              reply("334 ");
            } else if (/^LOGIN/i.test(arg)) {
              auth = "user";
              reply("334 VXNlcm5hbWU6");
            } else reply("504 unsupported mechanism");
            break;
          case "MAIL": {
            const a = /^FROM:\s*(.*)$/i.exec(arg);
            const addr = a ? addressIn(a[1]!) : null;
            if (addr === null) reply("501 syntax: MAIL FROM:<address>");
            else {
              from = addr;
              rcpts = [];
              reply("250 OK");
            }
            break;
          }
          case "RCPT": {
            const a = /^TO:\s*(.*)$/i.exec(arg);
            const addr = a ? addressIn(a[1]!) : null;
            if (from === null) reply("503 MAIL first");
            else if (!addr) reply("501 syntax: RCPT TO:<address>");
            else {
              rcpts.push(addr);
              reply("250 OK");
            }
            break;
          }
          case "DATA":
            if (from === null || rcpts.length === 0) reply("503 RCPT first");
            else {
              data = [];
              dataBytes = 0;
              reply("354 end with <CRLF>.<CRLF>");
            }
            break;
          case "RSET":
            from = null;
            rcpts = [];
            reply("250 OK");
            break;
          case "NOOP":
            reply("250 OK");
            break;
          case "QUIT":
            reply("221 bye");
            socket.end();
            break;
          default:
            reply("502 command not implemented");
        }
      }
    });
  });

  const filtered = (to?: string | null) =>
    to ? kept.filter((m) => m.envelope.to.some((r) => r.toLowerCase() === to.toLowerCase())) : [...kept];

  const web = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://catcher");
    if (url.pathname === "/messages" && req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      res.end(JSON.stringify(filtered(url.searchParams.get("to"))));
    } else if (url.pathname === "/messages" && req.method === "DELETE") {
      kept.length = 0;
      res.writeHead(204).end();
    } else {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("GET /messages[?to=address] or DELETE /messages\n");
    }
  });

  const listen = (server: net.Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve((server.address() as net.AddressInfo).port));
    });
  let smtpPort: number;
  let httpPort: number;
  try {
    smtpPort = await listen(smtp, options.smtpPort ?? 0);
    httpPort = await listen(web, options.httpPort ?? 0);
  } catch (err) {
    // A port in use: nothing of this catcher stays listening.
    smtp.close();
    web.close();
    throw err;
  }
  const shownHost = host.includes(":") ? `[${host}]` : host;

  return {
    smtpUrl: `smtp://${shownHost}:${smtpPort}`,
    httpUrl: `http://${shownHost}:${httpPort}`,
    messages: (filter) => filtered(filter?.to),
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = kept.find(match);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message within ${timeoutMs} ms (${kept.length} caught)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    clear: () => void (kept.length = 0),
    async close() {
      for (const s of sockets) s.destroy();
      web.closeAllConnections();
      await Promise.all([new Promise((r) => smtp.close(r)), new Promise((r) => web.close(r))]);
    },
  };
}
