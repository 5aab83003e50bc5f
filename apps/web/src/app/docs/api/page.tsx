import { ENDPOINT_LIMITS } from "@fiskal/limits";
import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "~/components/Alert";
import { apiUrl } from "~/env";
import { formatInt } from "~/lib/format";
import { groupMatcher, parseOpenApi, type ApiReference, type Operation, type SchemaField } from "~/lib/openapi";

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

function Fields({ fields }: { fields: SchemaField[] }) {
  if (fields.length === 0) return null;
  return (
    <ul className="schema">
      {fields.map((f) => (
        <li key={f.name}>
          <span className="fname">{f.name}</span>
          <span className="ftype">{f.type}</span>
          {f.required ? <span className="req">obavezno</span> : null}
          {f.description ? <span className="fdesc">— {f.description}</span> : null}
          {f.constraints.length ? <span className="cons">({f.constraints.join(", ")})</span> : null}
          <Fields fields={f.children} />
        </li>
      ))}
    </ul>
  );
}

function OperationCard({ op }: { op: Operation }) {
  const limit = op.rateLimitGroup ? ENDPOINT_LIMITS[op.rateLimitGroup as keyof typeof ENDPOINT_LIMITS] : undefined;
  return (
    <section className="op" id={op.id} data-testid="api-operation">
      <div className="op-head">
        <span className={`method ${op.method}`}>{op.method}</span>
        <span className="path">{op.path}</span>
        {op.summary ? <span className="summary">{op.summary}</span> : null}
        <span style={{ flex: 1 }} />
        {limit ? (
          <span className="badge primary" title="Namjensko ograničenje endpointa, uz ograničenja paketa">
            endpoint:{op.rateLimitGroup} · {formatInt(limit.perMinute)}/min
          </span>
        ) : (
          <span className="badge">samo ograničenja paketa</span>
        )}
        {op.authenticated ? null : <span className="badge">bez ključa</span>}
      </div>
      <div className="op-body">
        {op.description && op.description !== op.summary ? <p>{op.description}</p> : null}
        {op.parameters.length ? (
          <>
            <h4>Parametri</h4>
            <table className="data">
              <thead>
                <tr>
                  <th>Naziv</th>
                  <th>Mjesto</th>
                  <th>Tip</th>
                  <th>Opis</th>
                </tr>
              </thead>
              <tbody>
                {op.parameters.map((p) => (
                  <tr key={`${p.in}-${p.name}`}>
                    <td className="mono">
                      {p.name}
                      {p.required ? <span style={{ color: "var(--danger)" }}> *</span> : null}
                    </td>
                    <td>{p.in === "path" ? "putanja" : p.in === "query" ? "upit" : p.in === "header" ? "zaglavlje" : p.in}</td>
                    <td className="mono">{p.type}</td>
                    <td>
                      {p.description ?? "—"}
                      {p.constraints.length ? <span style={{ color: "var(--faint)" }}> ({p.constraints.join(", ")})</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ) : null}
        {op.requestBody ? (
          <>
            <h4>
              Tijelo zahtjeva <span className="mono" style={{ textTransform: "none" }}>{op.requestBody.contentType}</span>
            </h4>
            {op.requestBody.fields.length ? <Fields fields={op.requestBody.fields} /> : <p className="mono">{op.requestBody.rootType}</p>}
          </>
        ) : null}
        <h4>Odgovori</h4>
        {op.responses
          .filter((r) => /^[23]/.test(r.status))
          .map((r) => (
            <div key={r.status} style={{ marginBottom: 8 }}>
              <span className="badge ok">{r.status}</span> <span style={{ color: "var(--muted)" }}>{r.description}</span>
              {r.fields.length ? <Fields fields={r.fields} /> : null}
            </div>
          ))}
        {op.responses.some((r) => !/^[23]/.test(r.status)) ? (
          <div className="errors-line">
            <span style={{ color: "var(--muted)" }}>Pogreške:</span>
            {op.responses
              .filter((r) => !/^[23]/.test(r.status))
              .map((r) => (
                <span key={r.status} className="badge danger" title={r.description}>
                  {r.status}
                </span>
              ))}
            {op.responses.some((r) => r.status === "429") ? null : (
              <span className="badge danger" title="Too Many Requests">
                429
              </span>
            )}
            <span style={{ color: "var(--faint)", fontSize: "0.84rem" }}>
              tijelo: <code>{'{"error":{"code","message","doc_url"}}'}</code>
            </span>
          </div>
        ) : null}
      </div>
    </section>
  );
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
      {ref.description ? <p>{ref.description}</p> : null}
      <p>
        Autentikacija: zaglavlje <code>Authorization: Bearer &lt;API ključ&gt;</code>. Tijela zahtjeva i odgovora su JSON. Ograničenja i
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
        <OperationCard key={op.id} op={op} />
      ))}
    </article>
  );
}
