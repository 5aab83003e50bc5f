// The Dokumenti page: the account's receipts, issued and received e-invoices (newest first, keyset
// paging on created_at and id, as the API's lists), one document's detail, the recipient's decision
// on a received e-invoice, and the eIzvještavanje notice.
import { zagrebDate, zagrebMidnight } from "@fiskal/fiscal/zagreb";
import { decideReceivedEInvoice, findReceivedEInvoice, ReceivedEInvoiceError } from "@fiskal/accounts";
import type { Prisma } from "@fiskal/db";
import { receiptQrSvg, receiptQrUrl } from "@fiskal/fiscal";
import { TRPCError } from "@trpc/server";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { audit } from "~/server/audit";
import { developerProcedure, memberProcedure } from "../trpc";

const PAGE = 25;
const Day = z.iso.date({ error: "Datum u obliku GGGG-MM-DD." });

const listInput = z.object({
  kind: z.enum(["receipts", "einvoices", "received"]).default("einvoices"),
  from: Day.optional(),
  to: Day.optional(),
  status: z.string().max(20).regex(/^[a-z_]*$/, "Neispravan status.").optional(),
  number: z.string().trim().max(100).optional(),
  buyerOib: z.string().regex(/^\d{11}$/, "OIB ima točno 11 znamenki.").optional(),
  /** Received e-invoices: the issuer's OIB. */
  sellerOib: z.string().regex(/^\d{11}$/, "OIB ima točno 11 znamenki.").optional(),
  cursor: z.string().max(200).optional(),
});

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

function decode(cursor: string | undefined): { t: Date; i: string } | null {
  if (!cursor) return null;
  const m = /^(\d{13})_([0-9a-f-]{36})$/.exec(cursor);
  if (!m) throw new TRPCError({ code: "BAD_REQUEST", message: "Neispravna stranica: počnite od prve." });
  return { t: new Date(Number(m[1])), i: m[2]! };
}
const after = (c: { t: Date; i: string } | null) => (c ? { OR: [{ createdAt: { lt: c.t } }, { createdAt: c.t, id: { lt: c.i } }] } : {});
const encode = (row: { createdAt: Date; id: string }) => `${row.createdAt.getTime()}_${row.id}`;

interface DocumentRow {
  id: string;
  number: string;
  issued: string;
  buyerOib: string | null;
  /** Received e-invoices: the issuer and the validation result. */
  sellerOib?: string | null;
  sellerName?: string | null;
  validation?: string;
  total: string;
  status: string;
  fiscalization: string;
}

export const documentsRouter = {
  list: memberProcedure.input(listInput).query(async ({ ctx, input }) => {
    const cursor = decode(input.cursor);
    if (input.from && input.to && input.from > input.to) throw new TRPCError({ code: "BAD_REQUEST", message: "Razdoblje: „od” ne smije biti nakon „do”." });
    // What every kind shares: the account, state, number, the page's position, newest first.
    const where = <W>(own: W) => ({
      accountId: ctx.accountId,
      ...own,
      ...(input.status ? { status: input.status } : {}),
      ...(input.number ? { number: input.number } : {}),
      ...after(cursor),
    });
    const page = { orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }], take: PAGE + 1 };
    // E-invoices (issued and received) are dated by their issue day, "YYYY-MM-DD".
    const issueDate = input.from || input.to ? { issueDate: { ...(input.from ? { gte: input.from } : {}), ...(input.to ? { lte: input.to } : {}) } } : {};
    let rows: (DocumentRow & { createdAt: Date })[];
    if (input.kind === "receipts") {
      const issuedAt: Prisma.DateTimeFilter = {};
      if (input.from) issuedAt.gte = zagrebMidnight(input.from);
      if (input.to) issuedAt.lt = zagrebMidnight(nextDay(input.to));
      const found = await ctx.db.invoice.findMany({ where: where({ ...(input.from || input.to ? { issuedAt } : {}), ...(input.buyerOib ? { buyerOib: input.buyerOib } : {}) }), ...page });
      rows = found.map((r) => ({
        id: r.id,
        createdAt: r.createdAt,
        number: `${r.number}/${r.premises}/${r.device}`,
        issued: zagrebDate(r.issuedAt),
        buyerOib: r.buyerOib,
        total: r.total.toFixed(2),
        status: r.status,
        fiscalization: r.jir ? "fiscalized" : "pending",
      }));
    } else if (input.kind === "received") {
      const found = await ctx.db.receivedEInvoice.findMany({ where: where({ ...issueDate, ...(input.sellerOib ? { sellerOib: input.sellerOib } : {}) }), ...page });
      rows = found.map((r) => ({
        id: r.id,
        createdAt: r.createdAt,
        number: r.number ?? "(nečitljiv dokument)",
        issued: r.issueDate ?? "—",
        buyerOib: r.buyerOib,
        sellerOib: r.sellerOib,
        sellerName: r.sellerName,
        total: r.totalGross?.toFixed(2) ?? "—",
        status: r.status,
        validation: r.validationStatus,
        fiscalization: r.fiscalizationStatus ?? (r.validationStatus === "valid" ? "pending" : "not_fiscalized"),
      }));
    } else {
      const found = await ctx.db.eInvoice.findMany({ where: where({ ...issueDate, ...(input.buyerOib ? { buyerOib: input.buyerOib } : {}) }), ...page });
      rows = found.map((r) => ({
        id: r.id,
        createdAt: r.createdAt,
        number: r.number,
        issued: r.issueDate,
        buyerOib: r.buyerOib,
        total: r.totalGross.toFixed(2),
        status: r.status,
        fiscalization: r.fiscalizationStatus ?? (r.status === "accepted" || r.status === "queued" ? "pending" : "not_delivered"),
      }));
    }
    const more = rows.length > PAGE;
    const shown = rows.slice(0, PAGE);
    const last = shown.at(-1);
    return { items: shown.map(({ createdAt: _c, ...rest }) => rest), next: more && last ? encode(last) : null };
  }),

  receipt: memberProcedure.input(z.object({ id: z.uuid("Neispravan dokument.") })).query(async ({ ctx, input }) => {
    const r = await ctx.db.invoice.findFirst({ where: { id: input.id, accountId: ctx.accountId } });
    if (!r) throw new TRPCError({ code: "NOT_FOUND", message: "Račun ne postoji." });
    const url = receiptQrUrl({ jir: r.jir, zki: r.zki, issuedAt: r.issuedAt, total: r.total.toFixed(2) });
    const archived = await ctx.db.archiveEntry.findMany({ where: { accountId: ctx.accountId, documentId: r.id }, orderBy: { seq: "asc" }, select: { name: true, sha256: true, seq: true } });
    return {
      id: r.id,
      number: `${r.number}/${r.premises}/${r.device}`,
      oib: r.oib,
      issuedAt: r.issuedAt.toISOString(),
      total: r.total.toFixed(2),
      paymentMethod: r.paymentMethod,
      buyerOib: r.buyerOib,
      zki: r.zki,
      jir: r.jir,
      status: r.status,
      lateDelivery: r.lateDelivery,
      attempts: r.deliveryAttempts,
      lastError: r.lastDeliveryError,
      fiscalizedAt: r.fiscalizedAt?.toISOString() ?? null,
      qrUrl: url,
      qrSvg: await receiptQrSvg(url),
      archived,
    };
  }),

  einvoice: memberProcedure.input(z.object({ id: z.uuid("Neispravan dokument.") })).query(async ({ ctx, input }) => {
    const e = await ctx.db.eInvoice.findFirst({ where: { id: input.id, accountId: ctx.accountId }, include: { reports: { orderBy: { createdAt: "asc" } } } });
    if (!e) throw new TRPCError({ code: "NOT_FOUND", message: "E-račun ne postoji." });
    const archived = await ctx.db.archiveEntry.findMany({ where: { accountId: ctx.accountId, documentId: e.id }, orderBy: { seq: "asc" }, select: { name: true, sha256: true, seq: true } });
    return {
      id: e.id,
      number: e.number,
      documentType: e.documentType,
      sellerOib: e.sellerOib,
      buyerOib: e.buyerOib,
      issueDate: e.issueDate,
      issueTime: e.issueTime,
      gross: e.totalGross.toFixed(2),
      status: e.status,
      intermediaryId: e.intermediaryId,
      sentAt: e.sentAt?.toISOString() ?? null,
      fiscalizationStatus: e.fiscalizationStatus,
      fiscalizedAt: e.fiscalizedAt?.toISOString() ?? null,
      fiscalizationAttempts: e.fiscalizationAttempts,
      fiscalizationError: e.fiscalizationError,
      reports: e.reports.map((r) => ({ kind: r.kind, status: r.status, at: (r.recordedAt ?? r.createdAt).toISOString() })),
      rejection: (e.rejection ?? null) as { message: string; rules: string[] } | null,
      archived,
    };
  }),

  received: memberProcedure.input(z.object({ id: z.uuid("Neispravan dokument.") })).query(async ({ ctx, input }) => {
    const r = await findReceivedEInvoice(ctx.db, ctx.accountId, input.id);
    if (!r) throw new TRPCError({ code: "NOT_FOUND", message: "E-račun ne postoji." });
    const archived = await ctx.db.archiveEntry.findMany({ where: { accountId: ctx.accountId, documentId: r.id }, orderBy: { seq: "asc" }, select: { name: true, sha256: true, seq: true } });
    const decider = r.decidedBy?.startsWith("user:") ? await ctx.db.user.findUnique({ where: { id: r.decidedBy.slice(5) }, select: { email: true } }) : null;
    const validation = (r.validation ?? { checked: [], violations: [] }) as { checked: string[]; violations: { rule: string; flag: string; message: string }[] };
    return {
      id: r.id,
      number: r.number,
      documentType: r.documentType,
      sellerOib: r.sellerOib,
      sellerName: r.sellerName,
      buyerOib: r.buyerOib,
      issueDate: r.issueDate,
      currency: r.currency,
      gross: r.totalGross?.toFixed(2) ?? null,
      payable: r.totalPayable?.toFixed(2) ?? null,
      receivedAt: r.receivedAt.toISOString(),
      ublSha256: r.ublSha256,
      validationStatus: r.validationStatus,
      validation,
      status: r.status,
      decidedAt: r.decidedAt?.toISOString() ?? null,
      decidedBy: decider?.email ?? (r.decidedBy?.startsWith("api_key:") ? "API ključ" : null),
      rejectionReasonType: r.rejectionReasonType,
      rejectionReason: r.rejectionReason,
      rejectionDate: r.rejectionDate,
      rejectionReportStatus: r.rejectionReportStatus,
      rejectionReportedAt: r.rejectionReportedAt?.toISOString() ?? null,
      rejectionReportError: r.rejectionReportError,
      fiscalizationStatus: r.fiscalizationStatus,
      fiscalizedAt: r.fiscalizedAt?.toISOString() ?? null,
      fiscalizationError: r.fiscalizationError,
      /** Still open: never decided, or a rejection whose report the tax authority refused (it may be made again). */
      decidable: r.status === "received" || (r.status === "rejected" && r.rejectionReportStatus === "refused"),
      /** Owners and developers decide; an accountant reads. */
      canDecide: ctx.memberRole === "OWNER" || ctx.memberRole === "DEVELOPER",
      archived,
    };
  }),

  /** The recipient accepts or rejects a received e-invoice (art. 52); the same function as the API's route. */
  decide: developerProcedure
    .input(
      z.object({
        id: z.uuid("Neispravan dokument."),
        decision: z.enum(["accepted", "rejected"]),
        reasonType: z.string().max(1).optional(),
        reason: z.string().max(4000).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      try {
        const r = await decideReceivedEInvoice(ctx.db, {
          accountId: ctx.accountId,
          id: input.id,
          decision: input.decision,
          ...(input.decision === "rejected" ? { reasonType: input.reasonType ?? "", reason: input.reason ?? "" } : {}),
          actor: `user:${ctx.user.id}`,
        });
        const rejected = r.status === "rejected";
        await audit(ctx, {
          action: rejected ? "einvoice.rejected" : "einvoice.accepted",
          target: r.number ?? r.id,
          detail: { documentId: r.id, ...(rejected ? { reasonType: r.rejectionReasonType, reason: r.rejectionReason } : {}) },
        });
        return { ok: true as const, status: r.status };
      } catch (err) {
        if (!(err instanceof ReceivedEInvoiceError)) throw err;
        if (err.reason === "not_found") throw new TRPCError({ code: "NOT_FOUND", message: "E-račun ne postoji." });
        return { ok: false as const, reason: err.reason, message: err.message, problems: err.problems };
      }
    }),

  /** The reporting.due notice while its deadline has not passed (the event is recorded from the 15th). */
  reportingNotice: memberProcedure.query(async ({ ctx }) => {
    const event = await ctx.db.webhookEvent.findFirst({ where: { accountId: ctx.accountId, type: "reporting.due" }, orderBy: { createdAt: "desc" } });
    if (!event) return null;
    const data = (event.payload as { data: { period: string; deadline: string; unreported_einvoices: number } }).data;
    return data.deadline >= zagrebDate(new Date()) ? data : null;
  }),
} satisfies TRPCRouterRecord;
