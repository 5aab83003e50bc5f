import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { curlExample } from "./curl.ts";
import type { Operation } from "./openapi.ts";

const op = (o: Partial<Operation>): Operation => ({ id: "x", method: "GET", path: "/v1/limits", tags: [], parameters: [], responses: [], authenticated: true, ...o });

describe("curlExample", () => {
  it("uses real values for known endpoints, the key from the environment and the Idempotency-Key", () => {
    const text = curlExample(
      op({
        method: "POST",
        path: "/v1/validate/oib",
        requestBody: { contentType: "application/json", fields: [], rootType: "object" },
        parameters: [{ name: "Idempotency-Key", in: "header", required: false, type: "string", constraints: [] }],
      }),
      "http://api.test/",
    );
    expect(text).toBe(
      `curl -s -X POST 'http://api.test/v1/validate/oib' \\\n  -H "Authorization: Bearer $FISKAL_API_KEY" \\\n  -H 'Idempotency-Key: <jedinstveni-kljuc-zahtjeva>' \\\n  -H 'Content-Type: application/json' \\\n  -d '{"oib":"69435151530"}'`,
    );
  });
  it("fills path and query parameters and quotes for the shell", () => {
    expect(curlExample(op({ path: "/v1/kpd/{code}" }), "http://api.test")).toContain("'http://api.test/v1/kpd/62.10.11'");
    const search = curlExample(op({ path: "/v1/kpd/search", parameters: [{ name: "q", in: "query", required: true, type: "string", constraints: [] }] }), "http://api.test");
    expect(search).toContain("'http://api.test/v1/kpd/search?q=psenica'");
    const open = curlExample(op({ path: "/v1/openapi.json", authenticated: false }), "http://api.test");
    expect(open).toBe("curl -s 'http://api.test/v1/openapi.json'");
    const unknown = curlExample(
      op({ method: "POST", path: "/v1/nesto", requestBody: { contentType: "application/json", fields: [{ name: "naziv", type: "string", required: true, constraints: [], children: [] }, { name: "n", type: "integer", required: false, constraints: [], children: [] }], rootType: "object" } }),
      "http://api.test",
    );
    expect(unknown).toContain(`-d '{"naziv":"<naziv>"}'`);
  });
  it("dates the receipt example now, through the shell, so that it is neither late nor refused", () => {
    const text = curlExample(
      op({ method: "POST", path: "/v1/invoices/fiscalize", requestBody: { contentType: "application/json", fields: [], rootType: "object" } }),
      "http://api.test",
    );
    const arg = text.slice(text.indexOf("-d ") + 3);
    const shell = spawnSync("bash", ["-c", `printf %s ${arg}`], { encoding: "utf8" });
    const body = JSON.parse(shell.stdout) as { issued_at: string; number: string };
    expect(body.number).toBe("123");
    expect(body.issued_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(Math.abs(Date.parse(body.issued_at) - Date.now())).toBeLessThan(60_000);
  });
});
