import { zagrebDate } from "@fiskal/fiscal/zagreb";
import type { Metadata } from "next";
import Link from "next/link";
import { FilterField, FilterSubmit } from "~/components/FilterField";
import { MoreLink } from "~/components/MoreLink";
import { croatianDay, parsePeriod } from "~/lib/days";
import { first } from "~/lib/usage-view";
import { serverApi } from "~/server/api";
import css from "~/components/usage.module.css";
import { EXPORT_PERIOD } from "./export-period";
import { DocumentsTable } from "./DocumentsTable";
import { KINDS, label, RECEIVED_STATUS_LABELS, STATUS_LABELS, type Kind } from "./labels";
import { ReportingNotice } from "./ReportingNotice";

export const metadata: Metadata = { title: "Dokumenti" };

const OIB = /^\d{11}$/;

/** What a day field shows: a valid day the Croatian way, anything else as typed (to be corrected). */
const shown = (day: string | undefined, raw: string | undefined) => (day ? croatianDay(day) : (raw ?? ""));

export default async function DocumentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const kind: Kind = KINDS.find((k) => k.value === first(sp.kind))?.value ?? "einvoices";
  // The other party: the buyer of what the account issued, the issuer of what it received.
  const oibParam = kind === "received" ? "seller_oib" : "buyer_oib";
  const oibLabel = kind === "received" ? "OIB izdavatelja" : "OIB kupca";
  // Days come typed ("20. 11. 2026.") or from a link ("2026-11-20"); both are checked here, never by the browser.
  const period = parsePeriod({ from: first(sp.from), to: first(sp.to) });
  const { from, to } = period;
  const status = /^[a-z_]{1,20}$/.test(first(sp.status) ?? "") ? first(sp.status) : undefined;
  const number = (first(sp.number) ?? "").trim().slice(0, 100) || undefined;
  const oibText = (first(sp[oibParam]) ?? "").trim();
  const oib = OIB.test(oibText) ? oibText : undefined;
  const errors = { ...period.errors, ...(oibText && !oib ? { oib: `${oibLabel} ima točno 11 znamenki, npr. 69435151530.` } : {}) };
  const invalid = Object.keys(errors).length > 0;
  const cursor = /^\d{13}_[0-9a-f-]{36}$/.test(first(sp.cursor) ?? "") ? first(sp.cursor) : undefined;
  // A refused archive export comes back here (303 from /documents/export) with the days as typed.
  const archiveFrom = first(sp.archive_from);
  const archiveTo = first(sp.archive_to);
  const archive = archiveFrom !== undefined || archiveTo !== undefined ? parsePeriod({ from: archiveFrom, to: archiveTo }, EXPORT_PERIOD) : null;
  const api = await serverApi();
  const page = invalid ? { items: [], next: null } : await api.documents.list({ kind, from, to, status, number, ...(kind === "received" ? { sellerOib: oib } : { buyerOib: oib }), cursor });
  const filters = { kind, ...(from ? { from } : {}), ...(to ? { to } : {}), ...(status ? { status } : {}), ...(number ? { number } : {}), ...(oib ? { [oibParam]: oib } : {}) };
  const nextHref = page.next ? `/documents?${new URLSearchParams({ ...filters, cursor: page.next }).toString()}` : null;
  const today = zagrebDate(new Date());
  const monthStart = `${today.slice(0, 8)}01`;
  const statuses = kind === "receipts" ? ["fiscalized", "pending"] : kind === "received" ? ["received", "accepted", "rejected"] : ["accepted", "queued", "rejected", "pending"];
  // The first field with a message takes the focus when the page loads.
  const focus = [errors.from && "from", errors.to && "to", errors.oib && "oib", archive?.errors.from && "archive-from", archive?.errors.to && "archive-to"].find(Boolean);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Dokumenti</h1>
          <p>
            Izdani računi i e-računi vašeg računa tvrtke te e-računi koje ste primili, od najnovijeg, sa stanjem fiskalizacije. Svaki dokument čuva se
            u izvornom obliku najmanje šest godina nakon godine izdavanja (čl. 35. Zakona o fiskalizaciji).
          </p>
        </div>
      </div>

      <ReportingNotice link={false} />

      <section className="card flush section" aria-labelledby="documents-title">
        <div className="card-head">
          <h2 id="documents-title">{KINDS.find((k) => k.value === kind)!.label}</h2>
          <span className="hint">najnoviji prvi</span>
        </div>
        <nav className={css.tabs} style={{ padding: "12px 20px 0" }} aria-label="Vrsta dokumenata">
          {KINDS.map((k) => (
            <Link key={k.value} className={css.tab} href={k.value === "einvoices" ? "/documents" : `/documents?kind=${k.value}`} aria-current={kind === k.value ? "page" : undefined} data-testid={`documents-kind-${k.value}`}>
              {k.label}
            </Link>
          ))}
        </nav>
        <form className={css.filters} action="/documents" method="get" noValidate data-testid="documents-filter">
          {kind !== "einvoices" ? <input type="hidden" name="kind" value={kind} /> : null}
          <FilterField id="documents-from" name="from" label="Od datuma" day value={shown(from, first(sp.from))} error={errors.from} autoFocus={focus === "from"} />
          <FilterField id="documents-to" name="to" label="Do datuma (uključivo)" day value={shown(to, first(sp.to))} error={errors.to} autoFocus={focus === "to"} />
          <label>
            Stanje
            <select name="status" defaultValue={status ?? ""} data-testid="documents-status">
              <option value="">Sva stanja</option>
              {statuses.map((s) => (
                <option key={s} value={s}>
                  {label(kind === "received" ? RECEIVED_STATUS_LABELS : STATUS_LABELS, s)}
                </option>
              ))}
            </select>
          </label>
          <label>
            Broj
            <input type="text" name="number" defaultValue={number ?? ""} maxLength={100} data-testid="documents-number" />
          </label>
          <FilterField id="documents-buyer" name={oibParam} label={oibLabel} value={oibText} error={errors.oib} autoFocus={focus === "oib"} maxLength={20} inputMode="numeric" />
          <FilterSubmit />
        </form>

        {invalid ? (
          <div className="empty" data-testid="documents-invalid">
            <strong>Ispravite označena polja</strong>
            Dokumenti se prikazuju kad su svi filtri ispravni.
          </div>
        ) : page.items.length === 0 ? (
          <div className="empty" data-testid="documents-empty">
            <strong>Nema dokumenata</strong>
            Nijedan dokument ne odgovara odabranim filtrima.
          </div>
        ) : (
          <DocumentsTable kind={kind} items={page.items} />
        )}
        <MoreLink href={nextHref} label="Stariji dokumenti" testId="documents-next" end={page.items.length > 0 ? "To su svi dokumenti koji odgovaraju filtrima." : null} />
      </section>

      <section className="card section" aria-labelledby="archive-title">
        <h2 id="archive-title">Arhiva i izvoz</h2>
        <p>
          ZIP s izvornim dokumentima izdanima i primljenima u razdoblju, dokazima fiskalizacije i manifestom (CSV i JSON) sa SHA-256 sažetkom svake datoteke i
          lancem sažetaka. Cjelovitost provjerava naredba <code>pnpm fiskal archive verify DATOTEKA.zip</code>; isti izvoz daje i API (
          <code>GET /v1/archive/export</code>). Dokument ulazi u arhivu kad je konačan, najkasnije za 10 minuta.
        </p>
        <form className={css.filters} action="/documents/export" method="get" noValidate data-testid="archive-export">
          <FilterField id="archive-from" name="from" label="Od datuma" day value={archive ? shown(archive.from, archiveFrom) : croatianDay(from ?? monthStart)} error={archive?.errors.from} autoFocus={focus === "archive-from"} />
          <FilterField id="archive-to" name="to" label="Do datuma (uključivo)" day value={archive ? shown(archive.to, archiveTo) : croatianDay(to ?? today)} error={archive?.errors.to} autoFocus={focus === "archive-to"} />
          <FilterSubmit label="Preuzmi ZIP" testId="archive-download" />
        </form>
      </section>
    </>
  );
}
