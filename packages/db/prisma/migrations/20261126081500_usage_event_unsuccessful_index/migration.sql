-- The request log's status filters other than 2xx (3xx, 4xx, 429, 5xx) look for rows that are a few
-- percent of an account's requests: through the account index alone, a page of 50 5xx read tens of
-- thousands of rows (bench/README.md, "Request log at scale"). This partial index holds only those
-- rows, so it costs an insert nothing for the 2xx answers that make up most of the log.
-- Written by hand: Prisma's schema language cannot express a partial index, so schema.prisma has no
-- matching @@index. Created on the partitioned table, it is created on every partition, present and
-- future.
CREATE INDEX "UsageEvent_accountId_createdAt_unsuccessful_idx" ON "UsageEvent"("accountId", "createdAt") WHERE "status" >= 300;
