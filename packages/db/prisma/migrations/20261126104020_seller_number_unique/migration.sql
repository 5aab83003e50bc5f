-- A receipt number (OIB, premises, device, number) and an e-invoice number (seller OIB, number)
-- belong to the issuer, across accounts. Rows that already break this (two accounts of one company
-- that sent the same number) cannot be resolved by a migration: both may have been fiscalized. The
-- migration then stops and names them; the operator decides which row stays (see docs/receipts.md).
DO $$
DECLARE
  dup text;
BEGIN
  SELECT string_agg(format('receipt %s/%s/%s of OIB %s', "number", "premises", "device", "oib"), '; ')
    INTO dup
    FROM (SELECT "oib", "premises", "device", "number" FROM "Invoice"
          GROUP BY 1, 2, 3, 4 HAVING count(*) > 1) d;
  IF dup IS NOT NULL THEN
    RAISE EXCEPTION 'receipt numbers used by more than one account: %', dup;
  END IF;
  SELECT string_agg(format('e-invoice %s of seller %s', "number", "sellerOib"), '; ')
    INTO dup
    FROM (SELECT "sellerOib", "number" FROM "EInvoice" GROUP BY 1, 2 HAVING count(*) > 1) d;
  IF dup IS NOT NULL THEN
    RAISE EXCEPTION 'e-invoice numbers used by more than one account: %', dup;
  END IF;
END $$;

-- CreateIndex
CREATE UNIQUE INDEX "EInvoice_sellerOib_number_key" ON "EInvoice"("sellerOib", "number");

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_oib_premises_device_number_key" ON "Invoice"("oib", "premises", "device", "number");
