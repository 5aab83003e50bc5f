// `pnpm bench`: POST /v1/validate/oib, the same request on the same machine, answered by five servers
// loaded one after another in each round: a bare node:http handler, the floor (bare + one limiter
// decision + its headers), the full stack (the production API: auth, limits, tRPC, metering on real
// PostgreSQL and Redis), and the two peers a user would pick instead (node:http +
// rate-limiter-flexible, Express + express-rate-limit + rate-limit-redis), each deciding the same
// four windows on the same Redis. Then the full stack at a fixed 1,000 req/s and the limiter alone.
// Budgets are ratios within a round (this machine's speed drifts over minutes), median of the
// rounds; each is printed PASS/FAIL and the exit code is 1 if one fails. See bench/README.md.
//
//   BENCH_SECONDS per load (default 10)  BENCH_ROUNDS (default 3)  BENCH_CONNECTIONS (default 50)
//   BENCH_ACCOUNTS (default 100): accounts, one API key each, that every load cycles through
//   REDIS_URL  TEST_ADMIN_DATABASE_URL
//   BENCH_CPU_PROFILE=DIR  writes a V8 CPU profile of the API process to DIR (open it in Chrome DevTools)
//   BENCH_API_FLAGS="--trace-gc …"  more node flags for the API process (its output is then the bench's)
//   BENCH_ROWS=bare,flexible,…  load only these rows (for work on one of them): the budgets that need
//     a missing row print SKIP and the run exits 1, since not every budget was met; limiter.ts runs
//     only with the floor, the fixed-rate run and peak RSS only with the full stack
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { Redis } from "ioredis";
import { apiStartCommand } from "../apps/api/scripts/start-command.mjs";
import { ACCOUNTS, LIMITS } from "./limits.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const roundCount = Number(process.env.BENCH_ROUNDS ?? 3);
if (!Number.isInteger(roundCount) || roundCount < 1) throw new Error("BENCH_ROUNDS must be a positive integer");
if (!Number.isInteger(ACCOUNTS) || ACCOUNTS < 1) throw new Error("BENCH_ACCOUNTS must be a positive integer");
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const BUDGET = { vsFlexible: 1.0, vsExpress: 3, cpuVsFloor: 1.5, postgresUs: 3, p99AtRateMs: 5, rssMb: 250 };
const body = JSON.stringify({ oib: "69435151530" });

/** The rows of a round, in the order they are loaded. */
const ROWS = ["bare", "floor", "full", "flexible", "express"] as const;
type Row = (typeof ROWS)[number];
const rows: readonly Row[] = process.env.BENCH_ROWS
  ? ROWS.filter((r) => process.env.BENCH_ROWS!.split(",").includes(r))
  : ROWS;
for (const r of process.env.BENCH_ROWS?.split(",") ?? []) {
  if (!(ROWS as readonly string[]).includes(r)) throw new Error(`BENCH_ROWS: unknown row ${r}; rows are ${ROWS.join(", ")}`);
}
const has = (row: Row) => rows.includes(row);
const LABEL: Record<Row, string> = {
  bare: "bare node:http",
  floor: "floor",
  full: "full stack",
  flexible: "rate-limiter-flexible",
  express: "express-rate-limit",
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitUp(url: string, child: ChildProcess) {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with code ${child.exitCode}`);
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

async function load(url: string, pid: number, opts: { overallRate?: number } = {}) {
  const cpuBefore = cpuSeconds(pid);
  const othersBefore = { loadGenerator: process.cpuUsage(), redis: cpuSecondsOf("redis-server"), postgres: cpuSecondsOf("postgres") };
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 200);
  const result = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    // each connection cycles through the accounts' keys, one request each
    requests: keys.map((key) => ({ headers: { authorization: `Bearer ${key}` } })),
    // At a fixed rate, autocannon starts every connection's requests on the same tick; with 20
    // connections that is a burst of 20 every 20 ms, which measures the generator's burst, not a
    // steady 1,000 requests/s. Four connections keep arrivals close to evenly spaced.
    connections: opts.overallRate ? 4 : connections,
    duration: seconds,
    overallRate: opts.overallRate,
  });
  clearInterval(sampler);
  // server CPU per answered request: steadier than requests/s when other processes share the cores
  const n = Math.max(1, result.requests.total);
  // a process that exits during the load takes its count with it, hence never below zero
  const perRequest = (s: number) => Math.max(0, Math.round((s * 1e6) / n));
  const generator = process.cpuUsage(othersBefore.loadGenerator);
  const cpuUs: CpuShare = {
    server: perRequest(cpuSeconds(pid) - cpuBefore),
    loadGenerator: perRequest((generator.user + generator.system) / 1e6),
    redis: perRequest(cpuSecondsOf("redis-server") - othersBefore.redis),
    postgres: perRequest(cpuSecondsOf("postgres") - othersBefore.postgres),
  };
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    // answers outside 2xx, and requests that got no answer (connection errors, timeouts)
    non2xx: result.non2xx,
    errors: result.errors,
    peakRssMb: Math.round(peakRss),
    cpuUs,
  };
}

/**
 * What the API process reports of itself in /metrics (prom-client's default metrics): garbage
 * collections by kind (count, total seconds, how many took 10 ms or more) and the event loop's delay
 * (p99 and max, reset at each scrape). prom-client reads monitorEventLoopDelay at a 10 ms
 * resolution, whose samples are the time between two ticks of a 10 ms timer (an idle loop reads
 * 10.0 ms): the delay reported here is what is left after those 10 ms, the time the loop was late.
 */
/** prom-client's default `eventLoopMonitoringPrecision` (apps/api/src/metrics.ts keeps it) */
const LOOP_DELAY_RESOLUTION_MS = 10;
type ApiStats = {
  gc: Record<string, { count: number; seconds: number; over10ms: number }>;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** The API's own request durations of the benched route: cumulative count per bucket bound (seconds). */
  handled: [le: number, count: number][];
};
async function apiStats(base: string): Promise<ApiStats> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const gc: ApiStats["gc"] = {};
  const kind = (k: string) => (gc[k] ??= { count: 0, seconds: 0, over10ms: 0 });
  for (const m of text.matchAll(/^fiskal_nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} (\S+)$/gm)) {
    if (m[1] === "sum") kind(m[2]!).seconds = Number(m[3]);
    else kind(m[2]!).count = Number(m[3]);
  }
  // the bucket le="0.01" counts the collections up to 10 ms
  for (const m of text.matchAll(/^fiskal_nodejs_gc_duration_seconds_bucket\{le="0.01",kind="(\w+)"\} (\S+)$/gm)) kind(m[1]!).over10ms = -Number(m[2]);
  for (const k of Object.values(gc)) k.over10ms += k.count;
  const gauge = (name: string) => Number(new RegExp(`^fiskal_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, "m").exec(text)?.[1] ?? NaN) * 1000;
  const handled = [...text.matchAll(/^fiskal_http_request_duration_seconds_bucket\{le="([^"]+)",route="POST \/v1\/validate\/oib"\} (\d+)$/gm)].map(
    (m) => [m[1] === "+Inf" ? Infinity : Number(m[1]), Number(m[2])] as [number, number],
  );
  const late = (ms: number) => round3(Math.max(0, ms - LOOP_DELAY_RESOLUTION_MS));
  return { gc, loopDelayP99Ms: late(gauge("p99")), loopDelayMaxMs: late(gauge("max")), handled };
}

/** The bucket bound (ms) under which 99 % of the requests handled between two scrapes took: the server's own p99, without queueing. */
function handledP99Ms(before: ApiStats, after: ApiStats): number | null {
  const counts = after.handled.map(([le, n], i) => [le, n - (before.handled[i]?.[1] ?? 0)] as const);
  const total = counts.at(-1)?.[1] ?? 0;
  if (total === 0) return null;
  const hit = counts.find(([, n]) => n >= 0.99 * total)!;
  return hit[0] * 1000;
}

/** The API's garbage collection and event-loop delay over one load: the difference of two scrapes. */
function statsOver(before: ApiStats, after: ApiStats) {
  const gc: ApiStats["gc"] = {};
  for (const [k, v] of Object.entries(after.gc)) {
    const b = before.gc[k] ?? { count: 0, seconds: 0, over10ms: 0 };
    if (v.count > b.count) gc[k] = { count: v.count - b.count, seconds: round3(v.seconds - b.seconds), over10ms: v.over10ms - b.over10ms };
  }
  return { gc, loopDelayP99Ms: after.loopDelayP99Ms, loopDelayMaxMs: after.loopDelayMaxMs, handledP99Ms: handledP99Ms(before, after) };
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
function start(cmd: string, args: string[], env: NodeJS.ProcessEnv, stdout: "ignore" | "inherit" = "ignore"): ChildProcess {
  const child = spawn(cmd, args, { cwd: env.CWD ?? root, env: { ...process.env, ...env }, stdio: ["ignore", stdout, "inherit"] });
  children.push(child);
  return child;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

type Budget = { budget: string; value: number | null; ok: boolean | null };
/** A budget's line: `ok` null when a row it needs was not loaded (BENCH_ROWS). */
function budget(needs: Row[], text: string, value: () => number | null, ok: (v: number) => boolean): Budget {
  if (!needs.every(has)) return { budget: text, value: null, ok: null };
  const v = value();
  return { budget: text, value: v === null ? null : round3(v), ok: v !== null && ok(v) };
}

// Every row gets the same requests, spread over the same ACCOUNTS keys: the bare handler ignores
// them, the floor takes the key as the identity it limits, the full stack authenticates it against
// the database, the peers look it up in their own key map. Each account has the limits of
// bench/limits.mjs, which no run reaches. (@fiskal/accounts is loaded only with the full stack: it
// imports the limiter package, which the bare and peer rows do without.)
const fiskal = has("full") ? { db: await import("@fiskal/db"), accounts: await import("@fiskal/accounts") } : null;
const db = fiskal ? await fiskal.accounts.createTestDatabase() : null;
let keys = Array.from({ length: ACCOUNTS }, () => `fk_bench_${randomUUID().replaceAll("-", "")}`);
try {
  if (fiskal && db) {
    const { createAccount, createApiKey } = fiskal.accounts;
    const { createDb } = fiskal.db;
    const prisma = createDb(db.url, { max: 2 });
    keys = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const account = await createAccount(prisma, {
        name: `Bench ${i + 1} d.o.o.`,
        plan: "ENTERPRISE",
        custom: { perMinute: LIMITS.perMinute, perDay: LIMITS.perDay, burst: LIMITS.burst, endpoints: { oib: LIMITS.endpoint } },
      });
      keys.push((await createApiKey(prisma, account.id, "bench")).key);
    }
    await prisma.$disconnect();
  }

  const servers = {} as Record<Row, { pid: number; url: string }>;
  const up = async (row: Row, child: ChildProcess, port: number) => {
    await waitUp(`http://127.0.0.1:${port}/healthz`, child);
    servers[row] = { pid: child.pid!, url: `http://127.0.0.1:${port}/v1/validate/oib` };
  };
  const apiStart = apiStartCommand(path.join(root, "apps/api"));

  // Baseline: the same request answered by a bare node:http handler in its own process.
  if (has("bare")) {
    const port = await freePort();
    await up("bare", start(process.execPath, [path.join(here, "bare-server.mjs")], { PORT: String(port) }), port);
  }

  // The floor: the bare handler plus one limiter decision on the real Redis and its headers, run
  // with the API's own node flags and environment (heap ceiling, malloc arenas, production mode) so
  // that the gap between the two is the API's code, not its runtime settings.
  if (has("floor")) {
    const port = await freePort();
    const nodeFlags = apiStart.args.filter((a) => a.startsWith("--"));
    const child = start(process.execPath, [...nodeFlags, "--import", "tsx", path.join(here, "limited-server.ts")], {
      ...apiStart.env,
      NODE_ENV: "production",
      PORT: String(port),
      REDIS_URL: redisUrl,
    });
    await up("floor", child, port);
  }

  // The peers, started as their users would start them (`NODE_ENV=production node server.mjs`), with
  // the bench's key in their key map and Redis key prefixes unique to this run; they delete their
  // keys when stopped, which is checked at the end.
  const peerPrefix = `bench-peer:${randomUUID()}`;
  for (const [row, file] of [
    ["flexible", "rate-limiter-flexible-server.mjs"],
    ["express", "express-rate-limit-server.mjs"],
  ] as const) {
    if (!has(row)) continue;
    const port = await freePort();
    const child = start(process.execPath, [path.join(here, file)], {
      NODE_ENV: "production",
      PORT: String(port),
      REDIS_URL: redisUrl,
      BENCH_API_KEYS: keys.join(","),
      BENCH_PREFIX: `${peerPrefix}:${row}`,
    });
    await up(row, child, port);
  }

  // The production build, started exactly as `pnpm --filter @fiskal/api start` does, minus the pnpm
  // wrapper so that the pid (and its RSS) is the API's own.
  if (has("full")) {
    const built = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--filter=@fiskal/api", "--output-logs=errors-only"], { cwd: root, stdio: "inherit" });
    if (built.status !== 0) throw new Error("the API build failed");
    const { env: startEnv, args: startArgs } = apiStart;
    if (process.env.BENCH_CPU_PROFILE) startArgs.unshift("--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROFILE)}`);
    // e.g. --trace-gc: the API's output is then the bench's
    if (process.env.BENCH_API_FLAGS) startArgs.unshift(...process.env.BENCH_API_FLAGS.split(" ").filter(Boolean));
    const port = await freePort();
    const api = start(process.execPath, startArgs, {
      ...startEnv,
      DATABASE_URL: db!.url,
      REDIS_URL: redisUrl,
      PORT: String(port),
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      WEBHOOK_WORKER: "1",
      CWD: path.join(root, "apps/api"),
    }, process.env.BENCH_API_FLAGS ? "inherit" : "ignore");
    await up("full", api, port);
  }

  // Warm every server (JIT, connection pools, key cache, script caches), then measure them in
  // rounds, one after the other within a round: this machine's speed drifts over minutes (other
  // tenants' load), so a ratio is taken within one round and the median of the rounds is reported.
  for (const row of rows) await load(servers[row].url, servers[row].pid);
  const rounds: Partial<Record<Row, Load>>[] = [];
  const fullStats: ReturnType<typeof statsOver>[] = [];
  for (let i = 0; i < roundCount; i++) {
    const r: Partial<Record<Row, Load>> = {};
    for (const row of rows) {
      const base = row === "full" ? new URL(servers.full.url).origin : null;
      const before = base ? await apiStats(base) : null;
      r[row] = await load(servers[row].url, servers[row].pid);
      if (base && before) fullStats.push(statsOver(before, await apiStats(base)));
    }
    rounds.push(r);
  }
  const ratios = rounds.map((r) => ({
    vsFlexible: r.full && r.flexible ? r.full.rps / r.flexible.rps : null,
    vsExpress: r.full && r.express ? r.full.rps / r.express.rps : null,
    cpuVsFloor: r.full && r.floor ? r.full.cpuUs.server / Math.max(1, r.floor.cpuUs.server) : null,
    p99VsFlexible: r.full && r.flexible ? r.full.p99 / Math.max(1, r.flexible.p99) : null,
  }));
  // Each row's p99 under load (autocannon's, during the throughput loads), median of the rounds:
  // the tail at saturation, to set beside the peers' in the same run.
  const p99UnderLoad = Object.fromEntries(rows.map((row) => [row, median(rounds.map((r) => r[row]!.p99))])) as Record<Row, number>;
  // The round shown in detail: the median one by the tightest budget, full stack /
  // rate-limiter-flexible (by the first row's req/s when a row of that ratio is not loaded).
  const order = rounds.map((r, i) => ratios[i]!.vsFlexible ?? r[rows[0]!]!.rps);
  const medianIndex = order.indexOf(median(order));
  const shown = rounds[medianIndex]!;
  const fullBase = has("full") ? new URL(servers.full.url).origin : null;
  const atRateBefore = fullBase ? await apiStats(fullBase) : null;
  const atRate = has("full") ? await load(servers.full.url, servers.full.pid, { overallRate: 1_000 }) : null;
  const atRateStats = fullBase && atRateBefore ? statsOver(atRateBefore, await apiStats(fullBase)) : null;
  // The peer at the same fixed rate, for the tail this machine gives any server in the same minute.
  const peerAtRate = has("flexible") ? await load(servers.flexible.url, servers.flexible.pid, { overallRate: 1_000 }) : null;

  // The limiter alone, with the servers stopped: their after-load work (garbage collection, the
  // meter's last flushes, the webhook worker's polling) would otherwise share the cores with it.
  await stopAll();
  const redis = new Redis(redisUrl);
  const peerKeysLeft = (await redis.keys(`${peerPrefix}:*`)).length;
  await redis.quit();
  const limiter = has("floor")
    ? spawnSync(path.join(root, "node_modules/.bin/tsx"), [path.join(here, "limiter.ts")], {
        cwd: root,
        env: { ...process.env, REDIS_URL: redisUrl },
        encoding: "utf8",
      })
    : null;
  if (limiter && limiter.status !== 0) process.stderr.write(limiter.stderr);
  const limiterJson = limiter ? (JSON.parse(limiter.stdout.trim().split("\n").pop() || "{}") as { p99Ms?: number }) : null;

  const medianOf = (pick: (r: (typeof ratios)[number]) => number | null) => () => median(ratios.map((r) => pick(r)!));
  const peakRssMb = atRate ? Math.max(atRate.peakRssMb, ...rounds.map((r) => r.full!.peakRssMb)) : null;
  const failures = (atRate ? atRate.non2xx + atRate.errors : 0) + rounds.reduce((n, r) => n + rows.reduce((m, row) => m + r[row]!.non2xx + r[row]!.errors, 0), 0);
  const budgets: Record<string, Budget> = {
    vsFlexible: budget(["full", "flexible"], `>= ${BUDGET.vsFlexible}× rate-limiter-flexible req/s`, medianOf((r) => r.vsFlexible), (v) => v >= BUDGET.vsFlexible),
    vsExpress: budget(["full", "express"], `>= ${BUDGET.vsExpress}× express-rate-limit req/s`, medianOf((r) => r.vsExpress), (v) => v >= BUDGET.vsExpress),
    cpuVsFloor: budget(["full", "floor"], `<= ${BUDGET.cpuVsFloor}× the floor's server CPU/request`, medianOf((r) => r.cpuVsFloor), (v) => v <= BUDGET.cpuVsFloor),
    postgresUs: budget(["full"], `<= ${BUDGET.postgresUs} µs PostgreSQL CPU/request (full stack)`, () => median(rounds.map((r) => r.full!.cpuUs.postgres)), (v) => v <= BUDGET.postgresUs),
    p99At1000rps: budget(["full"], `< ${BUDGET.p99AtRateMs} ms (full stack at 1,000 req/s)`, () => atRate!.p99, (v) => v < BUDGET.p99AtRateMs),
    limiterP99: budget(["floor"], "< 1 ms (decide() at 1,000 decisions/s)", () => limiterJson?.p99Ms ?? null, () => limiter!.status === 0),
    rss: budget(["full"], `< ${BUDGET.rssMb} MB (full stack peak)`, () => peakRssMb, (v) => v < BUDGET.rssMb),
    errors: { budget: "0 non-2xx or failed requests, every row", value: failures, ok: failures === 0 },
  };
  const report = {
    when: new Date().toISOString(),
    seconds,
    connections,
    rows,
    rounds: rounds.map((r, i) => ({ ...r, ...ratios[i] })),
    medianRound: medianIndex + 1,
    p99UnderLoadMs: p99UnderLoad,
    fullStackRuntime: fullStats,
    atRate1000: atRate,
    atRate1000Runtime: atRateStats,
    flexibleAtRate1000: peerAtRate,
    limiter: limiterJson,
    peerKeysLeft,
    budgets,
  };
  mkdirSync(path.join(here, "results"), { recursive: true });
  writeFileSync(path.join(here, "results", "latest.json"), JSON.stringify(report, null, 2));

  const rps = (l: Load) => l.rps.toFixed(0).padStart(6);
  const x = (v: number | null, name: string) => (v === null ? "" : `  ${name} ${v.toFixed(2)}×`);
  rounds.forEach((r, i) =>
    console.log(
      `round ${i + 1}  ${rows.map((row) => `${row} ${rps(r[row]!)}`).join("  ")} req/s;` +
        x(ratios[i]!.vsFlexible, "full/flexible") +
        x(ratios[i]!.vsExpress, "full/express") +
        x(ratios[i]!.cpuVsFloor, "CPU full/floor") +
        x(ratios[i]!.p99VsFlexible, "p99 full/flexible"),
    ),
  );
  console.log(`median round ${medianIndex + 1}; CPU in µs per answered request`);
  console.log(`${"".padEnd(22)}  req/s   p50   p99  server  autocannon  Redis  PostgreSQL  peak RSS  non-2xx  errors`);
  for (const row of rows) {
    const l = shown[row]!;
    const c = l.cpuUs;
    console.log(
      `${LABEL[row].padEnd(22)} ${rps(l)} ${String(l.p50).padStart(5)} ${String(l.p99).padStart(5)}  ${String(c.server).padStart(6)}  ${String(c.loadGenerator).padStart(10)}  ${String(c.redis).padStart(5)}  ${String(c.postgres).padStart(10)}  ${String(l.peakRssMb).padStart(5)} MB  ${String(l.non2xx).padStart(7)}  ${String(l.errors).padStart(6)}`,
    );
  }
  console.log(`p99 under load, median of the rounds: ${rows.map((row) => `${row} ${p99UnderLoad[row]} ms`).join("  ")}`);
  if (has("full")) {
    const st = fullStats[medianIndex]!;
    const gc = Object.entries(st.gc)
      .map(([k, v]) => `${k} ${v.count}× ${Math.round(v.seconds * 1000)} ms (${v.over10ms} ≥ 10 ms)`)
      .join(", ");
    console.log(
      `full stack in that load: handled within ${st.handledP99Ms ?? "-"} ms (p99, bucket bound); event-loop delay p99 ${st.loopDelayP99Ms} ms, max ${st.loopDelayMaxMs} ms; GC ${gc || "none"}`,
    );
    const redisUs = median(rounds.map((r) => r.full!.cpuUs.redis));
    console.log(`full stack, median of the rounds: Redis ${redisUs} µs/request (one counting decision each), PostgreSQL ${median(rounds.map((r) => r.full!.cpuUs.postgres))} µs/request`);
  }
  if (atRate) console.log(`full stack @1000/s      p50 ${atRate.p50} ms  p99 ${atRate.p99} ms  peak RSS ${atRate.peakRssMb} MB  non-2xx ${atRate.non2xx}  errors ${atRate.errors}`);
  if (atRateStats) {
    const gc = Object.entries(atRateStats.gc)
      .map(([k, v]) => `${k} ${v.count}× ${Math.round(v.seconds * 1000)} ms (${v.over10ms} ≥ 10 ms)`)
      .join(", ");
    console.log(
      `  in the API: handled within ${atRateStats.handledP99Ms ?? "-"} ms (p99, bucket bound); event-loop delay p99 ${atRateStats.loopDelayP99Ms} ms, max ${atRateStats.loopDelayMaxMs} ms; GC ${gc || "none"}`,
    );
  }
  if (peerAtRate) console.log(`rate-limiter-flexible @1000/s  p50 ${peerAtRate.p50} ms  p99 ${peerAtRate.p99} ms`);
  if (limiterJson) console.log(`limiter decide()        ${JSON.stringify(limiterJson)}`);
  if (peerKeysLeft > 0) console.log(`the peers left ${peerKeysLeft} keys under ${peerPrefix}:*`);
  let failed = 0;
  for (const [name, b] of Object.entries(budgets)) {
    console.log(`${b.ok === null ? "SKIP" : b.ok ? "PASS" : "FAIL"}  ${name.padEnd(13)} ${String(b.value ?? "-").padEnd(8)} budget ${b.budget}`);
    if (!b.ok) failed++;
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  await stopAll();
  await db?.drop().catch(() => {});
}
