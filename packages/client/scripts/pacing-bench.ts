// The client's pacing measured against the real API (PostgreSQL + Redis limits), every run on a fresh
// account and key, mixed OIB and KPD calls. Prints a Markdown table: 429s seen and wall time against
// the least time the plan's windows allow. Short runs (minimum under a minute) go one after another,
// each next to the same calls on an account whose limits never bind ("unpaced": the API's own
// latency at that concurrency, which no pacing can beat), while the long runs go in parallel (one
// account each).
//
//   pnpm --filter @fiskal/client exec tsx scripts/pacing-bench.ts                    # the full table
//   pnpm --filter @fiskal/client exec tsx scripts/pacing-bench.ts --calls 50 --plans SANDBOX
// Options: --calls 50,200,1000  --plans SANDBOX,STARTER,BUSINESS  --concurrency 1,10,50
//          --no-single (skip the one-process runs)  --no-two (skip the two-process runs)  --two-calls 1000
//          --no-strip (skip the stripped-headers run)  --no-reorder (skip the reordered-answers run)
//          --limit-minutes 9 (cut a one-process run to the most calls whose minimum fits)
//          --redis redis://127.0.0.1:6379
// The long runs go in parallel (one account each) while the short ones run one after another, so the
// table takes about as long as its longest run: Sandbox at 1,000 calls takes 16 minutes, so on a
// shared machine whose slots are under 10 minutes, `--limit-minutes 9` cuts it to 500 calls. Or run
// pieces: --calls 50,200 --no-two --no-strip --no-reorder; --no-single (two processes, stripped
// headers, reordered answers).
// Every row names what refused each 429 (the server's refusing window, and whether the API's limiter
// decided on its local fallback because its store did not answer in time).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { startApi } from "@fiskal/api";
import { execFileSync } from "node:child_process";
import { createAccount, createApiKey, readKpdCsv } from "@fiskal/accounts";
import { FiskalClient } from "../src/index.ts";
import { minimumMs, runMixed, startProxy, windowsOf, type RunResult } from "./pacing.ts";
import { pacingStack } from "./pacing-stack.ts";

const argv = process.argv.slice(2);
if (argv.includes("--help")) {
  // The options are the comment at the top of this file.
  const { readFileSync } = await import("node:fs");
  const head = readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n");
  console.log(head.slice(0, head.findIndex((l) => !l.startsWith("//"))).map((l) => l.replace(/^\/\/ ?/, "")).join("\n"));
  process.exit(0);
}
const list = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return (i >= 0 ? argv[i + 1]! : dflt).split(",");
};
const calls = list("calls", "50,200,1000").map(Number);
const plans = list("plans", "SANDBOX,STARTER,BUSINESS") as Array<"SANDBOX" | "STARTER" | "BUSINESS">;
const concurrencies = list("concurrency", "1,10,50").map(Number);
const singles = !argv.includes("--no-single");
const two = !argv.includes("--no-two");
const reorder = !argv.includes("--no-reorder");
const strip = !argv.includes("--no-strip");
const twoCalls = Number(list("two-calls", "1000")[0]);
const limitMs = argv.includes("--limit-minutes") ? Number(list("limit-minutes", "9")[0]) * 60_000 : null;
const REDIS_URL = list("redis", "redis://127.0.0.1:6379")[0]!;

const { db, apiOptions } = await pacingStack(REDIS_URL, "pb");
let fallbacks = 0;
const api = await startApi({
  ...apiOptions,
  // Only the limiter's "local fallback" error is counted; nothing is printed.
  logger: pino({ level: "error", hooks: { logMethod: (args) => void (String(args.at(-1)).includes("local fallback") && fallbacks++) } }),
});
// What the server decided for each account: the windows that refused, and decisions of the local fallback.
const verdicts = new Map<string, { refusedBy: Map<string, number>; degraded: number }>();
type Decide = typeof api.services.limiter.decide;
const limiter = api.services.limiter;
const decide: Decide = limiter.decide.bind(limiter);
limiter.decide = async (input: Parameters<Decide>[0]) => {
  const d = await decide(input);
  const v = verdicts.get(input.identity);
  if (v && !input.scope) {
    if (d.degraded) v.degraded++;
    if (!d.allowed) v.refusedBy.set(d.binding.policy, (v.refusedBy.get(d.binding.policy) ?? 0) + 1);
  }
  return d;
};
const codes = (await readKpdCsv()).filter((r) => r.level === 5).map((r) => r.code);

const identities = new Map<string, string>();
async function freshKey(plan: "SANDBOX" | "STARTER" | "BUSINESS" | "ENTERPRISE") {
  const custom = plan === "ENTERPRISE" ? { burst: 100_000, perMinute: 1_000_000, perDay: 10_000_000, endpoints: { oib: 1_000_000, kpd: 1_000_000 } } : undefined;
  const acct = await createAccount(api.services.db, { name: `Mjerenje ${plan} d.o.o.`, plan, custom });
  const key = (await createApiKey(api.services.db, acct.id, "pacing bench")).key;
  identities.set(key, `acct:${acct.id}`);
  verdicts.set(`acct:${acct.id}`, { refusedBy: new Map(), degraded: 0 });
  return key;
}

/** What the server said of an account's 429s, e.g. "burst 2; 14 decided on the limiter's fallback". */
function verdictOf(key: string): string {
  const v = verdicts.get(identities.get(key)!)!;
  const parts = [...v.refusedBy].map(([w, n]) => `${w} ${n}`);
  if (v.degraded) parts.push(`${v.degraded} decided on the limiter's fallback`);
  return parts.join("; ");
}

function answerTime(r: RunResult): string {
  return r.answerMs ? `${r.answerMs.median} / ${r.answerMs.p90} ms` : "";
}

/** Each row on stderr as it finishes, so a run cut short still tells what it measured. */
function progress(r: Row): Row {
  console.error(`${new Date().toISOString()} ${r.label} ${r.plan} ${r.calls} × ${r.concurrency}: ${r.result.refused} × 429, ${((r.result.endedAt - r.result.startedAt) / 1000).toFixed(1)} s (minimum ${(r.minMs / 1000).toFixed(0)} s${r.unpacedMs === undefined ? "" : `, unpaced ${(r.unpacedMs / 1000).toFixed(1)} s`}, answers ${answerTime(r.result)}) ${r.verdict}${r.result.failures.length ? ` failures: ${[...new Set(r.result.failures)].slice(0, 3).join(" | ")}` : ""}`);
  return r;
}

interface Row {
  label: string;
  plan: string;
  calls: number;
  concurrency: string;
  result: RunResult;
  minMs: number;
  /** The same calls where no limit binds, ms. */
  unpacedMs?: number;
  /** The server's refusing windows and fallback decisions. */
  verdict: string;
}

async function minimumFor(key: string, n: number): Promise<number> {
  const limits = await new FiskalClient({ apiKey: key, baseUrl: api.url }).limits();
  return minimumMs(windowsOf(limits), n);
}

async function single(plan: "SANDBOX" | "STARTER" | "BUSINESS", n: number, concurrency: number, baseUrl = api.url, label = "one process"): Promise<Row> {
  const key = await freshKey(plan);
  const minMs = await minimumFor(key, n);
  let unpacedMs: number | undefined;
  if (minMs < 60_000) {
    const floor = await runMixed({ baseUrl, apiKey: await freshKey("ENTERPRISE"), calls: n, concurrency, codes });
    unpacedMs = floor.endedAt - floor.startedAt;
  }
  const result = await runMixed({ baseUrl, apiKey: key, calls: n, concurrency, codes });
  return progress({ label, plan, calls: n, concurrency: String(concurrency), result, minMs, unpacedMs, verdict: verdictOf(key) });
}

function child(args: Record<string, unknown>): Promise<RunResult> {
  const script = fileURLToPath(new URL("./pacing-child.ts", import.meta.url));
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(args)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    p.stdout.on("data", (c: Buffer) => (out += c.toString()));
    p.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1)!) as RunResult) : reject(new Error(`child exited ${code}`))));
  });
}

async function twoProcesses(plan: "BUSINESS", n: number, concurrency: number, shared: boolean): Promise<Row> {
  const key = await freshKey(plan);
  const minMs = await minimumFor(key, n);
  const startAt = Date.now() + 3_000;
  const base = { baseUrl: api.url, apiKey: key, calls: n / 2, concurrency, codes, startAt };
  const extra = shared ? { redisUrl: REDIS_URL, namespace: `bench-${randomBytes(4).toString("hex")}` } : {};
  const parts = await Promise.all([child({ ...base, ...extra }), child({ ...base, ...extra })]);
  const answers = parts.map((p) => p.answerMs).filter((a) => a !== undefined);
  const result: RunResult = {
    answerMs: answers.length ? { median: Math.max(...answers.map((a) => a.median)), p90: Math.max(...answers.map((a) => a.p90)) } : undefined,
    calls: n,
    refused: parts.reduce((s, p) => s + p.refused, 0),
    startedAt: Math.min(...parts.map((p) => p.startedAt)),
    endedAt: Math.max(...parts.map((p) => p.endedAt)),
    failures: parts.flatMap((p) => p.failures),
  };
  return progress({ label: shared ? "two processes, shared store" : "two processes, jitter only", plan, calls: n, concurrency: `2 × ${concurrency}`, result, minMs, verdict: verdictOf(key) });
}

const started = Date.now();
const rows: Row[] = [];
const short: Array<[typeof plans[number], number, number]> = [];
const long: Array<[typeof plans[number], number, number]> = [];
for (const plan of singles ? plans : []) {
  const probe = await freshKey(plan);
  for (let n of calls) {
    // A run longer than --limit-minutes is cut to the most calls (in hundreds) whose minimum fits.
    while (limitMs !== null && n > 100 && (await minimumFor(probe, n)) > limitMs) n -= 100;
    for (const c of concurrencies) ((await minimumFor(probe, n)) < 60_000 ? short : long).push([plan, n, c]);
  }
}
// The long runs (mostly waiting for their windows) start first; the short ones go one after another meanwhile.
const jobs: Array<Promise<Row>> = long.map(([plan, n, c]) => single(plan, n, c));
const proxies: Array<{ url: string; close: () => Promise<void> }> = [];
if (strip) {
  const proxy = await startProxy(api.url, { stripIetf: true });
  proxies.push(proxy);
  jobs.push(single("SANDBOX", 100, 50, proxy.url, "X-RateLimit-* only"));
}
if (reorder) {
  // Every answer held 0–300 ms at random after the API decided: answers arrive out of order, and a
  // late one carries a count decided before later admissions.
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const proxy = await startProxy(api.url, { delay: () => Math.floor(random() * 300) });
  proxies.push(proxy);
  jobs.push(single("BUSINESS", 1000, 50, proxy.url, "answers out of order (0–300 ms)"));
}
if (two) {
  jobs.push(twoProcesses("BUSINESS", twoCalls, 10, true));
  jobs.push(twoProcesses("BUSINESS", twoCalls, 10, false));
}
for (const [plan, n, c] of short) rows.push(await single(plan, n, c));
rows.push(...(await Promise.all(jobs)));
for (const p of proxies) await p.close();
await api.close();
await db.drop();

const commit = (() => {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
})();
const out = [
  `Measured ${new Date(started).toISOString()}, ${((Date.now() - started) / 1000).toFixed(0)} s in all, one API process (PostgreSQL + Redis) on the same machine, code of ${commit}, limiter fallbacks ${fallbacks}.`,
  `Command: pnpm --filter @fiskal/client bench ${argv.join(" ")}`,
  "",
  "| run | plan | calls | concurrency | 429s | wall time | minimum | wall / minimum | unpaced | answer time (median / p90) | budget | refused by |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|",
];
for (const r of rows) {
  const wall = (r.result.endedAt - r.result.startedAt) / 1000;
  const min = r.minMs / 1000;
  const budget = r.label === "one process" || r.label.startsWith("answers") ? `≤ ${(1.05 * min + 1).toFixed(1)} s` : r.label.includes("shared") ? `≤ ${(1.2 * min).toFixed(1)} s, ≤ 1% 429` : r.label.includes("jitter") ? `≤ ${(1.5 * min).toFixed(1)} s, ≤ 10% 429` : "≤ 1 × 429 per window exhausted";
  const fails = r.result.failures.length ? ` (${r.result.failures.length} failed)` : "";
  out.push(`| ${r.label} | ${r.plan} | ${r.calls} | ${r.concurrency} | ${r.result.refused}${fails} | ${wall.toFixed(1)} s | ${min.toFixed(0)} s | ${min > 0 ? (wall / min).toFixed(3) : "–"} | ${r.unpacedMs === undefined ? "" : `${(r.unpacedMs / 1000).toFixed(1)} s`} | ${answerTime(r.result)} | ${budget} | ${r.verdict} |`);
}
console.log(out.join("\n"));
process.exit(0);
