import type { Db } from "./db.ts";
import { assertUuid } from "./validate.ts";

export interface RecentRequest {
  /** UsageEvent id (a bigint as a decimal string); pass it as `before` for the next page. */
  id: string;
  requestId: string;
  at: Date;
  method: string;
  endpoint: string;
  status: number;
  durationMs: number;
  refused: boolean;
  /** Display fragment of the key used, null for requests without a key. */
  keyPrefix: string | null;
}

export interface RecentRequestsOptions {
  /** Default 50; larger values are capped at 200. */
  limit?: number;
  /** Only requests older than this one (an id from a previous page). */
  before?: bigint | string;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const MAX_ID = 9_223_372_036_854_775_807n;

interface Row {
  id: bigint;
  requestId: string;
  at: Date;
  method: string;
  endpoint: string;
  status: number;
  durationMs: number;
  refused: boolean;
  keyPrefix: string | null;
}

function parseCursor(before: bigint | string): bigint {
  let id: bigint | null = null;
  if (typeof before === "bigint") id = before;
  else if (typeof before === "string" && /^[0-9]{1,19}$/.test(before)) id = BigInt(before);
  if (id === null || id < 1n || id > MAX_ID) {
    throw new TypeError("recentRequests: before must be a usage event id (a positive integer)");
  }
  return id;
}

/**
 * The account's most recent requests, newest first (by time, then id), with keyset pagination
 * on the id of the last row of the previous page. A cursor that is not one of this account's
 * events yields an empty page.
 */
export async function recentRequests(
  db: Db,
  accountId: string,
  opts: RecentRequestsOptions = {},
): Promise<RecentRequest[]> {
  assertUuid("recentRequests", "accountId", accountId);
  const requested = opts.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(requested) || requested < 1) {
    throw new RangeError("recentRequests: limit must be a positive integer");
  }
  const limit = Math.min(requested, MAX_LIMIT);

  // The key join also checks the account, so a key can never label another account's events.
  const rows =
    opts.before === undefined
      ? await db.$queryRaw<Row[]>`
          SELECT e.id, e."requestId", e."createdAt" AS at, e.method, e.endpoint, e.status,
                 e."durationMs", e.refused, k.prefix AS "keyPrefix"
            FROM "UsageEvent" e
            LEFT JOIN "ApiKey" k ON k.id = e."apiKeyId" AND k."accountId" = e."accountId"
           WHERE e."accountId" = ${accountId}::uuid
           ORDER BY e."createdAt" DESC, e.id DESC
           LIMIT ${limit}`
      : await db.$queryRaw<Row[]>`
          WITH cursor AS (
            SELECT "createdAt", id FROM "UsageEvent"
             WHERE id = ${parseCursor(opts.before)} AND "accountId" = ${accountId}::uuid
          )
          SELECT e.id, e."requestId", e."createdAt" AS at, e.method, e.endpoint, e.status,
                 e."durationMs", e.refused, k.prefix AS "keyPrefix"
            FROM "UsageEvent" e
            JOIN cursor c ON e."createdAt" <= c."createdAt" AND (e."createdAt", e.id) < (c."createdAt", c.id)
            LEFT JOIN "ApiKey" k ON k.id = e."apiKeyId" AND k."accountId" = e."accountId"
           WHERE e."accountId" = ${accountId}::uuid
           ORDER BY e."createdAt" DESC, e.id DESC
           LIMIT ${limit}`;

  return rows.map((r) => ({
    id: r.id.toString(),
    requestId: r.requestId,
    at: r.at,
    method: r.method,
    endpoint: r.endpoint,
    status: r.status,
    durationMs: r.durationMs,
    refused: r.refused,
    keyPrefix: r.keyPrefix,
  }));
}
