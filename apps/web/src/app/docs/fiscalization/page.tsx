import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Fiskalizacija računa" };

// The receipt model, the QR code and the signing certificate, as README.md describes them for the API.
const FIELDS: [string, string, string][] = [
  ["oib", "Oib", "OIB izdavatelja; mora biti OIB iz certifikata."],
  ["issued_at", "DatVrijeme", "Vrijeme izdavanja (ISO 8601 s vremenskom zonom); šalje se kao zagrebačko vrijeme."],
  ["number, premises, device", "BrRac", "Broj bez vodećih nula, oznaka poslovnog prostora, oznaka naplatnog uređaja bez vodećih nula."],
  ["sequence", "OznSlijed", "Obavezno: P ako brojevi idu po poslovnom prostoru, N ako idu po naplatnom uređaju."],
  ["vat_registered", "USustPdv", "Obavezno: je li izdavatelj u sustavu PDV-a."],
  ["operator_oib", "OibOper", "Obavezno: OIB operatera (za samoposlužne uređaje OIB izdavatelja). Bez njega zahtjev je odbijen (400)."],
  ["total", "IznosUkupno", "Ukupni iznos s dvije decimale; negativan za storno."],
  ["payment_method", "NacinPlac", "G gotovina, K kartice, T transakcijski račun, O ostalo ili više načina. Ček (C) Porezna uprava više ne prima."],
  ["vat", "Pdv", "PDV po stopama: `[{rate, base, amount}]`, svaka stopa jednom (0, 5, 10, 13, 25 %)."],
  ["consumption_tax", "Pnp", "Porez na potrošnju po stopama, najviše 3 %."],
  ["other_taxes", "OstaliPor", "Ostali porezi: `[{name, rate, base, amount}]`."],
  ["exempt_amount, margin_amount, not_taxable_amount", "IznosOslobPdv, IznosMarza, IznosNePodlOpor", "Iznos oslobođenja, iznos po posebnom postupku oporezivanja marže, iznos koji ne podliježe oporezivanju."],
  ["fees", "Naknade", "Naknade: `[{name, amount}]`, npr. povratna naknada za ambalažu."],
  ["buyer_oib", "OibPrimateljaRacuna", "Samo za B2B račune; ne uz način plaćanja T."],
  ["paragon_number", "ParagonBrRac", "Paragon račun koji se naknadno prijavljuje nakon kvara uređaja (šalje se kao naknadna dostava)."],
  ["special_purpose", "SpecNamj", "Samo kad to Porezna uprava zatraži."],
  ["storno_of", "—", "Id računa koji storno poništava (čuva ga Fiskal; Porezna uprava za to nema polje)."],
];

export default function FiscalizationDoc() {
  return (
    <article data-testid="docs-fiscalization">
      <h1>Fiskalizacija računa</h1>
      <p className="lead">
        <code>POST /v1/invoices/fiscalize</code> prima sva polja sheme <code>RacunType</code> Porezne uprave, izračuna zaštitni kod izdavatelja
        (ZKI), pošalje račun Poreznoj upravi i vrati JIR te sadržaj QR koda. Nepoznata polja odbijaju se s imenom polja; ništa se ne
        prešućuje.
      </p>

      <h2 id="model">Podaci računa</h2>
      <div className="table-wrap">
        <table className="data stack">
          <thead>
            <tr>
              <th>Polje</th>
              <th>U shemi</th>
              <th>Značenje</th>
            </tr>
          </thead>
          <tbody>
            {FIELDS.map(([field, schema, meaning]) => (
              <tr key={field}>
                <td>
                  <code>{field}</code>
                </td>
                <td>
                  <code>{schema}</code>
                </td>
                <td>{withCode(meaning)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        Oznaku naknadne dostave (<code>NakDost</code>) postavlja sustav, nikad zahtjev: kad se račun izdan bez JIR-a naknadno dostavi Poreznoj
        upravi, a odgovor je prikazuje kao <code>late_delivery</code>. Prije slanja provjeravamo kontrolne znamenke OIB-a, vrijeme izdavanja,
        iznos poreza svake stope (osnovica × stopa, uz odstupanje od najviše jednog centa), predznake te smije li izdavatelj uopće
        iskazati PDV. Svaki problem dobiva svoju putanju u <code>details</code>.
      </p>
      <p>
        <strong>Storno</strong> je račun s negativnim iznosima i vlastitim brojem. U <code>storno_of</code> navedite id računa koji poništava:
        mora biti vaš, istog izdavatelja i s pozitivnim iznosom koji storno ne premašuje (djelomični storno je dopušten).
      </p>

      <h2 id="qr">QR kod</h2>
      <p>
        Svaki račun nosi <code>qr_url</code>, sadržaj QR koda kako ga propisuje tehnička specifikacija (pogl. 2.7):{" "}
        <code>https://porezna.gov.hr/rn?jir=…&amp;datv=GGGGMMDD_HHMM&amp;izn=…</code>, a dok račun nema JIR, sa <code>zki=</code>. Iznos je u
        centima, bez vodećih nula, s minusom za storno. Sliku daje <code>GET /v1/invoices/&#123;id&#125;/qr?format=svg</code> (ili{" "}
        <code>png&amp;size=300</code>): SVG je zadan u milimetrima tako da se ispisuje najmanje 2 × 2 cm s praznim rubom.
      </p>

      <h2 id="certifikat">Certifikat</h2>
      <p>
        Račune potpisuje aplikacijski certifikat FINA-e za OIB vaše tvrtke. Dok ga ne učitate, prvi račun dobiva generirani testni
        certifikat koji prihvaćaju samo simulator i demo okolina. Certifikat (.p12/.pfx i lozinku) učitajte u portalu na stranici{" "}
        <Link href="/certificates">Certifikat</Link>, preko API-ja (<code>PUT /v1/certificate</code> s datotekom u base64) ili naredbom{" "}
        <code>pnpm fiskal certificate upload</code>. Certifikat mora biti važeći i izdan za OIB tvrtke. Privatni ključ čuvamo šifriran
        (AES-256-GCM), nikad ga ne vraćamo ni zapisujemo u dnevnike; lozinku ne pohranjujemo. Portal upozorava 30 dana prije isteka.
      </p>

      <h2 id="produkcija">Od testnog certifikata do produkcije</h2>
      <ol>
        <li>Razvijajte uz simulator: računi se potpisuju testnim certifikatom i dobivaju simulirani JIR.</li>
        <li>Zatražite od FINA-e demo aplikacijski certifikat, učitajte ga i fiskalizirajte probne račune u demo okolini Porezne uprave.</li>
        <li>
          Prijavite poslovne prostore kroz aplikaciju Porezne uprave; oznake <code>premises</code> i <code>device</code> na računima moraju biti
          upravo prijavljene, a <code>sequence</code> mora odgovarati načinu na koji dodjeljujete brojeve.
        </li>
        <li>Zatražite produkcijski certifikat, učitajte ga i prijeđite na produkcijsku okolinu Porezne uprave.</li>
        <li>Na svaki račun ispišite ZKI, JIR i QR kod; certifikat obnovite prije isteka.</li>
      </ol>
      <h2 id="naknadna-dostava">Kad Porezna uprava nije dostupna</h2>
      <p>
        Ako se Porezna uprava ne javi na vrijeme (nedostupna veza, istek vremena, sistemska pogreška s006 ili odgovor bez ispravnog potpisa),
        račun se izdaje samo sa ZKI-jem: odgovor je <code>200</code> sa <code>status: &quot;pending&quot;</code>, <code>jir: null</code> i QR
        kodom sa ZKI-jem, kako Zakon o fiskalizaciji (čl. 21.) dopušta. Fiskal ga zatim sam naknadno dostavlja s oznakom naknadne dostave
        (NakDost) dok ne dobije JIR, unutar zakonskog roka od dva radna dana. Tada <code>GET /v1/invoices/{"{id}"}</code> pokazuje JIR i{" "}
        <code>late_delivery: true</code>, a webhook <code>invoice.fiscalized</code> javlja promjenu. Isti broj računa ne šaljite ponovno
        (odgovor je <code>409</code> s razlogom <code>late_delivery</code>). Pogreške s001–s005 su vaše za ispraviti i vraćaju se kao{" "}
        <code>validation_error</code> s kodom u <code>details.cis_code</code>.
      </p>
      <p>
        Nakon isporuke e-računa Fiskal ga evidentira kod Porezne uprave (Fiskalizacija 2.0); naplatu i odbijanje prijavljujete pozivima{" "}
        <code>POST /v1/einvoices/{"{id}"}/payments</code> i <code>POST /v1/einvoices/{"{id}"}/rejection</code>, a stanje vidite na{" "}
        <code>GET /v1/einvoices/{"{id}"}/fiscalization</code>.
      </p>
      <p>
        Pogreške i njihova značenja: <Link href="/docs/errors#validation_error">validation_error</Link>,{" "}
        <Link href="/docs/errors#upstream_unavailable">upstream_unavailable</Link>.
      </p>
    </article>
  );
}

/** Text with `code` spans: field shapes are shown as code, not as words of the sentence. */
function withCode(text: string) {
  return text.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}
