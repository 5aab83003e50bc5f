import { ENDPOINT_LIMITS } from "@fiskal/limits";
import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "~/components/Alert";
import { apiUrl } from "~/env";
import { groupMatcher, parseOpenApi, type ApiReference } from "~/lib/openapi";
import { DescriptionText } from "./DescriptionText";
import { NO_NAMES, OperationCard } from "./OperationCard";
import { EinvoiceExamples } from "./EinvoiceExamples";

export const metadata: Metadata = { title: "API referenca" };

type Loaded = { ok: true; reference: ApiReference } | { ok: false; reason: string };

async function loadReference(url: string): Promise<Loaded> {
  let res: Response;
  try {
    res = await fetch(url, { cache: "no-store", signal: AbortSignal.timeout(5_000), headers: { accept: "application/json" } });
  } catch {
    return { ok: false, reason: `API nije dostupan na adresi ${url}. Provjerite radi li API poslužitelj (varijabla API_URL).` };
  }
  if (!res.ok) return { ok: false, reason: `API je na ${url} odgovorio statusom ${res.status}.` };
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { ok: false, reason: "API je vratio odgovor koji nije JSON." };
  }
  return parseOpenApi(body, groupMatcher(ENDPOINT_LIMITS));
}

export default async function ApiReferencePage() {
  const url = `${apiUrl()}/v1/openapi.json`;
  const loaded = await loadReference(url);
  if (!loaded.ok) {
    return (
      <article>
        <h1>API referenca</h1>
        <Alert kind="error" title="Referencu trenutačno nije moguće učitati" testId="api-unreachable">
          {loaded.reason}
        </Alert>
        <p>
          Referenca se generira iz OpenAPI dokumenta koji objavljuje sam API (<code>GET /v1/openapi.json</code>). Dok API ne bude dostupan,
          pravila o ograničenjima pročitajte na stranici <Link href="/docs/rate-limits">Ograničenja zahtjeva</Link>.
        </p>
        <EinvoiceExamples />
      </article>
    );
  }
  const ref = loaded.reference;
  return (
    <article data-testid="docs-api">
      <h1>API referenca</h1>
      <p className="lead">
        {ref.title} {ref.version} · poslužitelj <code>{ref.serverUrl ?? apiUrl()}</code> · generirano iz{" "}
        <a href={url}>OpenAPI 3.1 dokumenta</a>
      </p>
      {ref.description ? (
        <p>
          <DescriptionText text={ref.description} names={NO_NAMES} />
        </p>
      ) : null}
      <p>
        Autentikacija: zaglavlje <code>Authorization: Bearer &lt;API ključ&gt;</code>; primjeri ispod čitaju ključ iz varijable okoline{" "}
        <code>FISKAL_API_KEY</code>. Tijela zahtjeva i odgovora su JSON. Ograničenja i
        zaglavlja opisana su na stranici <Link href="/docs/rate-limits">Ograničenja zahtjeva</Link>.
      </p>
      <h2>Endpointi</h2>
      <ul className="toc-ops">
        {ref.operations.map((op) => (
          <li key={op.id}>
            <a href={`#${op.id}`}>
              <span className="mono">{op.method}</span> {op.path}
            </a>
          </li>
        ))}
      </ul>
      {ref.operations.map((op) => (
        <OperationCard key={op.id} op={op} serverUrl={ref.serverUrl ?? apiUrl()} />
      ))}
      <EinvoiceExamples />
    </article>
  );
}
