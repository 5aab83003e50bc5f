// What one flush of the usage meter sends to PostgreSQL, in one transaction: the daily partitions
// its rows need (created unless they exist), the request-log rows (COPY, or a multi-row INSERT
// where COPY is unavailable), the hourly counts (one sorted multi-row upsert into "UsageHour") and
// the keys' last use.
import type { PoolClient } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { headerLines, type LogRow, type RowLog } from "./rows.ts";

export { headerLines, parseHeaderLines } from "./rows.ts";

/** What "UsageHour" holds for one account, endpoint and UTC hour (epoch ms of its start). */
export interface HourCounts {
  accountId: string;
  endpoint: string;
  hour: number;
  requests: number;
  refused: number;
  /** Status 2xx. */
  ok: number;
  /** Status >= 400 except 429. */
  errors: number;
  totalMs: number;
}

/** What "UsageKeyHour" holds for one account, API key and UTC hour (epoch ms of its start). */
export interface KeyHourCounts {
  accountId: string;
  apiKeyId: string;
  hour: number;
  requests: number;
  /** Status 429. */
  refused: number;
  /** Status >= 400 except 429. */
  errors: number;
  /** Epoch ms of the hour's latest request. */
  lastAt: number;
}

export interface Batch {
  /** The request-log rows, encoded at record time. */
  rows: RowLog;
  counts: HourCounts[];
  keyCounts: KeyHourCounts[];
  /** API key id → epoch ms of its latest request. */
  lastUsed: Map<string, number>;
}

export type LogWriter = "copy" | "insert";

const LOG_COLUMNS = `"accountId", "apiKeyId", "requestId", method, endpoint, status, "durationMs", refused, "createdAt", "rateWindow", "rateLimit", "rateRemaining", "retryAfter", headers`;

/**
 * COPY FROM STDIN through the embedded database (PGlite behind @electric-sql/pglite-socket 0.2.17)
 * does not work: the socket server hands each wire message to PGlite separately, PGlite cannot resume
 * a copy begun in an earlier call, and the connection loses protocol synchronization; worse, the
 * server then stops accepting connections. So it must not even be tried there: the server is
 * recognised by its version string, once per meter, and its log rows go in with INSERT … unnest().
 */
export async function chooseLogWriter(client: PoolClient): Promise<LogWriter> {
  const { rows } = await client.query<{ v: string }>("SELECT version() AS v");
  return /pglite/i.test(rows[0]?.v ?? "") ? "insert" : "copy";
}

/** Writes the batch in one transaction; on failure nothing of it is left in the database. */
export async function writeBatch(client: PoolClient, batch: Batch, log: LogWriter, rowsPerInsert: number): Promise<void> {
  await client.query("BEGIN");
  if (batch.rows.rows > 0) {
    await ensurePartitions(client, batch.rows, log);
    if (log === "copy") await copyRows(client, batch.rows);
    else {
      const rows = batch.rows.decode();
      for (let i = 0; i < rows.length; i += rowsPerInsert) await insertRows(client, rows.slice(i, i + rowsPerInsert));
    }
  }
  if (batch.counts.length > 0) await upsertCounts(client, batch.counts, log);
  if (batch.keyCounts.length > 0) await upsertKeyCounts(client, batch.keyCounts, log);
  if (batch.lastUsed.size > 0) await touchKeys(client, batch.lastUsed, log);
  await client.query("COMMIT");
}

const DAY_MS = 86_400_000;

/**
 * The flush's statements are prepared once per connection (named), so that PostgreSQL does not
 * parse and plan them again every second. Not through the embedded database's socket server: its
 * flushes failed with them (packages/usage/src/embedded.test.ts).
 */
const statementName = (log: LogWriter, name: string): string | undefined => (log === "copy" ? name : undefined);

/**
 * The request log is partitioned by UTC day with no DEFAULT partition, so a row of a day without its
 * partition would fail the whole batch: the days of the batch (usually one, two around midnight) are
 * made sure of first. usage_event_partition() only reads the catalog when the partition exists; it
 * creates a missing one (a late batch, a clock ahead of the hourly job, a day retention has dropped).
 */
async function ensurePartitions(client: PoolClient, rows: RowLog, log: LogWriter): Promise<void> {
  const dates = [...rows.days].sort((a, b) => a - b).map((d) => new Date(d * DAY_MS).toISOString().slice(0, 10));
  await client.query({ name: statementName(log, "fiskal_usage_partitions"), text: `SELECT "usage_event_partition"(d) FROM unnest($1::date[]) AS d`, values: [pgArray(dates)] });
}

/** The binary COPY header (signature, flags, header extension length) and trailer. */
const COPY_HEADER = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);
const COPY_TRAILER = Buffer.from([0xff, 0xff]);

/**
 * COPY … FROM STDIN in binary format: the rows' buffers as record() encoded them (rows.ts), one
 * write each (64 KiB), with backpressure.
 */
async function copyRows(client: PoolClient, rows: RowLog): Promise<void> {
  const stream = client.query(copyFrom(`COPY "UsageEvent" (${LOG_COLUMNS}) FROM STDIN WITH (FORMAT binary)`));
  let failure: { error: unknown } | null = null;
  const done = new Promise<void>((resolve, reject) => {
    stream.once("finish", resolve);
    stream.once("error", (error) => {
      failure ??= { error };
      reject(error);
    });
  });
  done.catch(() => {});
  // Resolves on drain, or when the stream fails or closes (the loop then stops).
  const writable = () =>
    new Promise<void>((resolve) => {
      const go = () => {
        stream.off("drain", go);
        stream.off("error", go);
        stream.off("close", go);
        resolve();
      };
      stream.on("drain", go);
      stream.on("error", go);
      stream.on("close", go);
    });
  try {
    if (!stream.write(COPY_HEADER)) await writable();
    for (const chunk of rows.chunks()) {
      if (failure !== null) break;
      if (!stream.write(chunk)) await writable();
    }
    if (failure === null && !stream.write(COPY_TRAILER)) await writable();
  } catch (error) {
    // Sends CopyFail, so that the connection leaves copy mode and the transaction can be rolled back.
    failure ??= { error };
    stream.destroy(error as Error);
  }
  if (failure !== null) throw (failure).error;
  stream.end();
  await done;
}

/** A PostgreSQL array literal: strings quoted and escaped (NUL removed), null as NULL. */
function pgArray(values: readonly (string | number | boolean | null)[]): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i) out += ",";
    if (v === null) out += "NULL";
    else if (typeof v === "string") out += `"${v.replace(/[\\"]/g, "\\$&").replace(/\0/g, "")}"`;
    else if (typeof v === "boolean") out += v ? "t" : "f";
    else out += String(v);
  }
  return out + "}";
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * One INSERT over unnest()ed column arrays, each sent as one array literal string: fourteen
 * parameters whatever the number of rows. Instants go in as ISO strings (with their offset).
 */
async function insertRows(client: PoolClient, rows: LogRow[]): Promise<void> {
  await client.query(
    `INSERT INTO "UsageEvent" (${LOG_COLUMNS})
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[], $7::float8[], $8::bool[], $9::timestamptz[],
                          $10::text[], $11::int[], $12::int[], $13::int[], $14::text[])`,
    [
      pgArray(rows.map((r) => r.accountId)),
      pgArray(rows.map((r) => r.apiKeyId)),
      pgArray(rows.map((r) => r.requestId)),
      pgArray(rows.map((r) => r.method)),
      pgArray(rows.map((r) => r.endpoint)),
      pgArray(rows.map((r) => r.status)),
      pgArray(rows.map((r) => r.durationMs)),
      pgArray(rows.map((r) => r.refused)),
      pgArray(rows.map((r) => iso(r.at))),
      pgArray(rows.map((r) => r.rate?.window ?? null)),
      pgArray(rows.map((r) => r.rate?.limit ?? null)),
      pgArray(rows.map((r) => r.rate?.remaining ?? null)),
      pgArray(rows.map((r) => r.rate?.retryAfter ?? null)),
      pgArray(rows.map((r) => (r.rate ? headerLines(r.rate.headers) : null))),
    ],
  );
}

/**
 * One multi-row upsert. Rows go in sorted by the primary key (ORDER BY), so that concurrent flushes
 * from several API instances lock "UsageHour" rows in the same order and cannot deadlock; GROUP BY
 * merges keys that differ only in how a UUID was spelled, which one statement may not update twice.
 */
async function upsertCounts(client: PoolClient, counts: HourCounts[], log: LogWriter): Promise<void> {
  await client.query({
    name: statementName(log, "fiskal_usage_hour_upsert"),
    text: 
    `INSERT INTO "UsageHour" ("accountId", hour, endpoint, requests, refused, ok, errors, "totalMs")
     SELECT a, h, e, sum(n)::int8, sum(r)::int8, sum(o)::int8, sum(x)::int8, sum(ms)
       FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::int8[], $5::int8[], $6::int8[], $7::int8[], $8::float8[])
            AS u(a, h, e, n, r, o, x, ms)
      GROUP BY a, h, e
      ORDER BY a, h, e
     ON CONFLICT ("accountId", hour, endpoint) DO UPDATE
        SET requests  = "UsageHour".requests  + EXCLUDED.requests,
            refused   = "UsageHour".refused   + EXCLUDED.refused,
            ok        = "UsageHour".ok        + EXCLUDED.ok,
            errors    = "UsageHour".errors    + EXCLUDED.errors,
            "totalMs" = "UsageHour"."totalMs" + EXCLUDED."totalMs"`,
    values: [
      pgArray(counts.map((c) => c.accountId)),
      pgArray(counts.map((c) => iso(c.hour))),
      pgArray(counts.map((c) => c.endpoint)),
      pgArray(counts.map((c) => c.requests)),
      pgArray(counts.map((c) => c.refused)),
      pgArray(counts.map((c) => c.ok)),
      pgArray(counts.map((c) => c.errors)),
      pgArray(counts.map((c) => c.totalMs)),
    ],
  });
}

/** The per-key hours, as upsertCounts does the per-endpoint ones (sorted by the primary key, merged). */
async function upsertKeyCounts(client: PoolClient, counts: KeyHourCounts[], log: LogWriter): Promise<void> {
  await client.query({
    name: statementName(log, "fiskal_usage_key_hour_upsert"),
    text: `INSERT INTO "UsageKeyHour" ("accountId", hour, "apiKeyId", requests, refused, errors, "lastAt")
     SELECT a, h, k, sum(n)::int8, sum(r)::int8, sum(x)::int8, max(l)
       FROM unnest($1::uuid[], $2::timestamptz[], $3::uuid[], $4::int8[], $5::int8[], $6::int8[], $7::timestamptz[]) AS u(a, h, k, n, r, x, l)
      GROUP BY a, h, k
      ORDER BY a, h, k
     ON CONFLICT ("accountId", hour, "apiKeyId") DO UPDATE
        SET requests = "UsageKeyHour".requests + EXCLUDED.requests,
            refused  = "UsageKeyHour".refused  + EXCLUDED.refused,
            errors   = "UsageKeyHour".errors   + EXCLUDED.errors,
            "lastAt" = GREATEST("UsageKeyHour"."lastAt", EXCLUDED."lastAt")`,
    values: [
      pgArray(counts.map((c) => c.accountId)),
      pgArray(counts.map((c) => iso(c.hour))),
      pgArray(counts.map((c) => c.apiKeyId)),
      pgArray(counts.map((c) => c.requests)),
      pgArray(counts.map((c) => c.refused)),
      pgArray(counts.map((c) => c.errors)),
      pgArray(counts.map((c) => iso(c.lastAt))),
    ],
  });
}

/**
 * ApiKey.lastUsedAt, never moved backwards (an older batch may commit after a newer one). The keys are
 * locked in id order first, so that concurrent flushes cannot deadlock on them.
 */
async function touchKeys(client: PoolClient, lastUsed: Map<string, number>, log: LogWriter): Promise<void> {
  const ids: string[] = [];
  const ats: string[] = [];
  for (const [id, at] of lastUsed) {
    ids.push(id);
    ats.push(iso(at));
  }
  const idArray = pgArray(ids);
  await client.query({ name: statementName(log, "fiskal_usage_key_lock"), text: `SELECT 1 FROM "ApiKey" WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`, values: [idArray] });
  await client.query({
    name: statementName(log, "fiskal_usage_key_touch"),
    text: 
    `UPDATE "ApiKey" k SET "lastUsedAt" = v.at
       FROM (SELECT id, max(at) AS at FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at) GROUP BY id) v
      WHERE k.id = v.id AND (k."lastUsedAt" IS NULL OR k."lastUsedAt" < v.at)`,
    values: [idArray, pgArray(ats)],
  });
}

/** Which of these account ids (lower case) still exist. */
export async function existingAccounts(client: PoolClient, ids: string[]): Promise<Set<string>> {
  const { rows } = await client.query<{ id: string }>(`SELECT id::text AS id FROM "Account" WHERE id = ANY($1::uuid[])`, [pgArray(ids)]);
  return new Set(rows.map((r) => r.id));
}
