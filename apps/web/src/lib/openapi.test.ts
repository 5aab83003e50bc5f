import { describe, expect, it } from "vitest";
import { groupMatcher, parseOpenApi } from "./openapi.ts";

const doc = {
  openapi: "3.1.0",
  info: { title: "Fiskal API", version: "1.0.0" },
  servers: [{ url: "http://127.0.0.1:3001" }],
  paths: {
    "/v1/validate/oib": {
      post: {
        summary: "Provjera OIB-a",
        tags: ["oib"],
        requestBody: {
          content: {
            "application/json": {
              schema: { type: "object", properties: { oib: { type: "string", pattern: "^\\d{11}$" } }, required: ["oib"] },
            },
          },
        },
        responses: {
          "200": {
            description: "OK",
            content: { "application/json": { schema: { $ref: "#/components/schemas/OibResult" } } },
          },
        },
      },
    },
    "/v1/kpd/{code}": {
      get: {
        parameters: [{ name: "code", in: "path", required: true, schema: { type: "string", maxLength: 8 } }],
        responses: { "200": { description: "OK" } },
        security: [],
      },
    },
  },
  components: {
    schemas: {
      OibResult: {
        type: "object",
        properties: {
          valid: { type: "boolean" },
          errors: { type: "array", items: { type: "object", properties: { code: { type: "string" } } } },
        },
        required: ["valid"],
      },
    },
  },
};

describe("parseOpenApi", () => {
  it("lists operations with parameters, bodies, resolved responses and limit groups", () => {
    const r = parseOpenApi(doc, (m, p) => (p.startsWith("/v1/kpd") ? "kpd" : m === "POST" ? "oib" : undefined));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [oib, kpd] = r.reference.operations;
    expect(oib?.method).toBe("POST");
    expect(oib?.requestBody?.fields[0]).toMatchObject({ name: "oib", type: "string", required: true, constraints: ["uzorak ^\\d{11}$"] });
    expect(oib?.responses[0]?.fields.map((f) => f.name)).toEqual(["valid", "errors"]);
    expect(oib?.responses[0]?.fields[1]).toMatchObject({ type: "object[]", children: [{ name: "code" }] });
    expect(oib?.rateLimitGroup).toBe("oib");
    expect(kpd?.parameters[0]).toMatchObject({ name: "code", in: "path", required: true, constraints: ["maks. duljina 8"] });
    expect(kpd?.authenticated).toBe(false);
    expect(kpd?.rateLimitGroup).toBe("kpd");
  });

  it("rejects something that is not an OpenAPI document", () => {
    expect(parseOpenApi({ hello: "world" }, () => undefined)).toEqual({ ok: false, reason: "Dokument nije ispravan OpenAPI opis." });
  });
});

describe("groupMatcher", () => {
  const match = groupMatcher({
    kpd: { label: "GET /v1/kpd/*" },
    oib: { label: "POST /v1/validate/oib*" },
    fiscalize: { label: "POST /v1/invoices/fiscalize" },
  });
  it("matches labels with wildcards by method and path", () => {
    expect(match("GET", "/v1/kpd/{code}", {})).toBe("kpd");
    expect(match("GET", "/v1/kpd/search", {})).toBe("kpd");
    expect(match("POST", "/v1/validate/oib/batch", {})).toBe("oib");
    expect(match("POST", "/v1/invoices/fiscalize", {})).toBe("fiscalize");
  });
  it("leaves other operations to the plan limits", () => {
    expect(match("GET", "/v1/invoices/{id}", {})).toBeUndefined();
    expect(match("POST", "/v1/kpd/batch", {})).toBeUndefined();
  });
  it("prefers an explicit extension", () => {
    expect(match("GET", "/v1/other", { "x-rate-limit-group": "oib" })).toBe("oib");
  });
});
