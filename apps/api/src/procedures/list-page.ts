// Cursor paging shared by the list endpoints (GET /v1/invoices, GET /v1/einvoices).
//
// Newest first, ordered by (created_at, id) descending: a total order, so a page starts strictly
// after the last row of the previous one and no row is shown twice or skipped, whatever is inserted
// meanwhile (new documents appear before the first page, never inside the walk). The cursor is
// opaque to clients: base64url of the last row's position and a digest of the filters it was made
// with, so it cannot be replayed with other filters.
import { createHash } from "node:crypto";
import { z } from "zod";
import { ApiError } from "../errors.ts";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export const PageInput = {
  limit: z.coerce
    .number({ error: "limit je broj dokumenata na stranici." })
    .int("limit je cijeli broj.")
    .min(1, "limit je najmanje 1.")
    .max(MAX_LIMIT, `limit je najviše ${MAX_LIMIT}.`)
    .default(DEFAULT_LIMIT)
    .describe(`Broj dokumenata na stranici (1–${MAX_LIMIT}, zadano ${DEFAULT_LIMIT}).`),
  cursor: z
    .string()
    .max(512)
    .optional()
    .describe("next_cursor prethodne stranice, s istim filtrima; izostaviti za prvu stranicu (najnoviji dokumenti)."),
};

/** A calendar day of a period; bounded so that every day and the next one are valid instants. */
export const Day = z.iso
  .date({ error: "Datum u obliku GGGG-MM-DD." })
  .refine((d) => d >= "2000-01-01" && d <= "2099-12-31", "Datum mora biti između 2000-01-01 i 2099-12-31.");
export const PeriodInput = {
  from: Day.optional().describe("Od datuma (uključivo), GGGG-MM-DD, po zagrebačkom vremenu."),
  to: Day.optional().describe("Do datuma (uključivo), GGGG-MM-DD, po zagrebačkom vremenu."),
};

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item).describe("Dokumenti stranice, od najnovijeg."),
    has_more: z.boolean().describe("Ima li još dokumenata nakon ove stranice."),
    next_cursor: z.string().nullable().describe("Vrijednost za cursor sljedeće stranice; null na zadnjoj."),
  });
}

export interface Position {
  createdAt: Date;
  id: string;
}

/** The filters a cursor belongs to, as a short digest (limit excluded: it may change between pages). */
function filterDigest(filters: Record<string, unknown>): string {
  const canonical = JSON.stringify(Object.keys(filters).sort().map((k) => [k, filters[k] ?? null]));
  return createHash("sha256").update(canonical).digest("base64url").slice(0, 12);
}

function encodeCursor(position: Position, filters: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ t: position.createdAt.toISOString(), i: position.id, f: filterDigest(filters) })).toString("base64url");
}

const CursorShape = z.object({ t: z.iso.datetime(), i: z.uuid(), f: z.string() });

/** The position a cursor stands for; a cursor that is not ours, or was made with other filters, is a 400. */
export function decodeCursor(cursor: string | undefined, filters: Record<string, unknown>): Position | null {
  if (cursor === undefined) return null;
  let parsed: z.infer<typeof CursorShape> | null = null;
  try {
    parsed = CursorShape.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    parsed = null;
  }
  if (!parsed) throw new ApiError("validation_error", "Neispravan cursor: upotrijebite next_cursor iz prethodnog odgovora.", [{ path: "cursor", message: "Neispravan cursor." }]);
  if (parsed.f !== filterDigest(filters)) {
    const message = "cursor pripada upitu s drugim filtrima: za sljedeću stranicu pošaljite iste filtre kao za prvu.";
    throw new ApiError("validation_error", message, [{ path: "cursor", message }]);
  }
  return { createdAt: new Date(parsed.t), id: parsed.i };
}

/** Prisma condition: rows strictly after `position` in (createdAt desc, id desc). */
export function after(position: Position | null) {
  if (!position) return {};
  return { OR: [{ createdAt: { lt: position.createdAt } }, { createdAt: position.createdAt, id: { lt: position.id } }] };
}

export const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** Cuts the limit + 1 rows read into a page and its next cursor. */
export function page<R extends Position, O>(rows: R[], limit: number, filters: Record<string, unknown>, out: (row: R) => O) {
  const has_more = rows.length > limit;
  const shown = has_more ? rows.slice(0, limit) : rows;
  const last = shown.at(-1);
  return { data: shown.map(out), has_more, next_cursor: has_more && last ? encodeCursor(last, filters) : null };
}

export { nextDay, zagrebDayStart } from "@fiskal/accounts";

export function checkPeriod(from: string | undefined, to: string | undefined): void {
  if (from && to && from > to) {
    const message = "Razdoblje: from ne smije biti nakon to.";
    throw new ApiError("validation_error", message, [{ path: "from", message }]);
  }
}
