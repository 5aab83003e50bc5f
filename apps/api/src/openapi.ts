// The OpenAPI 3.1 document, generated from the same zod schemas that validate requests.
import { generateOpenApiDocument } from "trpc-to-openapi";
import { appRouter } from "./router.ts";

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
  });
  return doc;
}
