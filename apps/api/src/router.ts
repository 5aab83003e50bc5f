// The v1 router: one procedure per file; exposed as REST /v1 (trpc-to-openapi) and as /trpc.
import { router } from "./trpc.ts";
import { validateOib } from "./procedures/oib/validate.ts";
import { validateOibBatch } from "./procedures/oib/validateBatch.ts";
import { searchKpd } from "./procedures/kpd/search.ts";
import { batchKpd } from "./procedures/kpd/batch.ts";
import { getKpd } from "./procedures/kpd/get.ts";
import { fiscalize } from "./procedures/invoices/fiscalize.ts";
import { getInvoice } from "./procedures/invoices/get.ts";
import { invoiceQr } from "./procedures/invoices/qr.ts";
import { getCertificate } from "./procedures/certificates/get.ts";
import { uploadCertificate } from "./procedures/certificates/upload.ts";
import { sendEInvoice } from "./procedures/einvoices/send.ts";
import { getEInvoice } from "./procedures/einvoices/get.ts";
import { reportPayment } from "./procedures/einvoices/payments.ts";
import { reportRejection } from "./procedures/einvoices/rejection.ts";
import { getEInvoiceFiscalization } from "./procedures/einvoices/fiscalization.ts";
import { getLimits } from "./procedures/limits/get.ts";

export const appRouter = router({
  oib: router({ validate: validateOib, validateBatch: validateOibBatch }),
  // search and batch are declared before {code}: REST matching takes the first declared match.
  kpd: router({ search: searchKpd, batch: batchKpd, get: getKpd }),
  invoices: router({ fiscalize, get: getInvoice, qr: invoiceQr }),
  certificates: router({ get: getCertificate, upload: uploadCertificate }),
  einvoices: router({ send: sendEInvoice, get: getEInvoice, payments: reportPayment, rejection: reportRejection, fiscalization: getEInvoiceFiscalization }),
  limits: router({ get: getLimits }),
});

export type AppRouter = typeof appRouter;
