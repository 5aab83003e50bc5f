import { ANONYMOUS_LIMITS, ENDPOINT_LIMITS } from "@fiskal/limits";
import type { Metadata } from "next";
import Link from "next/link";
import { portalUrl } from "~/env";
import { PlansTable } from "~/components/PlansTable";
import { formatInt, PLAN_LABELS } from "~/lib/format";
import { examples, headerBlock } from "./example";

export const metadata: Metadata = { title: "Ograničenja zahtjeva" };

export default function RateLimitsDoc() {
  const docUrl = `${portalUrl()}/docs/rate-limits`;
  const ex = examples(docUrl);
  return (
    <article data-testid="docs-rate-limits">
      <h1>Ograničenja zahtjeva</h1>
      <p className="lead">
        Fiskal ograničava broj zahtjeva po <strong>računu</strong>: svi ključevi jednog računa dijele istu kvotu. Svaki odgovor API-ja
        kaže koliko vam je zahtjeva preostalo i kada se brojač obnavlja, a odbijeni zahtjev kaže koliko točno trebate pričekati.
      </p>

      <h2 id="paketi">Paketi</h2>
      <PlansTable enterprise="po dogovoru — operater postavlja ograničenja za vaš račun" />

      <h2 id="endpointi">Ograničenja endpointa</h2>
      <p>Neki endpointi imaju i vlastito ograničenje po minuti, koje vrijedi uz ograničenja paketa:</p>
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
        <li>
          Zahtjevi bez ispravnog ključa (nedostaje, neispravan, nepoznat ili opozvan) dobivaju 401 i broje se po IP adresi klijenta:{" "}
          {formatInt(ANONYMOUS_LIMITS.burst)} u sekundi, {formatInt(ANONYMOUS_LIMITS.perMinute)} u minuti i{" "}
          {formatInt(ANONYMOUS_LIMITS.perDay)} dnevno, kako se ključevi ne bi mogli brzo pogađati.
        </li>
      </ul>

      <h2 id="prozori">Prozori</h2>
      <p>
        Zahtjev prolazi samo ako ga propuste <strong>svi</strong> prozori koji se na njega odnose:
      </p>
      <table className="data">
        <thead>
          <tr>
            <th>Prozor</th>
            <th>Kako se broji</th>
            <th>Obnavljanje</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td className="mono">burst</td>
            <td>klizni prozor od 1 sekunde</td>
            <td>kontinuirano, zahtjev po zahtjev</td>
          </tr>
          <tr>
            <td className="mono">minute</td>
            <td>klizni prozor od 60 sekundi</td>
            <td>kontinuirano</td>
          </tr>
          <tr>
            <td className="mono">endpoint:&lt;skupina&gt;</td>
            <td>klizni prozor od 60 sekundi, po skupini endpointa</td>
            <td>kontinuirano</td>
          </tr>
          <tr>
            <td className="mono">day</td>
            <td>kalendarski dan po UTC-u</td>
            <td>u 00:00 UTC (01:00 ili 02:00 po hrvatskom vremenu)</td>
          </tr>
        </tbody>
      </table>
      <p>
        Odbijeni zahtjev ne troši ništa ni u jednom prozoru: ako vas zaustavi minutno ograničenje, dnevna kvota ostaje netaknuta. Promjena
        paketa ili Enterprise ograničenja vrijedi od sljedećeg zahtjeva.
      </p>

      <h2 id="zaglavlja">Zaglavlja odgovora</h2>
      <p>
        Svaki odgovor — uspješan ili ne, s ključem ili bez njega — nosi ova zaglavlja. Zaglavlja <code>X-RateLimit-*</code> opisuju{" "}
        <em>mjerodavni</em> prozor: kod propuštenog zahtjeva onaj s najmanje preostalih zahtjeva, a kod odbijenog onaj koji je odbio zahtjev.
      </p>
      <table className="data">
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
            <td>koliko je zahtjeva u tom prozoru još preostalo</td>
          </tr>
          <tr>
            <td className="mono">X-RateLimit-Reset</td>
            <td>
              kada se prozor obnavlja, kao Unix vrijeme u <strong>sekundama</strong> (ne milisekundama)
            </td>
          </tr>
          <tr>
            <td className="mono">Retry-After</td>
            <td>samo uz 429: cijeli broj sekundi koje treba pričekati; nikad prerano</td>
          </tr>
          <tr>
            <td className="mono">RateLimit-Policy</td>
            <td>
              IETF zaglavlje (draft-ietf-httpapi-ratelimit-headers): svi prozori, <code>q</code> = ograničenje, <code>w</code> = trajanje u
              sekundama
            </td>
          </tr>
          <tr>
            <td className="mono">RateLimit</td>
            <td>
              IETF zaglavlje: stanje svakog prozora, <code>r</code> = preostalo, <code>t</code> = sekundi do obnove
            </td>
          </tr>
          <tr>
            <td className="mono">X-Request-Id</td>
            <td>oznaka zahtjeva; navedite je kad se obraćate podršci</td>
          </tr>
        </tbody>
      </table>
      <p>Primjer propuštenog zahtjeva na paketu {PLAN_LABELS.SANDBOX}:</p>
      <pre data-testid="example-admitted-headers">{headerBlock("HTTP/1.1 200 OK", ex.admittedHeaders)}</pre>

      <h2 id="odgovor-429">Odgovor 429</h2>
      <p>Kad neki prozor odbije zahtjev, API odgovara statusom 429 Too Many Requests:</p>
      <pre data-testid="example-429-headers">{headerBlock("HTTP/1.1 429 Too Many Requests", ex.refusedHeaders)}</pre>
      <pre className="wrap" data-testid="example-429-body">{JSON.stringify(ex.body, null, 2)}</pre>
      <p>
        Tijelo uvijek ima točno ovaj oblik: <code>code</code> je <code>rate_limit_exceeded</code>, <code>message</code> je poruka na
        hrvatskom koja navodi isti broj sekundi kao <code>Retry-After</code> (s ispravnim oblikom: 1 sekundu, 2 sekunde, 5 sekundi, 21
        sekundu…), a <code>doc_url</code> vodi na ovu stranicu. Sve ostale pogreške koriste isti omotač{" "}
        <code>{'{"error":{"code","message","doc_url"}}'}</code>.
      </p>

      <h2 id="preporuke">Preporučeno ponašanje klijenta</h2>
      <ol>
        <li>
          Na <strong>429</strong> pričekajte točno <code>Retry-After</code> sekundi i ponovite zahtjev. Ako i ponovljeni zahtjev dobije 429,
          <strong> udvostručite</strong> čekanje (Retry-After, pa 2×, pa 4×…).
        </li>
        <li>
          Kad <code>X-RateLimit-Remaining</code> padne <strong>ispod 5</strong>, usporite: pričekajte do <code>X-RateLimit-Reset</code>{" "}
          (sekunde pretvorite u milisekunde) prije sljedećeg zahtjeva.
        </li>
        <li>
          Ako zaglavlja nedostaju (npr. iza posrednika koji ih briše), pretpostavite <code>Remaining = 100</code> i{" "}
          <code>Retry-After = 60</code>.
        </li>
        <li>
          Za više KPD šifri ili OIB-a koristite <strong>skupne endpointe</strong>: do 100 vrijednosti troši jedan zahtjev.
        </li>
        <li>
          POST zahtjeve ponavljajte s istim zaglavljem <code>Idempotency-Key</code>: ponovljeni zahtjev vraća spremljeni odgovor i račun se
          nikad ne fiskalizira dvaput.
        </li>
        <li>KPD šifre se rijetko mijenjaju: spremajte ih i šaljite <code>If-None-Match</code> s dobivenim <code>ETag</code>.</li>
      </ol>
      <pre>{`async function call(url: string, init: RequestInit, attempt = 0): Promise<Response> {
  const res = await fetch(url, init);
  if (res.status === 429) {
    const retryAfter = Number(res.headers.get("Retry-After") ?? 60);
    await sleep(retryAfter * 1000 * 2 ** attempt); // udvostruči ako se ponovi
    return call(url, init, attempt + 1);
  }
  const remaining = Number(res.headers.get("X-RateLimit-Remaining") ?? 100);
  if (remaining < 5) {
    const reset = Number(res.headers.get("X-RateLimit-Reset")) * 1000; // sekunde → ms
    await sleep(Math.max(0, reset - Date.now()));
  }
  return res;
}`}</pre>

      <h2 id="povecanje">Kako dobiti veća ograničenja</h2>
      <p>
        Na stranici <Link href="/plan">Paket i ograničenja</Link> u portalu zatražite paket Starter ili Business, ili pošaljite upit za
        Enterprise s očekivanim volumenom. Nakon što operater odobri zahtjev, nova ograničenja vrijede od sljedećeg zahtjeva, bez novih
        ključeva i bez ponovnog pokretanja vaše aplikacije. Kad dnevna potrošnja prvi put u danu prijeđe 80 %, portal to prikazuje, a
        račun može dobiti i webhook događaj <code>rate_limit.warning</code>.
      </p>

      <h2 id="upozorenje">Webhook upozorenje: rate_limit.warning</h2>
      <p>
        Kad potrošnja računa u UTC danu prvi put dosegne 80 % dnevnog ograničenja, Fiskal šalje događaj <code>rate_limit.warning</code>{" "}
        na svaki omogućeni webhook koji ga prati — točno jednom po računu i danu, bez obzira na to koliko instanci API-ja radi. Promjena
        paketa tijekom dana ponovno ga aktivira prema novom ograničenju. Webhookove dodajete na stranici{" "}
        <Link href="/webhooks">Webhooks</Link>; ondje su i tajna za potpis, testni događaj i zapis svih pokušaja isporuke s ručnim
        ponovnim slanjem.
      </p>
      <pre>{`POST <vaš URL>
webhook-id: msg_…            (isti pri svakom pokušaju — po njemu odbacite duplikate)
webhook-timestamp: 1795296000
webhook-signature: v1,<base64 HMAC-SHA256 od "{id}.{timestamp}.{tijelo}">

{"type":"rate_limit.warning","timestamp":"2026-11-21T14:03:12.345Z",
 "data":{"account_id":"…","plan":"STARTER","window":"day","limit":50000,"used":40000,
         "remaining":10000,"threshold":0.8,"resets_at":"2026-11-22T00:00:00.000Z"}}`}</pre>
      <p>
        Potpis slijedi <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>: ključ je tajna <code>whsec_…</code> bez
        prefiksa, dekodirana iz base64. Provjerite sirovo tijelo prije parsiranja; biblioteka odbija i vremenske oznake starije od 5 minuta:
      </p>
      <pre>{`import { Webhook } from "standardwebhooks";

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
        Preusmjeravanja se ne slijede, a adrese na privatnim, loopback i link-local mrežama nisu dopuštene.
      </p>
    </article>
  );
}
