-- A receipt or e-invoice is written as "pending" and committed before the tax authority or the
-- intermediary is called; the answer (JIR, intermediary id) completes the row afterwards.

-- AlterTable
ALTER TABLE "EInvoice" ADD COLUMN     "idempotencyRecordId" UUID,
ADD COLUMN     "messageId" UUID,
ADD COLUMN     "sentAt" TIMESTAMPTZ(3),
ALTER COLUMN "intermediaryId" DROP NOT NULL;

-- AlterTable
-- Edited by hand: the rows already stored carry their JIR, so they are added as 'fiscalized'; new
-- rows default to 'pending' (the generated statement gave the existing rows 'pending').
ALTER TABLE "Invoice" ADD COLUMN     "fiscalizedAt" TIMESTAMPTZ(3),
ADD COLUMN     "idempotencyRecordId" UUID,
ADD COLUMN     "messageId" UUID,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'fiscalized',
ALTER COLUMN "jir" DROP NOT NULL;
ALTER TABLE "Invoice" ALTER COLUMN "status" SET DEFAULT 'pending';

-- Added by hand (the schema language has no CHECK constraints): a row carries the upstream answer
-- exactly when it is no longer pending.
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_status_check"
  CHECK ("status" IN ('pending', 'fiscalized') AND ("status" = 'pending') = ("jir" IS NULL));
ALTER TABLE "EInvoice" ADD CONSTRAINT "EInvoice_status_check"
  CHECK (("status" = 'pending') = ("intermediaryId" IS NULL));
