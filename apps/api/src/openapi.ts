// The OpenAPI 3.1 document: trpc-to-openapi generates paths and schemas from the same zod schemas
// that validate requests; this module adds what the HTTP layer owns — the error envelope and its
// statuses, the rate-limit headers, and from each procedure's route policy (trpc.ts RoutePolicy) its
// Idempotency-Key, ETag and rate-limit group.
import { generateOpenApiDocument } from "trpc-to-openapi";
import { ENDPOINT_LIMITS } from "@fiskal/limits";
import { appRouter } from "./router.ts";
import { ERROR_STATUS, type ErrorCode } from "./errors.ts";
import { buildRouteTable } from "./http/routes.ts";

type Json = Record<string, any>;

const RATE_LIMIT_HEADERS: Json = {
  "X-RateLimit-Limit": { description: "Limit of the binding window.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the binding window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix seconds when the binding window admits again / resets.", schema: { type: "integer" } },
  "RateLimit-Policy": {
    description:
      "IETF draft field listing every window, e.g. \"burst\";q=10;w=1, \"minute\";q=60;w=60, \"endpoint:oib\";q=300;w=60, \"day\";q=10000;w=86400. " +
      "An answer to a request without a valid key lists the address's anonymous windows instead, always named \"ip:burst\", \"ip:minute\" and \"ip:day\" (never like an account's).",
    schema: { type: "string" },
  },
  RateLimit: { description: "IETF draft field: remaining (r) and reset seconds (t) of every window, named as in RateLimit-Policy (the anonymous ones \"ip:…\").", schema: { type: "string" } },
  "X-Request-Id": { description: "Identifier of this request; quote it to support.", schema: { type: "string" } },
};

const ERROR_WHEN: Record<ErrorCode, string> = {
  validation_error: "Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}.",
  unauthorized: "Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi).",
  forbidden: "Ključ nema pravo na ovu radnju.",
  not_found: "Ruta ili objekt ne postoji u vašem računu.",
  method_not_allowed: "Putanja postoji s drugom metodom (vidi Allow).",
  idempotency_conflict: "Idempotency-Key je upotrijebljen za drugo tijelo (details.reason \"mismatch\"), prvi zahtjev se još obrađuje (\"in_progress\", uz Retry-After) ili mu ishod nije poznat (\"outcome_unknown\").",
  conflict: "Broj računa ili e-računa već je iskorišten.",
  payload_too_large: "Tijelo zahtjeva veće je od 1 MB.",
  unsupported_media_type: "Tijelo mora biti application/json.",
  rate_limit_exceeded: "Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi.",
  internal_error: "Pogreška na našoj strani; javite nam X-Request-Id.",
  upstream_unavailable: "Porezna uprava ili posrednik za e-račune nije dostupan; ponovite s istim Idempotency-Key nakon Retry-After.",
  malformed_request: "HTTP zahtjev nije ispravan (npr. CR/LF/NUL u zaglavlju, neispravan Content-Length, nedostaje Host).",
  request_timeout: "Zaglavlja ili tijelo zahtjeva nisu stigli na vrijeme.",
  headers_too_large: "Zaglavlja zajedno s adresom veća su od 16 KB.",
  expectation_failed: "Zaglavlje Expect traži nešto osim 100-continue.",
  service_unavailable: "Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After.",
  outcome_unknown: "Baza podataka prekinula je vezu dok se zahtjev spremao: nije poznato je li zabilježen. Ponovite s istim Idempotency-Key nakon Retry-After (ili dohvatite details.id); ništa se ne šalje dvaput.",
};

export function buildOpenApiDocument(apiUrl: string) {
  const doc = generateOpenApiDocument(appRouter, {
    title: "Fiskal API",
    version: "1.0.0",
    description:
      "Fiskalizacija (CIS), e-računi, KPD 2025 i provjera OIB-a. Svaki odgovor nosi X-RateLimit-Limit, X-RateLimit-Remaining, " +
      "X-RateLimit-Reset (Unix sekunde), X-Request-Id te IETF polja RateLimit-Policy i RateLimit; odgovor 429 i Retry-After. " +
      "Pogreške imaju oblik {\"error\":{\"code\",\"message\",\"doc_url\"}}.",
    baseUrl: apiUrl,
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "API key: fsk_test_… or fsk_live_…" } },
  }) as Json;

  const components = (doc.components ??= {});
  // trpc-to-openapi's own error shapes ({message, code, issues}) are not what the API sends.
  for (const name of Object.keys(components.schemas ?? {})) if (name.startsWith("error.")) delete components.schemas[name];
  components.schemas.Error = {
    type: "object",
    required: ["error"],
    additionalProperties: false,
    properties: {
      error: {
        type: "object",
        required: ["code", "message", "doc_url"],
        properties: {
          code: { type: "string", enum: Object.keys(ERROR_STATUS) },
          message: { type: "string", description: "Na hrvatskom; kod 429 navodi sekunde iz Retry-After." },
          doc_url: { type: "string", format: "uri" },
          details: { description: "validation_error: [{path, message}]; ostali kodovi: objekt s više pojedinosti." },
        },
      },
    },
  };
  components.headers = {
    ...RATE_LIMIT_HEADERS,
    "Retry-After": { description: "Cijele sekunde čekanja; nikad prerano.", schema: { type: "integer", minimum: 1 } },
    ETag: { description: "Oznaka verzije za If-None-Match.", schema: { type: "string" } },
    "Idempotent-Replayed": { description: "\"true\" kad je odgovor ponovljen odgovor ranijeg zahtjeva s istim Idempotency-Key.", schema: { type: "string" } },
  };
  const headerRefs = (names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
  const rateHeaders = Object.keys(RATE_LIMIT_HEADERS);
  const errorResponse = (codes: ErrorCode[]) => ({
    description: codes.map((c) => `${c}: ${ERROR_WHEN[c]}`).join(" "),
    headers: headerRefs(
      codes.some((c) => c === "rate_limit_exceeded" || c === "upstream_unavailable" || c === "service_unavailable" || c === "outcome_unknown" || c === "idempotency_conflict")
        ? [...rateHeaders, "Retry-After"]
        : rateHeaders,
    ),
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  });

  for (const route of buildRouteTable(appRouter).all) {
    const op = doc.paths?.[route.path]?.[route.method.toLowerCase()] as Json | undefined;
    if (!op) continue;
    const hasBody = route.method === "POST" || route.method === "PUT" || route.method === "PATCH";
    const { idempotent } = route;
    const cached = route.etag !== undefined;
    if (idempotent) {
      op.parameters = [
        ...(op.parameters ?? []),
        {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description: "Ponovljeni zahtjev s istim ključem i tijelom vraća spremljeni odgovor i nikad se ne izvodi dvaput (ključ vrijedi 24 h).",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
      ];
    }
    if (cached) {
      op.parameters = [...(op.parameters ?? []), { name: "If-None-Match", in: "header", required: false, description: "ETag ranijeg odgovora; ako se nije promijenio, odgovor je 304 bez tijela.", schema: { type: "string" } }];
    }
    const ok = op.responses?.["200"] ?? {};
    // trpc-to-openapi describes every 200 as "Successful response".
    if (!ok.description || ok.description === "Successful response") ok.description = "Uspješan odgovor.";
    ok.headers = headerRefs([...rateHeaders, ...(cached ? ["ETag"] : []), ...(idempotent ? ["Idempotent-Replayed"] : [])]);
    if (route.download) ok.content = { "application/zip": { schema: { type: "string", format: "binary" } } };
    const responses: Json = { "200": ok };
    if (cached) responses["304"] = { description: "Nije promijenjeno (If-None-Match se podudara).", headers: headerRefs([...rateHeaders, "ETag"]) };
    const byStatus = new Map<number, ErrorCode[]>();
    const codes: ErrorCode[] = ["validation_error", "unauthorized", "not_found", "rate_limit_exceeded", "internal_error", "service_unavailable"];
    if (hasBody) codes.push("payload_too_large", "unsupported_media_type");
    if (idempotent) codes.push("idempotency_conflict", "conflict", "upstream_unavailable", "outcome_unknown");
    for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
    for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) responses[String(status)] = errorResponse(list);
    op.responses = responses;
    if (route.group) {
      op["x-rate-limit-group"] = route.group;
      op["x-rate-limit-per-minute"] = ENDPOINT_LIMITS[route.group].perMinute;
    }
    if (route.statusLimits) op["x-rate-limit-free"] = true;
  }
  tidySchemas(doc);
  return doc;
}

/** zod 4 writes its safe-integer bounds on every .int() and the ISO regex beside format: date; both are noise to a reader. */
function tidySchemas(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(tidySchemas);
  if (!node || typeof node !== "object") return;
  const o = node as Json;
  if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
  if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
  if (o.type === "string" && typeof o.format === "string" && ["date", "date-time"].includes(o.format)) delete o.pattern;
  for (const v of Object.values(o)) tidySchemas(v);
}
