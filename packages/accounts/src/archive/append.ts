// Appending files to an account's archive chain inside the caller's transaction, under the same
// transaction-scoped advisory lock as sealing, so that entries written by the API's sealing, by the
// receipt of an e-invoice and by a decision on it never fork the chain.
import type { Prisma } from "@fiskal/db";
import { zagrebTime } from "@fiskal/fiscal";
import { chainHash, GENESIS, retainUntil, sha256Hex } from "./chain.ts";

export interface ArchiveFile {
  /** "receipt", "einvoice" or "received_einvoice". */
  documentKind: string;
  documentId: string;
  /** Path inside an export, unique per account. */
  name: string;
  contentType: string;
  content: Buffer;
  /** The document's time (or date, midnight in Zagreb) of issue: the period and the retention follow it. */
  issuedAt: Date;
}

/** Takes the account's archive lock for the rest of the transaction. */
export async function lockArchive(tx: Prisma.TransactionClient, accountId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM pg_advisory_xact_lock(hashtext(${"archive:" + accountId}))`;
}

/** Appends `files` to the account's chain (taking its lock); returns the entries added. */
export async function appendToArchive(tx: Prisma.TransactionClient, accountId: string, files: ArchiveFile[]): Promise<number> {
  if (!files.length) return 0;
  await lockArchive(tx, accountId);
  const last = await tx.archiveEntry.findFirst({ where: { accountId }, orderBy: { seq: "desc" }, select: { seq: true, chainHash: true } });
  let seq = last?.seq ?? 0;
  let prevHash = last?.chainHash ?? GENESIS;
  const rows = files.map((f) => {
    seq++;
    const sha256 = sha256Hex(f.content);
    const hash = chainHash({ prevHash, seq, name: f.name, sha256 });
    const row = {
      accountId,
      seq,
      documentKind: f.documentKind,
      documentId: f.documentId,
      name: f.name,
      contentType: f.contentType,
      content: new Uint8Array(f.content),
      sha256,
      prevHash,
      chainHash: hash,
      issuedAt: f.issuedAt,
      retainUntil: new Date(`${retainUntil(Number(zagrebTime(f.issuedAt).year))}T00:00:00Z`),
    };
    prevHash = hash;
    return row;
  });
  await tx.archiveEntry.createMany({ data: rows });
  return rows.length;
}
