-- CreateTable
CREATE TABLE "SupplyReport" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "number" TEXT NOT NULL,
    "issueDate" TEXT NOT NULL,
    "buyerOib" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "requestId" UUID NOT NULL,
    "data" JSONB NOT NULL,
    "recordedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SupplyReport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SupplyReport_accountId_createdAt_idx" ON "SupplyReport"("accountId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "SupplyReport_accountId_number_key" ON "SupplyReport"("accountId", "number");
