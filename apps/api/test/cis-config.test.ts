// CIS_* / F2_* settings: how the API chooses and configures the tax authority's services.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateTestCertificate } from "@fiskal/fiscal";
import { loadEnv } from "../src/env.ts";
import { cisOptionsFromEnv, createTaxAuthority, f2OptionsFromEnv } from "../src/tax-authority.ts";

let dir: string;
let caFile: string;
let pinnedFile: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "cis-config-"));
  caFile = path.join(dir, "ca.pem");
  pinnedFile = path.join(dir, "signer.pem");
  const a = generateTestCertificate({ oib: "69435151530", name: "CA" });
  const b = generateTestCertificate({ oib: "94577403194", name: "Signer" });
  writeFileSync(caFile, a.certPem + b.certPem);
  writeFileSync(pinnedFile, b.certPem);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (over: Record<string, string>) => loadEnv(over as NodeJS.ProcessEnv);

describe("CIS settings", () => {
  it("no CIS_URL: the simulator, announced in the log", () => {
    expect(cisOptionsFromEnv(env({}))).toBeNull();
    const lines: string[] = [];
    const log = pino({ level: "info" }, { write: (l: string) => lines.push(l) });
    createTaxAuthority(null, log);
    expect(lines.join("")).toContain("SIMULATOR");
  });

  it("the demo address trusts fiskalcistest signers from the CA bundle; production fiskalcis; defaults per the spec", () => {
    const demo = cisOptionsFromEnv(env({ CIS_URL: "https://cistest.apis-it.hr:8449/FiskalizacijaServiceTest", CIS_CA_FILE: caFile }))!;
    expect(demo.signer.names).toEqual(["fiskalcistest"]);
    expect(demo.signer.ca).toHaveLength(2);
    expect(demo.ca).toContain("BEGIN CERTIFICATE");
    expect([demo.connectTimeoutMs, demo.timeoutMs]).toEqual([2_000, 5_000]);
    const prod = cisOptionsFromEnv(env({ CIS_URL: "https://cis.porezna-uprava.hr:8449/FiskalizacijaService", CIS_SIGNER_CERT_FILE: pinnedFile, CIS_TIMEOUT_MS: "3000" }))!;
    expect(prod.signer.names).toEqual(["fiskalcis"]);
    expect(prod.signer.pinned).toHaveLength(1);
    expect(prod.ca).toBeUndefined();
    expect(prod.timeoutMs).toBe(3_000);
  });

  it("refuses an http address, a missing signer trust and unreadable files, naming the variable", () => {
    expect(() => env({ CIS_URL: "http://cistest.apis-it.hr:8449/x" })).toThrow(/CIS_URL/);
    expect(() => cisOptionsFromEnv(env({ CIS_URL: "https://cistest.apis-it.hr:8449/x" }))).toThrow(/CIS_SIGNER_CERT_FILE/);
    expect(() => cisOptionsFromEnv(env({ CIS_URL: "https://cistest.apis-it.hr:8449/x", CIS_CA_FILE: path.join(dir, "missing.pem") }))).toThrow(/CIS_CA_FILE.*ENOENT/);
    const empty = path.join(dir, "empty.pem");
    writeFileSync(empty, "not a certificate");
    expect(() => cisOptionsFromEnv(env({ CIS_URL: "https://cistest.apis-it.hr:8449/x", CIS_CA_FILE: empty }))).toThrow(/no PEM certificate/);
  });

  it("Fiscalization 2.0 shares the signer trust and falls back to the CIS CA bundle", () => {
    expect(f2OptionsFromEnv(env({}))).toBeNull();
    const f2 = f2OptionsFromEnv(env({ F2_URL: "https://cistest.apis-it.hr:8509/FiskalizacijaServiceEprod", CIS_CA_FILE: caFile }))!;
    expect(f2.url).toBe("https://cistest.apis-it.hr:8509/FiskalizacijaServiceEprod");
    expect(f2.signer.names).toEqual(["fiskalcistest"]);
    expect(f2.ca).toContain("BEGIN CERTIFICATE");
  });
});
