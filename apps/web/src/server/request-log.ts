// The request log's search by request id and the size of a filtered view. The rows themselves come
// from @fiskal/usage (recentRequests), so a found request looks exactly as it does in the log.
import { Prisma, type Db } from "@fiskal/db";
import { recentRequests, type RecentRequest, type RequestFilter } from "@fiskal/usage";

/** Counting stops here; the page then says "more than". */
export const COUNT_CAP = 100_000;

/** The account's requests with this X-Request-Id (normally one), newest first, whatever the period. */
export async function findRequest(db: Db, accountId: string, requestId: string): Promise<RecentRequest[]> {
  const hits = await db.$queryRaw<{ at: string }[]>`
    SELECT DISTINCT to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
      FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid AND "requestId" = ${requestId}
     LIMIT 10`;
  const found: RecentRequest[] = [];
  for (const { at } of hits) {
    const from = new Date(at);
    // The log's own reader for that millisecond: the same shape (key, decision, headers) as every row.
    const rows = await recentRequests(db, accountId, { limit: 200, filter: { from, to: new Date(from.getTime() + 1) } });
    found.push(...rows.filter((r) => r.requestId === requestId));
  }
  return found.sort((a, b) => b.at.getTime() - a.at.getTime());
}

function statusCondition(status: NonNullable<RequestFilter["status"]>): Prisma.Sql {
  switch (status) {
    case "2xx":
      return Prisma.sql`status BETWEEN 200 AND 299`;
    case "3xx":
      return Prisma.sql`status BETWEEN 300 AND 399`;
    case "4xx":
      return Prisma.sql`status BETWEEN 400 AND 499 AND status <> 429`;
    case "429":
      return Prisma.sql`status = 429`;
    case "5xx":
      return Prisma.sql`status >= 500`;
  }
}

/** How many requests the filtered view holds, counted up to COUNT_CAP + 1. */
export async function countRequests(db: Db, accountId: string, filter: RequestFilter): Promise<number> {
  const where = [Prisma.sql`"accountId" = ${accountId}::uuid`];
  if (filter.from) where.push(Prisma.sql`"createdAt" >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.to) where.push(Prisma.sql`"createdAt" < ${filter.to.toISOString()}::timestamptz`);
  if (filter.status) where.push(statusCondition(filter.status));
  if (filter.endpoint) where.push(Prisma.sql`endpoint = ${filter.endpoint}`);
  if (filter.apiKeyId) where.push(Prisma.sql`"apiKeyId" = ${filter.apiKeyId}::uuid`);
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*)::int8 AS n FROM (SELECT 1 FROM "UsageEvent" WHERE ${Prisma.join(where, " AND ")} LIMIT ${COUNT_CAP + 1}) c`;
  return Number(row?.n ?? 0);
}
