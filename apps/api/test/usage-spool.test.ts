// Usage survives a stop: the production process (the `start` script's bundle) appends every metered
// request to its spool within milliseconds, and the next start on this host counts what was not
// flushed — after a kill -9 under load, and after a SIGTERM while the database is unreachable (cut by
// a TCP proxy inside this test). Answers are compared by request id with "UsageEvent" and with the
// hourly counts in "UsageHour".
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { buildApi, startApiProcess, waitState, type ApiProcess } from "./api-process.ts";
import { PORTAL, REDIS_URL, VALID_OIB } from "./harness.ts";

/** The spool appends every 5 ms: an answer this long before a kill is in the spool. */
const SPOOLED_WITHIN_MS = 50;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TCP proxy to PostgreSQL that the test can cut (open connections reset, new ones refused) and restore. */
async function startDbProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore() {
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const started: ApiProcess[] = [];

/** A production process on the shared Redis with the usage spool (and the rest of `env`) of the test. */
async function startApi(env: Record<string, string>): Promise<ApiProcess> {
  const p = startApiProcess({ REDIS_URL, HOST: "127.0.0.1", PORTAL_URL: PORTAL, LOG_LEVEL: "warn", NODE_ENV: "production", WEBHOOK_WORKER: "0", LATE_DELIVERY_INTERVAL_MS: "0", ...env });
  started.push(p);
  await waitState(p, "ok (redis)", 45_000);
  return p;
}

function exited(p: ApiProcess): Promise<void> {
  return p.child.exitCode !== null || p.child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => p.child.once("exit", () => resolve()));
}

/** One POST /v1/validate/oib on a keep-alive agent: the X-Request-Id of its answer and when it arrived, or null. */
function oib(agent: Agent, url: string, key: string): Promise<{ id: string; status: number; at: number } | null> {
  const body = JSON.stringify({ oib: VALID_OIB });
  return new Promise((resolve) => {
    const req = request(
      `${url}/v1/validate/oib`,
      { method: "POST", agent, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ id: String(res.headers["x-request-id"]), status: res.statusCode ?? 0, at: performance.now() }));
        res.on("error", () => resolve(null));
      },
    );
    req.on("error", () => resolve(null));
    req.end(body);
  });
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let dataDir: string;

beforeAll(async () => {
  buildApi();
  database = await createTestDatabase();
  db = createDb(database.url, { max: 2 });
  dataDir = await mkdtemp(path.join(tmpdir(), "fiskal-usage-spool-"));
}, 120_000);

afterAll(async () => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
  await Promise.all(started.map(exited));
  await db?.$disconnect();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 30_000);

async function newKey(): Promise<{ accountId: string; key: string }> {
  const account = await createAccount(db, { name: `spool ${randomBytes(3).toString("hex")}`, plan: "ENTERPRISE", custom: { burst: 10_000, perMinute: 100_000, perDay: 1_000_000, endpoints: { oib: 100_000 } } });
  return { accountId: account.id, key: (await createApiKey(db, account.id, "load")).key };
}

async function counted(accountId: string): Promise<{ ids: Set<string>; rows: number; hourly: number }> {
  const events = await db.$queryRaw<{ requestId: string }[]>`SELECT "requestId" FROM "UsageEvent" WHERE "accountId" = ${accountId}::uuid`;
  const [hour] = await db.$queryRaw<{ n: number | null }[]>`SELECT sum(requests)::int AS n FROM "UsageHour" WHERE "accountId" = ${accountId}::uuid`;
  return { ids: new Set(events.map((e) => e.requestId)), rows: events.length, hourly: hour?.n ?? 0 };
}

describe("usage survives a stop of the API process", () => {
  it("kill -9 under load, restart: every answered request counted once, in the log and the hourly counts", async () => {
    const { accountId, key } = await newKey();
    const env = { DATABASE_URL: database.url, RATE_LIMIT_PREFIX: `t-spool-${randomBytes(4).toString("hex")}`, FISKAL_DATA_DIR: dataDir };
    const api = await startApi(env);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const answers: { id: string; status: number; at: number }[] = [];
    let stop = false;
    const loops = Array.from({ length: 8 }, async () => {
      while (!stop) {
        const r = await oib(agent, api.url, key);
        if (r === null) return;
        answers.push(r);
      }
    });
    // Long enough for flushes (every second) and for records after the last one.
    await sleep(2_500);
    const killedAt = performance.now();
    api.child.kill("SIGKILL");
    await exited(api);
    stop = true;
    await Promise.all(loops);
    agent.destroy();
    expect(answers.length).toBeGreaterThan(500);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);

    const before = await counted(accountId);
    const settled = answers.filter((a) => a.at <= killedAt - SPOOLED_WITHIN_MS);
    const lostBefore = settled.filter((a) => !before.ids.has(a.id)).length;

    // The next start counts the dead process's spool before it serves.
    const again = await startApi(env);
    const after = await counted(accountId);
    const missing = settled.filter((a) => !after.ids.has(a.id));
    expect(missing.map((a) => a.id)).toEqual([]);
    expect(after.rows).toBe(after.ids.size); // nothing twice
    expect(after.hourly).toBe(after.rows);
    // Nothing the clients were not answered, beyond the requests in flight at the kill.
    const answered = new Set(answers.map((a) => a.id));
    expect([...after.ids].filter((id) => !answered.has(id)).length).toBeLessThanOrEqual(8);
    // Without the spool, those not counted before the restart would have been lost (the meter flushes once a second).
    console.info(
      `kill -9: ${answers.length} answered, ${before.rows} counted before the restart (${lostBefore} answered ones only in the spool), ${after.rows} after; ` +
        `${answers.length - answers.filter((a) => after.ids.has(a.id)).length} answered in the last ${SPOOLED_WITHIN_MS} ms not counted`,
    );
    again.child.kill("SIGTERM");
    await exited(again);
    expect(await readdir(path.join(dataDir, "usage-spool")).then((dirs) => Promise.all(dirs.map((d) => readdir(path.join(dataDir, "usage-spool", d)))))).toEqual([[]]);
  }, 120_000);

  it("SIGTERM while the database is unreachable loses nothing: counted once the database is back and the API restarted", async () => {
    const { accountId, key } = await newKey();
    const target = new URL(database.url);
    const proxy = await startDbProxy({ host: target.hostname, port: Number(target.port || 5432) });
    try {
      const viaProxy = new URL(database.url);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      const env = { DATABASE_URL: viaProxy.toString(), RATE_LIMIT_PREFIX: `t-spool-${randomBytes(4).toString("hex")}`, FISKAL_DATA_DIR: dataDir };
      const api = await startApi(env);
      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      const answers: { id: string; status: number }[] = [];
      for (let i = 0; i < 20; i++) answers.push((await oib(agent, api.url, key))!);
      await sleep(1_200); // flushed
      proxy.cut();
      // The key is still in the cache (5 s): OIB checks are answered without the database.
      for (let i = 0; i < 59; i++) answers.push((await oib(agent, api.url, key))!);
      agent.destroy();
      expect(answers.map((a) => a.status)).toEqual(Array(79).fill(200));
      expect((await counted(accountId)).rows).toBe(20);

      api.child.kill("SIGTERM");
      await exited(api);
      expect((await counted(accountId)).rows).toBe(20);

      proxy.restore();
      const again = await startApi(env);
      const after = await counted(accountId);
      expect(after.ids).toEqual(new Set(answers.map((a) => a.id)));
      expect(after.rows).toBe(79);
      expect(after.hourly).toBe(79);
      again.child.kill("SIGTERM");
      await exited(again);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
