// CSV export of the request log's current view (same URL parameters as /dashboard), streamed page
// by page so that memory stays bounded; only the signed-in user's own account.
import { zagrebDateTime } from "@fiskal/fiscal/zagreb";
import { exportRequests } from "@fiskal/usage";
import { csvRow } from "~/lib/csv";
import { endpointLabel, windowLabel } from "~/lib/request-labels";
import { logFilter, paramsFrom, parseView } from "~/lib/usage-view";
import { portalUrl } from "~/env";
import { currentSession } from "~/server/auth";
import { db } from "~/server/db";
import { findRequest } from "~/server/request-log";

export const dynamic = "force-dynamic";

const CSV_HEADER = [
  "Vrijeme (UTC, ISO 8601)",
  "Vrijeme (Europe/Zagreb)",
  "ID zahtjeva",
  "Metoda",
  "Endpoint",
  "Status",
  "Trajanje (ms)",
  "Odbijen (429)",
  "Ključ (prefiks)",
  "Naziv ključa",
  "Prozor odluke",
  "Ograničenje prozora",
  "Preostalo u prozoru",
  "Retry-After (s)",
];

function errorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message, doc_url: `${portalUrl()}/docs/errors#${code}` } }, { status, headers: { "Cache-Control": "no-store" } });
}

export async function GET(request: Request): Promise<Response> {
  const session = await currentSession();
  const userId = session?.user.id;
  if (!userId) return errorResponse(401, "unauthorized", "Prijavite se za preuzimanje zapisnika zahtjeva.");
  const client = db();
  const user = await client.user.findUnique({ where: { id: userId }, select: { accountId: true } });
  if (!user) return errorResponse(401, "unauthorized", "Korisnik više ne postoji. Prijavite se ponovno.");
  const view = parseView(paramsFrom(new URL(request.url).searchParams));
  if (view.reasons.length > 0) return errorResponse(400, "validation_error", `${view.reasons.join(" ")} Ništa nije preuzeto; ispravite razdoblje ili filtre.`);
  const requestId = view.request;
  const pages = requestId
    ? (async function* () {
        yield await findRequest(client, user.accountId, requestId);
      })()
    : exportRequests(client, user.accountId, logFilter(view));
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      // BOM: spreadsheets then read the file as UTF-8 (č, ć, ž, š, đ).
      controller.enqueue(encoder.encode("\uFEFF" + csvRow(CSV_HEADER)));
    },
    async pull(controller) {
      try {
        const next = await pages.next();
        if (next.done) return controller.close();
        let chunk = "";
        for (const r of next.value) {
          chunk += csvRow([
            r.at.toISOString(),
            zagrebDateTime(r.at),
            r.requestId,
            r.method,
            endpointLabel(r.endpoint),
            r.status,
            Math.round(r.durationMs * 100) / 100,
            r.refused,
            r.keyPrefix,
            r.keyName,
            r.decision ? windowLabel(r.decision.window) : undefined,
            r.decision?.limit,
            r.decision?.remaining,
            r.decision?.retryAfter,
          ]);
        }
        controller.enqueue(encoder.encode(chunk));
      } catch (err) {
        console.error(err);
        controller.error(err);
      }
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="fiskal-zahtjevi-${stamp}.csv"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
