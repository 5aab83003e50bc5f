// What the tax authority or the intermediary answered is never lost. The answer is stored in the
// step that completes the pending receipt or e-invoice; when that write fails (the database is
// unreachable, a statement fails), the answer is written to the journal on disk first — one file per
// answer, fsync'd and renamed into place before the client is answered — and the reconciler stores
// it in the database from there: at start, every few seconds, and whenever a retry asks for it.
//
// One file per answer keeps the journal safe for several API processes sharing a data directory:
// a file is complete once it has its name, storing it is idempotent, and whoever stored it removes it.
// Each entry names the database it belongs to, so processes on other databases leave it alone.
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, unlink } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { Db } from "@fiskal/db";
import { REPO_ROOT } from "./env.ts";
import { storeEInvoiceAnswer, type EInvoiceAnswer } from "./procedures/einvoices/complete.ts";
import { storeInvoiceAnswer, type InvoiceAnswer, type StoreOutcome } from "./procedures/invoices/complete.ts";

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

export interface AnswerJournal {
  readonly dir: string;
  readonly database: string;
  /** Durable once it resolves: the file and its directory entry are on disk. */
  write(answer: UpstreamAnswer): Promise<void>;
  /** This database's entries, oldest first. */
  entries(): Promise<{ file: string; entry: JournalEntry }[]>;
  remove(file: string): Promise<void>;
  /** Moves an entry out of the way (kept on disk, never applied again), e.g. "conflict". */
  setAside(file: string, reason: string): Promise<void>;
}

export function createAnswerJournal(opts: { dir: string; database: string; log: Logger }): AnswerJournal {
  const { dir, database, log } = opts;

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
      await mkdir(dir, { recursive: true });
      const entry: JournalEntry = { ...answer, database, journaledAt: new Date().toISOString() };
      const name = `${answer.kind}-${answer.id}.json`;
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
    },
    async entries() {
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
    },
    async remove(file) {
      try {
        await unlink(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    },
    async setAside(file, reason) {
      try {
        await rename(file, `${file}.${reason}`);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    },
  };
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
  let running: Promise<{ stored: number; waiting: number }> | null = null;
  let timer: NodeJS.Timeout | null = null;

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

  const reconciler: Reconciler = {
    runOnce() {
      running ??= run().finally(() => (running = null));
      return running;
    },
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
      try {
        const { stored, waiting } = await reconciler.runOnce();
        if (stored || waiting) log.info({ stored, waiting }, "journal reconciled at start");
      } catch (err) {
        log.error({ err }, "journal could not be reconciled at start");
      }
      timer = setInterval(() => {
        reconciler.runOnce().catch((err: unknown) => log.error({ err }, "journal reconciliation failed"));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
  return reconciler;
}

/**
 * Stores an answer the outside world just gave; if the database refuses, journals it. Resolves once
 * the answer is in one of the two places; rejects (with the database's error) only if neither took it.
 */
export async function keepAnswer(services: { db: Db; journal: AnswerJournal; log: Logger }, answer: UpstreamAnswer): Promise<"stored" | "journaled"> {
  const { db, journal, log } = services;
  let outcome: StoreOutcome;
  try {
    outcome = await storeAnswer(db, answer);
  } catch (err) {
    log.error({ kind: answer.kind, id: answer.id, err }, "upstream answer could not be stored; journaling it");
    try {
      await journal.write(answer);
    } catch (journalErr) {
      // Last resort: the log line is the only copy left.
      log.fatal({ answer, err: (journalErr as Error).message }, "upstream answer could be neither stored nor journaled");
      throw err;
    }
    return "journaled";
  }
  if (outcome === "missing" || outcome === "conflict") {
    // The pending row is gone or holds another answer: kept on disk (the reconciler sets it aside).
    log.fatal({ answer, outcome }, "upstream answer does not fit its pending row");
    await journal.write(answer);
    throw new Error(`upstream answer for ${answer.kind} ${answer.id}: ${outcome}`);
  }
  return "stored";
}
