// The e-invoice's UBL document as stored (issued: as delivered to the intermediary; received: as the
// intermediary delivered it), as a download; only a member of the document's own account.
import { currentSession } from "~/server/auth";
import { db } from "~/server/db";

export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function GET(_request: Request, { params }: { params: Promise<{ kind: string; id: string }> }): Promise<Response> {
  const { kind, id } = await params;
  const session = await currentSession();
  const userId = session?.user.id;
  if (!userId) return Response.json({ error: { code: "unauthorized", message: "Prijavite se za preuzimanje dokumenta." } }, { status: 401 });
  const client = db();
  const user = await client.user.findUnique({ where: { id: userId }, select: { accountId: true } });
  const member = user && (await client.membership.findUnique({ where: { userId_accountId: { userId, accountId: user.accountId } }, select: { role: true } }));
  if (!user || !member) return Response.json({ error: { code: "forbidden", message: "Niste član tima ovog računa." } }, { status: 403 });
  // Issued: the bytes delivered to the intermediary; received: the bytes the intermediary delivered.
  const where = { id, accountId: user.accountId };
  const row = !UUID.test(id)
    ? null
    : kind === "einvoices"
      ? await client.eInvoice.findFirst({ where, select: { number: true, ubl: true } })
      : kind === "received"
        ? await client.receivedEInvoice.findFirst({ where, select: { number: true, ubl: true } })
        : null;
  if (!row) return Response.json({ error: { code: "not_found", message: "E-račun ne postoji." } }, { status: 404 });
  const filename = `${kind === "received" ? "primljeni-" : ""}e-racun-${(row.number ?? id).replace(/[^0-9A-Za-z._-]+/g, "_")}.xml`;
  return new Response(row.ubl, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" },
  });
}
