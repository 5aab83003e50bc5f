// Operations on one receipt or e-invoice number run one at a time: the duplicate check, the call to
// the tax authority or intermediary and the insert happen under a transaction-scoped advisory lock,
// so concurrent sends of the same number reach the outside world once.
import type { Db, Prisma } from "@fiskal/db";

export function underLock<T>(db: Db, name: string, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`;
      return work(tx);
    },
    // The external call happens inside: allow for its latency and for waiting behind a duplicate.
    { maxWait: 10_000, timeout: 30_000 },
  );
}
