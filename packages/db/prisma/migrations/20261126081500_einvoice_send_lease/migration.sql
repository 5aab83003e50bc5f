-- AlterTable
ALTER TABLE "EInvoice" ADD COLUMN     "nextSendAt" TIMESTAMPTZ(3);
