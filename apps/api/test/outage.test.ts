// Stopping Redis mid-run: the API keeps answering on the local fallback, reports it, and returns to Redis.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, startHarness, VALID_OIB, type Harness } from "./harness.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "pipe" });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      if (d.toString().includes("Ready to accept connections")) resolve(child);
    });
    child.once("error", reject);
  });
}

let port: number;
let redis: ChildProcess;
let h: Harness;
beforeAll(async () => {
  port = await freePort();
  redis = await startRedis(port);
  h = await startHarness({ config: { store: { kind: "redis", url: `redis://127.0.0.1:${port}` }, storeTimeoutMs: 200 } });
});
afterAll(async () => {
  await h.close();
  redis.kill("SIGKILL");
});

it("keeps answering when Redis dies, exposes it in metrics and readiness, and recovers", async () => {
  const a = await h.account({ plan: "STARTER" });
  const ok = await call(h.url, "POST", "/v1/validate/oib", { key: a.key, body: { oib: VALID_OIB } });
  expect(ok.status).toBe(200);

  redis.kill("SIGKILL");
  await new Promise((r) => redis.once("exit", r));
  for (let i = 0; i < 5; i++) {
    const r = await call(h.url, "POST", "/v1/validate/oib", { key: a.key, body: { oib: VALID_OIB } });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  }
  const metrics = await call(h.url, "GET", "/metrics");
  expect(metrics.text).toMatch(/fiskal_ratelimit_store_fallbacks_total [1-9]/);
  expect(metrics.text).toMatch(/fiskal_ratelimit_store_degraded 1/);
  expect((await call(h.url, "GET", "/readyz")).body.checks.limiter).toContain("degraded");

  redis = await startRedis(port);
  let recovered = false;
  for (let i = 0; i < 50 && !recovered; i++) {
    await call(h.url, "POST", "/v1/validate/oib", { key: a.key, body: { oib: VALID_OIB } });
    recovered = !h.api.services.limiter.fallbackActive();
    if (!recovered) await sleep(200);
  }
  expect(recovered).toBe(true);
  expect((await call(h.url, "GET", "/metrics")).text).toMatch(/fiskal_ratelimit_store_degraded 0/);
});
