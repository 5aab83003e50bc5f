-- CreateTable
CREATE TABLE "ReceivedEInvoice" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "messageId" TEXT NOT NULL,
    "number" TEXT,
    "documentType" TEXT,
    "sellerOib" TEXT,
    "sellerName" TEXT,
    "buyerOib" TEXT NOT NULL,
    "issueDate" TEXT,
    "currency" TEXT,
    "totalNet" DECIMAL(14,2),
    "totalTax" DECIMAL(14,2),
    "totalGross" DECIMAL(14,2),
    "totalPayable" DECIMAL(14,2),
    "ubl" TEXT NOT NULL,
    "ublSha256" TEXT NOT NULL,
    "deliveredAt" TIMESTAMPTZ(3),
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "validationStatus" TEXT NOT NULL,
    "validation" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'received',
    "decidedAt" TIMESTAMPTZ(3),
    "decidedBy" TEXT,
    "rejectionReasonType" TEXT,
    "rejectionReason" TEXT,
    "rejectionDate" TEXT,
    "rejectionReportStatus" TEXT,
    "rejectionReportRequestId" UUID,
    "rejectionReportedAt" TIMESTAMPTZ(3),
    "rejectionReportAttempts" INTEGER NOT NULL DEFAULT 0,
    "rejectionReportNextAttemptAt" TIMESTAMPTZ(3),
    "rejectionReportError" TEXT,
    "fiscalizationStatus" TEXT,
    "fiscalizationRequestId" UUID,
    "fiscalizedAt" TIMESTAMPTZ(3),
    "fiscalizationAttempts" INTEGER NOT NULL DEFAULT 0,
    "fiscalizationNextAttemptAt" TIMESTAMPTZ(3),
    "fiscalizationError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReceivedEInvoice_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReceivedEInvoice_accountId_createdAt_idx" ON "ReceivedEInvoice"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "ReceivedEInvoice_validationStatus_fiscalizationStatus_idx" ON "ReceivedEInvoice"("validationStatus", "fiscalizationStatus");

-- CreateIndex
CREATE INDEX "ReceivedEInvoice_rejectionReportStatus_rejectionReportNextA_idx" ON "ReceivedEInvoice"("rejectionReportStatus", "rejectionReportNextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "ReceivedEInvoice_accountId_messageId_key" ON "ReceivedEInvoice"("accountId", "messageId");

-- AddForeignKey
ALTER TABLE "ReceivedEInvoice" ADD CONSTRAINT "ReceivedEInvoice_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
