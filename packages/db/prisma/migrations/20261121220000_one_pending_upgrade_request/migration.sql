-- At most one pending upgrade request per account. Written by hand: Prisma's schema language cannot
-- express a partial index, so schema.prisma has no matching @@unique.
CREATE UNIQUE INDEX "UpgradeRequest_accountId_pending_key" ON "UpgradeRequest"("accountId") WHERE status = 'PENDING';
