// The zero-setup database: PGlite persisted on disk, served over the Postgres wire protocol so the
// API and the portal (two processes) use it through an ordinary DATABASE_URL.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { startPasswordGate } from "./embedded-auth.ts";

export type EmbeddedPostgres = { url: string; port: number; close(): Promise<void> };

/** The data directory is already served by another live process, reachable at `url`. */
export class EmbeddedPostgresBusyError extends Error {
  override name = "EmbeddedPostgresBusyError";
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly url: string,
  ) {
    super(`the embedded database in ${dataDir} is already open in process ${pid} (${url})`);
  }
}

type LockInfo = { pid: number; url: string };

function lockPath(dataDir: string): string {
  return `${path.resolve(dataDir)}.lock`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const openHere = new Set<string>();

/** Whether something accepts connections at the URL's port (a lock's pid may have been reused). */
function answers(url: string): Promise<boolean> {
  const port = Number(new URL(url).port);
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port, timeout: 1000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * PGlite has no postmaster.pid: two processes opening one directory would corrupt it. A lock file
 * beside the directory records the owner and its URL; a lock whose owner is gone is taken over.
 */
async function acquireLock(dataDir: string): Promise<void> {
  const file = lockPath(dataDir);
  if (openHere.has(file)) throw new Error(`the embedded database in ${dataDir} is already open in this process`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // 0600: the URL it will hold carries the database password.
      writeFileSync(file, JSON.stringify({ pid: process.pid, url: "" } satisfies LockInfo), { flag: "wx", mode: 0o600 });
      openHere.add(file);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let owner: LockInfo | undefined;
      try {
        owner = JSON.parse(readFileSync(file, "utf8")) as LockInfo;
      } catch {
        owner = undefined;
      }
      // An empty URL means the owner is still starting up.
      if (owner && owner.pid !== process.pid && isAlive(owner.pid) && (!owner.url || (await answers(owner.url)))) {
        throw new EmbeddedPostgresBusyError(dataDir, owner.pid, owner.url);
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock ${file}`);
}

function releaseLock(dataDir: string): void {
  const file = lockPath(dataDir);
  if (openHere.delete(file)) rmSync(file, { force: true });
}

/** Frontend messages that open an extended-protocol batch, which lasts until that connection's Sync. */
const BATCH_MESSAGES = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]); // Parse Bind Describe Execute Close Flush
const SYNC = 0x53;
const QUERY = 0x51;

type QueueItem = { handlerId: number; message: Uint8Array; resolve(n: number): void; reject(e: unknown): void; onData(d: Uint8Array): void };
type Queue = {
  queue: QueueItem[];
  processing: boolean;
  lastHandlerId: number | null;
  processQueue(): Promise<void>;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
};

/**
 * pglite-socket 0.2.x runs every connection on one PGlite session and queues single protocol
 * messages, keeping a connection's turn only inside an SQL transaction. Between one connection's
 * Parse and its Bind another connection's Parse replaced the unnamed statement: bind errors, replies
 * handed to the wrong client, and rows of another query or none (a user lookup found "no user", so
 * the portal signed a live session out). A connection keeps its turn until its batch's Sync
 * (electric-sql/pglite#1046).
 */
function keepBatchesWhole(server: PGLiteSocketServer, db: PGlite): void {
  // A private field, absent from the library's types; its shape is checked on the next line.
  const q = (server as unknown as { queryQueue: Queue }).queryQueue;
  if (!q || !Array.isArray(q.queue) || typeof q.processQueue !== "function") throw new Error("unexpected pglite-socket internals: check keepBatchesWhole");
  let batchOf: number | null = null;
  q.processQueue = async function processQueue(this: Queue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = batchOf ?? (db.isInTransaction() ? this.lastHandlerId : null);
        let item: QueueItem | undefined;
        if (owner !== null) {
          const i = this.queue.findIndex((x) => x.handlerId === owner);
          if (i === -1) break; // the owner's next message will start the queue again
          item = this.queue.splice(i, 1)[0];
        } else item = this.queue.shift();
        if (!item) break;
        const it = item;
        let bytes = 0;
        try {
          await db.runExclusive(() => db.execProtocolRawStream(it.message, { onRawData: (d: Uint8Array) => ((bytes += d.length), it.onData(d)) }));
        } catch (error) {
          it.reject(error);
          continue;
        }
        const type = it.message[0] ?? 0;
        if (type === SYNC || type === QUERY) batchOf = null;
        else if (BATCH_MESSAGES.has(type)) batchOf = it.handlerId;
        this.lastHandlerId = it.handlerId;
        it.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };
  const clear = q.clearTransactionIfNeeded.bind(q);
  q.clearTransactionIfNeeded = async (handlerId: number) => {
    if (batchOf === handlerId) batchOf = null; // a connection that left mid-batch gives up its turn
    await clear(handlerId);
    await q.processQueue();
  };
}

/** The embedded database's password: `<dataDir>.password` (0600), made on first use, like the other generated secrets. */
export function embeddedPasswordFile(dataDir: string): string {
  return `${path.resolve(dataDir)}.password`;
}

function readOrCreatePassword(dataDir: string): string {
  const file = embeddedPasswordFile(dataDir);
  if (existsSync(file)) {
    const saved = readFileSync(file, "utf8").trim();
    if (saved) return saved;
  }
  const made = randomBytes(24).toString("base64url");
  writeFileSync(file, `${made}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return made;
}

/**
 * Opens PGlite in `dataDir` and serves it on 127.0.0.1:`port` (0: any free port) behind a password:
 * `opts.password`, else the one kept in `<dataDir>.password`. The returned URL carries it.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port?: number; password?: string }): Promise<EmbeddedPostgres> {
  mkdirSync(opts.dataDir, { recursive: true });
  await acquireLock(opts.dataDir);
  let db: PGlite | undefined;
  // PGlite's own server trusts every connection: it listens on a Unix socket in a directory only this
  // OS user can open, and the TCP port is the password gate in front of it.
  const socketDir = mkdtempSync(path.join(os.tmpdir(), "fiskal-pglite-"));
  let server: PGLiteSocketServer | undefined;
  try {
    const password = opts.password ?? readOrCreatePassword(opts.dataDir);
    db = await PGlite.create({ dataDir: opts.dataDir });
    // The default of one connection would refuse a connection pool.
    const socketPath = path.join(socketDir, ".s.PGSQL");
    const inner = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 16 });
    server = inner;
    keepBatchesWhole(inner, db);
    await inner.start();
    const gate = await startPasswordGate({ host: "127.0.0.1", port: opts.port ?? 0, password, upstream: socketPath, maxConnections: 16 });
    const port = gate.port;
    const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
    writeFileSync(lockPath(opts.dataDir), JSON.stringify({ pid: process.pid, url } satisfies LockInfo), { mode: 0o600 });
    const owned = db;
    let closing: Promise<void> | undefined;
    return {
      url,
      port,
      close: () =>
        (closing ??= (async () => {
          try {
            await gate.close();
            await inner.stop();
          } finally {
            await owned.close();
            rmSync(socketDir, { recursive: true, force: true });
            releaseLock(opts.dataDir);
          }
        })()),
    };
  } catch (error) {
    await server?.stop().catch(() => undefined);
    await db?.close();
    rmSync(socketDir, { recursive: true, force: true });
    releaseLock(opts.dataDir);
    throw error;
  }
}
