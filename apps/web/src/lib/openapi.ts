// Turns an OpenAPI 3.1 document into plain data the API reference page renders.
import { z } from "zod";
import { stavki } from "./plural";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  nullable?: boolean;
  additionalProperties?: boolean | JsonSchema;
};

// Only the document's outline is checked here; schemas are rendered defensively.
const documentSchema = z.object({
  openapi: z.string(),
  info: z.object({ title: z.string(), version: z.string(), description: z.string().optional() }).loose(),
  servers: z.array(z.object({ url: z.string() }).loose()).optional(),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.object({ schemas: z.record(z.string(), z.unknown()).optional() }).loose().optional(),
});

export type SchemaField = {
  name: string;
  type: string;
  required: boolean;
  description?: string;
  constraints: string[];
  children: SchemaField[];
};

type Parameter = { name: string; in: string; required: boolean; type: string; description?: string; constraints: string[] };

export type Operation = {
  id: string;
  method: string;
  path: string;
  summary?: string;
  description?: string;
  tags: string[];
  parameters: Parameter[];
  requestBody?: { contentType: string; fields: SchemaField[]; rootType: string };
  responses: { status: string; description?: string; fields: SchemaField[]; rootType: string }[];
  rateLimitGroup?: string;
  authenticated: boolean;
};

export type ApiReference = {
  title: string;
  version: string;
  description?: string;
  serverUrl?: string;
  operations: Operation[];
};

export type ParseResult = { ok: true; reference: ApiReference } | { ok: false; reason: string };

const MAX_DEPTH = 6;

export function parseOpenApi(raw: unknown, groupOf: (method: string, path: string, op: Record<string, unknown>) => string | undefined): ParseResult {
  const parsed = documentSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: "Dokument nije ispravan OpenAPI opis." };
  const doc = parsed.data;
  const components = (doc.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const resolve = (s: JsonSchema | undefined): JsonSchema | undefined => {
    let cur = s;
    for (let i = 0; cur?.$ref && i < 10; i++) {
      const name = cur.$ref.replace(/^#\/components\/schemas\//, "");
      cur = components[name];
    }
    return cur;
  };

  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op || typeof op !== "object") continue;
      const params = Array.isArray(op.parameters) ? (op.parameters as Record<string, unknown>[]) : [];
      const parameters: Parameter[] = params.map((p) => {
        const schema = resolve(p.schema as JsonSchema | undefined);
        return {
          name: String(p.name ?? ""),
          in: String(p.in ?? ""),
          required: Boolean(p.required),
          type: typeLabel(schema, resolve),
          description: typeof p.description === "string" ? p.description : schema?.description,
          constraints: constraintsOf(schema),
        };
      });

      let requestBody: Operation["requestBody"];
      const body = op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined;
      if (body?.content) {
        const [contentType, media] = Object.entries(body.content)[0] ?? [];
        if (contentType) {
          const schema = resolve(media?.schema);
          requestBody = { contentType, rootType: typeLabel(schema, resolve), fields: fieldsOf(schema, resolve, 0) };
        }
      }

      const responses: Operation["responses"] = [];
      const rawResponses = (op.responses ?? {}) as Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
      for (const [status, resp] of Object.entries(rawResponses)) {
        const media = resp.content ? Object.values(resp.content)[0] : undefined;
        const schema = resolve(media?.schema);
        responses.push({
          status,
          description: resp.description,
          rootType: schema ? typeLabel(schema, resolve) : "",
          fields: fieldsOf(schema, resolve, 0),
        });
      }

      const security = op.security as unknown[] | undefined;
      operations.push({
        id: `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, "-").replace(/^-|-$/g, ""),
        method: method.toUpperCase(),
        path,
        summary: typeof op.summary === "string" ? op.summary : undefined,
        description: typeof op.description === "string" ? op.description : undefined,
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        parameters,
        requestBody,
        responses,
        rateLimitGroup: groupOf(method.toUpperCase(), path, op),
        authenticated: !(Array.isArray(security) && security.length === 0),
      });
    }
  }

  return {
    ok: true,
    reference: {
      title: doc.info.title,
      version: doc.info.version,
      description: doc.info.description,
      serverUrl: doc.servers?.[0]?.url,
      operations,
    },
  };
}

function fieldsOf(schema: JsonSchema | undefined, resolve: (s: JsonSchema | undefined) => JsonSchema | undefined, depth: number): SchemaField[] {
  if (!schema || depth > MAX_DEPTH) return [];
  const target = objectOf(schema, resolve);
  if (!target?.properties) return [];
  const required = new Set(target.required ?? []);
  return Object.entries(target.properties).map(([name, raw]) => {
    const s = resolve(raw);
    return {
      name,
      type: typeLabel(s, resolve),
      required: required.has(name),
      description: s?.description ?? raw.description,
      constraints: constraintsOf(s),
      children: fieldsOf(s, resolve, depth + 1),
    };
  });
}

/** The object whose properties describe a value: itself, its array items, or the merge of allOf parts. */
function objectOf(schema: JsonSchema, resolve: (s: JsonSchema | undefined) => JsonSchema | undefined): JsonSchema | undefined {
  if (schema.properties) return schema;
  if (schema.items) return objectOf(resolve(schema.items) ?? {}, resolve);
  if (schema.allOf) {
    const parts = schema.allOf.map((p) => resolve(p)).filter((p): p is JsonSchema => Boolean(p));
    return {
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
      required: parts.flatMap((p) => p.required ?? []),
    };
  }
  const variants = (schema.anyOf ?? schema.oneOf)?.map((v) => resolve(v)).filter((v): v is JsonSchema => Boolean(v) && v?.type !== "null");
  if (variants && variants.length === 1 && variants[0]) return objectOf(variants[0], resolve);
  return undefined;
}

function typeLabel(schema: JsonSchema | undefined, resolve: (s: JsonSchema | undefined) => JsonSchema | undefined = (s) => s): string {
  if (!schema) return "bilo što";
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map((v) => typeLabel(resolve(v), resolve)).join(" | ");
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const t = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type;
  if (t === "array") return `${typeLabel(resolve(schema.items), resolve)}[]`;
  if (!t && schema.properties) return "object";
  if (!t && schema.allOf) return "object";
  const base = t ?? "bilo što";
  return schema.format ? `${base} (${schema.format})` : base;
}

function constraintsOf(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const out: string[] = [];
  if (schema.minLength !== undefined) out.push(`min. duljina ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`maks. duljina ${schema.maxLength}`);
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (schema.minItems !== undefined) out.push(`min. ${schema.minItems} ${stavki(schema.minItems)}`);
  if (schema.maxItems !== undefined) out.push(`maks. ${schema.maxItems} ${stavki(schema.maxItems)}`);
  if (schema.pattern) out.push(`uzorak ${schema.pattern}`);
  if (schema.default !== undefined) out.push(`zadano ${JSON.stringify(schema.default)}`);
  return out;
}

/**
 * Finds the dedicated limit group of an operation: an explicit `x-rate-limit-group` extension if
 * the document has one, else the first group whose label ("GET /v1/kpd/*") matches method and path.
 */
export function groupMatcher(labels: Record<string, { label: string }>) {
  const rules = Object.entries(labels).map(([group, { label }]) => {
    const [method = "", pattern = ""] = label.split(" ");
    const regex = new RegExp(`^${pattern.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
    return { group, method: method.toUpperCase(), regex };
  });
  return (method: string, path: string, op: Record<string, unknown>): string | undefined => {
    const explicit = op["x-rate-limit-group"];
    if (typeof explicit === "string") return explicit;
    return rules.find((r) => r.method === method.toUpperCase() && r.regex.test(path))?.group;
  };
}
