// Issue 23, item 1: a 503 says nothing happened, so it never blocks the Idempotency-Key or the
// receipt number. 150 POST /v1/invoices/fiscalize per second (plus e-invoices), each with its own
// key, while a TCP proxy inside this test cuts the API's database connections for 1 s, 20 times.
// Afterwards: no key and no receipt is stuck, every 503'd key succeeds on retry, every 504
// (outcome_unknown) is resolved by itself, every receipt has its JIR, and nothing reached CIS twice
// without NakDost.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { startApi, type RunningApi } from "../src/app.ts";
import { call, PORTAL, REDIS_URL, VALID_OIB, type CallResult } from "./harness.ts";

const CUTS = Number(process.env.FISKAL_CUTS ?? 20);
const CUT_MS = 1_000;
const BETWEEN_MS = 1_000;
const RATE = 150;
const EINVOICE_RATE = 5;
const LEASE_MS = 4_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TCP proxy to PostgreSQL that can cut every connection and refuse new ones for a while. */
interface Proxy {
  port: number;
  cut(ms: number): Promise<void>;
  close(): Promise<void>;
  cuts: number;
}

async function startProxy(target: { host: string; port: number }): Promise<Proxy> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxy: Proxy = {
    port: (server.address() as net.AddressInfo).port,
    cuts: 0,
    async cut(ms) {
      down = true;
      proxy.cuts++;
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      pairs.clear();
      await sleep(ms);
      down = false;
    },
    async close() {
      down = true;
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}

let dbHandle: Awaited<ReturnType<typeof createTestDatabase>>;
let direct: Db;
let proxy: Proxy;
let api: RunningApi;
let journalDir: string;
let key: string;
let accountId: string;
/** Every call that reached the tax authority: receipt number and NakDost. */
const cisSent: { number: string; nakDost: boolean }[] = [];

beforeAll(async () => {
  dbHandle = await createTestDatabase();
  direct = createDb(dbHandle.url, { max: 4 });
  const target = new URL(dbHandle.url);
  proxy = await startProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = new URL(dbHandle.url);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(proxy.port);
  journalDir = await mkdtemp(path.join(tmpdir(), "fiskal-cuts-journal-"));
  api = await startApi({
    databaseUrl: proxied.toString(),
    store: { kind: "redis", url: REDIS_URL },
    portalUrl: PORTAL,
    limiterPrefix: `t${randomBytes(6).toString("hex")}`,
    logger: process.env.FISKAL_CUTS_LOG ? pino({ level: "warn" }, pino.destination(process.env.FISKAL_CUTS_LOG)) : pino({ level: "silent" }),
    meterFlushIntervalMs: 200,
    // keys stay known through the cuts, so the requests reach the procedures
    authCacheTtlMs: 120_000,
    journalDir,
    reconcileIntervalMs: 300,
    lateDeliveryIntervalMs: 500,
    callLeaseMs: LEASE_MS,
  });
  const cis = api.services.taxAuthority;
  const fiscalize = cis.fiscalize.bind(cis);
  cis.fiscalize = (req) => {
    cisSent.push({ number: req.receipt.number, nakDost: req.racun?.NakDost === true });
    return fiscalize(req);
  };
  const account = await createAccount(direct, {
    name: "Prekidi d.o.o.",
    plan: "ENTERPRISE",
    custom: { burst: 10_000, perMinute: 1_000_000, perDay: 10_000_000, endpoints: { fiscalize: 1_000_000, einvoice: 1_000_000 } },
  });
  accountId = account.id;
  key = (await createApiKey(direct, account.id, "cuts")).key;
}, 60_000);

afterAll(async () => {
  await api?.close();
  await proxy?.close();
  await direct?.$disconnect();
  await dbHandle?.drop();
  if (journalDir) await rm(journalDir, { recursive: true, force: true });
});

let receiptNo = 1;
const receipt = () => ({
  oib: VALID_OIB,
  issued_at: new Date(Date.now() - 1_000).toISOString(),
  number: String(receiptNo++),
  premises: "CUT1",
  device: "1",
  total: "12.50",
  payment_method: "G",
  operator_oib: "94577403194",
  vat_registered: true,
  sequence: "P",
  vat: [{ rate: "25", base: "10.00", amount: "2.50" }],
});
let einvoiceNo = 1;
const einvoice = () => ({
  number: `CUT-${einvoiceNo++}`,
  issue_date: new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Zagreb" }).format(new Date()),
  seller: { oib: VALID_OIB, name: "Prodavatelj d.o.o." },
  buyer: { oib: "94577403194", name: "Kupac d.o.o." },
  operator: { name: "Ana Horvat", oib: "12345678903" },
  lines: [{ description: "Usluga", quantity: "1", unit: "H87", unit_price: "100.00", vat_rate: "25", kpd: "62.10.11", line_total: "100.00" }],
  totals: { net: "100.00", vat: "25.00", gross: "125.00" },
});

interface Sent {
  at: number;
  path: "/v1/invoices/fiscalize" | "/v1/einvoices/send";
  idempotencyKey: string;
  body: ReturnType<typeof receipt> | ReturnType<typeof einvoice>;
  res: CallResult | Error;
}

const post = (s: Pick<Sent, "path" | "idempotencyKey" | "body">) =>
  call(api.url, "POST", s.path, { key, body: s.body, headers: { "idempotency-key": s.idempotencyKey } });

/** Retries a request until the answer is final (not "in progress"); only that timing precondition is retried. */
async function settle(s: Sent, timeoutMs = 60_000): Promise<CallResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await post(s);
    const inProgress = r.status === 409 && r.body?.error?.details?.reason === "in_progress";
    if (!inProgress || Date.now() > deadline) return r;
    await sleep(250);
  }
}

describe("database connections cut under load", () => {
  it(`${CUTS} cuts of ${CUT_MS} ms at ${RATE} fiscalizations/s: 0 stuck keys, 0 stuck receipts, every 503 retried succeeds`, async () => {
    // The account's test certificate is created by its first receipt: once, before the load.
    const warm = await post({ path: "/v1/invoices/fiscalize", idempotencyKey: "warm-up", body: receipt() });
    expect(warm.status, warm.text).toBe(200);
    const sent: Sent[] = [];
    let loading = true;
    const inflight: Promise<void>[] = [];
    const fire = (s: Omit<Sent, "res" | "at">) => {
      const entry = { ...s, at: Date.now(), res: new Error("not answered") } as Sent;
      sent.push(entry);
      inflight.push(
        post(s).then(
          (r) => void (entry.res = r),
          (err: unknown) => void (entry.res = err as Error),
        ),
      );
    };
    const load = (async () => {
      const started = Date.now();
      let fired = 0;
      let firedE = 0;
      while (loading) {
        const elapsed = Date.now() - started;
        while (fired < (elapsed * RATE) / 1000) {
          fired++;
          fire({ path: "/v1/invoices/fiscalize", idempotencyKey: `cut-r-${fired}-${randomBytes(4).toString("hex")}`, body: receipt() });
        }
        while (firedE < (elapsed * EINVOICE_RATE) / 1000) {
          firedE++;
          fire({ path: "/v1/einvoices/send", idempotencyKey: `cut-e-${firedE}-${randomBytes(4).toString("hex")}`, body: einvoice() });
        }
        await sleep(5);
      }
    })();

    await sleep(BETWEEN_MS);
    for (let i = 0; i < CUTS; i++) {
      await proxy.cut(CUT_MS);
      await sleep(BETWEEN_MS);
    }
    loading = false;
    await load;
    await Promise.all(inflight);
    expect(proxy.cuts).toBe(CUTS);

    const byStatus = new Map<string, number>();
    for (const s of sent) {
      const label = s.res instanceof Error ? `error ${s.res.message}` : `${s.res.status} ${s.res.body?.error?.code ?? ""}`.trim();
      byStatus.set(label, (byStatus.get(label) ?? 0) + 1);
    }
    const summary = Object.fromEntries([...byStatus].sort());
    console.log(`database cuts: ${sent.length} requests`, summary);
    if (process.env.FISKAL_CUTS_LOG) {
      const t0 = sent[0]?.at ?? 0;
      const perSecond = new Map<number, string[]>();
      for (const s of sent) {
        const sec = Math.floor((s.at - t0) / 1000);
        perSecond.set(sec, [...(perSecond.get(sec) ?? []), s.res instanceof Error ? "E" : String(s.res.status)]);
      }
      for (const [sec, list] of perSecond) console.log(sec, list.filter((x) => x === "200").length, list.filter((x) => x === "503").length, list.length);
    }
    for (const s of sent.filter((x) => !(x.res instanceof Error) && x.res.status !== 200 && x.res.status !== 503 && x.res.status !== 504).slice(0, 5)) {
      console.log((s.res as CallResult).status, (s.res as CallResult).headers.get("x-request-id"), (s.res as CallResult).text.slice(0, 300));
    }
    // The cuts must have been felt, and every answer is one of: done, nothing happened (503), outcome unknown (504).
    // 503 (and a 429 of the limiter): nothing happened.
    const unavailable = sent.filter((s) => !(s.res instanceof Error) && (s.res.status === 503 || s.res.status === 429));
    const unknown = sent.filter((s) => !(s.res instanceof Error) && s.res.status === 504);
    expect(unavailable.length + unknown.length, JSON.stringify(summary)).toBeGreaterThan(0);
    for (const s of sent) {
      expect(s.res instanceof Error ? s.res.message : s.res.status, JSON.stringify(summary)).toSatisfy((v: unknown) => v === 200 || v === 503 || v === 504 || v === 429);
    }
    for (const s of unknown) expect((s.res as CallResult).body.error.details.id).toMatch(/^[0-9a-f-]{36}$/);

    // Every 503 left nothing behind: the key and the number are free, and the retry succeeds at once.
    const inBatches = async (list: Sent[], each: (s: Sent) => Promise<void>) => {
      for (let i = 0; i < list.length; i += 20) await Promise.all(list.slice(i, i + 20).map(each));
    };
    await inBatches(unavailable, async (s) => {
      const number = (s.body as { number: string }).number;
      const table = s.path === "/v1/invoices/fiscalize" ? direct.invoice : direct.eInvoice;
      expect(await (table as typeof direct.invoice).count({ where: { accountId, number } }), `503 for ${number} left a row`).toBe(0);
      expect(await direct.idempotencyRecord.count({ where: { accountId, key: s.idempotencyKey } }), `503 for ${number} left its key`).toBe(0);
      const retry = await post(s);
      expect(retry.status, `retry of ${(s.res as CallResult).status}'d ${s.path} ${number}: ${retry.text}`).toBe(200);
      expect(retry.headers.get("idempotent-replayed")).toBeNull();
    });
    // Every 504 settles by itself: the retry with its key ends in the request's outcome.
    await inBatches(unknown, async (s) => {
      const retry = await settle(s);
      expect(retry.status, `retry of 504'd ${s.path}: ${retry.text}`).toBe(200);
    });

    // Once every lease has ended and the jobs ran: no key and no receipt is left pending.
    await sleep(LEASE_MS + 1_500);
    const deadline = Date.now() + 30_000;
    let pendingKeys = -1;
    let pendingReceipts = -1;
    let pendingEInvoices = -1;
    while (Date.now() < deadline) {
      await api.services.lateDelivery!.runOnce();
      await api.services.einvoiceFiscalization!.runOnce();
      await api.services.reconciler.runOnce();
      pendingKeys = await direct.idempotencyRecord.count({ where: { accountId, state: "pending" } });
      pendingReceipts = await direct.invoice.count({ where: { accountId, status: "pending" } });
      pendingEInvoices = await direct.eInvoice.count({ where: { accountId, status: "pending" } });
      if (pendingKeys + pendingReceipts + pendingEInvoices === 0) break;
      await sleep(500);
    }
    expect({ pendingKeys, pendingReceipts, pendingEInvoices }).toEqual({ pendingKeys: 0, pendingReceipts: 0, pendingEInvoices: 0 });

    // Every receipt row has its JIR; every 200 the client holds is the stored answer.
    const rows = await direct.invoice.findMany({ where: { accountId } });
    expect(rows.filter((r) => r.jir === null)).toEqual([]);
    const stored = new Map(rows.map((r) => [r.number, r]));
    for (const s of sent) {
      if (s.res instanceof Error || s.res.status !== 200 || s.path !== "/v1/invoices/fiscalize") continue;
      const row = stored.get((s.body as { number: string }).number);
      expect(row?.id).toBe(s.res.body.id);
      if (s.res.body.jir) expect(row?.jir).toBe(s.res.body.jir);
    }
    // Every key sent ended done, and nothing reached CIS twice without NakDost.
    const keys = await direct.idempotencyRecord.findMany({ where: { accountId }, select: { key: true, state: true } });
    expect(keys.filter((k) => k.state !== "done")).toEqual([]);
    expect(new Set(keys.map((k) => k.key))).toEqual(new Set(["warm-up", ...sent.map((s) => s.idempotencyKey)]));
    const firstSends = new Map<string, number>();
    for (const c of cisSent) if (!c.nakDost) firstSends.set(c.number, (firstSends.get(c.number) ?? 0) + 1);
    expect([...firstSends].filter(([, n]) => n > 1)).toEqual([]);
    expect(rows.length).toBe(1 + sent.filter((s) => s.path === "/v1/invoices/fiscalize").length);
    const einvoices = await direct.eInvoice.findMany({ where: { accountId }, select: { status: true, intermediaryId: true } });
    expect(einvoices.length).toBe(sent.filter((s) => s.path === "/v1/einvoices/send").length);
    expect(einvoices.filter((e) => e.intermediaryId === null)).toEqual([]);
  }, 900_000);
});
