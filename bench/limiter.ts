/**
 * decide() throughput and latency against the real Redis: 50 concurrent callers for a few seconds
 * on one identity whose limits never throttle. Prints one JSON line; exits 1 over budget.
 *
 *   REDIS_URL (default redis://127.0.0.1:6379)  BENCH_SECONDS (default 5)  BENCH_CONCURRENCY (default 50)
 */
import { randomUUID } from "node:crypto";
import { createRateLimiter, type Limits } from "@fiskal/limits";

const BUDGET_P99_MS = 1;
const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);

const limits: Limits = { burst: 1_000_000_000, perMinute: 1_000_000_000, perDay: 1_000_000_000_000 };
const identity = `acct:bench-${randomUUID()}`;
// keys expire by themselves (burst 3 s, minute 121 s, day 24 h)
const rl = createRateLimiter({ store: { kind: "redis", url }, prefix: `fiskal-bench:${randomUUID()}`, redisTimeoutMs: 1_000 });

async function run(durationMs: number, record: boolean) {
  const latencies: number[] = [];
  let refused = 0;
  let degraded = 0;
  const deadline = performance.now() + durationMs;
  const caller = async () => {
    while (performance.now() < deadline) {
      const t0 = process.hrtime.bigint();
      const d = await rl.decide({ identity, limits });
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

await run(1_000, false); // warm-up: connection, script cache, JIT
const { latencies, refused, degraded, elapsedMs } = await run(seconds * 1000, true);
await rl.close();

latencies.sort((a, b) => a - b);
const p99 = percentile(latencies, 99);
const result = {
  bench: "limits.decide",
  store: "redis",
  windows: ["burst", "minute", "day"],
  concurrency,
  seconds: round(elapsedMs / 1000),
  decisions: latencies.length,
  decisionsPerSecond: Math.round(latencies.length / (elapsedMs / 1000)),
  p50Ms: round(percentile(latencies, 50)),
  p90Ms: round(percentile(latencies, 90)),
  p99Ms: round(p99),
  maxMs: round(latencies[latencies.length - 1] ?? NaN),
  refused,
  degraded,
  budget: { p99Ms: BUDGET_P99_MS },
  ok: p99 < BUDGET_P99_MS && refused === 0 && degraded === 0,
};
console.log(JSON.stringify(result));
if (!result.ok) {
  console.error(
    refused || degraded
      ? `bench invalid: ${refused} refused, ${degraded} degraded decisions`
      : `over budget: p99 ${result.p99Ms} ms ≥ ${BUDGET_P99_MS} ms`,
  );
  process.exit(1);
}
