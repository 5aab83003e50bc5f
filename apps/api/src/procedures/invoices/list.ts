// GET /v1/invoices — the caller's receipts, newest first, with cursor paging and filters.
import { z } from "zod";
import type { Prisma } from "@fiskal/db";
import { apiKeyProcedure } from "../../trpc.ts";
import { after, checkPeriod, decodeCursor, NEWEST_FIRST, nextDay, page, PageInput, pageOf, PeriodInput, zagrebDayStart } from "../list-page.ts";
import { InvoiceSchema, toInvoice } from "./schemas.ts";

const ListInvoicesInput = z.strictObject({
  ...PageInput,
  ...PeriodInput,
  status: z.enum(["fiscalized", "pending"], { error: "Status: fiscalized ili pending." }).optional().describe("fiscalized (s JIR-om) ili pending (JIR još nije zabilježen)."),
  number: z.string().max(20).optional().describe("Brojčana oznaka računa (točno)."),
  premises: z.string().max(20).optional().describe("Oznaka poslovnog prostora (točno)."),
  device: z.string().max(20).optional().describe("Oznaka naplatnog uređaja (točno)."),
  buyer_oib: z.string().regex(/^\d{11}$/, "OIB ima točno 11 znamenki.").optional().describe("OIB primatelja računa."),
});

export const listInvoices = apiKeyProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/invoices",
      tags: ["invoices"],
      summary: "Popis fiskaliziranih računa",
      description:
        "Računi tvrtke od najnovijeg, po stranicama: next_cursor iz odgovora šalje se kao cursor uz iste filtre. " +
        "Razdoblje (from, to) odnosi se na vrijeme izdavanja po zagrebačkom vremenu. Broji se samo u ograničenja plana.",
      protect: true,
    },
  })
  .input(ListInvoicesInput)
  .output(pageOf(InvoiceSchema))
  .query(async ({ input, ctx }) => {
    const { limit, cursor, ...filters } = input;
    checkPeriod(filters.from, filters.to);
    const position = decodeCursor(cursor, filters);
    const issuedAt: Prisma.DateTimeFilter = {};
    if (filters.from) issuedAt.gte = zagrebDayStart(filters.from);
    if (filters.to) issuedAt.lt = zagrebDayStart(nextDay(filters.to));
    const rows = await ctx.services.db.invoice.findMany({
      where: {
        accountId: ctx.principal.accountId,
        ...(filters.from || filters.to ? { issuedAt } : {}),
        ...(filters.status ? { status: filters.status } : {}),
        ...(filters.number ? { number: filters.number } : {}),
        ...(filters.premises ? { premises: filters.premises } : {}),
        ...(filters.device ? { device: filters.device } : {}),
        ...(filters.buyer_oib ? { buyerOib: filters.buyer_oib } : {}),
        ...after(position),
      },
      orderBy: NEWEST_FIRST,
      take: limit + 1,
    });
    return page(rows, limit, filters, toInvoice);
  });
