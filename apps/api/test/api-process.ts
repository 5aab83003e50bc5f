// The API as production runs it (the `start` script's bundle) in a child process of a test. Each
// process takes a free port itself (PORT=0) and writes its URL to a file once it listens, so a test
// never talks to another test's server: a port chosen beforehand and handed to the child can be taken
// by any other listener on the host before the child binds it, and the other server's /readyz then
// answers in its place.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { apiStartCommand } from "../scripts/start-command.mjs";

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REPO_ROOT = path.resolve(API_DIR, "../..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ApiProcess {
  child: ChildProcess;
  /** "http://127.0.0.1:<port>" once `waitListening` has returned; "" before. */
  url: string;
  /** The last 200 chunks of its stdout and stderr. */
  output: string[];
}

/** The bundle production runs, rebuilt from the current sources (an unchanged build is a cache hit). */
export function buildApi(): void {
  const built = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--filter=@fiskal/api", "--output-logs=errors-only"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
  });
  if (built.status !== 0) throw new Error(`the API build failed (exit ${built.status}):\n${built.stdout}\n${built.stderr}`);
}

const urlFiles = new WeakMap<ApiProcess, { dir: string; file: string }>();

/**
 * Starts one process on a port of its own; `waitListening` tells its URL. `source`: runs
 * `src/main.ts` through tsx instead of the bundle (what the source does, without a build).
 * `keep`: how many output chunks to keep (200).
 */
export function startApiProcess(env: Record<string, string>, opts: { source?: boolean; keep?: number } = {}): ApiProcess {
  const { env: startEnv, args } = opts.source ? { env: {}, args: ["--import", "tsx", "src/main.ts"] } : apiStartCommand(API_DIR);
  const inherited = { ...process.env };
  // the test chooses the store and the usage spool: nothing from the outer environment may pick others
  for (const name of ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "REDIS_CLUSTER_NODES", "REDIS_USERNAME", "REDIS_PASSWORD", "FISKAL_EMBEDDED", "USAGE_SPOOL_DIR", "API_URL", "PORT", "FISKAL_URL_FILE"]) {
    delete inherited[name];
  }
  const dir = mkdtempSync(path.join(tmpdir(), "fiskal-api-url-"));
  const file = path.join(dir, "url");
  const child = spawn(process.execPath, args, { cwd: API_DIR, env: { ...inherited, ...startEnv, ...env, PORT: "0", FISKAL_URL_FILE: file }, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString("utf8"));
    if (output.length > (opts.keep ?? 200)) output.shift();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const p: ApiProcess = { child, url: "", output };
  urlFiles.set(p, { dir, file });
  child.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return p;
}

function exited(p: ApiProcess): boolean {
  return p.child.exitCode !== null || p.child.signalCode !== null;
}

/** Waits until the process listens and sets `p.url`; fails at once if it exits. */
async function waitListening(p: ApiProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const { file } = urlFiles.get(p)!;
  while (!p.url) {
    if (exited(p)) throw new Error(`the API process exited (${p.child.exitCode ?? p.child.signalCode}) before it listened:\n${p.output.join("")}`);
    if (Date.now() > deadline) throw new Error(`the API process did not listen within ${timeoutMs} ms:\n${p.output.join("")}`);
    try {
      p.url = readFileSync(file, "utf8");
    } catch {
      await sleep(50);
    }
  }
}

/** What its /readyz says of the limiter ("ok (redis)", "degraded (local fallback)"), or "" without an answer. */
async function limiterState(p: ApiProcess): Promise<string> {
  try {
    const res = await fetch(`${p.url}/readyz`, { signal: AbortSignal.timeout(2_000) });
    return (JSON.parse(await res.text()) as { checks?: { limiter?: string } }).checks?.limiter ?? "";
  } catch {
    return "";
  }
}

/** Waits until the process listens and its /readyz answers 200 (database and limiter ready). */
export async function waitReady(p: ApiProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await waitListening(p, timeoutMs);
  for (;;) {
    if (exited(p)) throw new Error(`the API process at ${p.url} exited (${p.child.exitCode ?? p.child.signalCode}):\n${p.output.join("")}`);
    try {
      if ((await fetch(`${p.url}/readyz`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) throw new Error(`the API process at ${p.url} was not ready within ${timeoutMs} ms:\n${p.output.join("")}`);
    await sleep(100);
  }
}

/** Waits until the process listens and its /readyz reports the limiter in `state`. */
export async function waitState(p: ApiProcess, state: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await waitListening(p, timeoutMs);
  while ((await limiterState(p)) !== state) {
    if (exited(p)) throw new Error(`the API process at ${p.url} exited (${p.child.exitCode ?? p.child.signalCode}):\n${p.output.join("")}`);
    if (Date.now() > deadline) throw new Error(`the API process at ${p.url} did not report "${state}" within ${timeoutMs} ms:\n${p.output.join("")}`);
    await sleep(50);
  }
}

export async function stopProcess(p: ApiProcess): Promise<void> {
  const { child } = p;
  if (exited(p)) return;
  const done = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await done;
  clearTimeout(timer);
}

/** Kills every process still running (for process "exit", when afterAll may never run). */
export function killAll(processes: ApiProcess[]): void {
  for (const p of processes) if (!exited(p)) p.child.kill("SIGKILL");
}
