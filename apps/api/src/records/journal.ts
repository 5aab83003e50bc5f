// What the tax authority or the intermediary answered is never lost. The answer is stored in the
// step that completes the pending receipt or e-invoice; when that write fails (the database is
// unreachable, a statement fails), the answer is written to the journal on disk first — one file per
// answer, fsync'd and renamed into place before the client is answered — and the reconciler stores
// it in the database from there: at start, every few seconds, and whenever a retry asks for it.
//
// One file per answer keeps the journal safe for several API processes sharing a data directory:
// a file is complete once it has its name, storing it is idempotent, and whoever stored it removes it.
// Each entry names the database it belongs to, so processes on other databases leave it alone.
//
// The answer also reaches every instance: with a shared Redis (REDIS_URL or a cluster) each answer
// is written to a hash of its database (`<prefix>:journal:{<database>}`) before the database is
// asked to store it, and again with the disk entry. Any instance's reconciler stores what it finds
// there, any instance answers GET with it, and the late-delivery job never re-sends a receipt whose
// answer is there — also when the process that got the answer died or lost its disk.
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, unlink } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { Db } from "@fiskal/db";
import type { StoreConfig } from "@fiskal/limits";
import { Redis, Cluster } from "ioredis";
import { REPO_ROOT } from "../env.ts";
import { periodicJob } from "../periodic.ts";
import { storeEInvoiceAnswer, type EInvoiceAnswer } from "../procedures/einvoices/complete.ts";
import { storeInvoiceAnswer, type InvoiceAnswer, type StoreOutcome } from "../procedures/invoices/complete.ts";

export type UpstreamAnswer = InvoiceAnswer | EInvoiceAnswer;
type JournalEntry = UpstreamAnswer & { database: string; journaledAt: string };

const ENTRY_FILE = /^(invoice|einvoice)-[0-9a-f-]{36}\.json$/;

/** `<repo>/.data/journal`: the journal in the default data directory (main.ts passes `$FISKAL_DATA_DIR/journal`). */
export const DEFAULT_JOURNAL_DIR = path.join(REPO_ROOT, ".data", "journal");

/** Identifies the database (name and oid), so a shared journal directory is applied to the right one. */
export async function databaseIdentity(db: Db): Promise<string> {
  const [row] = await db.$queryRaw<{ name: string; oid: string }[]>`
    SELECT datname AS name, oid::text AS oid FROM pg_database WHERE datname = current_database()`;
  return row ? `${row.name}#${row.oid}` : "";
}

/** Stores an answer in the database: the completing step of its receipt or e-invoice. */
function storeAnswer(db: Db, answer: UpstreamAnswer): Promise<StoreOutcome> {
  return answer.kind === "invoice" ? storeInvoiceAnswer(db, answer) : storeEInvoiceAnswer(db, answer);
}

/** The part of the journal every instance sees: one Redis hash per database. */
interface SharedJournal {
  put(name: string, entry: JournalEntry): Promise<void>;
  all(): Promise<Map<string, JournalEntry>>;
  remove(name: string): Promise<void>;
  setAside(name: string, reason: string): Promise<void>;
  close(): Promise<void>;
}

/** Commands to the shared journal give up after this long: the disk journal and the database remain. */
const SHARED_TIMEOUT_MS = 500;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`shared journal: no answer within ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

/** `redis+cluster://[user:password@]host:port,host:port` → the seed nodes and credentials. */
function clusterSeeds(url: string): { nodes: { host: string; port: number }[]; username?: string; password?: string; tls: boolean } {
  const m = /^(rediss?)\+cluster:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#]+)/.exec(url);
  if (!m) throw new Error(`not a cluster URL: ${url.replace(/\/\/[^@]*@/, "//***@")}`);
  const nodes = m[4]!.split(",").map((hp) => {
    const i = hp.lastIndexOf(":");
    return { host: hp.slice(0, i).replace(/^\[|\]$/g, ""), port: Number(hp.slice(i + 1)) };
  });
  return { nodes, username: m[2] ? decodeURIComponent(m[2]) : undefined, password: m[3] ? decodeURIComponent(m[3]) : undefined, tls: m[1] === "rediss" };
}

/**
 * The shared journal on the rate limiter's Redis (plain or cluster), or null on the in-process
 * store and on Upstash (there only this process's disk journal is kept).
 */
export function createSharedJournal(opts: { store: StoreConfig; prefix: string; database: string; log: Logger }): SharedJournal | null {
  const { store, log } = opts;
  let client: Redis | Cluster;
  const common = { maxRetriesPerRequest: 1, connectTimeout: 2_000, commandTimeout: SHARED_TIMEOUT_MS };
  if (store.kind === "redis") client = new Redis(store.url, common);
  else if (store.kind === "cluster") {
    const seeds = clusterSeeds(store.url);
    client = new Cluster(seeds.nodes, {
      redisOptions: { ...common, username: seeds.username, password: seeds.password, ...(seeds.tls ? { tls: {} } : {}) },
    });
  } else return null;
  let lastError = "";
  client.on("error", (err: Error) => {
    if (err.message !== lastError) log.warn({ err: err.message }, "shared answer journal (Redis) unreachable");
    lastError = err.message;
  });
  client.on("ready", () => (lastError = ""));
  // One hash tag per database: both hashes live on one cluster slot.
  const hash = `${opts.prefix}:journal:{${opts.database}}`;
  const aside = `${opts.prefix}:journal-aside:{${opts.database}}`;
  // The first connection is waited for (up to 2 s: the reconciler's run at start reads it); later,
  // while Redis is away, nothing waits for it: the disk journal and the database carry on alone.
  const firstReady = new Promise<void>((resolve) => client.once("ready", () => resolve()));
  let wasReady = false;
  void firstReady.then(() => (wasReady = true));
  const startWaitUntil = Date.now() + 2_000;
  const connected = async () => {
    if (client.status === "ready") return;
    const wait = startWaitUntil - Date.now();
    if (wasReady || wait <= 0) throw new Error(`shared journal: Redis is ${client.status}`);
    await withTimeout(firstReady, wait);
  };
  return {
    async put(name, entry) {
      await connected();
      await withTimeout(client.hset(hash, name, JSON.stringify(entry)), SHARED_TIMEOUT_MS);
    },
    async all() {
      await connected();
      const raw = await withTimeout(client.hgetall(hash), SHARED_TIMEOUT_MS);
      const out = new Map<string, JournalEntry>();
      for (const [name, value] of Object.entries(raw)) {
        try {
          out.set(name, JSON.parse(value) as JournalEntry);
        } catch {
          log.error({ name }, "shared journal entry cannot be read");
        }
      }
      return out;
    },
    async remove(name) {
      await connected();
      await withTimeout(client.hdel(hash, name), SHARED_TIMEOUT_MS);
    },
    async setAside(name, reason) {
      await connected();
      const value = await withTimeout(client.hget(hash, name), SHARED_TIMEOUT_MS);
      if (value !== null) await withTimeout(client.hset(aside, `${name}.${reason}`, value), SHARED_TIMEOUT_MS);
      await withTimeout(client.hdel(hash, name), SHARED_TIMEOUT_MS);
    },
    async close() {
      client.disconnect();
    },
  };
}

/** Entries the shared journal alone holds are named `shared:<kind>-<id>` in `entries()`. */
const SHARED_PREFIX = "shared:";
const entryName = (answer: { kind: string; id: string }) => `${answer.kind}-${answer.id}`;

export interface AnswerJournal {
  readonly dir: string;
  readonly database: string;
  /**
   * Durable once it resolves: the file and its directory entry are on disk (and the entry is in the
   * shared journal, when there is one). Resolves if either took it.
   */
  write(answer: UpstreamAnswer): Promise<void>;
  /**
   * Announces an answer to every instance before the database is asked to store it (the shared
   * journal only; best effort, false when it is not there). Removed again by `forget`.
   */
  share(answer: UpstreamAnswer): Promise<boolean>;
  /** Removes a shared announcement once the answer is stored (best effort). */
  forget(answer: { kind: string; id: string }): Promise<void>;
  /** This database's entries, oldest first: this disk's and the shared journal's, once each. */
  entries(): Promise<{ file: string; entry: JournalEntry }[]>;
  remove(file: string): Promise<void>;
  /** Moves an entry out of the way (kept on disk, never applied again), e.g. "conflict". */
  setAside(file: string, reason: string): Promise<void>;
  close(): Promise<void>;
}

export function createAnswerJournal(opts: { dir: string; database: string; log: Logger; shared?: SharedJournal | null }): AnswerJournal {
  const { dir, database, log } = opts;
  const shared = opts.shared ?? null;

  async function syncDirectory() {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  return {
    dir,
    database,
    async write(answer) {
      const entry: JournalEntry = { ...answer, database, journaledAt: new Date().toISOString() };
      const [disk, everywhere] = await Promise.allSettled([writeFile(entry), shared ? shared.put(entryName(answer), entry) : Promise.reject(new Error("no shared journal"))]);
      if (disk.status === "rejected") {
        if (everywhere.status === "fulfilled") {
          log.error({ kind: answer.kind, id: answer.id, err: disk.reason as unknown }, "answer journaled in the shared journal only: the disk journal refused it");
          return;
        }
        throw disk.reason;
      }
    },
    async share(answer) {
      if (!shared) return false;
      try {
        await shared.put(entryName(answer), { ...answer, database, journaledAt: new Date().toISOString() });
        return true;
      } catch (err) {
        log.warn({ kind: answer.kind, id: answer.id, err: (err as Error).message }, "answer not announced in the shared journal");
        return false;
      }
    },
    async forget(answer) {
      await shared?.remove(entryName(answer)).catch((err: unknown) => log.warn({ kind: answer.kind, id: answer.id, err: (err as Error).message }, "shared journal entry left for the reconciler"));
    },
    async close() {
      await shared?.close();
    },
    async entries() {
      const local = await diskEntries();
      let everywhere = new Map<string, JournalEntry>();
      if (shared) {
        try {
          everywhere = await shared.all();
        } catch (err) {
          log.warn({ err: (err as Error).message }, "shared journal cannot be read; this disk's entries only");
        }
      }
      const seen = new Set(local.map(({ file }) => path.basename(file, ".json")));
      const out = [...local];
      for (const [name, entry] of everywhere) {
        if (seen.has(name) || entry.database !== database) continue;
        out.push({ file: `${SHARED_PREFIX}${name}`, entry });
      }
      return out.sort((x, y) => (x.entry.journaledAt < y.entry.journaledAt ? -1 : x.entry.journaledAt > y.entry.journaledAt ? 1 : 0));
    },
    async remove(file) {
      const name = file.startsWith(SHARED_PREFIX) ? file.slice(SHARED_PREFIX.length) : path.basename(file, ".json");
      if (!file.startsWith(SHARED_PREFIX)) {
        try {
          await unlink(file);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
        }
      }
      await shared?.remove(name).catch((err: unknown) => log.warn({ name, err: (err as Error).message }, "shared journal entry not removed yet"));
    },
    async setAside(file, reason) {
      const name = file.startsWith(SHARED_PREFIX) ? file.slice(SHARED_PREFIX.length) : path.basename(file, ".json");
      if (!file.startsWith(SHARED_PREFIX)) {
        try {
          await rename(file, `${file}.${reason}`);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
        }
      }
      await shared?.setAside(name, reason).catch((err: unknown) => log.warn({ name, err: (err as Error).message }, "shared journal entry not set aside yet"));
    },
  };

  async function writeFile(entry: JournalEntry): Promise<void> {
    await mkdir(dir, { recursive: true });
    const name = `${entry.kind}-${entry.id}.json`;
    const temp = path.join(dir, `.${name}.${randomBytes(6).toString("hex")}.tmp`);
    const handle = await open(temp, "wx");
    try {
      await handle.writeFile(`${JSON.stringify(entry)}\n`, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path.join(dir, name));
    await syncDirectory();
  }

  async function diskEntries(): Promise<{ file: string; entry: JournalEntry }[]> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    const out: { file: string; entry: JournalEntry; at: string }[] = [];
    for (const name of names) {
      if (!ENTRY_FILE.test(name)) continue;
      const file = path.join(dir, name);
      let entry: JournalEntry;
      try {
        entry = JSON.parse(await readFile(file, "utf8")) as JournalEntry;
      } catch (err) {
        // Removed by another process meanwhile, or unreadable: never deleted here.
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") log.error({ file, err }, "journal entry cannot be read");
        continue;
      }
      if (entry.database === database) out.push({ file, entry, at: entry.journaledAt });
    }
    return out.sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0)).map(({ file, entry }) => ({ file, entry }));
  }
}

export interface Reconciler {
  /** Stores every journaled answer it can; one run at a time (a second caller waits for the running one). */
  runOnce(): Promise<{ stored: number; waiting: number }>;
  /**
   * Runs once, then returns the journaled answer that `match` picks among those the database still
   * refuses, if there is one (e.g. of a pending receipt, or of a pending Idempotency-Key record).
   */
  journaled(match: (entry: JournalEntry) => boolean): Promise<JournalEntry | undefined>;
  /** Runs once now, then every `intervalMs`. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createReconciler(opts: { db: Db; journal: AnswerJournal; log: Logger; intervalMs?: number }): Reconciler {
  const { db, journal, log } = opts;
  const intervalMs = opts.intervalMs ?? 5_000;

  async function run(): Promise<{ stored: number; waiting: number }> {
    let stored = 0;
    let waiting = 0;
    for (const { file, entry } of await journal.entries()) {
      let outcome: StoreOutcome;
      try {
        outcome = await storeAnswer(db, entry);
      } catch (err) {
        waiting++;
        log.warn({ kind: entry.kind, id: entry.id, err }, "journaled answer could not be stored yet; retrying");
        continue;
      }
      if (outcome === "stored" || outcome === "already") {
        if (outcome === "stored") {
          stored++;
          log.info({ kind: entry.kind, id: entry.id }, "journaled answer stored");
        }
        await journal.remove(file);
      } else if (outcome === "missing") {
        // The receipt or e-invoice is gone (its account was deleted): kept on disk for the record.
        log.warn({ kind: entry.kind, id: entry.id, file }, "journaled answer belongs to a deleted row; set aside");
        await journal.setAside(file, "orphan");
      } else {
        log.error({ kind: entry.kind, id: entry.id, file }, "journaled answer differs from the stored one; set aside for inspection");
        await journal.setAside(file, "conflict");
      }
    }
    return { stored, waiting };
  }
  const job = periodicJob(run, intervalMs, (err) => log.error({ err }, "journal reconciliation failed"));

  const reconciler: Reconciler = {
    runOnce: () => job.runOnce(),
    async journaled(match) {
      try {
        await reconciler.runOnce();
        return (await journal.entries()).find(({ entry }) => match(entry))?.entry;
      } catch (err) {
        log.error({ err }, "journal could not be read");
        return undefined;
      }
    },
    async start() {
      job.start();
      try {
        // joins the pass start() began
        const { stored, waiting } = await job.runOnce();
        if (stored || waiting) log.info({ stored, waiting }, "journal reconciled at start");
      } catch (err) {
        log.error({ err }, "journal could not be reconciled at start");
      }
    },
    stop: () => job.stop(),
  };
  return reconciler;
}

/**
 * Stores an answer the outside world just gave; if the database refuses, journals it. Resolves once
 * the answer is in one of the two places; rejects (with the database's error) only if neither took it.
 * The answer is announced in the shared journal first, so that every instance knows it even if this
 * process dies while the database stores it.
 */
export async function keepAnswer(services: { db: Db; journal: AnswerJournal; log: Logger }, answer: UpstreamAnswer): Promise<"stored" | "journaled"> {
  const { db, journal, log } = services;
  const shared = await journal.share(answer);
  let outcome: StoreOutcome;
  try {
    outcome = await storeAnswer(db, answer);
  } catch (err) {
    log.error({ kind: answer.kind, id: answer.id, err }, "upstream answer could not be stored; journaling it");
    try {
      await journal.write(answer);
    } catch (journalErr) {
      if (shared) {
        log.error({ kind: answer.kind, id: answer.id, err: (journalErr as Error).message }, "upstream answer kept in the shared journal only");
        return "journaled";
      }
      // Last resort: the log line is the only copy left.
      log.fatal({ answer, err: (journalErr as Error).message }, "upstream answer could be neither stored nor journaled");
      throw err;
    }
    return "journaled";
  }
  if (shared) await journal.forget(answer);
  if (outcome === "missing" || outcome === "conflict") {
    // The pending row is gone or holds another answer: kept on disk (the reconciler sets it aside).
    log.fatal({ answer, outcome }, "upstream answer does not fit its pending row");
    await journal.write(answer);
    throw new Error(`upstream answer for ${answer.kind} ${answer.id}: ${outcome}`);
  }
  return "stored";
}
