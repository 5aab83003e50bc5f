// GET /v1/invoices/{id}/qr — the receipt's QR code (CIS spec v2.6 §2.7) as SVG or PNG.
//
// The API answers JSON on every route (the envelope, the OpenAPI document, tRPC), so the image
// travels inside it: `data` is the SVG markup or the PNG in base64, and `data_uri` can go straight
// into an <img src>. The code holds the JIR once CIS has answered, the ZKI before.
import { z } from "zod";
import { receiptQrPng, receiptQrSvg, receiptQrUrl } from "@fiskal/fiscal";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";

const QrInput = z.strictObject({
  id: z.string().max(64),
  format: z.enum(["svg", "png"], { error: "Format: svg ili png." }).default("svg").describe("svg (zadano, za ispis u bilo kojoj veličini) ili png."),
  size: z.coerce
    .number({ error: "Veličina je broj piksela." })
    .int("Veličina je cijeli broj piksela.")
    .min(100, "Veličina je najmanje 100 piksela.")
    .max(2000, "Veličina je najviše 2000 piksela.")
    .default(300)
    .describe("Širina PNG slike u pikselima (100–2000, zadano 300); SVG nosi veličinu u milimetrima."),
});

const QrSchema = z.object({
  id: z.string(),
  url: z.string().describe("Sadržaj QR koda: poveznica na provjeru računa kod Porezne uprave."),
  format: z.enum(["svg", "png"]),
  content_type: z.string().describe("image/svg+xml ili image/png."),
  data: z.string().describe("SVG zapis, odnosno PNG u base64."),
  data_uri: z.string().describe("data: URI slike, npr. za <img src>."),
});

export const invoiceQr = apiKeyProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/invoices/{id}/qr",
      tags: ["invoices"],
      summary: "QR kod računa (SVG ili PNG)",
      description:
        "QR kod za provjeru računa (Zakon o fiskalizaciji čl. 7; specifikacija v2.6, pogl. 2.7): s JIR-om kad je zaprimljen, inače sa ZKI-jem, uz datum i vrijeme izdavanja i iznos. " +
        "SVG je dimenzioniran u milimetrima tako da se ispisuje najmanje 2 × 2 cm s praznim rubom.",
      protect: true,
    },
  })
  .input(QrInput)
  .output(QrSchema)
  .query(async ({ input, ctx }) => {
    const { db, reconciler } = ctx.services;
    const row = z.uuid().safeParse(input.id).success
      ? await db.invoice.findFirst({ where: { id: input.id, accountId: ctx.principal.accountId }, select: { id: true, jir: true, zki: true, issuedAt: true, total: true } })
      : null;
    if (!row) throw new ApiError("not_found", `Račun ${input.id} ne postoji.`);
    // A JIR still waiting in the journal for the database counts as known.
    let jir = row.jir;
    if (!jir) {
      const journaled = await reconciler.journaled((e) => e.kind === "invoice" && e.id === row.id);
      if (journaled?.kind === "invoice") jir = journaled.jir;
    }
    const url = receiptQrUrl({ jir, zki: row.zki, issuedAt: row.issuedAt, total: row.total.toFixed(2) });
    if (input.format === "png") {
      const data = (await receiptQrPng(url, input.size)).toString("base64");
      return { id: row.id, url, format: "png" as const, content_type: "image/png", data, data_uri: `data:image/png;base64,${data}` };
    }
    const svg = await receiptQrSvg(url);
    return {
      id: row.id,
      url,
      format: "svg" as const,
      content_type: "image/svg+xml",
      data: svg,
      data_uri: `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`,
    };
  });
