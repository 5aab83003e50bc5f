// A runnable curl command for each operation of the API reference: real example values where we know
// the endpoint (the same ones the README uses), placeholders built from the schema otherwise.
import type { Operation, SchemaField } from "./openapi";

const PATH_EXAMPLES: Record<string, string> = { code: "62.10.11", id: "<id>" };

const QUERY_EXAMPLES: Record<string, string> = { q: "psenica", limit: "5", codes: "62.10.11,01.11.11", level: "5" };

const SELLER = { oib: "69435151530", name: "Prodavatelj d.o.o.", iban: "HR1210010051863000160" };

/**
 * Request bodies that pass validation as they are. A receipt is issued now: its `issued_at` is
 * left to the shell (`date`), since a receipt dated days ago is a late delivery or refused.
 */
const NOW = "\u0000now\u0000";
const SHELL_NOW = `'"$(date +%Y-%m-%dT%H:%M:%S%:z)"'`;
const BODY_EXAMPLES: Record<string, unknown> = {
  "POST /v1/validate/oib": { oib: "69435151530" },
  "POST /v1/validate/oib/batch": { oibs: ["69435151530", "12345678901"] },
  "POST /v1/invoices/fiscalize": {
    oib: "69435151530",
    issued_at: NOW,
    number: "123",
    premises: "POSL1",
    device: "1",
    total: "125.00",
    payment_method: "K",
    operator_oib: "94577403194",
    vat_registered: true,
    sequence: "P",
    vat: [{ rate: "25", base: "100.00", amount: "25.00" }],
  },
  "POST /v1/einvoices/send": {
    number: "R-2026-17",
    issue_date: "2026-11-21",
    seller: SELLER,
    buyer: { oib: "94577403194", name: "Kupac d.o.o." },
    operator: { name: "Ana Horvat", oib: "12345678903" },
    lines: [{ description: "Razvoj aplikacije", quantity: "10", unit: "HUR", unit_price: "50.00", vat_rate: "25", kpd: "62.10.11", line_total: "500.00" }],
    totals: { net: "500.00", vat: "125.00", gross: "625.00" },
  },
};

function placeholder(field: SchemaField): unknown {
  const type = field.type.split(" ")[0];
  if (type === "integer" || type === "number") return 0;
  if (type === "boolean") return false;
  if (type === "array") return [];
  if (type === "object" || field.children.length) return skeleton(field.children);
  return `<${field.name}>`;
}

function skeleton(fields: SchemaField[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => f.required).map((f) => [f.name, placeholder(f)]));
}

/** Single-quoted for a POSIX shell. */
function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

export function curlExample(op: Operation, serverUrl: string): string {
  const key = `${op.method} ${op.path}`;
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => PATH_EXAMPLES[name] ?? `<${name}>`);
  const query = op.parameters
    .filter((p) => p.in === "query" && (p.required || QUERY_EXAMPLES[p.name] !== undefined))
    .map((p) => `${encodeURIComponent(p.name)}=${QUERY_EXAMPLES[p.name] ?? `<${p.name}>`}`)
    .join("&");
  const url = `${serverUrl.replace(/\/+$/, "")}${path}${query ? `?${query}` : ""}`;
  const lines = [`curl -s ${op.method === "GET" ? "" : `-X ${op.method} `}${shellQuote(url)}`];
  if (op.authenticated) lines.push(`-H "Authorization: Bearer $FISKAL_API_KEY"`);
  if (op.parameters.some((p) => p.in === "header" && p.name === "Idempotency-Key")) lines.push(`-H 'Idempotency-Key: <jedinstveni-kljuc-zahtjeva>'`);
  if (op.requestBody) {
    const body = BODY_EXAMPLES[key] ?? skeleton(op.requestBody.fields);
    lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(body)).replace(JSON.stringify(NOW).slice(1, -1), SHELL_NOW)}`);
  }
  return lines.join(" \\\n  ");
}
