// The zero-setup database: PGlite persisted on disk, served over the Postgres wire protocol so the
// API and the portal (two processes) use it through an ordinary DATABASE_URL.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

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
      writeFileSync(file, JSON.stringify({ pid: process.pid, url: "" } satisfies LockInfo), { flag: "wx" });
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

export async function startEmbeddedPostgres(opts: { dataDir: string; port?: number }): Promise<EmbeddedPostgres> {
  mkdirSync(opts.dataDir, { recursive: true });
  await acquireLock(opts.dataDir);
  let db: PGlite | undefined;
  try {
    db = await PGlite.create({ dataDir: opts.dataDir });
    // The default of one connection would refuse a connection pool.
    const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: opts.port ?? 0, maxConnections: 16 });
    await server.start();
    const port = Number(server.getServerConn().split(":").pop());
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    writeFileSync(lockPath(opts.dataDir), JSON.stringify({ pid: process.pid, url } satisfies LockInfo));
    const owned = db;
    let closing: Promise<void> | undefined;
    return {
      url,
      port,
      close: () =>
        (closing ??= (async () => {
          try {
            await server.stop();
          } finally {
            await owned.close();
            releaseLock(opts.dataDir);
          }
        })()),
    };
  } catch (error) {
    await db?.close();
    releaseLock(opts.dataDir);
    throw error;
  }
}
