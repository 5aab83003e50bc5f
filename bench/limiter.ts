/**
 * decide() against the real Redis, the four windows of BENCH_ACCOUNTS identities (default 100) in
 * turn, with limits that none of them reaches in a run (bench/limits.mjs):
 *  - saturation: BENCH_CONCURRENCY callers back to back → decisions/s (latency there is queueing:
 *    50 in flight at N/s wait about 50/N s each, so it is reported, not budgeted);
 *  - at rate: decisions started at a fixed BENCH_RATE per second (default 1,000, the API budget's
 *    rate) → the latency of one decision, budgeted at p99 < 1 ms.
 * Prints one JSON line; exits 1 over budget.
 *
 *   REDIS_URL (default redis://127.0.0.1:6379)  BENCH_SECONDS (default 5)  BENCH_CONCURRENCY (default 50)  BENCH_RATE (default 1000)
 *   BENCH_ACCOUNTS (default 100)
 */
import { randomUUID } from "node:crypto";
import { createRateLimiter, type Limits } from "@fiskal/limits";
import { ACCOUNTS, LIMITS } from "./limits.mjs";

const BUDGET_P99_MS = 1;
const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const rate = Number(process.env.BENCH_RATE ?? 1_000);

const limits: Limits = { burst: LIMITS.burst, perMinute: LIMITS.perMinute, perDay: LIMITS.perDay, endpoints: { oib: LIMITS.endpoint } };
// the prefix below is unique to the run, so the identities need not be
const identities = Array.from({ length: ACCOUNTS }, (_, i) => `acct:bench-${i}`);
let next = 0;
const identity = () => identities[next++ % identities.length]!;
// keys expire by themselves (the rolling windows after their window, the day's after the day)
const rl = createRateLimiter({ store: { kind: "redis", url }, prefix: `fiskal-bench:${randomUUID()}`, redisTimeoutMs: 1_000 });

async function run(durationMs: number, record: boolean) {
  const latencies: number[] = [];
  let refused = 0;
  let degraded = 0;
  const deadline = performance.now() + durationMs;
  const caller = async () => {
    while (performance.now() < deadline) {
      const t0 = process.hrtime.bigint();
      const d = await rl.decide({ identity: identity(), limits, endpoint: "oib" });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (record) latencies.push(ms);
      if (!d.allowed) refused++;
      if (d.degraded) degraded++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, caller));
  return { latencies, refused, degraded, elapsedMs: performance.now() - started };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const round = (n: number) => Math.round(n * 1000) / 1000;

/** Open loop: one decision every 1/rate s, whatever the previous ones are doing. */
async function atRate(durationMs: number) {
  const latencies: number[] = [];
  let refused = 0;
  let degraded = 0;
  const interval = 1000 / rate;
  const start = performance.now();
  // a count, not a list of promises: keeping every decision's promise alive until the end would
  // make each garbage collection copy them, a cost of the benchmark and not of the limiter
  let outstanding = 0;
  let drained: (() => void) | null = null;
  const one = async () => {
    outstanding++;
    const t0 = process.hrtime.bigint();
    const d = await rl.decide({ identity: identity(), limits, endpoint: "oib" });
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (!d.allowed) refused++;
    if (d.degraded) degraded++;
    if (--outstanding === 0 && drained) drained();
  };
  for (let i = 0; performance.now() - start < durationMs; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    void one();
  }
  if (outstanding > 0) await new Promise<void>((r) => (drained = r));
  return { latencies, refused, degraded };
}

await run(1_000, false); // warm-up: connection, script cache, JIT
const saturated = await run(seconds * 1000, true);
const paced = await atRate(seconds * 1000);
await rl.close();

const sortedSat = saturated.latencies.sort((a, b) => a - b);
const sorted = paced.latencies.sort((a, b) => a - b);
const p99 = percentile(sorted, 99);
const refused = saturated.refused + paced.refused;
const degraded = saturated.degraded + paced.degraded;
const result = {
  bench: "limits.decide",
  store: "redis",
  windows: ["burst", "minute", "endpoint:oib", "day"],
  saturation: {
    concurrency,
    seconds: round(saturated.elapsedMs / 1000),
    decisionsPerSecond: Math.round(sortedSat.length / (saturated.elapsedMs / 1000)),
    p50Ms: round(percentile(sortedSat, 50)),
    p99Ms: round(percentile(sortedSat, 99)),
  },
  atRate: {
    rate,
    decisions: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p90Ms: round(percentile(sorted, 90)),
    p99Ms: round(p99),
    maxMs: round(sorted[sorted.length - 1] ?? NaN),
  },
  p99Ms: round(p99),
  refused,
  degraded,
  budget: { p99MsAtRate: BUDGET_P99_MS },
  ok: p99 < BUDGET_P99_MS && refused === 0 && degraded === 0,
};
console.log(JSON.stringify(result));
if (!result.ok) {
  console.error(
    refused || degraded
      ? `bench invalid: ${refused} refused, ${degraded} degraded decisions`
      : `over budget: p99 at ${rate}/s ${result.p99Ms} ms ≥ ${BUDGET_P99_MS} ms`,
  );
  process.exit(1);
}
