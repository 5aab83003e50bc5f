import { ENDPOINT_LIMITS } from "@fiskal/limits";
import Link from "next/link";
import { redirect } from "next/navigation";
import { PlansTable } from "~/components/PlansTable";
import { PublicHeader } from "~/components/PublicHeader";
import { landingPath } from "~/lib/auth-messages";
import { currentSessionOrNull } from "~/server/session";

export const dynamic = "force-dynamic";

export default async function Home() {
  const session = await currentSessionOrNull();
  if (session) redirect(landingPath(session.user.role));
  return (
    <>
      <PublicHeader />
      <main id="sadrzaj">
        <section className="hero">
          <div>
            <span className="badge primary">Fiskalizacija 1.0 i 2.0 · KPD 2025 · OIB</span>
            <h1 style={{ marginTop: 14 }}>API za fiskalizaciju s ograničenjima koja razumijete.</h1>
            <p className="lead">
              Fiskalizirajte račune, šaljite e-račune, tražite KPD šifre i provjeravajte OIB kroz jedan REST API. Svaki
              odgovor kaže koliko vam zahtjeva preostaje i kada se brojač obnavlja.
            </p>
            <div className="row-actions">
              <Link className="btn" href="/signup" data-testid="cta-signup">
                Otvorite besplatni račun
              </Link>
              <Link className="btn secondary" href="/docs/rate-limits">
                Kako rade ograničenja
              </Link>
            </div>
          </div>
          <div className="card flush">
            <div className="card-head">
              <h2>Paketi</h2>
              <span className="hint">zahtjeva po računu</span>
            </div>
            <div className="table-wrap" style={{ marginTop: 12 }}>
              <PlansTable enterprise="po dogovoru" burstLabel="U sekundi" />
            </div>
          </div>
        </section>
        <section className="features" aria-label="Mogućnosti">
          <div className="card">
            <h3>Fiskalizacija računa</h3>
            <p>ZKI i JIR za svaki račun, uz Idempotency-Key da se nijedan račun ne fiskalizira dvaput. Do {ENDPOINT_LIMITS.fiscalize.perMinute} u minuti.</p>
          </div>
          <div className="card">
            <h3>E-računi</h3>
            <p>UBL 2.1 prema EN 16931 i HR CIUS, predani posredniku. Do {ENDPOINT_LIMITS.einvoice.perMinute} u minuti.</p>
          </div>
          <div className="card">
            <h3>KPD 2025 i OIB</h3>
            <p>Pretraga šifri bez obzira na dijakritike i provjera OIB-a, pojedinačno ili do 100 odjednom kao jedan zahtjev.</p>
          </div>
          <div className="card">
            <h3>Pošteni limiti</h3>
            <p>Kvota se dijeli na razini računa, odbijeni zahtjevi ne troše dnevnu kvotu, a Retry-After nikad nije prerano.</p>
          </div>
        </section>
      </main>
      <footer className="footer">Fiskal · API za fiskalizaciju u Hrvatskoj</footer>
    </>
  );
}
