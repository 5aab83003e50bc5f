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
// `--shard=i/n`: this machine runs the i-th of n parts of each runner's files (Vitest's and
// Playwright's own sharding), so that n machines share one run; the counts of each part add up.
const shard = args.find((a) => a.startsWith("--shard="))?.slice("--shard=".length);
const shardParts = shard === undefined ? undefined : /^([1-9]\d*)\/([1-9]\d*)$/.exec(shard);
if (shard !== undefined && (!shardParts || Number(shardParts[1]) > Number(shardParts[2]))) {
  console.error(`--shard takes i/n, e.g. --shard=1/3, not ${shard}`);
  process.exit(2);
}
const shardArgs = shard ? [`--shard=${shard}`] : [];

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
/** Seconds each phase took, printed before the summary (what to shorten when the run is slow). */
const took: string[] = [];
/**
 * CPU seconds of the processes this runner started and waited for (Linux: /proc/self/stat's cutime
 * and cstime, in the kernel's fixed 100 ticks a second); undefined elsewhere. Beside a phase's wall
 * time it tells whether the phase waited or was short of cores.
 */
function childCpuSeconds(): number | undefined {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /s, "").split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}
const startPhase = () => ({ wall: performance.now(), cpu: childCpuSeconds() });
const since = (start: ReturnType<typeof startPhase>) => {
  const cpu = childCpuSeconds();
  const wall = `${Math.round((performance.now() - start.wall) / 1000)} s`;
  return cpu === undefined || start.cpu === undefined ? wall : `${wall} (CPU ${Math.round(cpu - start.cpu)} s)`;
};

function run(cmd: string, cmdArgs: string[], cwd = root): number {
  const r = spawnSync(cmd, cmdArgs, { cwd, stdio: "inherit", env: process.env });
  return r.status ?? 1;
}

const withE2e = only !== "unit" && existsSync(path.join(root, "e2e", "playwright.config.ts"));
const turboBuild = (filter: string) => ["exec", "turbo", "run", "build", `--filter=${filter}`, "--output-logs=errors-only"];

// Built once, before the tests that run it: the API bundle (seconds) that several API tests start as
// production runs it, so that their own `turbo run build` is a cache hit and two of them never
// bundle at the same time. The portal (Playwright's) builds after the unit and integration tests,
// not beside them: on a host with two cores a build beside them turns their timing preconditions
// (a store timeout, a tax authority's answer within 1.5 s) into failures. Playwright's global setup
// then finds both builds in turbo's cache.
if (only !== "e2e") {
  const apiStart = startPhase();
  if (run("pnpm", turboBuild("@fiskal/api")) !== 0) exitCode = 1;
  took.push(`API build ${since(apiStart)}`);
}

if (only !== "e2e") {
  const json = path.join(out, "vitest.json");
  const vitestStart = startPhase();
  const code = run("pnpm", ["exec", "vitest", "run", ...shardArgs, "--reporter=default", "--reporter=json", `--outputFile.json=${json}`]);
  took.push(`Vitest ${since(vitestStart)}`);
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
    // A file that fails outside its tests (import error, a failed beforeAll that skips its tests)
    // counts as a failure too.
    const brokenFiles = r.testResults.filter(
      (f) => f.status === "failed" && !f.assertionResults.some((a) => (a as { status?: string }).status === "failed"),
    ).length;
    failed += r.numFailedTests + brokenFiles;
    skipped += r.numPendingTests + r.numTodoTests;
  } else exitCode ||= 1;
}

if (withE2e) {
  const buildStart = startPhase();
  // A failed build is built again (and reported) by Playwright's global setup.
  if (run("pnpm", turboBuild("@fiskal/web")) !== 0) console.error("The portal build failed; Playwright's global setup builds it again.");
  took.push(`portal build ${since(buildStart)}`);
  const json = path.join(out, "playwright.json");
  const playwrightStart = startPhase();
  const code = spawnSync("pnpm", ["--filter", "@fiskal/e2e", "exec", "playwright", "test", ...shardArgs, "--reporter=list,json"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: json },
  }).status ?? 1;
  took.push(`Playwright ${since(playwrightStart)}`);
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
console.log(`\n${took.join(", ")}`);
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(exitCode);
