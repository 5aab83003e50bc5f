// The archive export of a period from the portal: the same ZIP as GET /v1/archive/export (documents,
// evidence, manifest.json and manifest.csv), streamed, for a member of the account. It holds what
// the API has sealed: it seals every 10 minutes and before each API export.
import { exportArchive } from "@fiskal/accounts";
import { portalUrl } from "~/env";
import { currentSession } from "~/server/auth";
import { db } from "~/server/db";
import { parsePeriod } from "~/lib/days";
import { EXPORT_PERIOD } from "../export-period";

export const dynamic = "force-dynamic";

function errorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message, doc_url: `${portalUrl()}/docs/errors#${code}` } }, { status, headers: { "Cache-Control": "no-store" } });
}

export async function GET(request: Request): Promise<Response> {
  const session = await currentSession();
  const userId = session?.user.id;
  if (!userId) return errorResponse(401, "unauthorized", "Prijavite se za izvoz arhive.");
  const client = db();
  const user = await client.user.findUnique({ where: { id: userId }, select: { accountId: true } });
  const member = user && (await client.membership.findUnique({ where: { userId_accountId: { userId, accountId: user.accountId } }, select: { role: true } }));
  if (!user || !member) return errorResponse(403, "forbidden", "Niste član tima ovog računa.");
  const params = new URL(request.url).searchParams;
  // Days as typed in the page ("20. 11. 2026.") or as in a link ("2026-11-20"), checked by the same parser as the page.
  const rawFrom = params.get("from") ?? "";
  const rawTo = params.get("to") ?? "";
  const { from, to, errors } = parsePeriod({ from: rawFrom, to: rawTo }, EXPORT_PERIOD);
  if (!from || !to || errors.from || errors.to) {
    // The page's form: back to it with the days as typed, where each wrong one gets its message and
    // the first takes the focus (autofocus, which scrolls it into view; a #fragment would cancel it).
    if (request.headers.get("sec-fetch-dest") === "document" || (request.headers.get("accept") ?? "").includes("text/html")) {
      const back = new URLSearchParams({ archive_from: rawFrom.slice(0, 40), archive_to: rawTo.slice(0, 40) });
      return new Response(null, { status: 303, headers: { Location: `/documents?${back.toString()}`, "Cache-Control": "no-store" } });
    }
    return errorResponse(400, "validation_error", `Razdoblje izvoza: ${[errors.from, errors.to].filter(Boolean).join(" ")} Ništa nije preuzeto.`);
  }
  const chunks = exportArchive(client, user.accountId, { from, to });
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value));
      } catch (err) {
        // A cut connection: a truncated ZIP never verifies.
        controller.error(err);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(stream, {
    headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="fiskal-arhiva-${from}-${to}.zip"`, "Cache-Control": "no-store" },
  });
}
