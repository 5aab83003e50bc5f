// The committed OpenAPI types must match what the API's current document generates.
import { readFileSync } from "node:fs";
import { buildOpenApiDocument } from "@fiskal/api";
import { describe, expect, it } from "vitest";
import { GENERATED_PATH, renderOpenApiTypes } from "../scripts/openapi-types.ts";

describe("src/generated/openapi.ts", () => {
  it("is up to date with buildOpenApiDocument() (run `pnpm --filter @fiskal/client generate` if not)", async () => {
    const committed = readFileSync(GENERATED_PATH, "utf8");
    // the same JSON text that `pnpm --filter @fiskal/api openapi` prints for generate.ts
    const fresh = await renderOpenApiTypes(JSON.stringify(buildOpenApiDocument("http://localhost")));
    const a = committed.split("\n");
    const b = fresh.split("\n");
    const line = a.findIndex((l, i) => l !== b[i]);
    const where = line === -1 ? (a.length === b.length ? "" : ` (length ${a.length} vs ${b.length} lines)`) : ` (first difference at line ${line + 1}: ${JSON.stringify(b[line])})`;
    expect(committed === fresh, `src/generated/openapi.ts is stale${where}: run \`pnpm --filter @fiskal/client generate\``).toBe(true);
  });

  it("covers every v1 path the client calls", () => {
    const committed = readFileSync(GENERATED_PATH, "utf8");
    for (const path of ["/v1/invoices/fiscalize", "/v1/invoices/{id}", "/v1/einvoices/send", "/v1/einvoices/{id}", "/v1/kpd/{code}", "/v1/kpd/search", "/v1/kpd/batch", "/v1/validate/oib", "/v1/validate/oib/batch", "/v1/limits"]) {
      expect(committed).toContain(`"${path}": {`);
    }
  });
});
