// `pnpm bench`: POST /v1/validate/oib through the full stack (auth + limits + metering on real
// PostgreSQL and Redis) against a bare node:http handler measured in the same run, then the limiter
// and meter micro-benchmarks. Figures are ratios to the baseline because this machine is noisy.
//
//   BENCH_SECONDS per load (default 10)  BENCH_ROUNDS (default 3)  BENCH_CONNECTIONS (default 50)
//   REDIS_URL  TEST_ADMIN_DATABASE_URL
//   BENCH_CPU_PROFILE=DIR  writes a V8 CPU profile of the API process to DIR (open it in Chrome DevTools)
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { apiStartCommand } from "../apps/api/scripts/start-command.mjs";
import { createAccount, createApiKey, createDb, createTestDatabase } from "@fiskal/db";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const roundCount = Number(process.env.BENCH_ROUNDS ?? 3);
if (!Number.isInteger(roundCount) || roundCount < 1) throw new Error("BENCH_ROUNDS must be a positive integer");
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const BUDGET = { ratio: 0.4, p99AtRateMs: 10, rssMb: 250 };
const body = JSON.stringify({ oib: "69435151530" });

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitUp(url: string) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds used so far by every process whose command name is `comm` (e.g. all PostgreSQL backends). */
function cpuSecondsOf(comm: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== comm) continue;
      total += cpuSeconds(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** Where the machine's CPU went during one load, in µs per answered request. */
type CpuShare = Record<"server" | "loadGenerator" | "redis" | "postgres", number>;

type Load = Awaited<ReturnType<typeof load>>;

async function load(url: string, headers: Record<string, string>, opts: { overallRate?: number; pid?: number; cpuPid?: number } = {}) {
  const cpuBefore = opts.cpuPid ? cpuSeconds(opts.cpuPid) : 0;
  const othersBefore = { loadGenerator: process.cpuUsage(), redis: cpuSecondsOf("redis-server"), postgres: cpuSecondsOf("postgres") };
  let peakRss = 0;
  const sampler = opts.pid ? setInterval(() => (peakRss = Math.max(peakRss, rssMb(opts.pid!))), 200) : null;
  const result = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    // At a fixed rate, autocannon starts every connection's requests on the same tick; with 20
    // connections that is a burst of 20 every 20 ms, which measures the generator's burst, not a
    // steady 1,000 requests/s. Four connections keep arrivals close to evenly spaced.
    connections: opts.overallRate ? 4 : connections,
    duration: seconds,
    overallRate: opts.overallRate,
  });
  if (sampler) clearInterval(sampler);
  const non2xx = result.non2xx + result.errors;
  // server CPU per answered request: steadier than requests/s when other processes share the cores
  const n = Math.max(1, result.requests.total);
  // a process that exits during the load takes its count with it, hence never below zero
  const perRequest = (seconds: number) => Math.max(0, Math.round((seconds * 1e6) / n));
  const cpuUsPerRequest = opts.cpuPid ? perRequest(cpuSeconds(opts.cpuPid) - cpuBefore) : undefined;
  const generator = process.cpuUsage(othersBefore.loadGenerator);
  const cpuUs: CpuShare | undefined = opts.cpuPid
    ? {
        server: cpuUsPerRequest!,
        loadGenerator: perRequest((generator.user + generator.system) / 1e6),
        redis: perRequest(cpuSecondsOf("redis-server") - othersBefore.redis),
        postgres: perRequest(cpuSecondsOf("postgres") - othersBefore.postgres),
      }
    : undefined;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx, total: result.requests.total, peakRssMb: Math.round(peakRss), cpuUsPerRequest, cpuUs };
}

const children: ChildProcess[] = [];
async function stopAll(): Promise<void> {
  await Promise.all(
    children.splice(0).map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once("exit", () => resolve());
          c.kill("SIGTERM");
        }),
    ),
  );
}
function start(cmd: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(cmd, args, { cwd: env.CWD ?? root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  children.push(child);
  return child;
}

try {
  // Baseline: the same request answered by a bare node:http handler in its own process.
  const barePort = await freePort();
  const bareServer = start(process.execPath, [path.join(here, "bare-server.mjs")], { PORT: String(barePort) });
  await waitUp(`http://127.0.0.1:${barePort}/healthz`);
  // The design's floor: the bare handler plus the §4 decision on the real Redis and its headers, run
  // with the API's own node flags and environment (heap ceiling, malloc arenas, production mode) so
  // that the gap between the two is the API's code, not its runtime settings.
  const apiStart = apiStartCommand(path.join(root, "apps/api"));
  const nodeFlags = apiStart.args.filter((a) => a.startsWith("--"));
  const startFloor = async (file: string) => {
    const port = await freePort();
    const server = start(process.execPath, [...nodeFlags, "--import", "tsx", path.join(here, file)], {
      ...apiStart.env,
      NODE_ENV: "production",
      PORT: String(port),
      REDIS_URL: redisUrl,
    });
    await waitUp(`http://127.0.0.1:${port}/healthz`);
    return { server, url: `http://127.0.0.1:${port}/v1/validate/oib` };
  };
  const { server: floorServer, url: floorUrl } = await startFloor("limited-server.ts");
  // Not a budget: the same floor if the four windows were one Lua script (one EVALSHA), which §4
  // does not allow. It tells what that design change would buy on this machine.
  const { server: oneScriptServer, url: oneScriptUrl } = await startFloor("one-script-server.ts");

  const db = await createTestDatabase();
  const prisma = createDb(db.url, { max: 2 });
  const account = await createAccount(prisma, {
    name: "Bench d.o.o.",
    plan: "ENTERPRISE",
    custom: { perMinute: 100_000_000, perDay: 1_000_000_000, burst: 10_000_000, endpoints: { oib: 100_000_000 } },
  });
  const { key } = await createApiKey(prisma, account.id, "bench");
  await prisma.$disconnect();

  const apiPort = await freePort();
  // The production build, started exactly as `pnpm --filter @fiskal/api start` does, minus the pnpm
  // wrapper so that the pid (and its RSS) is the API's own.
  const built = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--filter=@fiskal/api", "--output-logs=errors-only"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("the API build failed");
  const { env: startEnv, args: startArgs } = apiStart;
  if (process.env.BENCH_CPU_PROFILE) startArgs.unshift("--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROFILE)}`);
  const api = start(process.execPath, startArgs, {
    ...startEnv,
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    PORT: String(apiPort),
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    WEBHOOK_WORKER: "1",
    CWD: path.join(root, "apps/api"),
  });
  await waitUp(`http://127.0.0.1:${apiPort}/healthz`);
  const auth = { authorization: `Bearer ${key}` };
  const apiUrl = `http://127.0.0.1:${apiPort}/v1/validate/oib`;
  const bareUrl = `http://127.0.0.1:${barePort}/v1/validate/oib`;

  // Warm every server (JIT, connection pools, key cache), then measure them in rounds, one after
  // the other within a round: this machine's speed drifts over minutes (other tenants' load), so a
  // ratio is taken within one round and the median round is reported.
  await load(bareUrl, {}, {});
  await load(floorUrl, {}, {});
  await load(oneScriptUrl, {}, {});
  await load(apiUrl, auth, {});
  const rounds: { bare: Load; floor: Load; oneScript: Load; full: Load; ratio: number }[] = [];
  for (let i = 0; i < roundCount; i++) {
    const bare = await load(bareUrl, {}, { cpuPid: bareServer.pid });
    const floor = await load(floorUrl, {}, { cpuPid: floorServer.pid });
    const oneScript = await load(oneScriptUrl, {}, { cpuPid: oneScriptServer.pid });
    const full = await load(apiUrl, auth, { pid: api.pid, cpuPid: api.pid });
    rounds.push({ bare, floor, oneScript, full, ratio: full.rps / bare.rps });
  }
  const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor((rounds.length - 1) / 2)]!;
  const { bare, floor, oneScript, full } = median;
  const atRate = await load(apiUrl, auth, { overallRate: 1_000, pid: api.pid });

  // The limiter alone, with the servers stopped: their after-load work (garbage collection, the
  // meter's last flushes, the webhook worker's polling) would otherwise share the two cores with it.
  await stopAll();
  const limiter = spawnSync(path.join(root, "node_modules/.bin/tsx"), [path.join(here, "limiter.ts")], {
    cwd: root,
    env: { ...process.env, REDIS_URL: redisUrl },
    encoding: "utf8",
  });
  const limiterJson = JSON.parse(limiter.stdout.trim().split("\n").pop() ?? "{}") as Record<string, unknown>;

  const ratio = median.ratio;
  const peakRssMb = Math.max(atRate.peakRssMb, ...rounds.map((r) => r.full.peakRssMb));
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const report = {
    when: new Date().toISOString(),
    seconds,
    connections,
    rounds: rounds.map((r) => ({
      bareRps: r.bare.rps,
      floorRps: r.floor.rps,
      oneScriptRps: r.oneScript.rps,
      fullRps: r.full.rps,
      ratio: r.ratio,
      floorRatio: r.floor.rps / r.bare.rps,
      oneScriptRatio: r.oneScript.rps / r.bare.rps,
    })),
    bare,
    floor,
    floorRatio: Math.round((floor.rps / bare.rps) * 1000) / 1000,
    oneScript,
    oneScriptRatio: Math.round((oneScript.rps / bare.rps) * 1000) / 1000,
    full,
    atRate1000: atRate,
    ratio: Math.round(ratio * 1000) / 1000,
    limiter: limiterJson,
    budgets: {
      ratio: { budget: `>= ${BUDGET.ratio}`, value: ratio, ok: ratio >= BUDGET.ratio },
      p99At1000rps: { budget: `< ${BUDGET.p99AtRateMs} ms`, value: atRate.p99, ok: atRate.p99 < BUDGET.p99AtRateMs },
      rss: { budget: `< ${BUDGET.rssMb} MB`, value: peakRssMb, ok: peakRssMb < BUDGET.rssMb },
      limiterP99: { budget: "< 1 ms", value: limiterJson.p99Ms, ok: limiter.status === 0 },
      noErrors: {
        budget: "0 non-2xx",
        value: atRate.non2xx + rounds.reduce((n, r) => n + r.floor.non2xx + r.oneScript.non2xx + r.full.non2xx, 0),
        ok: atRate.non2xx + rounds.reduce((n, r) => n + r.floor.non2xx + r.oneScript.non2xx + r.full.non2xx, 0) === 0,
      },
    },
  };
  mkdirSync(path.join(here, "results"), { recursive: true });
  writeFileSync(path.join(here, "results", "latest.json"), JSON.stringify(report, null, 2));
  rounds.forEach((r, i) =>
    console.log(`round ${i + 1}             bare ${r.bare.rps.toFixed(0)} req/s; floor ${pct(r.floor.rps / r.bare.rps)}, one-script floor ${pct(r.oneScript.rps / r.bare.rps)}, full stack ${pct(r.ratio)} of bare`),
  );
  console.log(`median round ${rounds.indexOf(median) + 1}:`);
  console.log(`bare node:http      ${bare.rps.toFixed(0)} req/s  p50 ${bare.p50} ms  p99 ${bare.p99} ms  CPU ${bare.cpuUsPerRequest} µs/request`);
  console.log(`full stack          ${full.rps.toFixed(0)} req/s  p50 ${full.p50} ms  p99 ${full.p99} ms  CPU ${full.cpuUsPerRequest} µs/request  (${(ratio * 100).toFixed(1)}% of bare; by CPU ${((bare.cpuUsPerRequest! / full.cpuUsPerRequest!) * 100).toFixed(1)}%)`);
  console.log(`design floor        ${floor.rps.toFixed(0)} req/s  p50 ${floor.p50} ms  p99 ${floor.p99} ms  CPU ${floor.cpuUsPerRequest} µs/request  (${((floor.rps / bare.rps) * 100).toFixed(1)}% of bare: the bare handler plus the §4 decision and its headers, nothing else)`);
  console.log(`one-script floor    ${oneScript.rps.toFixed(0)} req/s  p50 ${oneScript.p50} ms  p99 ${oneScript.p99} ms  CPU ${oneScript.cpuUsPerRequest} µs/request  (${((oneScript.rps / bare.rps) * 100).toFixed(1)}% of bare: the floor with the four windows in one Lua script, which §4 does not allow)`);
  const share = (c?: CpuShare) => (c ? `server ${c.server}, load generator ${c.loadGenerator}, Redis ${c.redis}, PostgreSQL ${c.postgres}` : "");
  console.log(`CPU µs per request  bare:       ${share(bare.cpuUs)}`);
  console.log(`                    floor:      ${share(floor.cpuUs)}`);
  console.log(`                    one-script: ${share(oneScript.cpuUs)}`);
  console.log(`                    full:       ${share(full.cpuUs)}`);
  console.log(`full stack @1000/s  p50 ${atRate.p50} ms  p99 ${atRate.p99} ms  peak RSS ${report.budgets.rss.value} MB`);
  console.log(`limiter decide()    ${JSON.stringify(limiterJson)}`);
  let failed = 0;
  for (const [name, b] of Object.entries(report.budgets)) {
    console.log(`${b.ok ? "PASS" : "FAIL"}  ${name.padEnd(14)} ${String(b.value).padEnd(22)} budget ${b.budget}`);
    if (!b.ok) failed++;
  }
  await db.drop().catch(() => {});
  process.exitCode = failed ? 1 : 0;
} finally {
  await stopAll();
}
