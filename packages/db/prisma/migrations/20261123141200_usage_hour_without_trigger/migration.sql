-- Written by hand (Prisma's schema language has no triggers, so schema.prisma does not change).
-- The API's usage meter now keeps "UsageHour" itself: it adds up the counts in process and writes
-- them with one sorted multi-row upsert per flush, in the same transaction as the request-log rows it
-- copies into "UsageEvent". The per-statement trigger that rolled up every UsageEvent insert goes.
-- "UsageHour", its rows, its primary key and its indexes stay as they are. Rows inserted into
-- "UsageEvent" directly (not through the meter) are no longer counted in "UsageHour".
DROP TRIGGER IF EXISTS "UsageEvent_usage_hour" ON "UsageEvent";
DROP FUNCTION IF EXISTS "usage_hour_rollup"();
