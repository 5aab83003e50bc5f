-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "announcedAt" TIMESTAMPTZ(3),
ADD COLUMN     "deliveryAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lastDeliveryError" TEXT,
ADD COLUMN     "nextAttemptAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Invoice_status_nextAttemptAt_idx" ON "Invoice"("status", "nextAttemptAt");
