// Idempotency-Key for POSTs: a retry with the same key and body replays the stored response and
// never runs the operation twice; the same key with another body is a 409.
//
// Fiscalization and e-invoices create the key's record in the same transaction as their pending
// row (`IdempotencyControl.insertRecord`): the key is taken exactly when the receipt or e-invoice
// exists, so an answer that says nothing happened (503) leaves no record behind, and a record whose
// request went away is settled from its row (`resolve`): replayed, still in progress, or taken over.
import { createHash, randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { Prisma, type Db } from "@fiskal/db";
import type { Logger } from "pino";
import { ApiError, isDatabaseUnavailable, SERVICE_UNAVAILABLE_MESSAGE } from "./errors.ts";
import type { Principal } from "./principal.ts";

/**
 * What withIdempotency reads of a procedure's context (the tRPC Context of an admitted call is one).
 * Spelled out here rather than taken from trpc.ts, which sits above the record-first modules.
 */
export interface IdempotencyScope {
  req: { headers: IncomingHttpHeaders };
  res: { setHeader(name: string, value: string): unknown };
  services: {
    db: Db;
    log: Logger;
    /** The journal's reconciler: an answer that only the journal holds so far, for a pending record. */
    reconciler: { journaled(match: (entry: { idempotencyRecordId?: string | null }) => boolean): Promise<{ response: unknown } | undefined> };
  };
  principal: Principal;
}

const TTL_MS = 24 * 60 * 60 * 1000;
/** A first request still "pending" after this long crashed or lost its database: its outcome is unknown. */
const STALE_PENDING_MS = 2 * 60 * 1000;

type Tx = Prisma.TransactionClient;

/** Passed to the operation. */
export interface IdempotencyControl {
  /** The request's Idempotency-Key record (undefined without a key): the operation keeps it with its pending row. */
  readonly recordId: string | undefined;
  /**
   * Creates the key's "pending" record inside the operation's transaction, first, before its row
   * (for operations that record with `recordWithOperation`). Rejects with `IdempotencyKeyTaken` when
   * another request holds the key. A no-op without a key.
   */
  insertRecord(tx: Tx): Promise<void>;
  /** The outside world has acted, or may have (a request went out): the key stays taken whatever follows. */
  committed(): void;
  /**
   * The operation completed the record with its response itself — in the transaction that stored the
   * answer, or through the journal, whose reconciler completes it — so it is not written again here.
   */
  recorded(): void;
}

/** The key is held by another request (found while inserting its record in the operation's transaction). */
export class IdempotencyKeyTaken extends Error {
  override readonly name = "IdempotencyKeyTaken";
  constructor(readonly recordId: string) {
    super("Idempotency-Key is held by another request");
  }
}

/** What the row behind a pending record says about it (see `withIdempotency`'s `resolve`). */
export type PendingResolution =
  /** The answer is known: replay it. */
  | { kind: "replay"; response: unknown }
  /** Its request (or the job that took it over) is still working on it. */
  | { kind: "in_progress" }
  /** No row carries this record: nothing was recorded under the key. */
  | { kind: "none" }
  /** The row says the operation left nothing outside (e.g. the document was refused): the key is free again. */
  | { kind: "free" };

interface PendingRecord {
  id: string;
  createdAt: Date;
}

/** Marks a pending record done with the response a retry replays; part of the operation's completing step. */
export async function completeIdempotencyRecord(tx: Tx, id: string, response: unknown): Promise<void> {
  await tx.idempotencyRecord.updateMany({
    where: { id, state: "pending" },
    data: { state: "done", status: 200, response: response as Prisma.InputJsonValue },
  });
}

/** Removes a pending record, in the transaction that removes the operation's pending row: the key is free again. */
export async function releaseIdempotencyRecord(tx: Tx, id: string | undefined): Promise<void> {
  if (id) await tx.idempotencyRecord.deleteMany({ where: { id, state: "pending" } });
}

/** Removes records past their 24 h; run periodically. */
export async function purgeExpiredIdempotencyRecords(db: Db): Promise<number> {
  const { count } = await db.idempotencyRecord.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  return count;
}
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

function canonicalHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A transaction that could not start (no connection in time) or was closed by its time limit: nothing of it committed. */
const transactionNotRun = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2028";

/** The database could not be reached, or could not run a transaction for that reason. */
function unreachable(err: unknown): boolean {
  return isDatabaseUnavailable(err) || transactionNotRun(err);
}

/**
 * Runs a write against a database that may be going away, for up to `budgetMs`: retried while the
 * database is unreachable, rethrown otherwise or when the budget is spent. Only for writes that may
 * be repeated (conditional deletes and updates).
 */
export async function retryWhileUnreachable<T>(write: () => Promise<T>, budgetMs = 3_000): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let wait = 50; ; wait = Math.min(wait * 2, 500)) {
    try {
      return await write();
    } catch (err) {
      if (!unreachable(err) || Date.now() + wait > deadline) throw err;
      await sleep(wait);
    }
  }
}

const inProgress = () =>
  new ApiError("idempotency_conflict", "Izvorni zahtjev s ovim Idempotency-Key još se obrađuje; ponovite za trenutak.", { reason: "in_progress" }, { "Retry-After": "1" });

interface IdempotencyOptions {
  /**
   * The operation creates the key's record itself, in the transaction that commits its pending row
   * (`control.insertRecord`). Then a record never exists without its row.
   */
  recordWithOperation?: boolean;
  /** Settles a pending record from the row that carries it (a retry of a request that went away). */
  resolve?: (record: PendingRecord) => Promise<PendingResolution>;
}

export async function withIdempotency<T>(
  ctx: IdempotencyScope,
  endpoint: string,
  input: unknown,
  run: (control: IdempotencyControl) => Promise<T>,
  opts: IdempotencyOptions = {},
): Promise<T> {
  const header = ctx.req.headers["idempotency-key"];
  const given = Array.isArray(header) ? header[0] : header;
  if (given === undefined) return run({ recordId: undefined, async insertRecord() {}, committed() {}, recorded() {} });
  if (!KEY_PATTERN.test(given)) {
    throw new ApiError("validation_error", "Idempotency-Key mora imati 1–255 vidljivih ASCII znakova.");
  }
  const key: string = given;
  const { db, log } = ctx.services;
  const accountId = ctx.principal.accountId;
  const requestHash = canonicalHash(input);
  const fresh = () => ({ accountId, key, endpoint, requestHash, state: "pending", expiresAt: new Date(Date.now() + TTL_MS) });

  /** The key's existing record: its replayed answer, or an error; undefined when the key is free (again). */
  async function existingAnswer(): Promise<{ response: unknown } | undefined> {
    const existing = await db.idempotencyRecord.findUnique({ where: { accountId_key: { accountId, key } } });
    if (!existing) return undefined;
    if (existing.expiresAt.getTime() <= Date.now()) {
      await db.idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: existing.expiresAt } });
      return undefined;
    }
    if (existing.endpoint !== endpoint || existing.requestHash !== requestHash) {
      throw new ApiError(
        "idempotency_conflict",
        "Idempotency-Key je već upotrijebljen za drugačiji zahtjev. Za novi zahtjev pošaljite novi ključ.",
        { reason: "mismatch" },
      );
    }
    if (existing.state === "done") return { response: existing.response };
    // The first request may have obtained an answer that only the journal holds so far: the
    // reconciler stores it now if the database takes it, and the answer is replayed either way.
    const journaled = await ctx.services.reconciler.journaled((e) => e.idempotencyRecordId === existing.id);
    if (journaled) return { response: journaled.response };
    const settled = await db.idempotencyRecord.findUnique({ where: { id: existing.id } });
    if (!settled) return undefined;
    if (settled.state === "done") return { response: settled.response };
    const resolution: PendingResolution = opts.resolve ? await opts.resolve({ id: existing.id, createdAt: existing.createdAt }) : { kind: "none" };
    if (resolution.kind === "replay") return { response: resolution.response };
    if (resolution.kind === "in_progress") throw inProgress();
    if (resolution.kind === "free") {
      await db.idempotencyRecord.deleteMany({ where: { id: existing.id, state: "pending" } });
      return undefined;
    }
    if (opts.recordWithOperation && Date.now() - existing.createdAt.getTime() > STALE_PENDING_MS) {
      // No row carries the record and none can any more (they commit together; this one is older than
      // any request): nothing was recorded under the key, which is free again.
      await db.idempotencyRecord.deleteMany({ where: { id: existing.id, state: "pending" } });
      return undefined;
    }
    if (Date.now() - existing.createdAt.getTime() > STALE_PENDING_MS) {
      throw new ApiError(
        "idempotency_conflict",
        "Prvi zahtjev s ovim Idempotency-Key nije dovršen i njegov ishod nije poznat. Zabilježeni račun ili e-račun neće se slati ponovno ni s novim ključem; provjerite ga kod Porezne uprave odnosno posrednika.",
        { reason: "outcome_unknown" },
      );
    }
    throw inProgress();
  }

  const replay = (answer: { response: unknown }) => {
    ctx.res.setHeader("Idempotent-Replayed", "true");
    return answer.response as T;
  };

  if (opts.recordWithOperation) {
    // The record is created with the operation's pending row, in its transaction.
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await existingAnswer();
      if (answer) return replay(answer);
      const recordId = randomUUID();
      let recorded = false;
      try {
        const result = await run({
          recordId,
          async insertRecord(tx) {
            try {
              await tx.idempotencyRecord.create({ data: { id: recordId, ...fresh() }, select: { id: true } });
            } catch (err) {
              if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") throw new IdempotencyKeyTaken(recordId);
              throw err;
            }
          },
          committed() {},
          recorded: () => (recorded = true),
        });
        if (!recorded) {
          // The operation is done; a record left pending here is settled from its row by `resolve`.
          await db.idempotencyRecord
            .updateMany({ where: { id: recordId, state: "pending" }, data: { state: "done", status: 200, response: result as Prisma.InputJsonValue } })
            .catch((err: unknown) => log.warn({ id: recordId, err }, "Idempotency-Key record not completed; its row settles it"));
        }
        return result;
      } catch (err) {
        if (!(err instanceof IdempotencyKeyTaken)) throw err;
        // Another request took the key between the look-up and the insert: answer as it does.
      }
    }
    throw inProgress();
  }

  let recordId: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      ({ id: recordId } = await db.idempotencyRecord.create({ data: fresh(), select: { id: true } }));
      break;
    } catch (err) {
      if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== "P2002") throw err;
      const answer = await existingAnswer();
      if (answer) return replay(answer);
    }
  }

  if (recordId === undefined) throw inProgress();
  let result: T;
  let committed = false;
  let recorded = false;
  try {
    result = await run({ recordId, async insertRecord() {}, committed: () => (committed = true), recorded: () => (recorded = true) });
  } catch (err) {
    // Nothing happened outside: a retry with the same key may run it. Once the outside world has
    // acted, the key stays taken — a retry must never fiscalize or send a second time. The record is
    // removed even while the database is away: retried here, then in the background until it goes.
    if (!committed) {
      const id = recordId;
      const release = () => db.idempotencyRecord.deleteMany({ where: { id, state: "pending" } });
      await retryWhileUnreachable(release).catch((releaseErr: unknown) => {
        log.warn({ id, err: releaseErr }, "Idempotency-Key record not released yet; retrying in the background");
        void (async () => {
          for (let wait = 1_000; ; wait = Math.min(wait * 2, 30_000)) {
            await sleep(wait);
            try {
              await release();
              return;
            } catch (again) {
              if (!isDatabaseUnavailable(again)) return log.error({ id, err: again }, "Idempotency-Key record could not be released");
            }
          }
        })();
      });
    }
    throw err;
  }
  if (recorded) return result;
  // If this write fails the record stays "pending": retries get a 409 instead of a second execution.
  await db.idempotencyRecord.update({
    where: { accountId_key: { accountId, key } },
    data: { state: "done", status: 200, response: result as Prisma.InputJsonValue },
  });
  return result;
}

/**
 * Commits an operation's pending row (with the key's record, `control.insertRecord`) in one
 * transaction, on a database that may go away meanwhile. When the connection is lost after the
 * transaction's statements ran, its COMMIT may or may not have landed: the same transaction (same
 * ids) is tried again until the database answers — the unique keys order it after the first one, so
 * a duplicate means the first one landed (`ours` finds the row) — or until `budgetMs` is spent, when
 * `unknown()` is thrown: the answer then says the outcome is unknown, never "nothing happened". A
 * failure before the statements ran committed nothing and is rethrown as it is (503).
 */
export async function commitPending<T>(
  db: Db,
  opts: { write: (tx: Tx) => Promise<T>; ours: () => Promise<T | null>; unknown: () => ApiError; budgetMs?: number },
): Promise<T> {
  const deadline = Date.now() + (opts.budgetMs ?? 4_000);
  let unclear = false;
  for (let wait = 100; ; wait = Math.min(wait * 2, 1_000)) {
    let ran = false;
    try {
      return await db.$transaction(async (tx) => {
        const row = await opts.write(tx);
        ran = true;
        return row;
      });
    } catch (err) {
      const duplicate = err instanceof IdempotencyKeyTaken || (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002");
      if (unclear && duplicate) {
        const mine = await opts.ours().catch(() => undefined);
        if (mine) return mine;
        if (mine === null) throw err;
      } else if (!unreachable(err)) {
        throw err;
      }
      if (ran) unclear = true;
      // Nothing committed: 503, the key and the number stay free.
      if (!unclear) throw transactionNotRun(err) ? new ApiError("service_unavailable", SERVICE_UNAVAILABLE_MESSAGE) : err;
      if (Date.now() + wait > deadline) throw opts.unknown();
      await sleep(wait);
    }
  }
}
