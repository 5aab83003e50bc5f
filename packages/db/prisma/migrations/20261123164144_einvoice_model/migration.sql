-- AlterTable
ALTER TABLE "EInvoice" ADD COLUMN     "buyerVatId" TEXT,
ADD COLUMN     "documentType" TEXT NOT NULL DEFAULT '380',
ADD COLUMN     "issueTime" TEXT NOT NULL DEFAULT '00:00:00',
ADD COLUMN     "rejection" JSONB,
ADD COLUMN     "totalPayable" DECIMAL(14,2),
ALTER COLUMN "buyerOib" DROP NOT NULL;

-- Added by hand (the schema language has no CHECK constraints): a sent row carries the intermediary's
-- id; a pending row has none yet; a rejected row has none, and carries the reasons instead.
ALTER TABLE "EInvoice" DROP CONSTRAINT "EInvoice_status_check";
ALTER TABLE "EInvoice" ADD CONSTRAINT "EInvoice_status_check"
  CHECK (CASE "status"
    WHEN 'pending' THEN "intermediaryId" IS NULL
    WHEN 'rejected' THEN "intermediaryId" IS NULL AND "rejection" IS NOT NULL
    ELSE "intermediaryId" IS NOT NULL
  END);
