-- CreateTable
CREATE TABLE "UsageHour" (
    "accountId" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "endpoint" TEXT NOT NULL,
    "requests" BIGINT NOT NULL,
    "refused" BIGINT NOT NULL,
    "ok" BIGINT NOT NULL,
    "errors" BIGINT NOT NULL,
    "totalMs" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "UsageHour_pkey" PRIMARY KEY ("accountId","hour","endpoint")
);

-- AddForeignKey
ALTER TABLE "UsageHour" ADD CONSTRAINT "UsageHour_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma's schema language has no triggers): every INSERT into UsageEvent adds its
-- rows to UsageHour in the same transaction, once per statement, from the statement's transition
-- table. Whoever inserts events (the API's meter, a seed, a test) keeps the rollup exact, and the
-- rollup cannot drift from the events it summarizes. Rows are upserted in key order so that
-- concurrent inserts from several API instances lock them in the same order and cannot deadlock.
-- Deleting events (a retention job, say) leaves the rollup as it is: it is the usage history.
CREATE FUNCTION "usage_hour_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "UsageHour" ("accountId", "hour", "endpoint", "requests", "refused", "ok", "errors", "totalMs")
  SELECT "accountId",
         date_trunc('hour', "createdAt", 'UTC'),
         "endpoint",
         count(*),
         count(*) FILTER (WHERE "refused"),
         count(*) FILTER (WHERE "status" BETWEEN 200 AND 299),
         count(*) FILTER (WHERE "status" >= 400 AND "status" <> 429),
         coalesce(sum("durationMs"), 0)
    FROM "new_events"
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT ("accountId", "hour", "endpoint") DO UPDATE
     SET "requests" = "UsageHour"."requests" + EXCLUDED."requests",
         "refused"  = "UsageHour"."refused"  + EXCLUDED."refused",
         "ok"       = "UsageHour"."ok"       + EXCLUDED."ok",
         "errors"   = "UsageHour"."errors"   + EXCLUDED."errors",
         "totalMs"  = "UsageHour"."totalMs"  + EXCLUDED."totalMs";
  RETURN NULL;
END
$$;

CREATE TRIGGER "UsageEvent_usage_hour"
  AFTER INSERT ON "UsageEvent"
  REFERENCING NEW TABLE AS "new_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "usage_hour_rollup"();

-- Events recorded before this migration.
INSERT INTO "UsageHour" ("accountId", "hour", "endpoint", "requests", "refused", "ok", "errors", "totalMs")
SELECT "accountId",
       date_trunc('hour', "createdAt", 'UTC'),
       "endpoint",
       count(*),
       count(*) FILTER (WHERE "refused"),
       count(*) FILTER (WHERE "status" BETWEEN 200 AND 299),
       count(*) FILTER (WHERE "status" >= 400 AND "status" <> 429),
       coalesce(sum("durationMs"), 0)
  FROM "UsageEvent"
 GROUP BY 1, 2, 3;
