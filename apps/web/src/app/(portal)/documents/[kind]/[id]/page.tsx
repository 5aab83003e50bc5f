import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { formatDateTime } from "~/lib/format";
import { serverApi } from "~/server/api";
import { FISCALIZATION_LABELS, label, RECEIVED_FISCALIZATION_LABELS, RECEIVED_STATUS_LABELS, REJECTION_REASONS, REPORT_LABELS, STATUS_LABELS, VALIDATION_LABELS } from "../../labels";
import css from "../../documents.module.css";
import { ReceivedDecision } from "./ReceivedDecision";

export const metadata: Metadata = { title: "Dokument" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function Field({ name, children, testId }: { name: string; children: React.ReactNode; testId?: string }) {
  return (
    <>
      <dt>{name}</dt>
      <dd data-testid={testId} style={{ overflowWrap: "anywhere" }}>
        {children}
      </dd>
    </>
  );
}

/** The page's heading: the way back to its list, the title and, for an e-invoice, the UBL download. */
function Head({ back, title, ubl }: { back: string; title: string; ubl?: string }) {
  return (
    <div className="page-head">
      <div>
        <p>
          <Link href={back}>← Dokumenti</Link>
        </p>
        <h1>{title}</h1>
      </div>
      {ubl ? (
        <a className="btn secondary small" href={ubl} download data-testid="document-ubl">
          Preuzmi UBL (XML)
        </a>
      ) : null}
    </div>
  );
}

function Archived({ files }: { files: { name: string; sha256: string; seq: number }[] }) {
  return (
    <section className="card section" aria-labelledby="archived-title">
      <h2 id="archived-title">Arhiva</h2>
      {files.length === 0 ? (
        <p data-testid="archive-none">Dokument još nije u arhivi: ulazi u nju kad je konačan (s JIR-om, odnosno isporučen), najkasnije pri sljedećem izvozu.</p>
      ) : (
        <ul data-testid="archive-files">
          {files.map((f) => (
            <li key={f.seq}>
              <span className="mono">{f.name}</span> — zapis {f.seq}, SHA-256 <span className="mono">{f.sha256.slice(0, 16)}…</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A received e-invoice: the document as delivered, its validation, Fiscalization 2.0 (type U) and the recipient's decision. */
async function Received({ id }: { id: string }) {
  const r = await (await serverApi()).documents.received({ id });
  const number = r.number ?? "(nečitljiv dokument)";
  const reason = REJECTION_REASONS.find((x) => x.value === r.rejectionReasonType)?.label ?? r.rejectionReasonType;
  return (
    <>
      <Head back="/documents?kind=received" title={`Primljeni e-račun ${number}`} ubl={`/documents/received/${r.id}/ubl`} />
      <section className="card section" aria-labelledby="decision-title-section">
        <h2 id="decision-title-section">Odluka primatelja</h2>
        <dl className={css.facts} data-testid="received-decision">
          <Field name="Odluka" testId="document-status">{label(RECEIVED_STATUS_LABELS, r.status)}</Field>
          {r.decidedAt ? <Field name="Odlučeno">{`${formatDateTime(r.decidedAt)}${r.decidedBy ? `, ${r.decidedBy}` : ""}`}</Field> : null}
          {r.status === "rejected" ? (
            <>
              <Field name="Vrsta razloga" testId="rejection-type">{reason}</Field>
              <Field name="Razlog" testId="rejection-reason">{r.rejectionReason}</Field>
              <Field name="Datum odbijanja">{r.rejectionDate}</Field>
              <Field name="Prijava odbijanja" testId="rejection-report">
                {label(REPORT_LABELS, r.rejectionReportStatus)}
                {r.rejectionReportedAt ? ` ${formatDateTime(r.rejectionReportedAt)}` : ""}
              </Field>
              {r.rejectionReportError ? <Field name="Odgovor Porezne uprave">{r.rejectionReportError}</Field> : null}
            </>
          ) : null}
        </dl>
        <ReceivedDecision id={r.id} number={number} decidable={r.decidable} canDecide={r.canDecide} again={r.status === "rejected"} />
      </section>
      <section className="card section" aria-labelledby="received-title">
        <h2 id="received-title">Dokument i provjera</h2>
        <dl className={css.facts} data-testid="document-detail">
          <Field name="Provjera" testId="document-validation">{label(VALIDATION_LABELS, r.validationStatus)}</Field>
          <Field name="Provjereno">{r.validation.checked.join(", ") || "—"}</Field>
          <Field name="Fiskalizacija 2.0 (U)" testId="document-fiscalization">
            {label(RECEIVED_FISCALIZATION_LABELS, r.fiscalizationStatus ?? (r.validationStatus === "valid" ? "pending" : "not_fiscalized"))}
          </Field>
          <Field name="Evidentiran">{r.fiscalizedAt ? formatDateTime(r.fiscalizedAt) : "—"}</Field>
          {r.fiscalizationError ? <Field name="Pogreška fiskalizacije">{r.fiscalizationError}</Field> : null}
          <Field name="Izdavatelj">{`${r.sellerName ? `${r.sellerName}, ` : ""}OIB ${r.sellerOib ?? "—"}`}</Field>
          <Field name="OIB primatelja">{r.buyerOib}</Field>
          <Field name="Vrsta dokumenta">{r.documentType ?? "—"}</Field>
          <Field name="Datum izdavanja">{r.issueDate ?? "—"}</Field>
          <Field name={`Iznos s PDV-om (${r.currency ?? "EUR"})`}>{r.gross ?? "—"}</Field>
          <Field name="Za platiti">{r.payable ?? "—"}</Field>
          <Field name="Zaprimljen">{formatDateTime(r.receivedAt)}</Field>
          <Field name="SHA-256 dokumenta">
            <span className="mono">{r.ublSha256}</span>
          </Field>
        </dl>
        {r.validation.violations.length > 0 ? (
          <>
            <h3>Nalazi provjere</h3>
            <ul data-testid="document-violations">
              {r.validation.violations.map((v, i) => (
                <li key={i}>
                  <span className="mono">{v.rule}</span> ({v.flag === "fatal" ? "greška" : "upozorenje"}): <span lang="en">{v.message}</span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
      <Archived files={r.archived} />
    </>
  );
}

export default async function DocumentPage({ params }: { params: Promise<{ kind: string; id: string }> }) {
  const { kind, id } = await params;
  if (!UUID.test(id) || (kind !== "receipts" && kind !== "einvoices" && kind !== "received")) notFound();
  const api = await serverApi();
  if (kind === "received") return <Received id={id} />;
  if (kind === "receipts") {
    const r = await api.documents.receipt({ id });
    return (
      <>
        <Head back="/documents?kind=receipts" title={`Račun ${r.number}`} />
        <section className="card section" aria-labelledby="receipt-title">
          <h2 id="receipt-title">Fiskalizacija</h2>
          <dl className={css.facts} data-testid="document-detail">
            <Field name="Stanje" testId="document-status">{label(STATUS_LABELS, r.status)}</Field>
            <Field name="JIR">{r.jir ?? "—"}</Field>
            <Field name="ZKI">{r.zki}</Field>
            <Field name="Izdan">{formatDateTime(r.issuedAt)}</Field>
            <Field name="Zaprimljen u Poreznoj upravi">{r.fiscalizedAt ? formatDateTime(r.fiscalizedAt) : "—"}</Field>
            <Field name="Naknadna dostava">{r.lateDelivery ? `da (${r.attempts} slanja)` : "ne"}</Field>
            {r.lastError ? <Field name="Zadnja pogreška">{r.lastError}</Field> : null}
            <Field name="Iznos (EUR)">{r.total}</Field>
            <Field name="OIB kupca">{r.buyerOib ?? "—"}</Field>
          </dl>
          <figure className={css.qr}>
            <div role="img" aria-label="QR kod za provjeru računa" data-testid="document-qr" dangerouslySetInnerHTML={{ __html: r.qrSvg }} />
            <figcaption className="mono" style={{ overflowWrap: "anywhere", fontSize: "0.8rem" }}>
              {r.qrUrl}
            </figcaption>
          </figure>
        </section>
        <Archived files={r.archived} />
      </>
    );
  }
  const e = await api.documents.einvoice({ id });
  return (
    <>
      <Head back="/documents" title={`E-račun ${e.number}`} ubl={`/documents/einvoices/${e.id}/ubl`} />
      <section className="card section" aria-labelledby="einvoice-title">
        <h2 id="einvoice-title">Isporuka i fiskalizacija</h2>
        <dl className={css.facts} data-testid="document-detail">
          <Field name="Stanje isporuke" testId="document-status">{label(STATUS_LABELS, e.status)}</Field>
          <Field name="Fiskalizacija 2.0" testId="document-fiscalization">
            {label(FISCALIZATION_LABELS, e.fiscalizationStatus ?? (e.status === "accepted" || e.status === "queued" ? "pending" : "not_delivered"))}
          </Field>
          <Field name="Evidentiran">{e.fiscalizedAt ? formatDateTime(e.fiscalizedAt) : "—"}</Field>
          {e.fiscalizationError ? <Field name="Pogreška fiskalizacije">{e.fiscalizationError}</Field> : null}
          <Field name="Vrsta dokumenta">{e.documentType}</Field>
          <Field name="Datum i vrijeme izdavanja">
            {e.issueDate} {e.issueTime}
          </Field>
          <Field name="OIB prodavatelja">{e.sellerOib}</Field>
          <Field name="OIB kupca">{e.buyerOib ?? "—"}</Field>
          <Field name="Iznos s PDV-om (EUR)">{e.gross}</Field>
          <Field name="Posrednik">{e.intermediaryId ?? "—"}</Field>
          {e.rejection ? <Field name="Razlog odbijanja">{`${e.rejection.message} (${e.rejection.rules.join(", ")})`}</Field> : null}
        </dl>
        <h3>Povijest</h3>
        <ol data-testid="document-history">
          <li>Predan posredniku{e.sentAt ? ` ${formatDateTime(e.sentAt)}` : ""}</li>
          {e.fiscalizedAt ? <li>Evidentiran u Poreznoj upravi {formatDateTime(e.fiscalizedAt)}</li> : null}
          {e.reports.map((r, i) => (
            <li key={i}>
              {r.kind === "payment" ? "Prijavljena naplata" : "Prijavljeno odbijanje"} {formatDateTime(r.at)} ({r.status === "recorded" ? "zaprimljeno" : r.status})
            </li>
          ))}
        </ol>
      </section>
      <Archived files={e.archived} />
    </>
  );
}
