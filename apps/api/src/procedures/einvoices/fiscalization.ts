// GET /v1/einvoices/{id}/fiscalization — where an e-invoice stands with the tax authority
// (Fiscalization 2.0): its recording (issued: type I after delivery; received: type U after receipt),
// and its e-reported payments and rejection.
import { z } from "zod";
import { findReceivedEInvoice } from "@fiskal/accounts";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { receivedF2State, receivedRejectionReport } from "./received.ts";
import { ReportSchema, toReport } from "./report.ts";
import { F2StateSchema, issuedF2State } from "./schemas.ts";

const FiscalizationSchema = F2StateSchema.extend({
  einvoice_id: z.string(),
  reports: z.array(ReportSchema).describe("Prijave naplate i odbijanja (eIzvještavanje), od najstarije; za primljeni e-račun njegovo odbijanje."),
});

export const getEInvoiceFiscalization = apiKeyProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/einvoices/{id}/fiscalization",
      tags: ["einvoices"],
      summary: "Fiskalizacija 2.0: stanje evidentiranja e-računa i prijave naplate i odbijanja",
      protect: true,
    },
  })
  .input(z.object({ id: z.string().max(64) }))
  .output(FiscalizationSchema)
  .query(async ({ input, ctx }) => {
    const { db } = ctx.services;
    const accountId = ctx.principal.accountId;
    const row = z.uuid().safeParse(input.id).success ? await db.eInvoice.findFirst({ where: { id: input.id, accountId } }) : null;
    if (!row) {
      const received = await findReceivedEInvoice(db, accountId, input.id);
      if (!received) throw new ApiError("not_found", `E-račun ${input.id} ne postoji.`);
      return { einvoice_id: received.id, ...receivedF2State(received), reports: received.rejectionReportRequestId ? [receivedRejectionReport(received)] : [] };
    }
    const reports = await db.eInvoiceReport.findMany({ where: { eInvoiceId: row.id, accountId }, orderBy: { createdAt: "asc" } });
    return { einvoice_id: row.id, ...issuedF2State(row), reports: reports.map(toReport) };
  });
