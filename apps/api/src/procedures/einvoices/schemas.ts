import { z } from "zod";
import type { EInvoice } from "@fiskal/db";
import { Money, Oib } from "../invoices/schemas.ts";

const Decimal = z.string().regex(/^\d{1,12}(\.\d{1,4})?$/, "Decimalni zapis, npr. \"2\" ili \"1.5\".");
const Address = z.object({
  street: z.string().max(200).optional(),
  city: z.string().max(100).optional(),
  postal_code: z.string().max(20).optional(),
  country: z.string().length(2).default("HR"),
});
const Party = z.object({ oib: Oib, name: z.string().min(1).max(200), address: Address.optional() });

export const SendEInvoiceInput = z.object({
  number: z.string().min(1).max(50),
  issue_date: z.iso.date(),
  due_date: z.iso.date().optional(),
  currency: z.literal("EUR").default("EUR"),
  seller: Party.extend({ iban: z.string().regex(/^HR\d{19}$/, "IBAN u obliku HR + 19 znamenki.").optional() }),
  buyer: Party,
  lines: z
    .array(
      z.object({
        description: z.string().min(1).max(500),
        quantity: Decimal,
        unit: z.string().min(1).max(3).default("H87").describe("Oznaka jedinice mjere po UN/ECE preporuci 20, npr. H87 (komad)."),
        unit_price: Money,
        vat_rate: z.enum(["25", "13", "5", "0"]),
        kpd: z.string().describe("KPD 2025 šifra razine 5, npr. 62.01.11."),
        line_total: Money,
      }),
    )
    .min(1)
    .max(1000),
  totals: z.object({ net: Money, vat: Money, gross: Money }),
  note: z.string().max(1000).optional(),
});
export type SendEInvoiceInput = z.infer<typeof SendEInvoiceInput>;

export const EInvoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: z.string(),
  intermediary_id: z.string(),
  seller_oib: z.string(),
  buyer_oib: z.string(),
  issue_date: z.string(),
  currency: z.string(),
  totals: z.object({ net: z.string(), vat: z.string(), gross: z.string() }),
  created_at: z.string(),
});

export type EInvoiceOut = z.infer<typeof EInvoiceSchema>;

/** A sent e-invoice as the API returns it (a pending one has no intermediary id yet and is not returned). */
export function toEInvoice(row: EInvoice & { intermediaryId: string }): EInvoiceOut {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    intermediary_id: row.intermediaryId,
    seller_oib: row.sellerOib,
    buyer_oib: row.buyerOib,
    issue_date: row.issueDate,
    currency: row.currency,
    totals: { net: row.totalNet.toFixed(2), vat: row.totalTax.toFixed(2), gross: row.totalGross.toFixed(2) },
    created_at: row.createdAt.toISOString(),
  };
}
