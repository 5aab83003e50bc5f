// Soak: the production API (the `start` script's bundle, without the pnpm wrapper, so that the pid and
// its RSS are the API's own) at a steady 1,000 requests/s for 3 minutes on the real PostgreSQL and
// Redis. The API's resident memory is sampled every 200 ms; its heap (prom-client's nodejs_heap_*
// from /metrics) every 10 s, to tell a leak (the heap after GC keeps rising) from a high-water mark.
// Prints one JSON line and exits 1 when a request failed or the peak RSS is over the budget.
//
//   node --import tsx bench/soak.ts                   3 minutes at 1,000 req/s
//   SOAK_SECONDS=60 SOAK_RATE=500 node --import tsx bench/soak.ts
//   BENCH_API_FLAGS="--trace-gc" …                    extra node flags for the API (its output is shown)
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
import { apiStartCommand } from "../apps/api/scripts/start-command.mjs";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const RATE = Number(process.env.SOAK_RATE ?? 1_000);
const KEYS = 20;
/** The API's resident memory may never exceed this, whatever it served before. */
const BUDGET = { rssMb: 250 };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The API's heap in MB, from prom-client's default metrics in /metrics (prefixed fiskal_): used, committed, external, and committed per heap space. */
async function heapMb(base: string): Promise<{ heapUsed: number; heapTotal: number; external: number; spaces: Record<string, number> }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const mb = (v: string | undefined) => Math.round(Number(v ?? NaN) / 1_048_576);
  const read = (name: string) => mb(new RegExp(`^(?:fiskal_)?${name} (\\S+)`, "m").exec(text)?.[1]);
  const spaces: Record<string, number> = {};
  for (const m of text.matchAll(/^(?:fiskal_)?nodejs_heap_space_size_total_bytes\{space="(\w+)"\} (\S+)/gm)) spaces[m[1]!] = mb(m[2]);
  return { heapUsed: read("nodejs_heap_size_used_bytes"), heapTotal: read("nodejs_heap_size_total_bytes"), external: read("nodejs_external_memory_bytes"), spaces };
}

const testDb = await createTestDatabase();
const dataDir = mkdtempSync(path.join(tmpdir(), "fiskal-soak-"));
let api: ChildProcess | null = null;
try {
  const db = createDb(testDb.url);
  const keys: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    const account = await createAccount(db, {
      name: `soak ${i}`,
      plan: "ENTERPRISE",
      custom: { burst: 10_000, perMinute: 100_000, perDay: 1_000_000, endpoints: { oib: 100_000 } },
    });
    keys.push((await createApiKey(db, account.id, "soak")).key);
  }
  await db.$disconnect();

  const built = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--filter=@fiskal/api", "--output-logs=errors-only"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("the API build failed");
  const { env: startEnv, args } = apiStartCommand(path.join(root, "apps/api"));
  if (process.env.BENCH_API_FLAGS) args.unshift(...process.env.BENCH_API_FLAGS.split(" ").filter(Boolean));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  api = spawn(process.execPath, args, {
    cwd: path.join(root, "apps/api"),
    env: {
      ...process.env,
      ...startEnv,
      DATABASE_URL: testDb.url,
      REDIS_URL: redisUrl,
      RATE_LIMIT_PREFIX: `soak-${randomUUID()}`,
      PORT: String(port),
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      FISKAL_DATA_DIR: dataDir,
    },
    stdio: ["ignore", process.env.BENCH_API_FLAGS ? "inherit" : "ignore", "inherit"],
  });
  const pid = api.pid!;
  for (let i = 0; ; i++) {
    if (api.exitCode !== null) throw new Error(`the API exited with code ${api.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      // starting
    }
    if (i > 400) throw new Error("the API did not come up");
    await new Promise((r) => setTimeout(r, 100));
  }

  const requests = keys.map((key) => ({ headers: { authorization: `Bearer ${key}` } }));
  const run = (duration: number) =>
    autocannon({
      url: `${base}/v1/validate/oib`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ oib: "69435151530" }),
      requests,
      // Four connections keep arrivals close to evenly spaced at a fixed rate (see bench/run.ts).
      connections: 4,
      duration,
      overallRate: RATE,
    });
  // Warm: JIT, pools, key cache.
  await run(5);
  const startRss = Math.round(rssMb(pid));
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 200);
  const timeline: { s: number; rssMb: number; heapUsedMb: number; heapTotalMb: number; externalMb: number; spacesMb: Record<string, number> }[] = [];
  const started = Date.now();
  const probe = setInterval(() => {
    void heapMb(base).then(
      (h) =>
        timeline.push({ s: Math.round((Date.now() - started) / 1000), rssMb: Math.round(rssMb(pid)), heapUsedMb: h.heapUsed, heapTotalMb: h.heapTotal, externalMb: h.external, spacesMb: h.spaces }),
      () => {},
    );
  }, 10_000);
  const result = await run(SECONDS);
  clearInterval(sampler);
  clearInterval(probe);

  const out = {
    bench: "soak",
    seconds: SECONDS,
    rate: RATE,
    answered: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p99Ms: result.latency.p99,
    startRssMb: startRss,
    peakRssMb: Math.round(peakRss),
    endRssMb: Math.round(rssMb(pid)),
    timeline,
    budget: BUDGET,
    ok: false,
  };
  out.ok = out.non2xx === 0 && out.errors === 0 && out.peakRssMb <= BUDGET.rssMb;
  console.log(JSON.stringify(out));
  process.exitCode = out.ok ? 0 : 1;
} finally {
  if (api && api.exitCode === null) {
    const exited = new Promise((r) => api!.once("exit", r));
    api.kill("SIGTERM");
    await exited;
  }
  await testDb.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
