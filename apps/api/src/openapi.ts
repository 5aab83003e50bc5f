// The OpenAPI 3.1 document: trpc-to-openapi generates paths and schemas from the same zod schemas
// that validate requests; this module adds what the HTTP layer owns — the error envelope and its
// statuses, the rate-limit headers, Idempotency-Key and each operation's rate-limit group.
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
  "RateLimit-Policy": { description: "IETF draft field listing every window, e.g. \"burst\";q=10;w=1, \"minute\";q=60;w=60.", schema: { type: "string" } },
  RateLimit: { description: "IETF draft field: remaining (r) and reset seconds (t) of every window.", schema: { type: "string" } },
  "X-Request-Id": { description: "Identifier of this request; quote it to support.", schema: { type: "string" } },
};

const ERROR_WHEN: Record<ErrorCode, string> = {
  validation_error: "Malformed JSON or a value that breaks the rules; details list {path, message}.",
  unauthorized: "Missing, malformed, unknown or revoked API key (limited per client IP).",
  forbidden: "The key may not do this.",
  not_found: "No such route, or no such object in your account.",
  method_not_allowed: "The path exists under another method (see Allow).",
  idempotency_conflict: "Idempotency-Key reused with another body (details.reason \"mismatch\"), or the first request with it is still running (\"in_progress\", with Retry-After).",
  conflict: "The receipt or e-invoice number was already used.",
  payload_too_large: "Body over 1 MB.",
  unsupported_media_type: "The body must be application/json.",
  rate_limit_exceeded: "A rate-limit window refused the request; wait Retry-After seconds.",
  internal_error: "Our fault; quote X-Request-Id.",
  upstream_unavailable: "The tax authority or the e-invoice intermediary is unavailable; retry with the same Idempotency-Key after Retry-After.",
};

export function buildOpenApiDocument(apiUrl: string) {
  const doc = generateOpenApiDocument(appRouter, {
    title: "Fiskal API",
    version: "1.0.0",
    description:
      "Fiscalization (CIS), e-invoices, KPD 2025 lookups and OIB validation for Croatia. Every response carries " +
      "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (Unix seconds), X-Request-Id and the IETF RateLimit-Policy " +
      "and RateLimit fields; a 429 also carries Retry-After. Errors share the envelope {\"error\":{\"code\",\"message\",\"doc_url\"}}.",
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
          message: { type: "string", description: "In Croatian; for 429 it names the seconds of Retry-After." },
          doc_url: { type: "string", format: "uri" },
          details: { description: "validation_error: [{path, message}]; other codes: an object with more context." },
        },
      },
    },
  };
  components.headers = {
    ...RATE_LIMIT_HEADERS,
    "Retry-After": { description: "Whole seconds to wait; never too early.", schema: { type: "integer", minimum: 1 } },
    ETag: { description: "Validator for If-None-Match (KPD).", schema: { type: "string" } },
    "Idempotent-Replayed": { description: "\"true\" when the response is a replay of an earlier request with the same Idempotency-Key.", schema: { type: "string" } },
  };
  const headerRefs = (names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
  const rateHeaders = Object.keys(RATE_LIMIT_HEADERS);
  const errorResponse = (codes: ErrorCode[]) => ({
    description: codes.map((c) => `${c}: ${ERROR_WHEN[c]}`).join(" "),
    headers: headerRefs(codes.some((c) => c === "rate_limit_exceeded" || c === "upstream_unavailable" || c === "idempotency_conflict") ? [...rateHeaders, "Retry-After"] : rateHeaders),
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  });

  for (const route of buildRouteTable(appRouter).all) {
    const op = doc.paths?.[route.path]?.[route.method.toLowerCase()] as Json | undefined;
    if (!op) continue;
    const post = route.method === "POST";
    const idempotent = route.group === "fiscalize" || route.group === "einvoice";
    if (idempotent) {
      op.parameters = [
        ...(op.parameters ?? []),
        {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description: "A retry with the same key and body returns the stored response and never runs twice (24 h).",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
      ];
    }
    if (route.group === "kpd") {
      op.parameters = [...(op.parameters ?? []), { name: "If-None-Match", in: "header", required: false, schema: { type: "string" } }];
    }
    const ok = op.responses?.["200"] ?? {};
    ok.headers = headerRefs([...rateHeaders, ...(route.group === "kpd" ? ["ETag"] : []), ...(idempotent ? ["Idempotent-Replayed"] : [])]);
    const responses: Json = { "200": ok };
    if (route.group === "kpd") responses["304"] = { description: "Not modified (If-None-Match matched).", headers: headerRefs([...rateHeaders, "ETag"]) };
    const byStatus = new Map<number, ErrorCode[]>();
    const codes: ErrorCode[] = ["validation_error", "unauthorized", "not_found", "rate_limit_exceeded", "internal_error"];
    if (post) codes.push("payload_too_large", "unsupported_media_type");
    if (idempotent) codes.push("idempotency_conflict", "conflict", "upstream_unavailable");
    for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
    for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) responses[String(status)] = errorResponse(list);
    op.responses = responses;
    if (route.group) {
      op["x-rate-limit-group"] = route.group;
      op["x-rate-limit-per-minute"] = ENDPOINT_LIMITS[route.group].perMinute;
    }
    if (route.free) op["x-rate-limit-free"] = true;
  }
  return doc;
}
