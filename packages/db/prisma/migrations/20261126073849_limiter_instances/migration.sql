-- CreateTable
CREATE TABLE "LimiterInstance" (
    "id" UUID NOT NULL,
    "heartbeatAt" TIMESTAMPTZ(3) NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "pendingShare" INTEGER,

    CONSTRAINT "LimiterInstance_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "LimiterInstance_heartbeatAt_idx" ON "LimiterInstance"("heartbeatAt");
