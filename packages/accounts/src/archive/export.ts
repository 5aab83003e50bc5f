// The archive export of a period: a store-only ZIP streamed as it is read from the database — the
// documents and their evidence, then manifest.json and manifest.csv — of what is sealed (the API
// seals before an export and every 10 minutes). Used by the API and the portal.
import type { Db } from "@fiskal/db";
import { nextDay, zagrebDayStart } from "./days.ts";
import { CHAIN_FORMULA, CIS_REQUEST_FILE, MANIFEST_CSV, MANIFEST_FORMAT, MANIFEST_JSON, manifestCsv, type Manifest, type ManifestEntry } from "./format.ts";
import { ZipWriter } from "./zip.ts";

const READ_BATCH = 200;

export interface ExportPeriod {
  /** GGGG-MM-DD, Zagreb, inclusive. */
  from: string;
  to: string;
}

export async function* exportArchive(db: Db, accountId: string, period: ExportPeriod, now: Date = new Date()): AsyncGenerator<Buffer> {
  const start = zagrebDayStart(period.from);
  const end = zagrebDayStart(nextDay(period.to));
  const inPeriod = { accountId, issuedAt: { gte: start, lt: end } };
  const [bounds, head] = await Promise.all([
    db.archiveEntry.aggregate({ where: inPeriod, _min: { seq: true }, _max: { seq: true } }),
    db.archiveEntry.findFirst({ where: { accountId }, orderBy: { seq: "desc" }, select: { seq: true, chainHash: true } }),
  ]);
  const zip = new ZipWriter(now);
  const entries: ManifestEntry[] = [];
  const first = bounds._min.seq;
  const last = bounds._max.seq;
  if (first !== null && last !== null) {
    // Receipts of the span whose CIS messages are archived: their evidence is "xml".
    const withXml = new Set(
      (await db.archiveEntry.findMany({ where: { accountId, seq: { gte: first, lte: last }, name: { endsWith: `/${CIS_REQUEST_FILE}` } }, select: { documentId: true } })).map((r) => r.documentId),
    );
    for (let from = first; from <= last; from += READ_BATCH) {
      const rows = await db.archiveEntry.findMany({ where: { accountId, seq: { gte: from, lt: Math.min(from + READ_BATCH, last + 1) } }, orderBy: { seq: "asc" } });
      for (const row of rows) {
        const included = row.issuedAt >= start && row.issuedAt < end;
        entries.push({
          seq: row.seq,
          name: row.name,
          kind: row.documentKind,
          document_id: row.documentId,
          issued_at: row.issuedAt.toISOString(),
          retain_until: row.retainUntil.toISOString().slice(0, 10),
          size: row.content.length,
          sha256: row.sha256,
          prev_hash: row.prevHash,
          chain_hash: row.chainHash,
          included,
          evidence: withXml.has(row.documentId) ? "xml" : "json",
        });
        if (included) yield zip.file(row.name, row.content);
      }
    }
  }
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    account_id: accountId,
    from: period.from,
    to: period.to,
    exported_at: now.toISOString(),
    chain: { formula: CHAIN_FORMULA, first_seq: first ?? 0, last_seq: last ?? 0, head_seq: head?.seq ?? 0, head_hash: head?.chainHash ?? "" },
    entries,
  };
  yield zip.file(MANIFEST_JSON, Buffer.from(JSON.stringify(manifest, null, 2) + "\n", "utf8"));
  yield zip.file(MANIFEST_CSV, Buffer.from(manifestCsv(manifest), "utf8"));
  yield zip.end();
}
