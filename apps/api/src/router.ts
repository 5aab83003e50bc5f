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
import { changePaymentMethod, checkReceipt, reportTip } from "./procedures/invoices/operations.ts";
import { getCertificate } from "./procedures/certificates/get.ts";
import { uploadCertificate } from "./procedures/certificates/upload.ts";
import { sendEInvoice } from "./procedures/einvoices/send.ts";
import { getEInvoice } from "./procedures/einvoices/get.ts";
import { reportPayment } from "./procedures/einvoices/payments.ts";
import { reportRejection } from "./procedures/einvoices/rejection.ts";
import { getEInvoiceFiscalization } from "./procedures/einvoices/fiscalization.ts";
import { getLimits } from "./procedures/limits/get.ts";
import { listInvoices } from "./procedures/invoices/list.ts";
import { listEInvoices } from "./procedures/einvoices/list.ts";
import { exportArchiveProcedure } from "./procedures/archive/export.ts";
import { reportSupply } from "./procedures/einvoices/supplies.ts";
import { acceptEInvoice } from "./procedures/einvoices/acceptance.ts";

export const appRouter = router({
  oib: router({ validate: validateOib, validateBatch: validateOibBatch }),
  // REST matching (http/routes.ts): a path without parameters is found by exact lookup, then templates
  // are tried with fewer parameters first, so /v1/kpd/search and /v1/kpd/batch win over /v1/kpd/{code}
  // whatever the order here; only between templates with as many parameters does this order decide.
  kpd: router({ search: searchKpd, batch: batchKpd, get: getKpd }),
  invoices: router({ fiscalize, get: getInvoice, qr: invoiceQr, list: listInvoices, tip: reportTip, paymentMethod: changePaymentMethod, check: checkReceipt }),
  certificates: router({ get: getCertificate, upload: uploadCertificate }),
  einvoices: router({ send: sendEInvoice, get: getEInvoice, payments: reportPayment, rejection: reportRejection, fiscalization: getEInvoiceFiscalization, list: listEInvoices, supplies: reportSupply, acceptance: acceptEInvoice }),
  limits: router({ get: getLimits }),
  archive: router({ export: exportArchiveProcedure }),
});

export type AppRouter = typeof appRouter;
