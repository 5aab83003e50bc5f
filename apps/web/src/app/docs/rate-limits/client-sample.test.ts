// The docs' client sample is complete and bounded: compiled as it is shown and run against a local
// server, it waits Retry-After and retries, and gives up after its attempt limit instead of looping.
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_SAMPLE } from "./client-sample.ts";

type Sample = { call(url: string, init?: RequestInit): Promise<Response> };

let answers: Array<{ status: number; headers: Record<string, string> }> = [];
let hits = 0;
const server = http.createServer((_req, res) => {
  hits++;
  const a = answers.shift() ?? { status: 429, headers: { "retry-after": "0" } };
  res.writeHead(a.status, { "content-type": "application/json", ...a.headers }).end("{}");
});
let base = "";

async function loadSample(): Promise<Sample> {
  const out = ts.transpileModule(CLIENT_SAMPLE, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }, reportDiagnostics: true });
  expect(out.diagnostics ?? []).toEqual([]);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "fiskal-sample-")), "sample.mjs");
  writeFileSync(file, out.outputText);
  return (await import(pathToFileURL(file).href)) as Sample;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the client sample of /docs/rate-limits", () => {
  it("waits Retry-After after a 429 and then gets the answer", async () => {
    const sample = await loadSample();
    answers = [{ status: 429, headers: { "retry-after": "1" } }, { status: 200, headers: { ratelimit: '"minute";r=50;t=10' } }];
    hits = 0;
    const started = Date.now();
    const res = await sample.call(`${base}/v1/validate/oib`);
    expect(res.status).toBe(200);
    expect(hits).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it("gives up after its attempt limit and hands the 429 to the caller", async () => {
    const sample = await loadSample();
    answers = [];
    hits = 0;
    const res = await sample.call(`${base}/v1/validate/oib`);
    expect(res.status).toBe(429);
    expect(hits).toBe(5);
  });

  it("does not wait longer than its limit: a wait beyond it returns the 429 at once", async () => {
    const sample = await loadSample();
    answers = [{ status: 429, headers: { "retry-after": "86400" } }];
    hits = 0;
    const started = Date.now();
    const res = await sample.call(`${base}/v1/validate/oib`);
    expect(res.status).toBe(429);
    expect(hits).toBe(1);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
