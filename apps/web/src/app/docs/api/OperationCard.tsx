// One operation of the API reference: method and path, limits, a runnable curl example with a copy
// button, parameters, request body and responses.
import { ENDPOINT_LIMITS } from "@fiskal/limits";
import { CopyButton } from "~/components/CopyButton";
import { curlExample } from "~/lib/curl";
import { formatInt } from "~/lib/format";
import type { Operation, SchemaField } from "~/lib/openapi";
import { DescriptionText } from "./DescriptionText";

function Fields({ fields, names }: { fields: SchemaField[]; names: ReadonlySet<string> }) {
  if (fields.length === 0) return null;
  return (
    <ul className="schema">
      {fields.map((f) => (
        <li key={f.name}>
          <span className="fname">{f.name}</span>
          <span className="ftype">{f.type}</span>
          {f.required ? <span className="req">obavezno</span> : null}
          {f.description ? (
            <span className="fdesc">
              — <DescriptionText text={f.description} names={names} />
            </span>
          ) : null}
          {f.constraints.length ? <span className="cons">({f.constraints.join(", ")})</span> : null}
          <Fields fields={f.children} names={names} />
        </li>
      ))}
    </ul>
  );
}

export const NO_NAMES: ReadonlySet<string> = new Set();

/** Every parameter and field name of an operation, at any depth. */
function fieldNames(op: Operation): ReadonlySet<string> {
  const names = new Set(op.parameters.map((p) => p.name));
  const walk = (fields: SchemaField[]) => fields.forEach((f) => (names.add(f.name), walk(f.children)));
  walk(op.requestBody?.fields ?? []);
  op.responses.forEach((r) => walk(r.fields));
  return names;
}

export function OperationCard({ op, serverUrl }: { op: Operation; serverUrl: string }) {
  const limit = op.rateLimitGroup ? ENDPOINT_LIMITS[op.rateLimitGroup as keyof typeof ENDPOINT_LIMITS] : undefined;
  const curl = curlExample(op, serverUrl);
  const names = fieldNames(op);
  return (
    <section className="op" id={op.id} data-testid="api-operation">
      <div className="op-head">
        <h3 className="op-title">
          <span className={`method ${op.method}`}>{op.method}</span> <span className="path">{op.path}</span>
        </h3>
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
        {op.description && op.description !== op.summary ? (
          <p>
            <DescriptionText text={op.description} names={names} />
          </p>
        ) : null}
        <div className="curl-head">
          <h4>Primjer (curl)</h4>
          <CopyButton text={curl} label="Kopiraj" name={`Kopiraj curl primjer za ${op.method} ${op.path}`} testId="copy-curl" />
        </div>
        <pre tabIndex={0} data-testid="curl-example">
          {curl}
        </pre>
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
                      {p.description ? <DescriptionText text={p.description} names={names} /> : "—"}
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
            {op.requestBody.fields.length ? <Fields fields={op.requestBody.fields} names={names} /> : <p className="mono">{op.requestBody.rootType}</p>}
          </>
        ) : null}
        <h4>Odgovori</h4>
        {op.responses
          .filter((r) => /^[23]/.test(r.status))
          .map((r) => (
            <div key={r.status} style={{ marginBottom: 8 }}>
              <span className="badge ok">{r.status}</span> <span style={{ color: "var(--muted)" }}>{r.description ? <DescriptionText text={r.description} names={names} /> : null}</span>
              {r.fields.length ? <Fields fields={r.fields} names={names} /> : null}
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
              <span className="badge danger" title="Previše zahtjeva (rate_limit_exceeded)">
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

