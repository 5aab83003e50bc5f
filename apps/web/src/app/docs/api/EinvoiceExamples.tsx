// The example e-invoice requests of examples/einvoices, read on the server when the page renders:
// each body with its title and the case it covers. The same files are the corpus the API's CI test
// sends through the API and checks with the official validators.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Alert } from "~/components/Alert";
import { CopyButton } from "~/components/CopyButton";

interface ExampleEntry {
  file: string;
  title: string;
  covers: string;
}

interface Example extends ExampleEntry {
  body: string;
  documentType: string;
  categories: string[];
}

const DOCUMENT_TYPES: Record<string, string> = {
  "380": "račun",
  "381": "odobrenje",
  "384": "korektivni račun",
  "386": "račun za predujam",
};

/** examples/einvoices at the project root: the portal runs from apps/web or from the root. */
function examplesDir(): string | null {
  for (const candidate of [path.resolve(process.cwd(), "../../examples/einvoices"), path.resolve(process.cwd(), "examples/einvoices")]) {
    if (existsSync(path.join(candidate, "index.json"))) return candidate;
  }
  return null;
}

async function loadExamples(): Promise<Example[] | null> {
  const dir = examplesDir();
  if (!dir) return null;
  try {
    const index = JSON.parse(await readFile(path.join(dir, "index.json"), "utf8")) as ExampleEntry[];
    return await Promise.all(
      index.map(async (entry) => {
        const text = await readFile(path.join(dir, path.basename(entry.file)), "utf8");
        const body = JSON.parse(text) as { document_type?: string; lines?: { vat_category?: string }[] };
        const categories = [...new Set((body.lines ?? []).map((l) => l.vat_category ?? "S"))];
        return { ...entry, body: JSON.stringify(body, null, 2), documentType: body.document_type ?? "380", categories };
      }),
    );
  } catch {
    return null;
  }
}

export async function EinvoiceExamples() {
  const examples = await loadExamples();
  return (
    <section aria-labelledby="primjeri-e-racuna" data-testid="einvoice-examples">
      <h2 id="primjeri-e-racuna">Primjeri e-računa</h2>
      <p>
        Svaki primjer je cijelo tijelo zahtjeva za <code>POST /v1/einvoices/send</code>, spremno za slanje (datoteke su u mapi{" "}
        <code>examples/einvoices</code> projekta). Svaki od njih API pretvara u UBL 2.1 dokument koji prolazi službene provjere (UBL 2.1 XSD,
        EN 16931 i HR CIUS 2025) bez ijedne pogreške; to se provjerava pri svakoj izmjeni koda.
      </p>
      <p>
        Model je strog: polje koje API ne poznaje vraća pogrešku 400 <code>validation_error</code> s putanjom tog polja, a prekršena pravila
        EN 16931 i HR CIUS vraćaju se s oznakom pravila (npr. <code>BR-CL-23</code> za jedinicu mjere „KOM” umjesto „H87”).
      </p>
      {examples === null ? (
        <Alert kind="warn" title="Primjeri trenutačno nisu dostupni" testId="einvoice-examples-missing">
          Mapa examples/einvoices nije pronađena uz portal.
        </Alert>
      ) : (
        <>
          <ul className="toc-ops">
            {examples.map((e) => (
              <li key={e.file}>
                <a href={`#primjer-${e.file.replace(/\.json$/, "")}`}>{e.title}</a>
              </li>
            ))}
          </ul>
          {examples.map((e) => {
            const id = `primjer-${e.file.replace(/\.json$/, "")}`;
            return (
              <section key={e.file} className="op" id={id} aria-labelledby={`${id}-naslov`} data-testid="einvoice-example">
                <div className="op-head" style={{ flexWrap: "wrap" }}>
                  <h3 id={`${id}-naslov`} style={{ margin: 0, fontSize: "1rem" }}>
                    {e.title}
                  </h3>
                  <span className="badge">
                    {e.documentType} · {DOCUMENT_TYPES[e.documentType] ?? "dokument"}
                  </span>
                  <span className="badge" title="Kategorije PDV-a stavki">
                    PDV: {e.categories.join(", ")}
                  </span>
                </div>
                <div className="op-body">
                  <p>{e.covers}</p>
                  <p style={{ color: "var(--muted)", fontSize: "0.88rem" }}>
                    Datoteka <code>examples/einvoices/{e.file}</code>
                  </p>
                  <details>
                    <summary>Tijelo zahtjeva (JSON)</summary>
                    <div style={{ margin: "8px 0" }}>
                      <CopyButton text={e.body} label="Kopiraj JSON" name={`Kopiraj JSON: ${e.title}`} />
                    </div>
                    <pre tabIndex={0} aria-label={`Tijelo zahtjeva: ${e.title}`} style={{ maxWidth: "100%", overflowX: "auto" }}>
                      <code>{e.body}</code>
                    </pre>
                  </details>
                </div>
              </section>
            );
          })}
        </>
      )}
    </section>
  );
}
