-- AlterTable
ALTER TABLE "Certificate" ADD COLUMN     "fingerprint" TEXT,
ADD COLUMN     "issuer" TEXT,
ADD COLUMN     "keyCiphertext" TEXT,
ADD COLUMN     "keyId" TEXT,
ADD COLUMN     "notBefore" TIMESTAMPTZ(3),
ADD COLUMN     "oib" TEXT,
ADD COLUMN     "serialNumber" TEXT,
ALTER COLUMN "keyPem" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "amounts" JSONB,
ADD COLUMN     "buyerOib" TEXT,
ADD COLUMN     "lateDelivery" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "operatorOib" TEXT,
ADD COLUMN     "paragonNumber" TEXT,
ADD COLUMN     "sequenceMark" TEXT,
ADD COLUMN     "specialPurpose" TEXT,
ADD COLUMN     "stornoOfId" UUID,
ADD COLUMN     "vatRegistered" BOOLEAN;

-- CreateIndex
CREATE INDEX "Certificate_keyId_idx" ON "Certificate"("keyId");

-- CreateIndex
CREATE INDEX "Invoice_stornoOfId_idx" ON "Invoice"("stornoOfId");

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_stornoOfId_fkey" FOREIGN KEY ("stornoOfId") REFERENCES "Invoice"("id") ON DELETE SET NULL ON UPDATE CASCADE;
