import { z } from "zod";
import type { Invoice } from "@fiskal/db";

export const Money = z.string().regex(/^\d{1,12}\.\d{2}$/, "Iznos mora biti decimalni zapis s dvije decimale, npr. \"125.00\".");
export const Oib = z.string().regex(/^\d{11}$/, "OIB ima točno 11 znamenki.");

export const InvoiceSchema = z.object({
  id: z.string(),
  jir: z.string().describe("Jedinstveni identifikator računa koji vraća Porezna uprava."),
  zki: z.string().describe("Zaštitni kod izdavatelja: MD5 RSA-SHA1 potpisa."),
  oib: z.string(),
  number: z.string(),
  premises: z.string(),
  device: z.string(),
  issued_at: z.string(),
  total: z.string(),
  payment_method: z.string(),
  created_at: z.string(),
});

export type InvoiceOut = z.infer<typeof InvoiceSchema>;

/** A fiscalized receipt as the API returns it (a pending one has no JIR yet and is not returned). */
export function toInvoice(row: Invoice & { jir: string }): InvoiceOut {
  return {
    id: row.id,
    jir: row.jir,
    zki: row.zki,
    oib: row.oib,
    number: row.number,
    premises: row.premises,
    device: row.device,
    issued_at: row.issuedAt.toISOString(),
    total: row.total.toFixed(2),
    payment_method: row.paymentMethod,
    created_at: row.createdAt.toISOString(),
  };
}
