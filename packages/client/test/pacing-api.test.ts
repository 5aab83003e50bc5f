// The pacing budgets against the real API (PostgreSQL + Redis limits), each run on a fresh account,
// mixed OIB and KPD calls. Small custom limits keep the runs short: a minute window of 40 is
// exhausted and waited out once (a minute) instead of the 16 minutes of 1,000 Sandbox calls, which
// scripts/pacing-bench.ts measures. Faults come from an HTTP proxy in front of the API.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import net, { type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "@fiskal/api";
import { createAccount, createApiKey, createTestDatabase, readKpdCsv } from "@fiskal/accounts";
import { FiskalClient } from "../src/index.ts";
import { RespConnection } from "../src/pacing-store.ts";
import { minimumMs, runMixed, startProxy, windowsOf, type RunResult } from "../scripts/pacing.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

let api: RunningApi;
let dropDatabase: () => Promise<void>;
let codes: string[];

beforeAll(async () => {
  const db = await createTestDatabase();
  dropDatabase = db.drop;
  api = await startApi({
    databaseUrl: db.url,
    store: { kind: "redis", url: REDIS_URL },
    portalUrl: "http://portal.test",
    limiterPrefix: `tp${randomBytes(6).toString("hex")}`,
    logger: pino({ level: "silent" }),
    meterFlushIntervalMs: 100,
  });
  codes = (await readKpdCsv()).filter((r) => r.level === 5).map((r) => r.code);
});

afterAll(async () => {
  await api?.close();
  await dropDatabase?.();
});

type Custom = { burst: number; perMinute: number; perDay: number; endpoints?: { oib?: number; kpd?: number } };

async function key(plan: "SANDBOX" | "BUSINESS" | "ENTERPRISE", custom?: Custom): Promise<string> {
  const acct = await createAccount(api.services.db, { name: "Tempo d.o.o.", plan, custom });
  return (await createApiKey(api.services.db, acct.id, "pacing tests")).key;
}

async function minimumFor(apiKey: string, calls: number): Promise<number> {
  return minimumMs(windowsOf(await new FiskalClient({ apiKey, baseUrl: api.url }).limits()), calls);
}

const wall = (r: RunResult) => r.endedAt - r.startedAt;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("one process: no 429 at any concurrency, wall time within 1.05 × the minimum + 1 s", () => {
  it("60 calls on a burst of 10 and a minute of 40 (minimum 61 s), and 50 calls on a Sandbox key (minimum 4 s), at concurrency 1, 10 and 50", async () => {
    const small: Custom = { burst: 10, perMinute: 40, perDay: 100_000, endpoints: { oib: 300, kpd: 300 } };
    const keys = await Promise.all([1, 10, 50].map(() => key("ENTERPRISE", small)));
    const longMin = await minimumFor(keys[0]!, 60);
    expect(longMin).toBe(61_000);
    // The minute runs wait most of their minute: the Sandbox runs go one by one meanwhile.
    const long = Promise.all([1, 10, 50].map((concurrency, i) => runMixed({ baseUrl: api.url, apiKey: keys[i]!, calls: 60, concurrency, codes })));
    await sleep(6_000);
    const short: Array<{ concurrency: number; result: RunResult; min: number }> = [];
    for (const concurrency of [1, 10, 50]) {
      const k = await key("SANDBOX");
      const min = await minimumFor(k, 50);
      short.push({ concurrency, min, result: await runMixed({ baseUrl: api.url, apiKey: k, calls: 50, concurrency, codes }) });
    }
    const longResults = await long;
    const report = [
      ...longResults.map((r, i) => `60 calls, burst 10, minute 40, concurrency ${[1, 10, 50][i]}: ${r.refused} × 429, ${(wall(r) / 1000).toFixed(2)} s (minimum ${longMin / 1000} s)`),
      ...short.map((s) => `50 calls, Sandbox, concurrency ${s.concurrency}: ${s.result.refused} × 429, ${(wall(s.result) / 1000).toFixed(2)} s (minimum ${s.min / 1000} s)`),
    ];
    console.info(report.join("\n"));
    for (const r of longResults) {
      expect(r.failures).toEqual([]);
      expect(r.refused).toBe(0);
      expect(wall(r)).toBeLessThanOrEqual(1.05 * longMin + 1_000);
      expect(wall(r)).toBeGreaterThanOrEqual(longMin);
    }
    for (const s of short) {
      expect(s.result.failures).toEqual([]);
      expect(s.result.refused).toBe(0);
      expect(s.min).toBe(4_000);
      expect(wall(s.result)).toBeLessThanOrEqual(1.05 * s.min + 1_000);
    }
  }, 120_000);

  it("200 calls on a Business key (a burst of 50: minimum 3 s) at concurrency 1, 10 and 50, next to the same calls where no limit binds", async () => {
    // The API's own time for the same calls (an account whose limits never bind) is what no pacing
    // can beat: at concurrency 1 it is above the minimum on a slow machine, and each wave of 50 costs
    // the client one answer's wait, since only an answer tells when the server admitted the request.
    const unbound: Custom = { burst: 100_000, perMinute: 1_000_000, perDay: 10_000_000, endpoints: { oib: 1_000_000, kpd: 1_000_000 } };
    const runs: Array<{ concurrency: number; result: RunResult; min: number; unpacedMs: number }> = [];
    for (const concurrency of [1, 10, 50]) {
      const unpaced = await runMixed({ baseUrl: api.url, apiKey: await key("ENTERPRISE", unbound), calls: 200, concurrency, codes });
      const k = await key("BUSINESS");
      const min = await minimumFor(k, 200);
      runs.push({ concurrency, min, unpacedMs: wall(unpaced), result: await runMixed({ baseUrl: api.url, apiKey: k, calls: 200, concurrency, codes }) });
    }
    console.info(runs.map((r) => `200 calls, Business, concurrency ${r.concurrency}: ${r.result.refused} × 429, ${(wall(r.result) / 1000).toFixed(2)} s (minimum ${r.min / 1000} s, unpaced ${(r.unpacedMs / 1000).toFixed(2)} s)`).join("\n"));
    for (const r of runs) {
      expect(r.min).toBe(3_000);
      expect(r.result.failures).toEqual([]);
      expect(r.result.refused).toBe(0);
      expect(wall(r.result)).toBeGreaterThanOrEqual(r.min);
      expect(wall(r.result)).toBeLessThanOrEqual(1.05 * r.min + 1_000 + r.unpacedMs);
    }
  }, 90_000);
});

describe("faults between the client and the API (an HTTP proxy)", () => {
  it("out of order: on an exact 2/s window the first admitted answer is held 300 ms; the call started when it arrives waits for a slot, no 429", async () => {
    const k = await key("ENTERPRISE", { burst: 2, perMinute: 1_000, perDay: 100_000, endpoints: { oib: 1_000, kpd: 1_000 } });
    // The answer that says one slot was left in the burst window was decided first: hold it.
    const proxy = await startProxy(api.url, { delay: (_, a) => (String(a.headers.ratelimit ?? "").includes('"burst";r=1;') ? 300 : 0) });
    try {
      const sent: Array<{ at: number; status: number }> = [];
      const fetchLog = (async (input: string | URL | Request, init?: RequestInit) => {
        const at = Date.now();
        const res = await fetch(input, init);
        if (new URL(String(input)).pathname !== "/v1/limits") sent.push({ at, status: res.status });
        return res;
      }) as typeof globalThis.fetch;
      const c = new FiskalClient({ apiKey: k, baseUrl: proxy.url, fetch: fetchLog });
      const a = c.validateOib("69435151530");
      const b = c.validateOib("69435151530");
      // C starts when the late answer arrives, about 300 ms after the two were admitted.
      await Promise.all([a, b]);
      const startedC = Date.now();
      await c.validateOib("69435151530");
      expect(startedC - sent[0]!.at).toBeGreaterThanOrEqual(250);
      expect(sent.map((s) => s.status)).toEqual([200, 200, 200]);
      // C waited for the second of the first two to pass.
      expect(sent[2]!.at - sent[0]!.at).toBeGreaterThanOrEqual(1_000);
    } finally {
      await proxy.close();
    }
  });

  it("slow answers (held 0–400 ms at random) and lost ones (connection cut after the API answered) on a burst of 5: GETs retried, no 429", async () => {
    const k = await key("ENTERPRISE", { burst: 5, perMinute: 1_000, perDay: 100_000, endpoints: { oib: 1_000, kpd: 1_000 } });
    let seed = 11;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const proxy = await startProxy(api.url, { delay: () => Math.floor(random() * 400), cut: (n) => n % 7 === 3 });
    try {
      const statuses: number[] = [];
      let lost = 0;
      const fetchLog = (async (input: string | URL | Request, init?: RequestInit) => {
        try {
          const res = await fetch(input, init);
          if (new URL(String(input)).pathname !== "/v1/limits") statuses.push(res.status);
          return res;
        } catch (err) {
          lost++;
          throw err;
        }
      }) as typeof globalThis.fetch;
      const c = new FiskalClient({ apiKey: k, baseUrl: proxy.url, fetch: fetchLog, kpdCache: false });
      const results = await Promise.all(Array.from({ length: 25 }, (_, i) => c.getKpd(codes[i]!)));
      expect(results.map((r) => r.code)).toEqual(codes.slice(0, 25));
      expect(lost).toBeGreaterThan(0);
      expect(statuses.filter((s) => s === 429)).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("a proxy strips RateLimit and RateLimit-Policy: 100 calls, 50 at a time, on a burst of 10 pace on X-RateLimit-* and GET /v1/limits, at most one 429 per exhausted window", async () => {
    const k = await key("ENTERPRISE", { burst: 10, perMinute: 1_000, perDay: 100_000, endpoints: { oib: 1_000, kpd: 1_000 } });
    const proxy = await startProxy(api.url, { stripIetf: true });
    try {
      const r = await runMixed({ baseUrl: proxy.url, apiKey: k, calls: 100, concurrency: 50, codes });
      console.info(`X-RateLimit-* only, 100 calls on a burst of 10: ${r.refused} × 429, ${(wall(r) / 1000).toFixed(2)} s`);
      expect(r.failures).toEqual([]);
      // The burst window is exhausted ten times over.
      expect(r.refused).toBeLessThanOrEqual(10);
      expect(r.refused).toBe(0);
      expect(wall(r)).toBeLessThanOrEqual(1.05 * 9_000 + 1_000);
    } finally {
      await proxy.close();
    }
  });
});

function child(args: Record<string, unknown>): Promise<RunResult> {
  const script = fileURLToPath(new URL("../scripts/pacing-child.ts", import.meta.url));
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(args)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    p.stdout.on("data", (c: Buffer) => (out += c.toString()));
    p.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1)!) as RunResult) : reject(new Error(`child exited with ${code}`))));
  });
}

describe("the shared pacing store", () => {
  it("unreachable: every call still succeeds, paced on the client's own log, and the failure is reported", async () => {
    const k = await key("ENTERPRISE", { burst: 5, perMinute: 1_000, perDay: 100_000, endpoints: { oib: 1_000, kpd: 1_000 } });
    // A port nobody listens on.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const errors: unknown[] = [];
    const r = await runMixed({ baseUrl: api.url, apiKey: k, calls: 12, concurrency: 12, codes, client: { sharedPacing: { redis: `redis://127.0.0.1:${port}` }, onPacingStoreError: (e) => errors.push(e) } });
    expect(r.failures).toEqual([]);
    expect(r.refused).toBe(0);
    expect(errors.length).toBeGreaterThan(0);
    expect(String((errors[0] as Error).message)).toMatch(/ECONNREFUSED|closed/);
  });

  it("keeps no key with the API key in its name, and leaves nothing behind once the windows have passed", async () => {
    const k = await key("ENTERPRISE", { burst: 3, perMinute: 1_000, perDay: 100_000, endpoints: { oib: 1_000, kpd: 1_000 } });
    const prefix = `fiskal:pace:t${randomBytes(4).toString("hex")}`;
    const r = await runMixed({ baseUrl: api.url, apiKey: k, calls: 6, concurrency: 6, codes, client: { sharedPacing: { redis: REDIS_URL, prefix, inFlightMs: 5_000 } } });
    expect(r.refused).toBe(0);
    const redis = new RespConnection(REDIS_URL, 2_000);
    try {
      const keys = (await redis.sendCommand(["KEYS", `${prefix}:*`])) as string[];
      expect(keys.length).toBeGreaterThan(0);
      for (const name of keys) {
        expect(name).not.toContain(k);
        expect(name).toMatch(/^fiskal:pace:t[0-9a-f]{8}:\{[0-9a-f]{32}\}:/);
        // Expires by itself: at most the longest window + the in-flight bound + 1 s.
        const ttl = Number(await redis.sendCommand(["PTTL", name]));
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(60_000 + 5_000 + 1_000);
      }
    } finally {
      await redis.close();
    }
  });
});

// The two runs wait most of their 19 s on their own keys: side by side.
describe.concurrent("two processes on one key", () => {
  const LIMITS: Custom = { burst: 10, perMinute: 1_000, perDay: 100_000, endpoints: { oib: 1_000, kpd: 1_000 } };

  async function twoProcesses(shared: boolean): Promise<{ refused: number; wallMs: number; minMs: number; failures: string[] }> {
    const k = await key("ENTERPRISE", LIMITS);
    const minMs = await minimumFor(k, 200);
    const startAt = Date.now() + 4_000;
    const args = { baseUrl: api.url, apiKey: k, calls: 100, concurrency: 10, codes: codes.slice(0, 200), startAt, ...(shared ? { redisUrl: REDIS_URL, namespace: `test-${randomBytes(4).toString("hex")}` } : {}) };
    const parts = await Promise.all([child(args), child(args)]);
    return {
      refused: parts[0].refused + parts[1].refused,
      wallMs: Math.max(...parts.map((p) => p.endedAt)) - Math.min(...parts.map((p) => p.startedAt)),
      minMs,
      failures: parts.flatMap((p) => p.failures),
    };
  }

  it("with the shared Redis store: at most 1% of the calls refused, within 1.2 × the minimum", async () => {
    const r = await twoProcesses(true);
    console.info(`two processes, shared store, 200 calls on a burst of 10: ${r.refused} × 429, ${(r.wallMs / 1000).toFixed(2)} s (minimum ${r.minMs / 1000} s)`);
    expect(r.minMs).toBe(19_000);
    expect(r.failures).toEqual([]);
    expect(r.refused).toBeLessThanOrEqual(2);
    expect(r.wallMs).toBeLessThanOrEqual(1.2 * r.minMs);
  }, 60_000);

  it("without it, jitter only: at most 10% refused, within 1.5 × the minimum", async () => {
    const r = await twoProcesses(false);
    console.info(`two processes, jitter only, 200 calls on a burst of 10: ${r.refused} × 429, ${(r.wallMs / 1000).toFixed(2)} s (minimum ${r.minMs / 1000} s)`);
    expect(r.failures).toEqual([]);
    expect(r.refused).toBeLessThanOrEqual(20);
    expect(r.wallMs).toBeLessThanOrEqual(1.5 * r.minMs);
  }, 60_000);
});
