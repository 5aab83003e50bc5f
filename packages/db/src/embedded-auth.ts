// The password in front of the embedded database. PGlite answers every connection as "trust"; the
// TCP port the apps (and psql) use is this gate instead: it asks for the password (PostgreSQL's
// MD5 challenge, which psql, libpq and node-postgres all answer), refuses a wrong or missing one
// with SQLSTATE 28P01 as PostgreSQL does, and only then hands the connection to PGlite's socket
// server, which listens on a Unix socket in a directory only this OS user can open.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import net from "node:net";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
/** A client gets this long to authenticate. */
const AUTH_TIMEOUT_MS = 10_000;

function md5(s: string | Buffer): string {
  return createHash("md5").update(s).digest("hex");
}

/** What a client sends for `password` as `user` against `salt`: "md5" + md5(md5(password + user) + salt). */
export function md5PasswordAnswer(password: string, user: string, salt: Buffer): string {
  return `md5${md5(Buffer.concat([Buffer.from(md5(password + user)), salt]))}`;
}

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function errorResponse(code: string, text: string): Buffer {
  const fields = [`SFATAL`, `VFATAL`, `C${code}`, `M${text}`].map((f) => Buffer.from(`${f}\0`, "utf8"));
  return message("E", Buffer.concat([...fields, Buffer.from([0])]));
}

function startupParams(body: Buffer): Record<string, string> {
  const parts = body.toString("utf8").split("\0");
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length; i += 2) if (parts[i]) out[parts[i]!] = parts[i + 1] ?? "";
  return out;
}

export type PasswordGate = { port: number; close(): Promise<void> };

/** Listens on host:port; each connection that gives `password` is piped to the Unix socket `upstream`. */
export async function startPasswordGate(opts: { host: string; port: number; password: string; upstream: string; maxConnections?: number }): Promise<PasswordGate> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    const timer = setTimeout(() => client.destroy(), AUTH_TIMEOUT_MS);
    let buffer = Buffer.alloc(0);
    let startup: Buffer | null = null;
    let user = "";
    const salt = randomBytes(4);

    const refuse = (code: string, text: string) => {
      clearTimeout(timer);
      client.end(errorResponse(code, text));
    };

    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!startup) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          const code = buffer.readInt32BE(4);
          if (length < 8 || length > 10_000) return refuse("08P01", "invalid startup packet");
          if (buffer.length < length) return;
          const packet = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            client.write("N");
            continue;
          }
          if (code === CANCEL_REQUEST) return void client.end();
          if (code !== PROTOCOL_3) return refuse("08P01", "unsupported frontend protocol");
          startup = Buffer.from(packet);
          user = startupParams(packet.subarray(8)).user ?? "";
          const auth = Buffer.alloc(8);
          auth.writeInt32BE(5, 0); // AuthenticationMD5Password
          salt.copy(auth, 4);
          client.write(message("R", auth));
          continue;
        }
        if (buffer.length < 5) return;
        const type = String.fromCharCode(buffer[0]!);
        const length = buffer.readInt32BE(1);
        if (type !== "p" || length < 5 || length > 1_000) return refuse("08P01", "expected a password message");
        if (buffer.length < 1 + length) return;
        const given = buffer.subarray(5, 1 + length).toString("utf8").replace(/\0$/, "");
        const rest = buffer.subarray(1 + length);
        const expected = md5PasswordAnswer(opts.password, user, salt);
        const ok = given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
        if (!ok) return refuse("28P01", `password authentication failed for user "${user}"`);
        clearTimeout(timer);
        client.off("data", onData);
        client.pause();
        const backend = net.connect(opts.upstream);
        sockets.add(backend);
        backend.on("close", () => {
          sockets.delete(backend);
          client.destroy();
        });
        backend.on("error", () => client.destroy());
        client.on("close", () => backend.destroy());
        backend.once("connect", () => {
          // PGlite answers the startup itself (AuthenticationOk, parameters, ReadyForQuery).
          backend.write(startup!);
          if (rest.length) backend.write(rest);
          client.pipe(backend);
          backend.pipe(client);
          client.resume();
        });
        return;
      }
    };
    client.on("data", onData);
  });
  server.maxConnections = opts.maxConnections ?? 16;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
