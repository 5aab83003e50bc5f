-- The request log ("UsageEvent") in daily partitions of "createdAt" (UTC days), so that retention
-- drops whole partitions instead of deleting rows, and an insert only touches the indexes of its day.
--
-- Written by hand (Prisma's schema language has no partitioning). What changes:
-- * the table is partitioned by range of "createdAt", one partition per UTC day, named
--   "UsageEvent_pYYYYMMDD"; the primary key holds the partition key: ("id", "createdAt");
-- * no foreign key to "Account": its check ran once per inserted row and cost more than the rest of
--   the insert. An account's events expire with their partitions; the portal reads them by account.
-- * usage_event_partition(day) creates the day's partition unless it exists; the usage meter calls it
--   for the days of each batch it writes, and the API's hourly job for today and the next two days.
--   There is no DEFAULT partition: a row of a day without one would fail its whole batch, which is
--   why the writer makes sure of its days first.
-- The rows of the old table are copied into the partitions, ids and sequence kept.

ALTER TABLE "UsageEvent" RENAME TO "UsageEvent_unpartitioned";
ALTER TABLE "UsageEvent_unpartitioned" RENAME CONSTRAINT "UsageEvent_pkey" TO "UsageEvent_unpartitioned_pkey";
ALTER TABLE "UsageEvent_unpartitioned" DROP CONSTRAINT "UsageEvent_accountId_fkey";
ALTER INDEX "UsageEvent_accountId_createdAt_idx" RENAME TO "UsageEvent_unpartitioned_accountId_createdAt_idx";
-- The sequence outlives the old table: the new one draws its ids from it.
ALTER SEQUENCE "UsageEvent_id_seq" OWNED BY NONE;

CREATE TABLE "UsageEvent" (
    "id" BIGINT NOT NULL DEFAULT nextval('"UsageEvent_id_seq"'),
    "accountId" UUID NOT NULL,
    "apiKeyId" UUID,
    "requestId" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "durationMs" DOUBLE PRECISION NOT NULL,
    "refused" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "headers" TEXT,
    "rateLimit" INTEGER,
    "rateRemaining" INTEGER,
    "rateWindow" TEXT,
    "retryAfter" INTEGER,

    CONSTRAINT "UsageEvent_pkey" PRIMARY KEY ("id","createdAt")
) PARTITION BY RANGE ("createdAt");

ALTER SEQUENCE "UsageEvent_id_seq" OWNED BY "UsageEvent"."id";

-- The request log's page, its filters and the per-key counts all read one account's events in time
-- order; nothing reads by time alone (partition pruning bounds the days), so there is no BRIN index.
CREATE INDEX "UsageEvent_accountId_createdAt_idx" ON "UsageEvent"("accountId", "createdAt");

-- The partition of one UTC day, created unless it exists; returns its name. Concurrent creators
-- (several API instances at midnight) are serialized by a lock on the parent that conflicts only
-- with itself (inserts and reads go on), and taking it also brings this session's catalog cache up
-- to date, so that the second creator sees the first one's partition.
CREATE FUNCTION "usage_event_partition"("day" date) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  name text := 'UsageEvent_p' || to_char("day", 'YYYYMMDD');
BEGIN
  IF to_regclass(format('%I', name)) IS NULL THEN
    LOCK TABLE "UsageEvent" IN SHARE UPDATE EXCLUSIVE MODE;
    IF to_regclass(format('%I', name)) IS NULL THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF "UsageEvent" FOR VALUES FROM (%L) TO (%L)',
                     name, "day"::text || ' 00:00:00+00', ("day" + 1)::text || ' 00:00:00+00');
    END IF;
  END IF;
  RETURN name;
END
$$;

-- A partition for every day the old table has events of, and for today and the next two days.
SELECT "usage_event_partition"(d)
  FROM (SELECT DISTINCT ("createdAt" AT TIME ZONE 'UTC')::date AS d FROM "UsageEvent_unpartitioned"
        UNION
        SELECT (now() AT TIME ZONE 'UTC')::date + i FROM generate_series(0, 2) AS i) days;

INSERT INTO "UsageEvent" ("id", "accountId", "apiKeyId", "requestId", "method", "endpoint", "status", "durationMs", "refused", "createdAt",
                          "headers", "rateLimit", "rateRemaining", "rateWindow", "retryAfter")
SELECT "id", "accountId", "apiKeyId", "requestId", "method", "endpoint", "status", "durationMs", "refused", "createdAt",
       "headers", "rateLimit", "rateRemaining", "rateWindow", "retryAfter"
  FROM "UsageEvent_unpartitioned";

DROP TABLE "UsageEvent_unpartitioned";
