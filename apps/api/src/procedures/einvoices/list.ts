// GET /v1/einvoices — the caller's e-invoices, issued (default) or received, newest first, with
// cursor paging and filters.
import { z } from "zod";
import { DOCUMENT_TYPES } from "@fiskal/fiscal";
import type { EInvoice } from "@fiskal/db";
import { apiKeyProcedure } from "../../trpc.ts";
import { after, checkPeriod, decodeCursor, NEWEST_FIRST, page, PageInput, pageOf, PeriodInput } from "../list-page.ts";
import { ReceivedEInvoiceSchema, toReceivedEInvoice } from "./received.ts";
import { EInvoiceSchema, issuedF2State, toEInvoice } from "./schemas.ts";

const oib = (what: string) => z.string().regex(/^\d{11}$/, "OIB ima točno 11 znamenki.").optional().describe(what);

const ListEInvoicesInput = z.strictObject({
  ...PageInput,
  ...PeriodInput,
  direction: z
    .enum(["issued", "received"], { error: "Smjer: issued ili received." })
    .default("issued")
    .describe('"issued" (zadano): e-računi koje je tvrtka izdala; "received": e-računi koje je primila.'),
  status: z
    .enum(["pending", "accepted", "queued", "rejected", "received"], { error: "Status: pending, accepted, queued, rejected ili received." })
    .optional()
    .describe(
      "Izdani: pending (predan posredniku, odgovor još nije zabilježen), accepted, queued, rejected (odgovor posrednika). " +
        "Primljeni: received (bez odluke), accepted ili rejected (odluka primatelja).",
    ),
  document_type: z.enum(DOCUMENT_TYPES, { error: `Vrsta dokumenta: ${DOCUMENT_TYPES.join(", ")}.` }).optional().describe("Vrsta dokumenta (UNTDID 1001)."),
  number: z.string().max(100).optional().describe("Broj računa (točno)."),
  buyer_oib: oib("OIB kupca."),
  seller_oib: oib("OIB prodavatelja (izdavatelja)."),
});

const ListedIssued = EInvoiceSchema.extend({
  status: z.enum(["pending", "accepted", "queued", "rejected"]).describe("pending: odgovor posrednika još nije zabilježen (vidi GET /v1/einvoices/{id}); inače kao u dohvatu."),
  direction: z.literal("issued"),
  fiscalization_status: z
    .enum(["not_delivered", "pending", "recorded", "refused"])
    .describe("Fiskalizacija 2.0: \"not_delivered\", \"pending\" (čeka evidentiranje), \"recorded\" ili \"refused\"; pojedinosti na /fiscalization."),
});
const ListedReceived = ReceivedEInvoiceSchema.extend({
  fiscalization_status: z
    .enum(["not_applicable", "pending", "recorded", "refused"])
    .describe("Fiskalizacija 2.0 (vrsta U): \"not_applicable\" (neispravan dokument), \"pending\", \"recorded\" ili \"refused\"."),
});
type Listed = z.infer<typeof ListedIssued> | z.infer<typeof ListedReceived>;

function toListed(row: EInvoice): Listed {
  return {
    ...toEInvoice(row),
    status: row.status as z.infer<typeof ListedIssued>["status"],
    direction: "issued",
    fiscalization_status: issuedF2State(row).status as z.infer<typeof ListedIssued>["fiscalization_status"],
  };
}

export const listEInvoices = apiKeyProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/einvoices",
      tags: ["einvoices"],
      summary: "Popis e-računa",
      description:
        "E-računi tvrtke od najnovijeg, po stranicama: next_cursor iz odgovora šalje se kao cursor uz iste filtre. Uz direction \"received\" dolaze primljeni e-računi (po vremenu primitka). " +
        "Razdoblje (from, to) odnosi se na datum izdavanja. UBL dokument: GET /v1/einvoices/{id}. Broji se samo u ograničenja plana.",
      protect: true,
    },
  })
  .input(ListEInvoicesInput)
  .output(pageOf(z.discriminatedUnion("direction", [ListedIssued, ListedReceived])))
  .query(async ({ input, ctx }) => {
    const { limit, cursor, ...filters } = input;
    checkPeriod(filters.from, filters.to);
    const position = decodeCursor(cursor, filters);
    const issueDate = { ...(filters.from ? { gte: filters.from } : {}), ...(filters.to ? { lte: filters.to } : {}) };
    const where = {
      accountId: ctx.principal.accountId,
      ...(filters.from || filters.to ? { issueDate } : {}),
      ...(filters.status ? { status: filters.status } : {}),
      ...(filters.document_type ? { documentType: filters.document_type } : {}),
      ...(filters.number ? { number: filters.number } : {}),
      ...(filters.buyer_oib ? { buyerOib: filters.buyer_oib } : {}),
      ...(filters.seller_oib ? { sellerOib: filters.seller_oib } : {}),
      ...after(position),
    };
    if (filters.direction === "received") {
      const rows = await ctx.services.db.receivedEInvoice.findMany({ where, orderBy: NEWEST_FIRST, take: limit + 1 });
      return page(rows, limit, filters, (row): Listed => {
        const out = toReceivedEInvoice(row);
        return { ...out, fiscalization_status: out.fiscalization.status as z.infer<typeof ListedReceived>["fiscalization_status"] };
      });
    }
    const rows = await ctx.services.db.eInvoice.findMany({ where, orderBy: NEWEST_FIRST, take: limit + 1 });
    return page(rows, limit, filters, toListed);
  });
