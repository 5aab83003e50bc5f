// POST /v1/einvoices/{id}/payments — e-reporting of a payment of a delivered e-invoice
// (Fiscalization 2.0, EvidentirajNaplatuZahtjev). Partial payments are reported one by one; together
// they may not exceed the amount due. See report.ts for how a report is recorded and sent.
import { z } from "zod";
import { formatMoney, parseMoney } from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { money, reportDateProblem, reportedBuyerOib, ReportSchema, sendReport } from "./report.ts";

const PaymentInput = z.strictObject({
  id: z.string().max(64).describe("Id e-računa."),
  paid_on: z.iso.date({ error: "Datum u obliku GGGG-MM-DD." }).describe("Datum naplate (datumNaplate)."),
  amount: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,2})?$/, "Iznos je pozitivan decimalni zapis s najviše dvije decimale, npr. \"625.00\".")
    .describe("Naplaćeni iznos (naplaceniIznos)."),
  method: z
    .enum(["T", "O", "Z"], { error: "Način plaćanja: T (transakcijski račun), O (obračunsko plaćanje) ili Z (ostalo)." })
    .describe("Način plaćanja: T transakcijski račun, O obračunsko plaćanje (kompenzacija), Z ostalo."),
});

export const reportPayment = apiKeyProcedure
  .meta({
    group: "einvoice",
    idempotent: true,
    openapi: {
      method: "POST",
      path: "/v1/einvoices/{id}/payments",
      tags: ["einvoices"],
      summary: "eIzvještavanje: naplata e-računa",
      description:
        "Prijavljuje Poreznoj upravi naplatu isporučenog e-računa (EvidentirajNaplatuZahtjev, potpisano certifikatom tvrtke). Djelomične naplate prijavljuju se svaka zasebno; " +
        "zbroj ne smije prijeći iznos za plaćanje. Odbijena prijava je validation_error s kodom Porezne uprave (details.f2_code); nedostupnost servisa je 503 s Retry-After. " +
        "Pošaljite zaglavlje Idempotency-Key.",
      protect: true,
    },
  })
  .input(PaymentInput)
  .output(ReportSchema)
  .mutation(({ input, ctx }) =>
    sendReport(ctx, input.id, "payment", input, async (einvoice) => {
      const buyerOib = reportedBuyerOib(einvoice);
      const problems: { path: string; message: string }[] = [];
      const dateProblem = reportDateProblem("paid_on", input.paid_on, einvoice);
      if (dateProblem) problems.push(dateProblem);
      const amount = parseMoney(money(input.amount));
      const due = parseMoney((einvoice.totalPayable ?? einvoice.totalGross).toFixed(2));
      if (amount <= 0n) problems.push({ path: "amount", message: "Naplaćeni iznos mora biti veći od nule." });
      else {
        const earlier = await ctx.services.db.eInvoiceReport.findMany({
          where: { eInvoiceId: einvoice.id, kind: "payment", status: { in: ["recorded", "pending", "unknown"] } },
          select: { data: true },
        });
        const paid = earlier.reduce((sum, r) => sum + parseMoney((r.data as { naplaceniIznos: string }).naplaceniIznos), 0n);
        if (paid + amount > due) {
          problems.push({ path: "amount", message: `Naplate ukupno (${formatMoney(paid + amount)}) premašuju iznos za plaćanje e-računa (${formatMoney(due)}).` });
        }
      }
      if (problems.length) throw new ApiError("validation_error", "Prijava naplate nije ispravna.", problems);
      return {
        brojDokumenta: einvoice.number,
        datumIzdavanja: einvoice.issueDate,
        oibPorezniBrojIzdavatelja: einvoice.sellerOib,
        oibPorezniBrojPrimatelja: buyerOib,
        datumNaplate: input.paid_on,
        naplaceniIznos: money(input.amount),
        nacinPlacanja: input.method,
      };
    }),
  );
