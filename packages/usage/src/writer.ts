// What one flush of the usage meter sends to PostgreSQL, in one transaction: the request-log rows
// (COPY, or a multi-row INSERT where COPY is unavailable), the hourly counts (one sorted multi-row
// upsert into "UsageHour") and the keys' last use.
import type { PoolClient } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { UsageRecord } from "./meter.ts";

/** One request-log row: a usage record with its time as epoch ms (no Date kept per request). */
export type LogRow = Omit<UsageRecord, "at"> & { at: number };

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

export interface Batch {
  rows: LogRow[];
  counts: HourCounts[];
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
  if (batch.rows.length > 0) {
    if (log === "copy") await copyRows(client, batch.rows);
    else for (let i = 0; i < batch.rows.length; i += rowsPerInsert) await insertRows(client, batch.rows.slice(i, i + rowsPerInsert));
  }
  if (batch.counts.length > 0) await upsertCounts(client, batch.counts);
  if (batch.lastUsed.size > 0) await touchKeys(client, batch.lastUsed);
  await client.query("COMMIT");
}

const COPY_SPECIAL = /[\\\t\n\r\0]/;
const COPY_SPECIAL_ALL = /[\\\t\n\r\0]/g;

function copyEscape(c: string): string {
  switch (c) {
    case "\\":
      return "\\\\";
    case "\t":
      return "\\t";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    default:
      // NUL: PostgreSQL text cannot hold it.
      return "";
  }
}

/** A text field in COPY's text format. */
function copyText(s: string): string {
  return COPY_SPECIAL.test(s) ? s.replace(COPY_SPECIAL_ALL, copyEscape) : s;
}

/** Headers as stored: one "Name: value" line each, in the order sent (parseHeaderLines reads them back). */
export function headerLines(headers: Record<string, string>): string {
  let out = "";
  for (const name in headers) out += (out ? "\n" : "") + name + ": " + headers[name];
  return out;
}

/** The headers of a stored "Name: value" text, in order. */
export function parseHeaderLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const i = line.indexOf(": ");
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 2);
  }
  return out;
}

const ROWS_PER_CHUNK = 500;

function copyChunk(rows: LogRow[], from: number, to: number): string {
  let out = "";
  for (let i = from; i < to; i++) {
    const r = rows[i]!;
    // accountId and apiKeyId were checked to be UUIDs; instants go as UTC ISO strings.
    const rate = r.rate;
    const decision = rate
      ? `${copyText(rate.window)}\t${rate.limit}\t${rate.remaining}\t${rate.retryAfter ?? "\\N"}\t${copyText(headerLines(rate.headers))}`
      : "\\N\t\\N\t\\N\t\\N\t\\N";
    out += `${r.accountId}\t${r.apiKeyId ?? "\\N"}\t${copyText(r.requestId)}\t${copyText(r.method)}\t${copyText(r.endpoint)}\t${r.status}\t${r.durationMs}\t${r.refused ? "t" : "f"}\t${new Date(r.at).toISOString()}\t${decision}\n`;
  }
  return out;
}

/** COPY … FROM STDIN in text format, written in chunks with backpressure. */
async function copyRows(client: PoolClient, rows: LogRow[]): Promise<void> {
  const stream = client.query(copyFrom(`COPY "UsageEvent" (${LOG_COLUMNS}) FROM STDIN`));
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
    for (let i = 0; i < rows.length && failure === null; i += ROWS_PER_CHUNK) {
      if (!stream.write(copyChunk(rows, i, Math.min(i + ROWS_PER_CHUNK, rows.length)))) await writable();
    }
  } catch (error) {
    // Sends CopyFail, so that the connection leaves copy mode and the transaction can be rolled back.
    failure ??= { error };
    stream.destroy(error as Error);
  }
  if (failure !== null) throw (failure as { error: unknown }).error;
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
async function upsertCounts(client: PoolClient, counts: HourCounts[]): Promise<void> {
  await client.query(
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
    [
      pgArray(counts.map((c) => c.accountId)),
      pgArray(counts.map((c) => iso(c.hour))),
      pgArray(counts.map((c) => c.endpoint)),
      pgArray(counts.map((c) => c.requests)),
      pgArray(counts.map((c) => c.refused)),
      pgArray(counts.map((c) => c.ok)),
      pgArray(counts.map((c) => c.errors)),
      pgArray(counts.map((c) => c.totalMs)),
    ],
  );
}

/**
 * ApiKey.lastUsedAt, never moved backwards (an older batch may commit after a newer one). The keys are
 * locked in id order first, so that concurrent flushes cannot deadlock on them.
 */
async function touchKeys(client: PoolClient, lastUsed: Map<string, number>): Promise<void> {
  const ids: string[] = [];
  const ats: string[] = [];
  for (const [id, at] of lastUsed) {
    ids.push(id);
    ats.push(iso(at));
  }
  const idArray = pgArray(ids);
  await client.query(`SELECT 1 FROM "ApiKey" WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`, [idArray]);
  await client.query(
    `UPDATE "ApiKey" k SET "lastUsedAt" = v.at
       FROM (SELECT id, max(at) AS at FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at) GROUP BY id) v
      WHERE k.id = v.id AND (k."lastUsedAt" IS NULL OR k."lastUsedAt" < v.at)`,
    [idArray, pgArray(ats)],
  );
}

/** Which of these account ids (lower case) still exist. */
export async function existingAccounts(client: PoolClient, ids: string[]): Promise<Set<string>> {
  const { rows } = await client.query<{ id: string }>(`SELECT id::text AS id FROM "Account" WHERE id = ANY($1::uuid[])`, [pgArray(ids)]);
  return new Set(rows.map((r) => r.id));
}
