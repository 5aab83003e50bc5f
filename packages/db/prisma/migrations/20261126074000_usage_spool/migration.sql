-- CreateTable
CREATE TABLE "UsageSpool" (
    "id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "UsageSpool_pkey" PRIMARY KEY ("id")
);
