// The package as a customer gets it: packed by npm (prepack builds dist/ and writes the published
// manifest), installed from the tarball into a fresh npm project, imported as ESM and by require(),
// and type-checked by `tsc --noEmit` in strict mode, from ES modules and from CommonJS (.cts).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const pkgDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = join(pkgDir, "..", "..");
const tscBin = createRequire(join(repoRoot, "package.json")).resolve("typescript/bin/tsc");

let work: string;
let consumer: string;
let tarball: string;
let packed: Record<string, any>;
let files: string[];

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  try {
    return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false", ...env } });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}\n${e.stderr ?? ""}\n${e.message}`);
  }
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "fiskal-client-pack-"));
  // A copy of the package in the repository's layout, so packing never rewrites the working tree.
  const copy = join(work, "repo", "packages", "client");
  mkdirSync(copy, { recursive: true });
  cpSync(join(repoRoot, "tsconfig.base.json"), join(work, "repo", "tsconfig.base.json"));
  for (const entry of ["package.json", "README.md", "LICENSE", "tsconfig.build.json", "tsconfig.cjs.json", "src", "scripts"]) cpSync(join(pkgDir, entry), join(copy, entry), { recursive: true });
  const path = `${dirname(tscBin)}${":"}${join(repoRoot, "node_modules", ".bin")}:${process.env.PATH ?? ""}`;
  const npmEnv = { PATH: path, npm_config_cache: join(work, "npm-cache") };
  const out = run("npm", ["pack", "--pack-destination", work], copy, npmEnv);
  tarball = join(work, out.trim().split("\n").at(-1)!);
  expect(existsSync(tarball), `npm pack printed ${out}`).toBe(true);
  // The copy's manifest is back as it was after packing.
  expect(readFileSync(join(copy, "package.json"), "utf8")).toBe(readFileSync(join(pkgDir, "package.json"), "utf8"));

  files = run("tar", ["-tzf", tarball], work).trim().split("\n").sort();
  packed = JSON.parse(run("tar", ["-xzOf", tarball, "package/package.json"], work));

  consumer = join(work, "consumer");
  mkdirSync(consumer);
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }));
  // No runtime dependencies, so an offline install of the tarball needs nothing from a registry.
  run("npm", ["install", tarball, "--offline", "--no-audit", "--no-fund"], consumer, npmEnv);
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("npm pack → npm install → import", () => {
  it("the tarball holds the built files, the license and a manifest fit to publish", () => {
    expect(files).toEqual(
      expect.arrayContaining([
        "package/LICENSE",
        "package/README.md",
        "package/package.json",
        "package/dist/index.js",
        "package/dist/index.d.ts",
        "package/dist/gate.js",
        "package/dist/index.js.map",
        "package/dist/cjs/index.js",
        "package/dist/cjs/index.d.ts",
        "package/dist/cjs/package.json",
        "package/dist/cjs/index.js.map",
      ]),
    );
    expect(files.filter((f) => f.startsWith("package/src/") || f.startsWith("package/test/") || f.startsWith("package/scripts/"))).toEqual([]);
    expect(packed).toMatchObject({ name: "@fiskal/client", license: "MIT", type: "module", types: "./dist/index.d.ts", main: "./dist/cjs/index.js" });
    expect(packed.exports["."]).toEqual({
      import: { types: "./dist/index.d.ts", default: "./dist/index.js" },
      require: { types: "./dist/cjs/index.d.ts", default: "./dist/cjs/index.js" },
    });
    expect(packed.repository).toMatchObject({ type: "git", directory: "packages/client" });
    expect(packed.homepage).toMatch(/^https:\/\//);
    expect(packed.bugs.url).toMatch(/^https:\/\//);
    // Nothing private, nothing that only the repository needs.
    expect(packed.devDependencies).toBeUndefined();
    expect(packed.dependencies).toBeUndefined();
    expect(packed.scripts).toBeUndefined();
    expect(JSON.stringify(packed)).not.toContain("workspace:");
    expect(JSON.stringify(packed)).not.toMatch(/@fiskal\/(api|db)/);
  });

  it("declarations use .js specifiers and named type exports (readable by TypeScript before 5.0)", () => {
    const dts = readdirSync(join(consumer, "node_modules", "@fiskal", "client", "dist"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".d.ts"));
    expect(dts.length).toBeGreaterThan(5);
    for (const f of dts) {
      const text = readFileSync(join(consumer, "node_modules", "@fiskal", "client", "dist", f), "utf8");
      expect(text, f).not.toMatch(/from\s+["']\.{1,2}\/[^"']*\.ts["']/);
      expect(text, f).not.toMatch(/export type \*/);
    }
  });

  it("imports as ESM and runs a call with the documented rate-limit handling", () => {
    writeFileSync(
      join(consumer, "esm.mjs"),
      `import { FiskalClient, FiskalError, isFiskalError, MemoryKpdCache } from "@fiskal/client";
const seen = [];
const fetch = async (url, init) => {
  seen.push([init.method, new URL(url).pathname, new Headers(init.headers).get("authorization")]);
  return new Response(JSON.stringify({ oib: "69435151530", valid: true }), {
    status: 200,
    headers: { "content-type": "application/json", "x-ratelimit-limit": "10", "x-ratelimit-remaining": "9", "x-ratelimit-reset": "1800000000",
      "ratelimit-policy": '"burst";q=10;w=1', ratelimit: '"burst";r=9;t=1' },
  });
};
const c = new FiskalClient({ apiKey: "fsk_test_x", baseUrl: "http://api.test", fetch });
const r = await c.validateOib("69435151530");
console.log(JSON.stringify({ r, seen, rateLimit: c.rateLimit, error: typeof FiskalError, guard: isFiskalError(new FiskalError({ code: "timeout", message: "x" })), cache: new MemoryKpdCache().size }));
`,
    );
    const out = JSON.parse(run(process.execPath, ["esm.mjs"], consumer));
    expect(out).toEqual({
      r: { oib: "69435151530", valid: true },
      seen: [["POST", "/v1/validate/oib", "Bearer fsk_test_x"]],
      rateLimit: { limit: 10, remaining: 9, reset: 1_800_000_000, windows: [{ name: "burst", limit: 10, windowSeconds: 1, remaining: 9, resetSeconds: 1 }] },
      error: "function",
      guard: true,
      cache: 0,
    });
  });

  it("require() loads the CommonJS build, on every Node version", () => {
    writeFileSync(
      join(consumer, "cjs.cjs"),
      `const m = require("@fiskal/client"); console.log(typeof m.FiskalClient, typeof m.isFiskalError, typeof m.redisPacingStore, require.resolve("@fiskal/client").replace(/\\\\/g, "/").split("node_modules/")[1]);`,
    );
    expect(run(process.execPath, ["--no-experimental-require-module", "cjs.cjs"], consumer).trim()).toBe("function function function @fiskal/client/dist/cjs/index.js");
  });

  it("source maps carry the sources, so stack traces point at TypeScript lines", () => {
    for (const f of ["dist/client.js.map", "dist/cjs/client.js.map"]) {
      const map = JSON.parse(readFileSync(join(consumer, "node_modules", "@fiskal", "client", f), "utf8")) as { sources: string[]; sourcesContent?: string[] };
      expect(map.sources.some((x) => x.endsWith("client.ts")), f).toBe(true);
      expect(map.sourcesContent?.[0], f).toContain("export class FiskalClient");
    }
  });

  it("a CommonJS TypeScript consumer (.cts, node16 and nodenext resolution) type-checks: no TS1479", () => {
    writeFileSync(
      join(consumer, "consumer.cts"),
      `import { FiskalClient, isFiskalError, type FiskalClientOptions, type Invoice } from "@fiskal/client";
const options: FiskalClientOptions = { apiKey: "fsk_test_x", baseUrl: "http://api.test", deadlineMs: 10_000 };
export async function main(): Promise<string> {
  try {
    const invoice: Invoice = await new FiskalClient(options).getInvoice("inv_1");
    return invoice.id;
  } catch (err) {
    return isFiskalError(err) ? err.code : "?";
  }
}
`,
    );
    for (const mode of ["Node16", "NodeNext"]) {
      writeFileSync(
        join(consumer, "tsconfig.cjs.json"),
        JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, target: "ES2022", module: mode, moduleResolution: mode, lib: ["ES2022", "DOM"], types: [] }, files: ["consumer.cts"] }),
      );
      expect(run(process.execPath, [tscBin, "--noEmit", "-p", "tsconfig.cjs.json"], consumer).trim(), mode).toBe("");
    }
  });

  it("type-checks with tsc --noEmit in strict mode (NodeNext and Bundler resolution), types intact", () => {
    writeFileSync(
      join(consumer, "index.ts"),
      `import { FiskalClient, FiskalError, isFiskalError, type FiskalClientOptions, type Invoice, type KpdSearchResult, type RateLimitStanding, type Limits } from "@fiskal/client";
const options: FiskalClientOptions = { apiKey: "fsk_test_x", baseUrl: "http://api.test", retry: { maxAttempts: 3 }, rateLimit: { learn: true } };
const fiskal = new FiskalClient(options);
export async function main(): Promise<string> {
  const invoice: Invoice = await fiskal.fiscalize({ oib: "69435151530", issued_at: "2026-11-21T10:15:00+01:00", number: "1", premises: "POSL1", device: "1", total: "1.00", payment_method: "K", operator_oib: "94577403194", vat_registered: true, sequence: "P" });
  const hits: KpdSearchResult = await fiskal.searchKpd("psenica");
  const limits: Limits = await fiskal.limits();
  const standing: RateLimitStanding | null = fiskal.rateLimit;
  // @ts-expect-error the receipt's fields are typed, not any
  await fiskal.fiscalize({ oib: 69435151530 });
  try {
    await fiskal.getInvoice(invoice.id);
  } catch (err) {
    if (isFiskalError(err) && err.code === "rate_limit_exceeded") return String(err.retryAfter ?? "none");
    if (err instanceof FiskalError) return err.code;
  }
  return [invoice.jir, hits.results.length, limits.windows.length, standing?.remaining].join();
}
`,
    );
    for (const [module, moduleResolution] of [
      ["NodeNext", "NodeNext"],
      ["ESNext", "Bundler"],
    ]) {
      writeFileSync(
        join(consumer, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, target: "ES2022", module, moduleResolution, lib: ["ES2022", "DOM"], types: [] }, files: ["index.ts"] }),
      );
      expect(run(process.execPath, [tscBin, "--noEmit", "-p", "tsconfig.json"], consumer).trim(), `${module}/${moduleResolution}`).toBe("");
    }
  });
});
