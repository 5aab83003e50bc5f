-- AlterTable
ALTER TABLE "EInvoice" ADD COLUMN     "fiscalizationAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "fiscalizationError" TEXT,
ADD COLUMN     "fiscalizationNextAttemptAt" TIMESTAMPTZ(3),
ADD COLUMN     "fiscalizationRequestId" UUID,
ADD COLUMN     "fiscalizationStatus" TEXT,
ADD COLUMN     "fiscalizedAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "EInvoiceReport" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "eInvoiceId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "requestId" UUID NOT NULL,
    "data" JSONB NOT NULL,
    "recordedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EInvoiceReport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EInvoiceReport_eInvoiceId_createdAt_idx" ON "EInvoiceReport"("eInvoiceId", "createdAt");

-- CreateIndex
CREATE INDEX "EInvoiceReport_accountId_createdAt_idx" ON "EInvoiceReport"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "EInvoice_status_fiscalizationStatus_idx" ON "EInvoice"("status", "fiscalizationStatus");

-- AddForeignKey
ALTER TABLE "EInvoiceReport" ADD CONSTRAINT "EInvoiceReport_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EInvoiceReport" ADD CONSTRAINT "EInvoiceReport_eInvoiceId_fkey" FOREIGN KEY ("eInvoiceId") REFERENCES "EInvoice"("id") ON DELETE CASCADE ON UPDATE CASCADE;
