-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "expiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "replacedById" UUID;

-- AlterTable
ALTER TABLE "UsageEvent" ADD COLUMN     "headers" TEXT,
ADD COLUMN     "rateLimit" INTEGER,
ADD COLUMN     "rateRemaining" INTEGER,
ADD COLUMN     "rateWindow" TEXT,
ADD COLUMN     "retryAfter" INTEGER;
