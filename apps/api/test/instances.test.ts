// DESIGN §4 across several API instances: four production processes (the `start` script's bundle)
// on one PostgreSQL database and the shared Redis, with no load balancer in front: the client sends
// its requests round-robin to the four. Every rate-limit response collected here is also checked
// against the header rules (t ≤ w, the binding window, a 429 naming a full window).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApiKey, createTestDatabase, setPlan, type CustomLimits } from "@fiskal/accounts";
import { createDb, type Db, type Plan } from "@fiskal/db";
import { sekundi } from "@fiskal/limits";
import { buildApi, killAll, startApiProcess, stopProcess, waitState, type ApiProcess } from "./api-process.ts";
import { call, PORTAL, REDIS_URL, timely, VALID_OIB, type CallResult } from "./harness.ts";

const INSTANCES = 4;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Header rules, checked on every response of this file

interface WindowField {
  q: number;
  w: number;
  r: number;
  t: number;
}

const FIELD_LIST = /^"[^"\\]+"(?:;[a-z]+=\d+)+(?:, "[^"\\]+"(?:;[a-z]+=\d+)+)*$/;

/** An IETF field list (`"burst";r=9;t=1, "minute";r=59;t=60`) by policy name, in order. */
function parseFields(header: string | null): Map<string, Record<string, number>> {
  expect(header, "a RateLimit/RateLimit-Policy field").toMatch(FIELD_LIST);
  const out = new Map<string, Record<string, number>>();
  for (const m of header!.matchAll(/"([^"\\]+)"((?:;[a-z]+=\d+)+)/g)) {
    const params: Record<string, number> = {};
    for (const p of m[2]!.matchAll(/;([a-z]+)=(\d+)/g)) params[p[1]!] = Number(p[2]);
    out.set(m[1]!, params);
  }
  return out;
}

function windowsOf(r: CallResult): Map<string, WindowField> {
  const policy = parseFields(r.headers.get("ratelimit-policy"));
  const state = parseFields(r.headers.get("ratelimit"));
  expect([...state.keys()]).toEqual([...policy.keys()]);
  const out = new Map<string, WindowField>();
  for (const [name, p] of policy) {
    const s = state.get(name)!;
    out.set(name, { q: p.q!, w: p.w!, r: s.r!, t: s.t! });
  }
  return out;
}

/**
 * The rules every limited response follows: each window's r within 0…q and t within 0…w; the
 * X-RateLimit pair is one of the windows (on admit the one with the fewest remaining); a 429 names
 * a window with r = 0 whose t is Retry-After, and its body names the same seconds.
 */
function checkHeaders(r: CallResult): void {
  const windows = windowsOf(r);
  expect(windows.size).toBeGreaterThan(0);
  for (const [name, w] of windows) {
    expect(w.t, `t of ${name} in ${r.headers.get("ratelimit")}`).toBeLessThanOrEqual(w.w);
    expect(w.t).toBeGreaterThanOrEqual(0);
    expect(w.r, `r of ${name}`).toBeLessThanOrEqual(w.q);
    expect(w.r).toBeGreaterThanOrEqual(0);
  }
  const limit = Number(r.headers.get("x-ratelimit-limit"));
  const remaining = Number(r.headers.get("x-ratelimit-remaining"));
  expect(Number.isInteger(Number(r.headers.get("x-ratelimit-reset")))).toBe(true);
  if (r.status === 429) {
    const retryAfter = Number(r.headers.get("retry-after"));
    expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(remaining).toBe(0);
    const named = [...windows.values()].filter((w) => w.q === limit && w.r === 0 && w.t === retryAfter);
    expect(named.length, `a full window with q=${limit} and t=${retryAfter} in ${r.headers.get("ratelimit")}`).toBeGreaterThan(0);
    expect(r.body?.error?.code).toBe("rate_limit_exceeded");
    expect(r.body.error.message).toMatch(new RegExp(` za ${sekundi(retryAfter)}\\.$`));
    expect(r.body.error.doc_url).toBe(`${PORTAL}/docs/rate-limits#odgovor-429`);
  } else {
    expect(r.status).toBe(200);
    expect(r.headers.get("retry-after")).toBeNull();
    expect([...windows.values()].some((w) => w.q === limit && w.r === remaining)).toBe(true);
    expect(remaining).toBe(Math.min(...[...windows.values()].map((w) => w.r)));
  }
}

/** A 429 refused by `policy` with limit `limit`: the X-RateLimit pair and Retry-After are that window's. */
function expectRefusedBy(r: CallResult, policy: string, limit: number): void {
  expect(r.status).toBe(429);
  const w = windowsOf(r).get(policy);
  expect(w, `window ${policy} in ${r.headers.get("ratelimit")}`).toBeDefined();
  expect(w!.q).toBe(limit);
  expect(w!.r).toBe(0);
  expect(r.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(w!.t).toBe(Number(r.headers.get("retry-after")));
}

const windowOf = (r: CallResult, policy: string): WindowField => {
  const w = windowsOf(r).get(policy);
  expect(w, `window ${policy} in ${r.headers.get("ratelimit")}`).toBeDefined();
  return w!;
};

// ---------------------------------------------------------------------------------------------
// The client: round-robin over the processes

interface Sent extends CallResult {
  /** performance.now() when the request was sent and when its answer was complete */
  sentAt: number;
  receivedAt: number;
}

const processes: ApiProcess[] = [];
let urls: string[] = [];
let db: Db;
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let turn = 0;

async function send(method: string, pathname: string, key: string, body?: unknown, base = urls[turn++ % urls.length]!): Promise<Sent> {
  const sentAt = performance.now();
  const r = await call(base, method, pathname, { key, body });
  const receivedAt = performance.now();
  checkHeaders(r);
  return { ...r, sentAt, receivedAt };
}

const oib = (key: string, base?: string) => send("POST", "/v1/validate/oib", key, { oib: VALID_OIB }, base);
const kpd = (key: string) => send("GET", "/v1/kpd/62.10.11", key);
const limitsOf = async (key: string) => {
  const r = await send("GET", "/v1/limits", key);
  expect(r.status).toBe(200);
  const window = (name: string) => r.body.windows.find((w: { name: string }) => w.name === name);
  const endpoint = (group: string) => r.body.endpoints.find((e: { group: string }) => e.group === group).window;
  return { body: r.body, window, endpoint };
};
const statuses = (rs: CallResult[]) => rs.map((r) => r.status);
const count = (rs: CallResult[], status: number) => rs.filter((r) => r.status === status).length;

async function account(plan: Plan, custom?: CustomLimits): Promise<{ id: string; key: string }> {
  const a = await createAccount(db, { name: "Instance d.o.o.", plan, custom });
  const k = await createApiKey(db, a.id, "instances");
  return { id: a.id, key: k.key };
}

/** Every process looks the key up once (a free call), so the counted requests find it cached. */
async function warmKey(key: string): Promise<void> {
  await Promise.all(urls.map((u) => send("GET", "/v1/limits", key, undefined, u)));
}

/** Opens enough connections to every process for the next burst of simultaneous requests. */
async function openConnections(n: number): Promise<void> {
  await Promise.all(Array.from({ length: n }, (_, i) => call(urls[i % urls.length]!, "GET", "/healthz")));
}

/** Sends `n` simultaneous batches spaced so that no burst window of `burst` overflows: ≤ burst per second. */
async function paced(n: number, batch: number, send1: () => Promise<Sent>): Promise<Sent[]> {
  const all: Sent[] = [];
  for (let sent = 0; sent < n; sent += batch) {
    if (sent > 0) await sleep(1_100);
    all.push(...(await Promise.all(Array.from({ length: Math.min(batch, n - sent) }, send1))));
  }
  return all;
}

// ---------------------------------------------------------------------------------------------

describe(`rate limits across ${INSTANCES} API processes on one Redis`, () => {
  const stopAll = () => killAll(processes);

  beforeAll(async () => {
    // the processes end with the test runner even if afterAll never runs
    process.once("exit", stopAll);
    buildApi();
    database = await createTestDatabase();
    db = createDb(database.url, { max: 4 });
    const prefix = `t-inst-${randomBytes(6).toString("hex")}`;
    for (let i = 0; i < INSTANCES; i++) {
      processes.push(
        startApiProcess({
          DATABASE_URL: database.url,
          REDIS_URL,
          RATE_LIMIT_PREFIX: prefix,
          HOST: "127.0.0.1",
          PORTAL_URL: PORTAL,
          LOG_LEVEL: "silent",
          NODE_ENV: "production",
        }),
      );
    }
    await Promise.all(processes.map((p) => waitState(p, "ok (redis)", 45_000)));
    urls = processes.map((p) => p.url);
    // warm every process (code paths, key cache, script cache) on an account no limit refuses
    const warm = await account("ENTERPRISE", { burst: 10_000, perMinute: 50_000, perDay: 1_000_000, endpoints: { oib: 50_000, kpd: 50_000 } });
    await warmKey(warm.key);
    for (let round = 0; round < 4; round++) {
      const rs = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? kpd(warm.key) : oib(warm.key))));
      expect(statuses(rs).every((s) => s === 200)).toBe(true);
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map(stopProcess));
    process.removeListener("exit", stopAll);
    await db?.$disconnect();
    await database?.drop();
  }, 30_000);

  it("admits exactly the burst out of 200 simultaneous requests spread over the processes, 20 times over", async () => {
    const burst = 50;
    const perMinute = 10_000;
    const perDay = 100_000;
    for (let repetition = 0; repetition < 20; repetition++) {
      // the precondition, retried on a fresh account: all 200 answered within one second, so all
      // were decided inside one rolling second
      const { key, responses } = await timely(async () => {
        const a = await account("ENTERPRISE", { burst, perMinute, perDay });
        await warmKey(a.key);
        await openConnections(200);
        const started = performance.now();
        const responses = await Promise.all(Array.from({ length: 200 }, () => oib(a.key)));
        return { spanMs: performance.now() - started, result: { key: a.key, responses } };
      }, 1_000);
      expect(count(responses, 200), `admitted in repetition ${repetition + 1}`).toBe(burst);
      expect(count(responses, 429)).toBe(200 - burst);
      for (const r of responses.filter((x) => x.status === 429)) {
        expectRefusedBy(r, "burst", burst);
        expect(r.headers.get("retry-after")).toBe("1");
        expect(r.body.error.message).toMatch(/ za 1 sekundu\.$/);
        expect(windowOf(r, "minute").r).toBeGreaterThan(0);
        expect(windowOf(r, "day").r).toBeGreaterThan(0);
      }
      // the 150 refusals took nothing
      const after = await limitsOf(key);
      expect(after.window("minute").remaining).toBe(perMinute - burst);
      expect(after.window("day").remaining).toBe(perDay - burst);
      expect(after.endpoint("oib").remaining).toBe(300 - burst);
    }
  }, 90_000);

  describe("refused requests take nothing", () => {
    it("burst refusals never reach the day: 40 at once on burst 10, day 25", async () => {
      const { key, responses } = await timely(async () => {
        const a = await account("ENTERPRISE", { burst: 10, perMinute: 1_000, perDay: 25 });
        await warmKey(a.key);
        await openConnections(40);
        const started = performance.now();
        const responses = await Promise.all(Array.from({ length: 40 }, () => oib(a.key)));
        return { spanMs: performance.now() - started, result: { key: a.key, responses } };
      }, 1_000);
      expect(count(responses, 200)).toBe(10);
      expect(count(responses, 429)).toBe(30);
      for (const r of responses.filter((x) => x.status === 429)) {
        expectRefusedBy(r, "burst", 10);
        expect(r.headers.get("retry-after")).toBe("1");
        // never the day: it still has room
        expect(windowOf(r, "day").r).toBeGreaterThanOrEqual(15);
      }
      const after = await limitsOf(key);
      expect(after.window("day").remaining).toBe(15);
      expect(after.window("minute").remaining).toBe(1_000 - 10);
    });

    it("endpoint refusals never reach the day: 20 refused KPD requests and 5 OIB requests on the last 5 of the day", async () => {
      const a = await account("ENTERPRISE", { burst: 1_000, perMinute: 1_000, perDay: 25, endpoints: { kpd: 20 } });
      await warmKey(a.key);
      const first = await Promise.all(Array.from({ length: 20 }, () => kpd(a.key)));
      expect(statuses(first).every((s) => s === 200)).toBe(true);
      expect((await limitsOf(a.key)).window("day").remaining).toBe(5);

      const mixed = await Promise.all(Array.from({ length: 25 }, (_, i) => (i % 5 === 0 ? oib(a.key) : kpd(a.key))));
      const oibs = mixed.filter((_, i) => i % 5 === 0);
      const kpds = mixed.filter((_, i) => i % 5 !== 0);
      expect(statuses(oibs)).toEqual([200, 200, 200, 200, 200]);
      expect(count(kpds, 429)).toBe(20);
      for (const r of kpds) {
        expect(windowOf(r, "endpoint:kpd")).toMatchObject({ q: 20, r: 0 });
        // refused by the KPD limit, or by the day once the five OIB requests had filled it
        if (windowOf(r, "day").r > 0) expectRefusedBy(r, "endpoint:kpd", 20);
        else expect(r.headers.get("x-ratelimit-limit")).toMatch(/^(20|25)$/);
      }
      const after = await limitsOf(a.key);
      expect(after.window("day").remaining).toBe(0);
      expect(after.window("minute").remaining).toBe(1_000 - 25);
      expect(after.endpoint("oib").remaining).toBe(300 - 5);
      // and now the day refuses, until 00:00 UTC
      const refused = await oib(a.key);
      expectRefusedBy(refused, "day", 25);
      const untilMidnight = (Math.floor(Date.now() / 86_400_000) + 1) * 86_400_000 - Date.now();
      expect(Math.abs(Number(refused.headers.get("retry-after")) - untilMidnight / 1000)).toBeLessThanOrEqual(2);
    });

    it("endpoint refusals never reach the minute, and minute refusals never reach the day", async () => {
      const a = await account("ENTERPRISE", { burst: 1_000, perMinute: 30, perDay: 1_000, endpoints: { kpd: 10 } });
      await warmKey(a.key);
      const first = await Promise.all(Array.from({ length: 10 }, () => kpd(a.key)));
      expect(statuses(first).every((s) => s === 200)).toBe(true);

      // 40 KPD requests refused by their endpoint limit beside the 20 OIB requests the minute has room for
      const mixed = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? oib(a.key) : kpd(a.key))));
      const oibs = mixed.filter((_, i) => i % 3 === 0);
      const kpds = mixed.filter((_, i) => i % 3 !== 0);
      expect(count(oibs, 200)).toBe(20);
      expect(count(kpds, 429)).toBe(40);
      for (const r of kpds) {
        expect(windowOf(r, "endpoint:kpd")).toMatchObject({ q: 10, r: 0 });
        if (windowOf(r, "minute").r > 0) expectRefusedBy(r, "endpoint:kpd", 10);
      }

      // the minute is full now: every further request names it, whatever its endpoint
      const more = await Promise.all(Array.from({ length: 10 }, () => oib(a.key)));
      for (const r of more) {
        expectRefusedBy(r, "minute", 30);
        expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(55);
        expect(windowOf(r, "day").r).toBe(1_000 - 30);
        expect(windowOf(r, "endpoint:oib").r).toBe(300 - 20);
      }
      const after = await limitsOf(a.key);
      expect(after.window("minute").remaining).toBe(0);
      expect(after.window("day").remaining).toBe(1_000 - 30);
      expect(after.endpoint("kpd").remaining).toBe(0);
      expect(after.endpoint("oib").remaining).toBe(300 - 20);
    });

    it("endpoint refusals never reach the burst", async () => {
      const { key, first, mixed, more } = await timely(async () => {
        const a = await account("ENTERPRISE", { burst: 10, perMinute: 1_000, perDay: 1_000, endpoints: { kpd: 5 } });
        await warmKey(a.key);
        await openConnections(35);
        const started = performance.now();
        const first = await Promise.all(Array.from({ length: 5 }, () => kpd(a.key)));
        // 30 KPD requests refused by their endpoint limit beside 5 OIB requests, in the same second
        const mixed = await Promise.all(Array.from({ length: 35 }, (_, i) => (i % 7 === 0 ? oib(a.key) : kpd(a.key))));
        const more = await Promise.all(Array.from({ length: 5 }, () => oib(a.key)));
        return { spanMs: performance.now() - started, result: { key: a.key, first, mixed, more } };
      }, 1_000);
      expect(statuses(first)).toEqual([200, 200, 200, 200, 200]);
      const oibs = mixed.filter((_, i) => i % 7 === 0);
      const kpds = mixed.filter((_, i) => i % 7 !== 0);
      expect(statuses(oibs)).toEqual([200, 200, 200, 200, 200]);
      expect(count(kpds, 429)).toBe(30);
      for (const r of kpds) {
        expect(windowOf(r, "endpoint:kpd")).toMatchObject({ q: 5, r: 0 });
        if (windowOf(r, "burst").r > 0) expectRefusedBy(r, "endpoint:kpd", 5);
      }
      // the burst holds the 5 + 5 admitted: the next ones in that second are refused by it
      for (const r of more) {
        expectRefusedBy(r, "burst", 10);
        expect(r.headers.get("retry-after")).toBe("1");
      }
      const after = await limitsOf(key);
      expect(after.window("minute").remaining).toBe(1_000 - 10);
      expect(after.window("day").remaining).toBe(1_000 - 10);
      expect(after.endpoint("kpd").remaining).toBe(0);
      expect(after.endpoint("oib").remaining).toBe(300 - 5);
    });
  });

  describe("Retry-After and t", () => {
    /**
     * Bounds on the whole seconds a refusing window names: its oldest request was decided between
     * `oldest.sentAt` and `oldest.receivedAt`, the refusal between `refused.sentAt` and `refused.receivedAt`.
     */
    const expectRetryAfterWithin = (refused: Sent, oldest: Sent, windowMs: number) => {
      const retryAfter = Number(refused.headers.get("retry-after"));
      const earliest = Math.max(1, Math.ceil((oldest.sentAt + windowMs - refused.receivedAt) / 1000));
      const latest = Math.max(1, Math.ceil((oldest.receivedAt + windowMs - refused.sentAt) / 1000));
      expect(retryAfter).toBeGreaterThanOrEqual(earliest);
      expect(retryAfter).toBeLessThanOrEqual(latest);
      return retryAfter;
    };

    it("admits a client that waits exactly Retry-After after a burst refusal", async () => {
      const { key, admitted, refused } = await timely(async () => {
        const a = await account("ENTERPRISE", { burst: 3, perMinute: 1_000, perDay: 10_000 });
        await warmKey(a.key);
        const admitted: Sent[] = [];
        for (let i = 0; i < 3; i++) admitted.push(await oib(a.key));
        await sleep(300);
        const refused = await oib(a.key);
        return { spanMs: refused.receivedAt - admitted[0]!.sentAt, result: { key: a.key, admitted, refused } };
      }, 1_000);
      expect(statuses(admitted)).toEqual([200, 200, 200]);
      expectRefusedBy(refused, "burst", 3);
      const retryAfter = expectRetryAfterWithin(refused, admitted[0]!, 1_000);
      expect(retryAfter).toBe(1);
      expect(windowOf(refused, "burst").t).toBe(retryAfter);
      await sleep(refused.receivedAt + retryAfter * 1000 - performance.now());
      const retry = await oib(key);
      expect(retry.status).toBe(200);
    });

    // The minute's Retry-After (a 60 s window) is checked on the limiter's test clock, with exact
    // figures and without waiting a minute: retry-after-clock.test.ts.

    it("gives t = 60 for the minute on the second of two requests 300 ms apart", async () => {
      const { firstResponse, second } = await timely(async () => {
        const a = await account("SANDBOX");
        await warmKey(a.key);
        const firstResponse = await oib(a.key);
        await sleep(300);
        const second = await oib(a.key);
        return { spanMs: second.receivedAt - firstResponse.sentAt, result: { firstResponse, second } };
      }, 1_000);
      expect(firstResponse.status).toBe(200);
      expect(second.status).toBe(200);
      expect(windowOf(firstResponse, "minute")).toEqual({ q: 60, w: 60, r: 59, t: 60 });
      expect(windowOf(firstResponse, "burst")).toEqual({ q: 10, w: 1, r: 9, t: 1 });
      // the first request leaves the minute 59.7 s after the second, rounded up: 60, never more
      expect(windowOf(second, "minute")).toEqual({ q: 60, w: 60, r: 58, t: 60 });
      expect(windowOf(second, "burst")).toEqual({ q: 10, w: 1, r: 8, t: 1 });
      expect(windowOf(second, "endpoint:oib")).toEqual({ q: 300, w: 60, r: 298, t: 60 });
      expect(windowOf(second, "day").r).toBe(10_000 - 2);
      // the binding window on admit: the fewest remaining
      expect(second.headers.get("x-ratelimit-limit")).toBe("10");
      expect(second.headers.get("x-ratelimit-remaining")).toBe("8");
    });
  });

  it("applies a plan change announced mid-window to the next request on every process", async () => {
    const a = await account("SANDBOX");
    await warmKey(a.key);
    // 60 in the minute, under the burst of 10
    const sandbox = await paced(60, 10, () => oib(a.key));
    expect(count(sandbox, 200)).toBe(60);
    await sleep(1_100);
    const full = await oib(a.key);
    expectRefusedBy(full, "minute", 60);

    // Each process is asked until it judges by the new plan; until then it refuses by the full
    // minute and takes nothing. PostgreSQL announces the change; it must land within 500 ms.
    const judgeByNewPlan = async (isNew: (r: Sent) => boolean, isOld: (r: Sent) => void) => {
      const changedAt = performance.now();
      return Promise.all(
        urls.map(async (base) => {
          while (performance.now() - changedAt < 500) {
            const r = await oib(a.key, base);
            if (isNew(r)) return r;
            isOld(r);
            await sleep(5);
          }
          throw new Error(`${base} still judged by the old plan 500 ms after the change`);
        }),
      );
    };

    await setPlan(db, a.id, "STARTER");
    const upgraded = await judgeByNewPlan(
      (r) => windowOf(r, "minute").q === 120,
      (r) => expectRefusedBy(r, "minute", 60),
    );
    for (const r of upgraded) {
      expect(r.status).toBe(200);
      expect(r.headers.get("ratelimit-policy")).toContain('"burst";q=20;w=1, "minute";q=120;w=60');
    }
    // 60 more in the minute, under the burst of 20: the 4 above, then 20, 20 and 16 of 20
    await sleep(1_100);
    const starter = await paced(60, 20, () => oib(a.key));
    expect(count(starter, 200) + upgraded.length).toBe(60);
    expect(count(starter.slice(0, 40), 200)).toBe(40);
    for (const r of starter.filter((x) => x.status === 429)) expectRefusedBy(r, "minute", 120);
    await sleep(1_100);
    expectRefusedBy(await oib(a.key), "minute", 120);

    await setPlan(db, a.id, "SANDBOX");
    const downgraded = await judgeByNewPlan(
      (r) => windowOf(r, "minute").q === 60,
      (r) => expectRefusedBy(r, "minute", 120),
    );
    for (const r of downgraded) expectRefusedBy(r, "minute", 60);
    const after = await limitsOf(a.key);
    expect(after.window("minute")).toMatchObject({ limit: 60, remaining: 0 });
    expect(after.window("day").remaining).toBe(10_000 - 120);
  }, 90_000);
});
