-- CreateTable
CREATE TABLE "ReceiptCisExchange" (
    "invoiceId" UUID NOT NULL,
    "messageId" UUID NOT NULL,
    "request" BYTEA NOT NULL,
    "answer" BYTEA,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReceiptCisExchange_pkey" PRIMARY KEY ("invoiceId")
);

-- AddForeignKey
ALTER TABLE "ReceiptCisExchange" ADD CONSTRAINT "ReceiptCisExchange_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE CASCADE ON UPDATE CASCADE;
