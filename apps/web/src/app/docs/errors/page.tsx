import type { Metadata } from "next";
import Link from "next/link";
import { ScrollToHash } from "~/components/ScrollToHash";

export const metadata: Metadata = { title: "Pogreške" };

// The same codes and statuses the API sends (apps/api/src/errors.ts); each doc_url points at #code.
const ERRORS: { code: string; status: number; when: string; what: string }[] = [
  { code: "validation_error", status: 400, when: "Neispravan JSON, ključ koji se u istom objektu ponavlja, ili vrijednost koja krši pravila (OIB bez ispravne kontrolne znamenke, iznos bez dvije decimale, zbrojevi e-računa koji se ne slažu, KPD šifra koja nije razine 5…).", what: "Polje details navodi putanju (path) i poruku za svaki problem. Ispravite zahtjev; ponavljanje istog zahtjeva neće uspjeti." },
  { code: "unauthorized", status: 401, when: "Nedostaje zaglavlje Authorization, ključ nije oblika fsk_test_…/fsk_live_…, nije poznat ili je opozvan.", what: "Provjerite ključ u portalu. Neprijavljeni zahtjevi broje se po IP adresi, pa ih ne ponavljajte u petlji." },
  { code: "forbidden", status: 403, when: "Ključ nema pravo na ovu radnju.", what: "Koristite ključ računa kojem radnja pripada." },
  { code: "not_found", status: 404, when: "Ruta ne postoji ili objekt (račun, e-račun, KPD šifra) ne postoji u vašem računu.", what: "Objekti drugih računa izgledaju kao da ne postoje." },
  { code: "method_not_allowed", status: 405, when: "Putanja postoji, ali s drugom metodom.", what: "Zaglavlje Allow navodi dopuštene metode." },
  { code: "idempotency_conflict", status: 409, when: "Idempotency-Key je već upotrijebljen za drugačije tijelo (details.reason = \"mismatch\"), prvi zahtjev s tim ključem još se obrađuje (\"in_progress\") ili je prvi zahtjev stao nakon što je Porezna uprava ili posrednik već postupio (\"outcome_unknown\").", what: "Za novi zahtjev pošaljite novi ključ; kod \"in_progress\" pričekajte Retry-After i ponovite isti zahtjev; kod \"outcome_unknown\" najprije provjerite je li račun zabilježen, pa tek onda šaljite s novim ključem." },
  { code: "conflict", status: 409, when: "Broj računa (poslovni prostor / naplatni uređaj) ili broj e-računa već je iskorišten.", what: "Postojeći objekt dohvatite s GET; za novi koristite sljedeći broj." },
  { code: "payload_too_large", status: 413, when: "Tijelo zahtjeva veće je od 1 MB.", what: "Podijelite podatke; skupni zahtjevi primaju do 100 vrijednosti." },
  { code: "unsupported_media_type", status: 415, when: "Tijelo nije application/json (parametar charset je dopušten).", what: "Pošaljite Content-Type: application/json." },
  { code: "rate_limit_exceeded", status: 429, when: "Jedan od prozora ograničenja odbio je zahtjev.", what: "Pričekajte Retry-After sekundi i ponovite." },
  { code: "internal_error", status: 500, when: "Pogreška na našoj strani.", what: "Ponovite kasnije; ako se ponavlja, javite nam vrijednost X-Request-Id." },
  { code: "upstream_unavailable", status: 503, when: "Porezna uprava (CIS) ili posrednik za e-račune trenutno nije dostupan ili ograničava promet.", what: "Pričekajte Retry-After i ponovite s istim Idempotency-Key — račun se neće fiskalizirati dvaput." },
  { code: "malformed_request", status: 400, when: "Sam HTTP zahtjev nije ispravan: CR, LF ili NUL u zaglavlju, preklopljeni redak (obs-fold), redak zaglavlja bez dvotočke, neispravan ili ponovljen Content-Length ili Content-Length uz Transfer-Encoding, neispravno tijelo u dijelovima (chunked), nekodirani ne-ASCII znakovi u adresi, HTTP/1.1 zahtjev bez zaglavlja Host, ponovljeno zaglavlje Host ili Content-Type.", what: "Polje details.reason kaže što je parser pronašao. Koristite ispravan HTTP klijent; veza se nakon odgovora zatvara." },
  { code: "request_timeout", status: 408, when: "Zaglavlja nisu stigla u 10 s ili cijeli zahtjev s tijelom u 30 s — npr. tijelo kraće od najavljenog Content-Length.", what: "Pošaljite cijeli zahtjev odjednom, s točnim Content-Length; veza se nakon odgovora zatvara." },
  { code: "headers_too_large", status: 431, when: "Zaglavlja zahtjeva zajedno s adresom (URL) veća su od 16 KB.", what: "Skratite zaglavlja ili adresu; veće skupove šifri šaljite skupnim zahtjevima." },
  { code: "expectation_failed", status: 417, when: "Zaglavlje Expect traži nešto osim 100-continue (jedino očekivanje koje API poznaje).", what: "Izostavite Expect ili pošaljite točno Expect: 100-continue; veza se nakon odgovora zatvara." },
  { code: "service_unavailable", status: 503, when: "Naša baza podataka nije odgovorila dok smo provjeravali API ključ.", what: "Ništa nije obrađeno ni naplaćeno: ponovite isti zahtjev nakon Retry-After sekundi." },
  { code: "outcome_unknown", status: 504, when: "Baza podataka prekinula je vezu upravo dok se račun ili e-račun spremao, pa nije poznato je li zabilježen. details.id je njegov id ako je zabilježen.", what: "Ponovite isti zahtjev s istim Idempotency-Key nakon Retry-After sekundi: dobit ćete njegov ishod, a ništa se ne fiskalizira ni šalje dvaput. Ako je zabilježen, Fiskal ga sam dovršava (naknadna dostava) čim baza ponovno odgovara." },
];

export default function ErrorsDoc() {
  return (
    <article data-testid="docs-errors">
      <ScrollToHash />
      <h1>Pogreške</h1>
      <p className="lead">
        Svaka pogreška, na svakoj ruti, ima isti oblik. Na tRPC sučelju isti <code>code</code>, <code>message</code> i{" "}
        <code>doc_url</code> stižu u <code>error.data</code>.
      </p>
      <pre tabIndex={0}>{`{
  "error": {
    "code": "validation_error",
    "message": "Račun nije ispravan.",
    "doc_url": "…/docs/errors#validation_error",
    "details": [{ "path": "oib", "message": "OIB nema ispravnu kontrolnu znamenku." }]
  }
}`}</pre>
      <p>
        I odgovori s pogreškom nose zaglavlja ograničenja (<Link href="/docs/rate-limits#zaglavlja">X-RateLimit-*</Link>) i{" "}
        <code>X-Request-Id</code>. Poruke su na hrvatskom; kodovi su stabilni i na njih se možete osloniti u kodu.
      </p>
      <table className="data stack">
        <thead>
          <tr>
            <th>Kod</th>
            <th className="num">Status</th>
            <th>Kada</th>
            <th>Što učiniti</th>
          </tr>
        </thead>
        <tbody>
          {ERRORS.map((e) => (
            <tr key={e.code} id={e.code}>
              <td data-label="Kod">
                <code>{e.code}</code>
              </td>
              <td data-label="Status" className="num">{e.status}</td>
              <td data-label="Kada">{e.when}</td>
              <td data-label="Što učiniti">{e.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
