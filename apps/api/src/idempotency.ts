// Idempotency-Key for POSTs: a retry with the same key and body replays the stored response and
// never runs the operation twice; the same key with another body is a 409.
import { createHash } from "node:crypto";
import { Prisma } from "@fiskal/db";
import { ApiError } from "./errors.ts";
import type { Context, Principal } from "./trpc.ts";

const TTL_MS = 24 * 60 * 60 * 1000;
/** A first request still "pending" after this long crashed or lost its database: its outcome is unknown. */
export const STALE_PENDING_MS = 2 * 60 * 1000;

/** Passed to the operation. */
export interface IdempotencyControl {
  /** The request's Idempotency-Key record (undefined without a key): the operation keeps it with its pending row. */
  readonly recordId: string | undefined;
  /** The outside world has acted, or may have (a request went out): the key stays taken whatever follows. */
  committed(): void;
  /**
   * The operation completed the record with its response itself — in the transaction that stored the
   * answer, or through the journal, whose reconciler completes it — so it is not written again here.
   */
  recorded(): void;
}

/** Marks a pending record done with the response a retry replays; part of the operation's completing step. */
export async function completeIdempotencyRecord(tx: Prisma.TransactionClient, id: string, response: unknown): Promise<void> {
  await tx.idempotencyRecord.updateMany({
    where: { id, state: "pending" },
    data: { state: "done", status: 200, response: response as Prisma.InputJsonValue },
  });
}

/** Removes records past their 24 h; run periodically. */
export async function purgeExpiredIdempotencyRecords(db: Context["services"]["db"]): Promise<number> {
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

export async function withIdempotency<T>(
  ctx: Context & { principal: Principal },
  endpoint: string,
  input: unknown,
  run: (control: IdempotencyControl) => Promise<T>,
): Promise<T> {
  const header = ctx.req.headers["idempotency-key"];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined) return run({ recordId: undefined, committed() {}, recorded() {} });
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError("validation_error", "Idempotency-Key mora imati 1–255 vidljivih ASCII znakova.");
  }
  const { db } = ctx.services;
  const accountId = ctx.principal.accountId;
  const requestHash = canonicalHash(input);

  let recordId: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      ({ id: recordId } = await db.idempotencyRecord.create({
        data: { accountId, key, endpoint, requestHash, state: "pending", expiresAt: new Date(Date.now() + TTL_MS) },
        select: { id: true },
      }));
      break;
    } catch (err) {
      if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== "P2002") throw err;
      const existing = await db.idempotencyRecord.findUnique({ where: { accountId_key: { accountId, key } } });
      if (!existing) continue;
      if (existing.expiresAt.getTime() <= Date.now()) {
        await db.idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: existing.expiresAt } });
        continue;
      }
      if (existing.endpoint !== endpoint || existing.requestHash !== requestHash) {
        throw new ApiError(
          "idempotency_conflict",
          "Idempotency-Key je već upotrijebljen za drugačiji zahtjev. Za novi zahtjev pošaljite novi ključ.",
          { reason: "mismatch" },
        );
      }
      if (existing.state !== "done") {
        // The first request may have obtained an answer that only the journal holds so far: the
        // reconciler stores it now if the database takes it, and the answer is replayed either way.
        const journaled = await ctx.services.reconciler.journaled((e) => e.idempotencyRecordId === existing.id);
        const settled = journaled ? null : await db.idempotencyRecord.findUnique({ where: { id: existing.id } });
        if (journaled || settled?.state === "done") {
          ctx.res.setHeader("Idempotent-Replayed", "true");
          return (journaled ? journaled.response : settled!.response) as T;
        }
        if (Date.now() - existing.createdAt.getTime() > STALE_PENDING_MS) {
          throw new ApiError(
            "idempotency_conflict",
            "Prvi zahtjev s ovim Idempotency-Key nije dovršen i njegov ishod nije poznat. Zabilježeni račun ili e-račun neće se slati ponovno ni s novim ključem; provjerite ga kod Porezne uprave odnosno posrednika.",
            { reason: "outcome_unknown" },
          );
        }
        throw new ApiError(
          "idempotency_conflict",
          "Izvorni zahtjev s ovim Idempotency-Key još se obrađuje; ponovite za trenutak.",
          { reason: "in_progress" },
          { "Retry-After": "1" },
        );
      }
      ctx.res.setHeader("Idempotent-Replayed", "true");
      return existing.response as T;
    }
  }

  if (recordId === undefined) {
    throw new ApiError("idempotency_conflict", "Izvorni zahtjev s ovim Idempotency-Key još se obrađuje; ponovite za trenutak.", { reason: "in_progress" }, {
      "Retry-After": "1",
    });
  }
  let result: T;
  let committed = false;
  let recorded = false;
  try {
    result = await run({ recordId, committed: () => (committed = true), recorded: () => (recorded = true) });
  } catch (err) {
    // Nothing happened outside: a retry with the same key may run it. Once the outside world has
    // acted, the key stays taken — a retry must never fiscalize or send a second time.
    if (!committed) await db.idempotencyRecord.deleteMany({ where: { id: recordId, state: "pending" } });
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
