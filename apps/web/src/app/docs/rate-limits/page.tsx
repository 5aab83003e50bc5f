import { ANONYMOUS_LIMITS, ANONYMOUS_SCOPE, ENDPOINT_LIMITS } from "@fiskal/limits";
import type { Metadata } from "next";
import Link from "next/link";
import { ScrollToHash } from "~/components/ScrollToHash";
import { portalUrl } from "~/env";
import { PlansTable } from "~/components/PlansTable";
import { formatInt, PLAN_LABELS } from "~/lib/format";
import { CLIENT_SAMPLE } from "./client-sample";
import { examples, headerBlock } from "./example";

export const metadata: Metadata = { title: "Ograničenja zahtjeva" };


/** Links inside running text are underlined, so they do not stand out by colour alone. */
const INLINE_LINK = { textDecoration: "underline", textUnderlineOffset: "2px" } as const;

export default function RateLimitsDoc() {
  const docUrl = `${portalUrl()}/docs/rate-limits`;
  const ex = examples(docUrl);
  return (
    <article data-testid="docs-rate-limits">
      <ScrollToHash />
      <h1>Ograničenja zahtjeva</h1>
      <p className="lead">
        Fiskal ograničava broj zahtjeva po <strong>računu</strong>: svi ključevi jednog računa dijele istu kvotu. Ograničenja su točna:
        ni u jednom razdoblju ne propuštamo više zahtjeva nego što ograničenje dopušta, a zahtjev odbijamo tek kad bi se njegovim
        propuštanjem ograničenje prekoračilo.
        Svaki odgovor API-ja kaže koliko vam je zahtjeva preostalo i kada se kvota povećava, a odbijeni zahtjev kaže koliko točno trebate
        pričekati.
      </p>

      <h2 id="paketi">Paketi</h2>
      <div className="table-wrap" role="region" aria-labelledby="paketi" tabIndex={0}>
        <PlansTable enterprise="po dogovoru — operater postavlja ograničenja za vaš račun" />
      </div>
      <p>
        Za Enterprise račune operater postavlja ograničenje u sekundi, u minuti i dnevno te po potrebi ograničenja pojedinih skupina
        endpointa: najviše {formatInt(10_000_000)} zahtjeva u sekundi, u minuti i po skupini endpointa te najviše{" "}
        {formatInt(1_000_000_000)} zahtjeva dnevno.
      </p>

      <h2 id="endpointi">Ograničenja endpointa</h2>
      <p>Neki endpointi imaju i vlastito ograničenje po minuti, koje vrijedi uz ograničenja paketa:</p>
      <div className="table-wrap" role="region" aria-labelledby="endpointi" tabIndex={0}>
        <table className="data">
          <thead>
            <tr>
              <th>Endpointi</th>
              <th className="num">U minuti</th>
              <th>Naziv u zaglavljima</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(ENDPOINT_LIMITS).map(([group, e]) => (
              <tr key={group}>
                <td className="mono">{e.label}</td>
                <td className="num">{formatInt(e.perMinute)}</td>
                <td className="mono">endpoint:{group}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul>
        <li>
          Svi endpointi jedne skupine dijele isti brojač: na primjer <code>GET /v1/kpd/{"{code}"}</code>, <code>/v1/kpd/search</code> i{" "}
          <code>/v1/kpd/batch</code>.
        </li>
        <li>
          <strong>Skupni zahtjevi</strong> (<code>/v1/kpd/batch</code>, <code>/v1/validate/oib/batch</code>) primaju do 100 vrijednosti i
          broje se kao <strong>jedan</strong> zahtjev.
        </li>
        <li>Ostali endpointi (npr. <code>GET /v1/invoices/{"{id}"}</code>) podliježu samo ograničenjima paketa.</li>
        <li id="popisi">
          <strong>Popisi i izvoz arhive</strong> (<code>GET /v1/invoices</code>, <code>GET /v1/einvoices</code>, <code>GET /v1/archive/export</code>) ne troše
          ograničenja fiskalizacije ni slanja e-računa: svaka stranica popisa i svaki izvoz jedan je zahtjev u prozorima paketa (u sekundi, minuti i
          danu). Prolazak kroz 10.000 dokumenata po 100 na stranici stoga troši 100 zahtjeva; klijent koji poštuje zaglavlja ne dobiva 429.
        </li>
        <li>
          Zahtjevi bez valjanog ključa dobivaju 401 i broje se po IP adresi klijenta, u vlastitim prozorima adrese — vidi{" "}
          <a href="#bez-kljuca" style={INLINE_LINK}>
            Zahtjevi bez valjanog ključa
          </a>
          .
        </li>
      </ul>

      <h3 id="bez-kljuca">Zahtjevi bez valjanog ključa</h3>
      <p>
        Zahtjev bez valjanog ključa (ključ nedostaje, nije oblika <code>fsk_test_…</code>/<code>fsk_live_…</code>, nije poznat, opozvan je
        ili mu je istekao rok) dobiva 401 i broji se po IP adresi klijenta, u točnim prozorima te adrese:
      </p>
      <div className="table-wrap" role="region" aria-labelledby="bez-kljuca" tabIndex={0}>
        <table className="data">
          <thead>
            <tr>
              <th>Prozor adrese</th>
              <th className="num">Zahtjeva</th>
              <th>Broji zahtjeve u</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td className="mono">{ANONYMOUS_SCOPE}:burst</td>
              <td className="num">{formatInt(ANONYMOUS_LIMITS.burst)}</td>
              <td>bilo kojem razdoblju od 1 s</td>
            </tr>
            <tr>
              <td className="mono">{ANONYMOUS_SCOPE}:minute</td>
              <td className="num">{formatInt(ANONYMOUS_LIMITS.perMinute)}</td>
              <td>bilo kojem razdoblju od 60 s</td>
            </tr>
            <tr>
              <td className="mono">{ANONYMOUS_SCOPE}:day</td>
              <td className="num">{formatInt(ANONYMOUS_LIMITS.perDay)}</td>
              <td>kalendarskom danu po UTC-u</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p>
        Kad su prozori adrese puni, zahtjevi bez valjanog ključa s te adrese dobivaju 429 s <code>Retry-After</code>. Zahtjev{" "}
        <strong>s valjanim ključem</strong> odlučuju samo prozori njegova računa: ne broji se u prozorima adrese i oni ga nikad ne
        odbijaju, bez obzira na to što je s iste adrese poslano bez ključa. Jednu adresu često dijele mnogi klijenti (sve trgovine
        čiji blagajnički softver izlazi kroz isti NAT dobavljača, uredi iza NAT-a mrežnog operatera, posrednik), pa jedna integracija
        koja u petlji šalje pogrešan ključ ili ga ne šalje ne smije zaustaviti fiskalizaciju ostalih.
      </p>
      <p>
        Ključ ima 32 nasumična znaka i ne može se pogoditi ni uz koliko zahtjeva, pa odbijanje valjanih ključeva ne bi ništa
        zaštitilo. Prozori adrese ograničavaju ono što zahtjevi bez valjanog ključa mogu opteretiti: ključ koji nedostaje ili nije
        ispravnog oblika odbija se bez upita bazi, a ključ ispravnog oblika provjerava se u bazi najviše jednom u nekoliko sekundi
        (odgovor se pamti i za nepoznate, opozvane i istekle ključeve) i tek se tada, ako nije valjan, broji po adresi.
      </p>
      <p>
        U zaglavljima <code>RateLimit-Policy</code> i <code>RateLimit</code> prozori adrese uvijek se zovu{" "}
        <code>{ANONYMOUS_SCOPE}:burst</code>, <code>{ANONYMOUS_SCOPE}:minute</code> i <code>{ANONYMOUS_SCOPE}:day</code>, nikad kao
        prozori računa (<code>burst</code>, <code>minute</code>, <code>day</code>), pa ih klijent ne može zamijeniti s kvotom svog
        računa. Odgovor na zahtjev s valjanim ključem nikad ne opisuje prozore adrese.
      </p>

      <h2 id="prozori">Prozori</h2>
      <p>
        Zahtjev prolazi samo ako ga propuste <strong>svi</strong> prozori koji se na njega odnose:
      </p>
      <div className="table-wrap" role="region" aria-labelledby="prozori" tabIndex={0}>
        <table className="data top">
          <thead>
            <tr>
              <th>Prozor</th>
              <th>Broji zahtjeve u</th>
              <th>Kvota se povećava</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td className="mono">burst</td>
              <td>bilo kojem razdoblju od 1 s</td>
              <td>kad najstariji izbrojani zahtjev navrši 1 s</td>
            </tr>
            <tr>
              <td className="mono">minute</td>
              <td>bilo kojem razdoblju od 60 s</td>
              <td>kad najstariji izbrojani zahtjev navrši 60 s</td>
            </tr>
            <tr>
              <td className="mono">endpoint:&lt;skupina&gt;</td>
              <td>bilo kojem razdoblju od 60 s, zasebno za svaku skupinu</td>
              <td>kad najstariji izbrojani zahtjev navrši 60 s</td>
            </tr>
            <tr>
              <td className="mono">day</td>
              <td>kalendarskom danu po UTC-u</td>
              <td>u 00:00 UTC (01:00 ili 02:00 po hrvatskom vremenu)</td>
            </tr>
          </tbody>
        </table>
      </div>

      <h3 id="tocni-prozori">Točni klizni prozori</h3>
      <p>
        Prozori <code>burst</code>, <code>minute</code> i <code>endpoint:&lt;skupina&gt;</code> točni su klizni prozori: ni u jednom
        razdoblju od W sekundi ne propuštamo više od N zahtjeva, a zahtjev odbijamo samo ako bi se njegovim propuštanjem to prekoračilo —
        nikad ranije. Nema fiksnih intervala ni procjena: za svaki prozor pamtimo vremena posljednjih N propuštenih zahtjeva. Svaki
        propušteni zahtjev broji se točno W sekundi, a zatim izlazi iz prozora i oslobađa mjesto za jedan novi zahtjev. Dnevni prozor
        točno broji zahtjeve u UTC danu i u ponoć počinje ispočetka.
      </p>
      <p>
        Ograničenja veća od {formatInt(100_000)} zahtjeva po kliznom prozoru (moguća samo uz Enterprise) broje se u 100 jednakih pretinaca
        po prozoru, za minutu pretincima od 600 ms. Ni takav prozor ni u jednom razdoblju od W sekundi ne propušta više od N zahtjeva,
        ali zahtjeve može odbijati najviše W/100 dulje od točnog prozora (10 ms za <code>burst</code>, 600 ms za minutu), jer se
        najstariji pretinac broji cijeli dok posve ne izađe iz prozora. <code>Retry-After</code> i tada točno kaže kada će prozor
        ponovno propustiti zahtjev.
      </p>
      <p>
        Primjer na paketu {PLAN_LABELS.SANDBOX} ({formatInt(ex.plan.perMinute)} zahtjeva u minuti): račun pošalje zahtjev u 12:00:00,300 i
        sljedeći u 12:00:20,000 (UTC). Nakon drugog zahtjeva minutni prozor broji oba, pa je preostalo 58 zahtjeva (<code>r=58</code>).
        Kvota se povećava kad prvi zahtjev izađe iz prozora u 12:01:00,300, dakle za 40,3 sekunde, što zaglavlje zaokružuje naviše na{" "}
        <code>t=41</code>. Kvota se ne obnavlja odjednom na kraju neke minute, nego zahtjev po zahtjev: drugi zahtjev broji se do
        12:01:20,000.
      </p>

      <h3 id="sve-ili-nista">Sve ili ništa</h3>
      <p>
        Svi prozori zahtjeva odlučuju se zajedno, u jednom nedjeljivom koraku: zahtjev koji propuste svi prozori broji se u svima, a
        odbijeni zahtjev ne broji se ni u jednom, ni na trenutak. Zato iscrpljeno minutno ograničenje nikad
        ne troši dnevnu kvotu, odbijeni zahtjevi prema jednoj skupini endpointa ne troše ništa ostalima, a odgovor 429 nikad ne navodi
        prozor u kojem još ima mjesta.
      </p>
      <p>
        Sve instance API-ja mjere vrijeme istim satom, satom spremišta ograničenja, pa odluka ne ovisi o tome koja je instanca primila
        zahtjev ni o satu vašeg računala.
      </p>

      <h3 id="promjena-ogranicenja">Promjena ograničenja</h3>
      <p>
        Nova ograničenja (promjena paketa ili Enterprise ograničenja koja postavi operater) vrijede od sljedećeg zahtjeva i primjenjuju se
        na istu povijest zahtjeva. Veće ograničenje odmah propušta ono što sada stane u prozor. Kod manjeg ograničenja u prozoru ostaju
        najnoviji zahtjevi koji se još broje, najviše onoliko koliko novo ograničenje dopušta: ako je račun u posljednjoj minuti poslao 100
        zahtjeva, a operater smanji minutno ograničenje na 60, prozor je pun i sljedeći zahtjev propušta kad najstariji od tih 60 izađe iz njega.
      </p>

      <h3 id="stanje">Besplatni upit stanja: GET /v1/limits</h3>
      <p>
        <code>GET /v1/limits</code> ne troši kvotu računa, a vraća stanje svakog prozora računa, uključujući prozor svake skupine
        endpointa. Ima vlastitu malu kvotu po računu: 10 upita u sekundi, 120 u minuti i {formatInt(20_000)} dnevno. U istom nedjeljivom koraku
        broji se ta kvota i čitaju se svi prozori računa, bez brojanja, pa je slika dosljedna. Propušteni upit u zaglavljima opisuje prozore
        računa kao i svaki drugi odgovor; kad je kvota upita iscrpljena, odgovor 429 navodi prozore <code>status:burst</code>,{" "}
        <code>status:minute</code> i <code>status:day</code>.
      </p>

      <h3 id="dostupnost">Ako spremište ograničenja nije dostupno</h3>
      <p>
        Ako spremište ograničenja (Redis) privremeno nije dostupno, API i dalje odgovara: svaka instanca tada odlučuje sama, istim točnim
        algoritmom u svojoj memoriji, pa se, dok to traje, zahtjevi broje po instanci, a ne zajedno za sve instance. API provjerava spremište
        svakih 25 ms i vraća se na njega najkasnije 100 ms nakon što ponovno odgovori.
      </p>

      <h2 id="zaglavlja">Zaglavlja odgovora</h2>
      <p>
        Svaki odgovor — uspješan ili ne, s ključem ili bez njega — nosi ova zaglavlja. Odgovor na zahtjev s valjanim ključem opisuje
        prozore računa, a odgovor na zahtjev bez valjanog ključa{" "}
        <a href="#bez-kljuca" style={INLINE_LINK}>
          prozore adrese
        </a>{" "}
        (<code>{ANONYMOUS_SCOPE}:burst</code>, <code>{ANONYMOUS_SCOPE}:minute</code>, <code>{ANONYMOUS_SCOPE}:day</code>). Zaglavlja{" "}
        <code>X-RateLimit-*</code> opisuju <em>mjerodavni</em> prozor: kod propuštenog zahtjeva onaj s najmanje preostalih zahtjeva (kod jednakog broja onaj čija se kvota
        kasnije povećava), a kod odbijenog prozor koji je odbio zahtjev (ako ih je više, onaj koji će ga najkasnije ponovno propustiti).
      </p>
      <div className="table-wrap" role="region" aria-labelledby="zaglavlja" tabIndex={0}>
        <table className="data top">
          <thead>
            <tr>
              <th>Zaglavlje</th>
              <th>Značenje</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td className="mono">X-RateLimit-Limit</td>
              <td>ograničenje mjerodavnog prozora</td>
            </tr>
            <tr>
              <td className="mono">X-RateLimit-Remaining</td>
              <td>koliko zahtjeva taj prozor još propušta</td>
            </tr>
            <tr>
              <td className="mono">X-RateLimit-Reset</td>
              <td>
                trenutak kad se kvota mjerodavnog prozora sljedeći put povećava (uz 429: kad ponovno propušta zahtjev), kao Unix vrijeme u{" "}
                <strong>sekundama</strong> (ne milisekundama), zaokruženo naviše; za <code>day</code> točno sljedeća ponoć po UTC-u
                (djeljivo s 86400)
              </td>
            </tr>
            <tr>
              <td className="mono">Retry-After</td>
              <td>
                samo uz 429: cijeli broj sekundi dok prozor koji je odbio zahtjev ne počne ponovno propuštati zahtjeve — nikad prerano i
                najviše sekundu prekasno; poruka u tijelu navodi isti broj
              </td>
            </tr>
            <tr>
              <td className="mono">RateLimit-Policy</td>
              <td>
                IETF zaglavlje (draft-ietf-httpapi-ratelimit-headers): svi prozori zahtjeva, <code>q</code> = ograničenje, <code>w</code> =
                trajanje prozora u sekundama (za <code>day</code> 86400, a prozor je kalendarski dan po UTC-u)
              </td>
            </tr>
            <tr>
              <td className="mono">RateLimit</td>
              <td>
                IETF zaglavlje: stanje svakog prozora, <code>r</code> = preostalo, <code>t</code> = sekundi do sljedećeg povećanja kvote
                tog prozora
              </td>
            </tr>
            <tr>
              <td className="mono">X-Request-Id</td>
              <td>oznaka zahtjeva; navedite je kad se obraćate podršci</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p>
        Vrijednost <code>t</code> u zaglavlju <code>RateLimit</code> (u sekundama, zaokruženo naviše):
      </p>
      <ul>
        <li>
          za klizni prozor: dok najstariji zahtjev koji prozor broji ne izađe iz njega; <code>t=0</code> ako prozor trenutno ne broji
          nijedan zahtjev;
        </li>
        <li>
          za <code>day</code>: do 00:00 UTC;
        </li>
        <li>
          uz 429: za prozor koji je odbio zahtjev <code>t</code> je jednak <code>Retry-After</code>.
        </li>
      </ul>
      <p>
        Primjer: drugi zahtjev iz gornjeg primjera, <code>POST /v1/validate/oib</code> u 12:00:20,000 UTC na paketu{" "}
        {PLAN_LABELS.SANDBOX}:
      </p>
      <pre tabIndex={0} data-testid="example-admitted-headers">
        {headerBlock("HTTP/1.1 200 OK", ex.admittedHeaders)}
      </pre>
      <p>
        Mjerodavni prozor ovdje je <code>burst</code> jer ima najmanje preostalih zahtjeva (9 od 10); njegova se kvota povećava za
        sekundu, kad ovaj zahtjev izađe iz njega. Minutni prozor i prozor <code>endpoint:oib</code> imaju <code>t=41</code>, kako je gore
        opisano, a dnevni se obnavlja u ponoć UTC, za {formatInt(43_180)} sekundi.
      </p>

      <h2 id="odgovor-429">Odgovor 429</h2>
      <p>
        Kad neki prozor odbije zahtjev, API odgovara statusom <code>429 Too Many Requests</code> („previše zahtjeva”). Primjer: isti račun u 12:10:00,000 UTC, nakon 60
        zahtjeva od 12:09:20,400 (od toga 3 u posljednjoj sekundi) i ukupno {formatInt(1_877)} zahtjeva toga dana:
      </p>
      <pre tabIndex={0} data-testid="example-429-headers">
        {headerBlock("HTTP/1.1 429 Too Many Requests", ex.refusedHeaders)}
      </pre>
      <pre tabIndex={0} className="wrap" data-testid="example-429-body">
        {JSON.stringify(ex.body, null, 2)}
      </pre>
      <p>
        Zahtjev je odbio minutni prozor: pun je dok zahtjev iz 12:09:20,400 ne izađe iz njega u 12:10:20,400, za 20,4 sekunde, pa je{" "}
        <code>Retry-After</code> 21. Ostali prozori imaju mjesta i ostaju nepromijenjeni jer odbijeni zahtjev nije izbrojan ni u jednom.
        Klijent koji pričeka točno 21 sekundu i ponovi zahtjev bit će propušten, osim ako je oslobođeno mjesto u međuvremenu iskoristio
        drugi klijent istog računa.
      </p>
      <p>
        Tijelo uvijek ima točno ovaj oblik: <code>code</code> je <code>rate_limit_exceeded</code>, <code>message</code> je poruka na
        hrvatskom koja navodi isti broj sekundi kao <code>Retry-After</code> (s ispravnim oblikom: 1 sekundu, 2 sekunde, 5 sekundi, 21
        sekundu…), a <code>doc_url</code> vodi na ovu stranicu. Sve ostale pogreške koriste isti omotač{" "}
        <code>{'{"error":{"code","message","doc_url"}}'}</code>.
      </p>

      <h2 id="preporuke">Preporučeno ponašanje klijenta</h2>
      <ol>
        <li>
          <strong>Čitajte zaglavlja</strong> svakog odgovora: <code>X-RateLimit-Remaining</code> kaže koliko vam je preostalo u mjerodavnom
          prozoru, a <code>RateLimit</code> stanje svih prozora.
        </li>
        <li>
          Na <strong>429</strong> pričekajte <code>Retry-After</code> sekundi i ponovite zahtjev. Ako mjesto u međuvremenu nije iskoristio
          drugi klijent istog računa, ponovljeni zahtjev prolazi. Ako i on dobije 429, <strong>udvostručite</strong> čekanje (
          <code>Retry-After</code>, pa 2×, pa 4×…) i nakon nekoliko pokušaja odustanite. Ako je čekanje predugo za vašu aplikaciju (npr.
          iscrpljena dnevna kvota), nemojte blokirati: javite pogrešku i pokušajte kasnije.
        </li>
        <li>
          POST zahtjeve ponavljajte s <strong>istim</strong> zaglavljem <code>Idempotency-Key</code>: ponovljeni zahtjev vraća spremljeni
          odgovor i račun se nikad ne fiskalizira dvaput.
        </li>
        <li>
          <strong>Usporite prije granice</strong>: kad <code>X-RateLimit-Remaining</code> padne ispod 5, pričekajte <code>t</code> sekundi
          mjerodavnog prozora (onog s najmanjim <code>r</code> u zaglavlju <code>RateLimit</code>, a kod jednakih onog s većim{" "}
          <code>t</code>) prije sljedećeg zahtjeva — tada se
          njegova kvota povećava. <code>X-RateLimit-Reset</code> označava isti trenutak kao Unix vrijeme, ali <code>t</code> ne ovisi o
          točnosti vašeg sata.
        </li>
        <li>
          <strong>Ne isprobavajte ograničenja</strong> slanjem zahtjeva: stanje svih prozora daje besplatni <code>GET /v1/limits</code>.
        </li>
        <li>
          Ako zaglavlja nedostaju (npr. iza posrednika koji ih briše), pretpostavite <code>Remaining = 100</code> i{" "}
          <code>Retry-After = 60</code>.
        </li>
        <li>
          Za više KPD šifri ili OIB-a koristite <strong>skupne endpointe</strong>: do 100 vrijednosti troši jedan zahtjev.
        </li>
        <li>KPD šifre se rijetko mijenjaju: spremajte ih i šaljite <code>If-None-Match</code> s dobivenim <code>ETag</code>.</li>
      </ol>
      <p>Isto ponašanje u TypeScriptu (Node.js 18+ ili preglednik):</p>
      <pre tabIndex={0} data-testid="client-sample">
        {CLIENT_SAMPLE}
      </pre>

      <h2 id="povecanje">Kako dobiti veća ograničenja</h2>
      <p>
        Na stranici{" "}
        <Link href="/plan" style={INLINE_LINK}>
          Paket i ograničenja
        </Link>{" "}
        u portalu zatražite paket Starter ili Business, ili pošaljite upit za Enterprise s očekivanim volumenom. Nakon što operater
        odobri zahtjev, nova ograničenja vrijede od sljedećeg zahtjeva, bez novih ključeva i bez ponovnog pokretanja vaše aplikacije. Kad
        dnevna potrošnja prvi put u danu prijeđe 80 %, portal to prikazuje, a račun može dobiti i webhook događaj{" "}
        <code>rate_limit.warning</code>.
      </p>

      <h2 id="upozorenje">Webhook upozorenje: rate_limit.warning</h2>
      <p>
        Kad potrošnja računa u UTC danu prvi put dosegne 80 % dnevnog ograničenja, Fiskal šalje događaj <code>rate_limit.warning</code>{" "}
        na svaki omogućeni webhook koji ga prati — točno jednom po računu i danu, bez obzira na to koliko instanci API-ja radi. Promjena
        paketa tijekom dana ponovno ga aktivira prema novom ograničenju. Webhookove dodajete na stranici{" "}
        <Link href="/webhooks" style={INLINE_LINK}>
          Webhooks
        </Link>
        ; ondje su i tajna za potpis, testni događaj i zapis svih pokušaja isporuke s ručnim ponovnim slanjem.
      </p>
      <pre tabIndex={0}>{`POST <vaš URL>
webhook-id: msg_…            (isti pri svakom pokušaju — po njemu odbacite duplikate)
webhook-timestamp: 1795296000
webhook-signature: v1,<base64 HMAC-SHA256 od "{id}.{timestamp}.{tijelo}">

{"type":"rate_limit.warning","timestamp":"2026-11-21T14:03:12.345Z",
 "data":{"account_id":"…","plan":"STARTER","window":"day","limit":50000,"used":40000,
         "remaining":10000,"threshold":0.8,"resets_at":"2026-11-22T00:00:00.000Z"}}`}</pre>
      <p>
        Potpis slijedi{" "}
        <a href="https://www.standardwebhooks.com/" style={INLINE_LINK}>
          Standard Webhooks
        </a>
        : ključ je tajna <code>whsec_…</code> bez prefiksa, dekodirana iz base64. Provjerite sirovo tijelo prije parsiranja; biblioteka
        odbija i vremenske oznake starije od 5 minuta:
      </p>
      <pre tabIndex={0}>{`import { Webhook } from "standardwebhooks";

const wh = new Webhook(process.env.FISKAL_WEBHOOK_SECRET); // "whsec_…"

// rawBody: tijelo zahtjeva kao string, točno kako je stiglo
const event = wh.verify(rawBody, {
  "webhook-id": req.headers["webhook-id"],
  "webhook-timestamp": req.headers["webhook-timestamp"],
  "webhook-signature": req.headers["webhook-signature"],
}); // baca WebhookVerificationError ako potpis ne odgovara → odgovorite 400

if (event.type === "rate_limit.warning") {
  console.log(\`iskorišteno \${event.data.used} od \${event.data.limit}\`);
}`}</pre>
      <p>
        Isporuka je barem jednom: odgovor 2xx potvrđuje primitak; inače slijede ponovni pokušaji nakon 5 s, 5 min, 30 min, 2 h, 5 h i
        10 h (zaglavlje <code>Retry-After</code> u vašem odgovoru ih odgađa). Odgovor <code>410 Gone</code> isključuje webhook.
        Preusmjeravanja se ne slijede, a adrese u privatnim i lokalnim mrežama (npr. 10.0.0.0/8, 127.0.0.1, ::1, 169.254.0.0/16) nisu dopuštene.
      </p>
    </article>
  );
}
