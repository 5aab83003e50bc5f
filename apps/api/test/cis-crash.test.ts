// Issue 23, item 2: a receipt in flight when its process dies is fiscalized all the same, by any
// instance. Two API processes (started here, each with its own data folder — its own "disk") on one
// database and the shared Redis, against the local CIS, which records every request:
// - an instance killed (SIGKILL) while CIS holds its 10 calls: the other instance delivers the 10
//   receipts late (NakDost) once their lease ends; each has exactly one JIR, the one stored;
// - an instance killed while it stores the JIR CIS gave it (its database connection frozen by a
//   proxy here): the other instance stores that same JIR from the shared journal, and CIS is not
//   called again;
// - `pnpm fiskal receipts backlog` lists what waits, with its deadline; `receipts resolve` delivers
//   one at once.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { startLocalCis, type LocalCis, type LocalCisRequest } from "@fiskal/fiscal/testing/local-cis";
import { run as cli } from "../src/cli.ts";
import { startApiProcess, waitReady } from "./api-process.ts";
import { call, REDIS_URL, VALID_OIB } from "./harness.ts";

const CIS_TIMEOUT_MS = 2_500;
const CIS_CONNECT_TIMEOUT_MS = 500;
/** callLeaseMs of these settings (tax-authority.ts): connect + 2 × the call + 5 s. */
const LEASE_MS = CIS_CONNECT_TIMEOUT_MS + 2 * CIS_TIMEOUT_MS + 5_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TCP proxy that can freeze its connections: bytes stop flowing both ways, nothing is closed. */
async function startFreezableProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let frozen = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (d) => (frozen ? undefined : upstream.write(d)));
    upstream.on("data", (d) => (frozen ? undefined : client.write(d)));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze() {
      frozen = true;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Instance {
  name: string;
  child: ChildProcess;
  url: string;
  output: string[];
  dataDir: string;
}

let cis: LocalCis;
let dbHandle: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let redis: Redis;
let work: string;
let key: string;
let accountId: string;
const prefix = `t${randomBytes(6).toString("hex")}`;
const certKey = randomBytes(32).toString("base64");
const instances: Instance[] = [];
let proxy: Awaited<ReturnType<typeof startFreezableProxy>>;

function baseEnv(dataDir: string): Record<string, string> {
  return {
    REDIS_URL,
    RATE_LIMIT_PREFIX: prefix,
    FISKAL_DATA_DIR: dataDir,
    CERT_ENCRYPTION_KEY: certKey,
    CIS_URL: cis.url,
    CIS_CA_FILE: path.join(work, "cis-ca.pem"),
    CIS_SIGNER_CA_FILE: path.join(work, "cis-ca.pem"),
    CIS_SIGNER_NAMES: "fiskalcistest",
    CIS_TIMEOUT_MS: String(CIS_TIMEOUT_MS),
    CIS_CONNECT_TIMEOUT_MS: String(CIS_CONNECT_TIMEOUT_MS),
    LATE_DELIVERY_INTERVAL_MS: "500",
    PORTAL_URL: "http://portal.test",
    LOG_LEVEL: "info",
  };
}

async function startInstance(name: string, databaseUrl: string): Promise<Instance> {
  const dataDir = await mkdtemp(path.join(work, `${name}-`));
  const p = startApiProcess({ ...baseEnv(dataDir), DATABASE_URL: databaseUrl, HOST: "127.0.0.1" }, { source: true, keep: 400 });
  const instance: Instance = { name, child: p.child, url: "", output: p.output, dataDir };
  instances.push(instance);
  await waitReady(p, 60_000);
  instance.url = p.url;
  return instance;
}

async function kill(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => instance.child.once("exit", () => resolve()));
  instance.child.kill("SIGKILL");
  await exited;
}

beforeAll(async () => {
  cis = await startLocalCis();
  work = await mkdtemp(path.join(tmpdir(), "fiskal-cis-crash-"));
  await writeFile(path.join(work, "cis-ca.pem"), cis.caPem);
  dbHandle = await createTestDatabase();
  db = createDb(dbHandle.url, { max: 4 });
  redis = new Redis(REDIS_URL);
  const account = await createAccount(db, {
    name: "Pad d.o.o.",
    plan: "ENTERPRISE",
    custom: { burst: 1_000, perMinute: 10_000, perDay: 100_000, endpoints: { fiscalize: 10_000 } },
  });
  accountId = account.id;
  key = (await createApiKey(db, account.id, "crash")).key;
  const target = new URL(dbHandle.url);
  proxy = await startFreezableProxy({ host: target.hostname, port: Number(target.port || 5432) });
}, 120_000);

afterAll(async () => {
  for (const i of instances) await kill(i);
  await proxy?.close();
  await cis?.close();
  const journalKeys = await redis?.keys(`${prefix}:*`);
  if (journalKeys?.length) await redis.del(...journalKeys);
  redis?.disconnect();
  await db?.$disconnect();
  await dbHandle?.drop();
  if (work) await rm(work, { recursive: true, force: true });
});

let receiptNo = 1;
const receipt = () => ({
  oib: VALID_OIB,
  issued_at: new Date(Date.now() - 60_000).toISOString(),
  number: String(receiptNo++),
  premises: "PAD1",
  device: "1",
  total: "125.00",
  payment_method: "K",
  operator_oib: "94577403194",
  vat_registered: true,
  sequence: "P",
  vat: [{ rate: "25", base: "100.00", amount: "25.00" }],
});

const numberOf = (r: LocalCisRequest) => /<tns:BrOznRac>(\d+)</.exec(r.racunZahtjev)?.[1];
const nakDost = (r: LocalCisRequest) => r.racunZahtjev.includes("<tns:NakDost>true</tns:NakDost>");
const sentFor = (numbers: string[]) => cis.requests.filter((r) => r.kind === "cis" && numbers.includes(numberOf(r) ?? ""));

async function until<T>(probe: () => Promise<T | null | undefined | false>, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(100);
  }
}

/** The 10 receipts each have exactly one JIR: the one CIS answered and the one stored. */
async function expectOneJirEach(numbers: string[], ids: string[]) {
  const rows = await db.invoice.findMany({ where: { id: { in: ids } } });
  expect(rows).toHaveLength(numbers.length);
  for (const row of rows) {
    const sent = sentFor([row.number]);
    const answered = sent.filter((r) => r.jir);
    expect(row.status, row.number).toBe("fiscalized");
    expect(answered.map((r) => r.jir), row.number).toEqual([row.jir]);
    // nothing went to CIS twice without NakDost
    expect(sent.filter((r) => !nakDost(r)).length, row.number).toBeLessThanOrEqual(1);
  }
}

/**
 * Exactly one JIR stored per receipt, the one of its last answered send, and nothing sent twice
 * without NakDost. An answer CIS gave to a process killed before it could journal it is lost with
 * the process; the receipt is then delivered late (NakDost) and the later JIR is the one kept.
 */
async function expectOneJirStored(ids: string[]) {
  const rows = await db.invoice.findMany({ where: { id: { in: ids } } });
  expect(rows).toHaveLength(ids.length);
  for (const row of rows) {
    const sent = sentFor([row.number]);
    const answered = sent.filter((r) => r.jir);
    expect(row.status, row.number).toBe("fiscalized");
    expect(answered.length, row.number).toBeGreaterThan(0);
    expect(row.jir, row.number).toBe(answered.at(-1)?.jir);
    expect(sent.filter((r) => !nakDost(r)).length, row.number).toBeLessThanOrEqual(1);
  }
}

describe("an API instance killed with receipts in flight", () => {
  it("during the CIS call: another instance delivers all 10 late (NakDost), exactly one JIR each; the CLI lists and resolves the backlog", async () => {
    const a = await startInstance("a", dbHandle.url);
    const b = await startInstance("b", dbHandle.url);
    // the account's certificate is created by its first receipt: once, before the crash
    const warm = await call(a.url, "POST", "/v1/invoices/fiscalize", { key, body: receipt() });
    expect(warm.status, warm.text).toBe(200);

    cis.setMode({ kind: "timeout" });
    const bodies = Array.from({ length: 10 }, receipt);
    const numbers = bodies.map((r) => r.number);
    const keys = numbers.map((n) => `crash-${n}-${randomBytes(3).toString("hex")}`);
    const inflight = bodies.map((body, i) => call(a.url, "POST", "/v1/invoices/fiscalize", { key, body, headers: { "idempotency-key": keys[i]! } }).catch((err: unknown) => err));
    await until(async () => sentFor(numbers).length === 10, "CIS holds all 10 calls", 20_000);
    await kill(a);
    cis.setMode({ kind: "check" });
    for (const r of await Promise.all(inflight)) expect(r).toBeInstanceOf(Error);

    const pending = await db.invoice.findMany({ where: { accountId, number: { in: numbers } } });
    expect(pending.map((r) => r.status)).toEqual(Array(10).fill("pending"));
    const ids = pending.map((r) => r.id);

    // Until its lease ends the receipt is the dead call's: nobody sends it yet. The backlog shows it.
    const operator = async (...args: string[]) => {
      const lines: string[] = [];
      const saved = { ...process.env };
      Object.assign(process.env, baseEnv(await mkdtemp(path.join(work, "cli-"))), { DATABASE_URL: dbHandle.url, LOG_LEVEL: "silent" });
      try {
        const code = await cli([...args, "--json"], (l) => lines.push(l));
        return { code, out: JSON.parse(lines.join("\n")) };
      } finally {
        for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
        Object.assign(process.env, saved);
      }
    };
    const backlog = (await operator("receipts", "backlog", "--account", accountId)).out as { id: string; state: string; deadline: string; pastDeadline: boolean }[];
    expect(new Set(backlog.map((e) => e.id))).toEqual(new Set(ids));
    for (const e of backlog) {
      expect(["in_flight", "due", "scheduled"]).toContain(e.state);
      expect(new Date(e.deadline).getTime()).toBeGreaterThan(Date.now() + 24 * 3_600_000);
      expect(e.pastDeadline).toBe(false);
    }
    // The operator resolves one at once (--force: its lease has not ended yet): delivered with NakDost.
    const resolved = await operator("receipts", "resolve", "--id", ids[0]!, "--force");
    expect(resolved.code).toBe(0);
    expect(resolved.out.delivered).toBe(1);
    expect(resolved.out.backlog.map((e: { id: string }) => e.id)).not.toContain(ids[0]);
    expect(await db.invoice.findUniqueOrThrow({ where: { id: ids[0] } })).toMatchObject({ status: "fiscalized", lateDelivery: true });

    // Instance b takes them over once the lease ends, and sends each with NakDost.
    await until(async () => (await db.invoice.count({ where: { id: { in: ids }, status: "fiscalized" } })) === 10, "b delivered all 10", LEASE_MS + 30_000);
    await expectOneJirEach(numbers, ids);
    for (const n of numbers) {
      const sent = sentFor([n]);
      expect(sent.filter((r) => !nakDost(r))).toHaveLength(1); // the call a made
      expect(sent.filter((r) => r.jir).every(nakDost)).toBe(true);
    }
    // The clients' keys replay the late-delivered answer on any instance.
    for (let i = 0; i < 10; i++) {
      const replay = await call(b.url, "POST", "/v1/invoices/fiscalize", { key, body: bodies[i], headers: { "idempotency-key": keys[i]! } });
      expect(replay.status, replay.text).toBe(200);
      expect(replay.body).toMatchObject({ id: pending.find((r) => r.number === numbers[i])!.id, status: "fiscalized", late_delivery: true });
    }
    await kill(b);
  }, 180_000);

  it("during the store of the JIR: another instance stores that same JIR from the shared journal; CIS is not called again", async () => {
    const c = await startInstance("c", `postgresql://${new URL(dbHandle.url).username}:${new URL(dbHandle.url).password}@127.0.0.1:${proxy.port}${new URL(dbHandle.url).pathname}`);
    const bodies = Array.from({ length: 10 }, receipt);
    const numbers = bodies.map((r) => r.number);
    // The first JIR leaves CIS only once c's database connections are frozen: its store hangs.
    cis.beforeAnswer((record) => {
      if (numbers.includes(numberOf(record) ?? "")) proxy.freeze();
    });
    const inflight = bodies.map((body) => call(c.url, "POST", "/v1/invoices/fiscalize", { key, body }).catch((err: unknown) => err));
    // c has the answers (the shared journal holds them) but cannot store them.
    const hash = async () => {
      const keys = await redis.keys(`${prefix}:journal:*`);
      const all = await Promise.all(keys.map((k) => redis.hgetall(k)));
      return all.flatMap((h) => Object.values(h).map((v) => JSON.parse(v) as { kind: string; id: string; jir: string }));
    };
    const journaled = await until(async () => {
      const entries = await hash();
      const answered = sentFor(numbers).filter((r) => r.jir).length;
      return answered > 0 && entries.length >= answered ? entries : null;
    }, "c journaled the JIRs it got", 30_000);
    cis.beforeAnswer(null);
    await kill(c);
    void Promise.all(inflight);
    const answeredBeforeKill = sentFor(numbers).filter((r) => r.jir);
    expect(answeredBeforeKill.length).toBeGreaterThan(0);

    const d = await startInstance("d", dbHandle.url);
    const ids = journaled.map((e) => e.id);
    await until(async () => (await db.invoice.count({ where: { id: { in: ids }, status: "fiscalized" } })) === ids.length, "d stored the journaled JIRs", 30_000);
    for (const e of journaled) {
      const row = await db.invoice.findUniqueOrThrow({ where: { id: e.id } });
      expect(row.jir).toBe(e.jir);
      // the instance answers with it too
      const got = await call(d.url, "GET", `/v1/invoices/${e.id}`, { key });
      expect(got.body).toMatchObject({ id: e.id, status: "fiscalized", jir: e.jir });
      // and CIS got that receipt once: no second call at all
      expect(sentFor([row.number])).toHaveLength(1);
    }
    expect(await hash()).toEqual([]);
    // The rest (calls c made before it was killed that brought no JIR back) are delivered late once.
    const all = await db.invoice.findMany({ where: { accountId, number: { in: numbers } } });
    await until(async () => (await db.invoice.count({ where: { id: { in: all.map((r) => r.id) }, status: "fiscalized" } })) === all.length, "d delivered the rest", LEASE_MS + 30_000);
    await expectOneJirStored(all.map((r) => r.id));
    await kill(d);
  }, 180_000);
});
