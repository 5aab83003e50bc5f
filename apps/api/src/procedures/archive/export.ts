// GET /v1/archive/export — the archive of a period as a ZIP: every document in its original form,
// its fiscalization evidence and a manifest (JSON and CSV) with SHA-256 hashes and the hash chain.
import { z } from "zod";
import { exportArchive, MAX_ZIP_ENTRIES } from "@fiskal/accounts";
import { sealAccount } from "../../archive/seal.ts";
import { ApiError } from "../../errors.ts";
import { apiKeyProcedure } from "../../trpc.ts";
import { checkPeriod, Day, nextDay, zagrebDayStart } from "../list-page.ts";

const ExportSummary = z.object({
  from: z.string(),
  to: z.string(),
  filename: z.string().describe("Naziv ZIP datoteke."),
  content_type: z.literal("application/zip"),
  files: z.number().int().describe("Datoteke dokumenata u izvozu (bez manifesta)."),
  documents: z.number().int().describe("Dokumenti (računi i e-računi) u izvozu."),
  head_seq: z.number().int().describe("Zadnji zapis lanca arhive tvrtke u trenutku izvoza."),
  head_hash: z.string().describe("Njegov chain_hash (SHA-256)."),
});

export const exportArchiveProcedure = apiKeyProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/archive/export",
      tags: ["archive"],
      summary: "Izvoz arhive razdoblja (ZIP)",
      description:
        "ZIP s izvornim dokumentima izdanima u razdoblju (UBL e-računa točno kako je isporučen, zahtjev i dokaz fiskalizacije računa s JIR-om i datumima), " +
        "te manifest.json i manifest.csv sa SHA-256 svake datoteke i lancem sažetaka (provjera: pnpm fiskal archive verify DATOTEKA.zip). " +
        "REST odgovor je sama ZIP datoteka (application/zip, šalje se u dijelovima); na tRPC-u ovaj opis izvoza. Broji se samo u ograničenja plana.",
      protect: true,
    },
    download: (services, accountId, answer) => {
      const summary = answer as z.infer<typeof ExportSummary>;
      return { contentType: "application/zip", filename: summary.filename, body: exportArchive(services.db, accountId, summary) };
    },
  })
  .input(
    z.strictObject({
      from: Day.describe("Prvi dan razdoblja (uključivo), GGGG-MM-DD, po zagrebačkom vremenu."),
      to: Day.describe("Zadnji dan razdoblja (uključivo), GGGG-MM-DD."),
    }),
  )
  .output(ExportSummary)
  .query(async ({ input, ctx }) => {
    checkPeriod(input.from, input.to);
    const { db } = ctx.services;
    const accountId = ctx.principal.accountId;
    await sealAccount(db, accountId);
    const inPeriod = { accountId, issuedAt: { gte: zagrebDayStart(input.from), lt: zagrebDayStart(nextDay(input.to)) } };
    const [files, documents, head] = await Promise.all([
      db.archiveEntry.count({ where: inPeriod }),
      db.archiveEntry.groupBy({ by: ["documentId"], where: inPeriod }).then((g) => g.length),
      db.archiveEntry.findFirst({ where: { accountId }, orderBy: { seq: "desc" }, select: { seq: true, chainHash: true } }),
    ]);
    if (files > MAX_ZIP_ENTRIES - 2) {
      const message = `Razdoblje ima ${files} datoteka, a jedan izvoz najviše ${MAX_ZIP_ENTRIES - 2}: izvezite kraće razdoblje.`;
      throw new ApiError("validation_error", message, [{ path: "to", message }]);
    }
    return {
      from: input.from,
      to: input.to,
      filename: `fiskal-arhiva-${input.from}-${input.to}.zip`,
      content_type: "application/zip" as const,
      files,
      documents,
      head_seq: head?.seq ?? 0,
      head_hash: head?.chainHash ?? "",
    };
  });
