import { Prisma } from "@fiskal/db";
import type { Db } from "./db.ts";
import { assertUuid, isUuid } from "./validate.ts";
import { parseHeaderLines } from "./writer.ts";

/** Status classes of the request log's filter; "4xx" leaves out 429, which has a class of its own. */
export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "429", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

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
  /** Name of the key used, null for requests without a key. */
  keyName: string | null;
  /** The rate-limit decision (binding window on admit, refusing window on 429); null for older events. */
  decision: { window: string; limit: number; remaining: number; retryAfter: number | null } | null;
  /** The rate-limit headers the response carried; null for older events. */
  headers: Record<string, string> | null;
}

/** What the request log shows; every field narrows it, none widens it beyond the account. */
export interface RequestFilter {
  /** Inclusive lower bound of the request time. */
  from?: Date;
  /** Exclusive upper bound of the request time. */
  to?: Date;
  status?: StatusClass;
  /** Route template, e.g. "POST /v1/validate/oib". */
  endpoint?: string;
  /** Only requests made with this key of the account. */
  apiKeyId?: string;
}

export interface RecentRequestsOptions {
  /** Default 50; larger values are capped at 200 (1000 with `maxLimit`, for exports). */
  limit?: number;
  /** Only requests older than this one (an id from a previous page). */
  before?: bigint | string;
  filter?: RequestFilter;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
/** Rows per page of an export. */
export const EXPORT_PAGE = 1000;
const MAX_ID = 9_223_372_036_854_775_807n;

/** A row of the query: the request's own fields as `RecentRequest` shows them, the rest as stored. */
interface Row extends Omit<RecentRequest, "id" | "decision" | "headers"> {
  id: bigint;
  rateWindow: string | null;
  rateLimit: number | null;
  rateRemaining: number | null;
  retryAfter: number | null;
  headers: string | null;
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

function statusCondition(status: StatusClass): Prisma.Sql {
  switch (status) {
    case "2xx":
      return Prisma.sql`e.status BETWEEN 200 AND 299`;
    case "3xx":
      return Prisma.sql`e.status BETWEEN 300 AND 399`;
    case "4xx":
      return Prisma.sql`e.status BETWEEN 400 AND 499 AND e.status <> 429`;
    case "429":
      return Prisma.sql`e.status = 429`;
    case "5xx":
      return Prisma.sql`e.status >= 500`;
  }
}

/** The filter as SQL conditions on "UsageEvent" e; throws TypeError on a malformed filter. */
function filterConditions(filter: RequestFilter | undefined): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (!filter) return out;
  const { from, to, status, endpoint, apiKeyId } = filter;
  for (const [name, d] of [["from", from], ["to", to]] as const) {
    if (d !== undefined && (!(d instanceof Date) || Number.isNaN(d.getTime()))) throw new TypeError(`recentRequests: filter.${name} must be a valid Date`);
  }
  // Instants as ISO strings with their offset (a bound Date would be read in the session's zone).
  if (from) out.push(Prisma.sql`e."createdAt" >= ${from.toISOString()}::timestamptz`);
  if (to) out.push(Prisma.sql`e."createdAt" < ${to.toISOString()}::timestamptz`);
  if (status !== undefined) {
    if (!STATUS_CLASSES.includes(status)) throw new TypeError("recentRequests: filter.status is not a status class");
    out.push(statusCondition(status));
  }
  if (endpoint !== undefined) {
    if (typeof endpoint !== "string" || endpoint.length > 200) throw new TypeError("recentRequests: filter.endpoint must be a short string");
    out.push(Prisma.sql`e.endpoint = ${endpoint}`);
  }
  if (apiKeyId !== undefined) {
    if (!isUuid(apiKeyId)) throw new TypeError("recentRequests: filter.apiKeyId must be a UUID");
    out.push(Prisma.sql`e."apiKeyId" = ${apiKeyId}::uuid`);
  }
  return out;
}

/**
 * The account's requests, newest first (by time, then id), narrowed by `filter`, with keyset
 * pagination on the id of the last row of the previous page. A cursor that is not one of this
 * account's events (or one whose day has expired) yields an empty page.
 */
export async function recentRequests(db: Db, accountId: string, opts: RecentRequestsOptions & { maxLimit?: number } = {}): Promise<RecentRequest[]> {
  assertUuid("recentRequests", "accountId", accountId);
  const requested = opts.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(requested) || requested < 1) {
    throw new RangeError("recentRequests: limit must be a positive integer");
  }
  const limit = Math.min(requested, opts.maxLimit === EXPORT_PAGE ? EXPORT_PAGE : MAX_LIMIT);
  const where = [Prisma.sql`e."accountId" = ${accountId}::uuid`, ...filterConditions(opts.filter)];
  if (opts.before !== undefined) {
    // The cursor's time first, by its id (the primary key of every daily partition), so that the
    // page itself is a range of the account's index with the partitions before it pruned at plan time.
    const id = parseCursor(opts.before);
    const [c] = await db.$queryRaw<{ at: string }[]>`
      SELECT to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
        FROM "UsageEvent" WHERE id = ${id} AND "accountId" = ${accountId}::uuid`;
    if (!c) return [];
    where.push(Prisma.sql`e."createdAt" <= ${c.at}::timestamptz AND (e."createdAt", e.id) < (${c.at}::timestamptz, ${id})`);
  }

  // The key join also checks the account, so a key can never label another account's events.
  const rows = await db.$queryRaw<Row[]>`
    SELECT e.id, e."requestId", e."createdAt" AS at, e.method, e.endpoint, e.status,
           e."durationMs", e.refused, k.prefix AS "keyPrefix", k.name AS "keyName",
           e."rateWindow", e."rateLimit", e."rateRemaining", e."retryAfter", e.headers
      FROM "UsageEvent" e
      LEFT JOIN "ApiKey" k ON k.id = e."apiKeyId" AND k."accountId" = e."accountId"
     WHERE ${Prisma.join(where, " AND ")}
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
    keyName: r.keyName,
    decision:
      r.rateWindow === null || r.rateLimit === null || r.rateRemaining === null
        ? null
        : { window: r.rateWindow, limit: r.rateLimit, remaining: r.rateRemaining, retryAfter: r.retryAfter },
    headers: r.headers === null ? null : parseHeaderLines(r.headers),
  }));
}

/**
 * Every request of the filtered view, newest first, page by page (keyset, EXPORT_PAGE rows a
 * query), for a streamed export: memory stays bounded whatever the number of rows.
 */
export async function* exportRequests(db: Db, accountId: string, filter: RequestFilter = {}): AsyncGenerator<RecentRequest[]> {
  let before: string | undefined;
  for (;;) {
    const page = await recentRequests(db, accountId, { filter, limit: EXPORT_PAGE, maxLimit: EXPORT_PAGE, before });
    if (page.length > 0) yield page;
    if (page.length < EXPORT_PAGE) return;
    before = page[page.length - 1]!.id;
  }
}

/** Endpoints the account has requests for (for the log's endpoint filter), most used first. */
export async function accountEndpoints(db: Db, accountId: string): Promise<string[]> {
  assertUuid("accountEndpoints", "accountId", accountId);
  const rows = await db.$queryRaw<{ endpoint: string }[]>`
    SELECT endpoint FROM "UsageHour" WHERE "accountId" = ${accountId}::uuid
     GROUP BY endpoint ORDER BY sum(requests) DESC, endpoint LIMIT 100`;
  return rows.map((r) => r.endpoint);
}

export interface KeyUsage {
  apiKeyId: string;
  requests: number;
  refused: number;
  errors: number;
  lastAt: Date | null;
}

const HOUR_MS = 3_600_000;

/**
 * Requests per key of the account since `since`: the whole hours from the per-key hourly counts
 * ("UsageKeyHour", written with the request log in the same transaction), the part of an hour
 * before the first whole one from the request log itself (one account's rows of at most an hour).
 * So the cost follows the number of keys and hours, not the account's volume.
 */
export async function usageByKey(db: Db, accountId: string, since: Date): Promise<KeyUsage[]> {
  assertUuid("usageByKey", "accountId", accountId);
  const from = since.getTime();
  if (!Number.isFinite(from)) throw new TypeError("usageByKey: since must be a valid Date");
  const edge = new Date(Math.ceil(from / HOUR_MS) * HOUR_MS);
  const rows = await db.$queryRaw<{ apiKeyId: string; requests: bigint; refused: bigint; errors: bigint; lastAt: Date | null }[]>`
    SELECT k::text AS "apiKeyId", sum(n)::int8 AS requests, sum(r)::int8 AS refused, sum(x)::int8 AS errors, max(l) AS "lastAt"
      FROM (SELECT "apiKeyId" AS k, requests AS n, refused AS r, errors AS x, "lastAt" AS l
              FROM "UsageKeyHour"
             WHERE "accountId" = ${accountId}::uuid AND hour >= ${edge.toISOString()}::timestamptz
            UNION ALL
            SELECT "apiKeyId", 1, (status = 429)::int, (status >= 400 AND status <> 429)::int, "createdAt"
              FROM "UsageEvent"
             WHERE "accountId" = ${accountId}::uuid AND "createdAt" >= ${since.toISOString()}::timestamptz
               AND "createdAt" < ${edge.toISOString()}::timestamptz AND "apiKeyId" IS NOT NULL) u
     GROUP BY k`;
  return rows.map((r) => ({ apiKeyId: r.apiKeyId, requests: Number(r.requests), refused: Number(r.refused), errors: Number(r.errors), lastAt: r.lastAt }));
}
