// `pnpm test`: every Vitest project (unit + integration against the local PostgreSQL and Redis),
// then the Playwright journey in Chromium; ends with one summary line over both runners.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, ".data", "test-results");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const args = process.argv.slice(2);
const only = args.includes("--unit") ? "unit" : args.includes("--e2e") ? "e2e" : "all";

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;

function run(cmd: string, cmdArgs: string[], cwd = root): number {
  const r = spawnSync(cmd, cmdArgs, { cwd, stdio: "inherit", env: process.env });
  return r.status ?? 1;
}

if (only !== "e2e") {
  const json = path.join(out, "vitest.json");
  const code = run("pnpm", ["exec", "vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${json}`]);
  if (code !== 0) exitCode = code;
  if (existsSync(json)) {
    const r = JSON.parse(readFileSync(json, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
      testResults: { status: string; assertionResults: unknown[] }[];
    };
    passed += r.numPassedTests;
    // A file that fails before running any test (import error, hook failure) counts as a failure too.
    const brokenFiles = r.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
    failed += r.numFailedTests + brokenFiles;
    skipped += r.numPendingTests + r.numTodoTests;
  } else exitCode ||= 1;
}

if (only !== "unit" && existsSync(path.join(root, "e2e", "playwright.config.ts"))) {
  const json = path.join(out, "playwright.json");
  const code = spawnSync("pnpm", ["--filter", "@fiskal/e2e", "exec", "playwright", "test", "--reporter=list,json"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: json },
  }).status ?? 1;
  if (code !== 0) exitCode = code;
  if (existsSync(json)) {
    const r = JSON.parse(readFileSync(json, "utf8")) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
    passed += r.stats.expected + r.stats.flaky;
    failed += r.stats.unexpected;
    skipped += r.stats.skipped;
  } else exitCode ||= 1;
}

if (passed + failed === 0) {
  console.error("No test was executed.");
  exitCode ||= 1;
}
if (failed > 0) exitCode ||= 1;
console.log(`\nTests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(exitCode);
