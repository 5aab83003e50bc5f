// POST /v1/invoices/fiscalize against the local CIS (HTTPS, own CA, XSD + xmlsec1 on every request):
// success, each CIS error code, outages and timeouts (the receipt is issued with its ZKI only and
// delivered late with NakDost until a JIR arrives, announced by webhook), answers not accepted.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWebhooks } from "@fiskal/webhooks";
import { CIS_XSD, forLibxml2, startLocalCis, type LocalCis } from "@fiskal/fiscal/testing/local-cis";
import { createLateDelivery } from "../src/records/resubmit.ts";
import { call, startHarness, VALID_OIB, type Harness } from "./harness.ts";

let cis: LocalCis;
let h: Harness;
let a: { id: string; key: string };
let work: string;
const hooks: { type: string; data: Record<string, unknown> }[] = [];
let receiver: Server;
const journalDir = mkdtempSync(path.join(tmpdir(), "cis-journal-"));

beforeAll(async () => {
  cis = await startLocalCis();
  h = await startHarness({
    config: {
      cis: { url: cis.url, ca: cis.caPem, signer: { ca: [cis.caPem], names: ["fiskalcistest"] }, timeoutMs: 1_500, connectTimeoutMs: 1_000 },
      webhooks: { allowPrivate: true, worker: true, retryDelaysMs: [200] },
      journalDir,
    },
  });
  a = await h.account({ plan: "ENTERPRISE", custom: { burst: 100, perMinute: 1_000, perDay: 10_000 } });
  work = mkdtempSync(path.join(tmpdir(), "cis-api-test-"));
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hooks.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const webhooks = createWebhooks({ db: h.api.services.db, databaseUrl: h.databaseUrl, allowPrivate: true });
  try {
    const created = await webhooks.endpoints.create(a.id, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` });
    if (!created.ok) throw new Error(created.message);
  } finally {
    await webhooks.close();
  }
});
afterAll(async () => {
  await h?.close();
  await cis?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  rmSync(work, { recursive: true, force: true });
  rmSync(journalDir, { recursive: true, force: true });
});
beforeEach(() => cis.setMode({ kind: "check" }));

let receiptNo = 1;
const receipt = (over: Record<string, unknown> = {}) => ({
  oib: VALID_OIB,
  issued_at: new Date(Date.now() - 60_000).toISOString(),
  number: String(receiptNo++),
  premises: "POSL1",
  device: "1",
  total: "125.00",
  payment_method: "K",
  operator_oib: "94577403194",
  vat_registered: true,
  sequence: "P",
  vat: [{ rate: "25", base: "100.00", amount: "25.00" }],
  ...over,
});
const fiscalize = (body: unknown, headers: Record<string, string> = {}) => call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });

async function until<T>(f: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Makes a deferred receipt due now (instead of waiting for the first back-off). */
const dueNow = (id: string) => h.api.services.db.invoice.update({ where: { id }, data: { nextAttemptAt: new Date() } });

describe("fiscalize with the real CIS client", () => {
  it("gets the JIR; what was sent validates against the official XSD and verifies with xmlsec1", async () => {
    const before = cis.requests.length;
    const res = await fiscalize(receipt({ consumption_tax: [{ rate: "3", base: "100.00", amount: "3.00" }], total: "128.00" }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "fiscalized", late_delivery: false });
    expect(cis.requests.length).toBe(before + 1);
    const seen = cis.requests.at(-1)!;
    expect(res.body.jir).toBe(seen.jir);
    expect(seen.racunZahtjev).toContain("<tns:NakDost>false</tns:NakDost>");
    expect(seen.racunZahtjev).toContain("<tns:OibOper>94577403194</tns:OibOper>");
    expect(seen.racunZahtjev).toContain("<tns:Pnp><tns:Porez><tns:Stopa>3.00</tns:Stopa>");
    const file = path.join(work, "sent.xml");
    const certFile = path.join(work, "sent.pem");
    writeFileSync(file, seen.racunZahtjev);
    const cert = /<X509Certificate>([^<]+)</.exec(seen.racunZahtjev)![1]!;
    writeFileSync(certFile, `-----BEGIN CERTIFICATE-----\n${cert.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`);
    // xmllint on the form libxml2 can read (X509SerialNumber over 24 digits: see forLibxml2); xmlsec1 on the bytes as sent.
    writeFileSync(`${file}.schema.xml`, forLibxml2(seen.racunZahtjev));
    expect(seen.racunZahtjev).toMatch(/<X509IssuerSerial><X509IssuerName>[^<]+<\/X509IssuerName><X509SerialNumber>\d+<\/X509SerialNumber><\/X509IssuerSerial>/);
    execFileSync("xmllint", ["--noout", "--path", cis.schemaPath, "--schema", CIS_XSD, `${file}.schema.xml`], { stdio: "pipe" });
    execFileSync("xmlsec1", ["--verify", "--id-attr:Id", "RacunZahtjev", "--pubkey-cert-pem", certFile, file], { stdio: "pipe" });
    const stored = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored).toMatchObject({ status: "fiscalized", jir: seen.jir, deliveryAttempts: 0, nextAttemptAt: null });
  });

  it("a receipt without an operator OIB is a 400 and reaches neither the database nor CIS", async () => {
    const before = cis.requests.length;
    const count = await h.api.services.db.invoice.count();
    const { operator_oib: _omit, ...body } = receipt();
    const res = await fiscalize(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(cis.requests.length).toBe(before);
    expect(await h.api.services.db.invoice.count()).toBe(count);
  });

  it.each(["s001", "s002", "s003", "s004", "s005"])("CIS error %s is a 400 validation_error with the code; nothing is kept, the number is free", async (code) => {
    cis.setMode({ kind: "error", code }, 1);
    const body = receipt();
    const res = await fiscalize(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details).toMatchObject({ cis_code: code });
    expect(await h.api.services.db.invoice.count({ where: { accountId: a.id, number: body.number } })).toBe(0);
    const again = await fiscalize(body);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("fiscalized");
  });

  it("a certificate of another OIB is refused by CIS itself (s005) and reported as such", async () => {
    const res = await fiscalize(receipt({ oib: "94577403194", operator_oib: VALID_OIB }));
    // The account's certificate belongs to VALID_OIB: refused before sending, or by CIS with s005.
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
  });
});

describe("CIS unreachable: issued with the ZKI, delivered late", () => {
  it("s006: issued without a JIR; the job delivers it with NakDost, stores the JIR and the webhook announces it", async () => {
    cis.setMode({ kind: "error", code: "s006" }, 1);
    const body = receipt();
    const headers = { "idempotency-key": `late-s006-${body.number}` };
    const res = await fiscalize(body, headers);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "pending", jir: null });
    expect(res.body.zki).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.qr_url).toContain(`zki=${res.body.zki}`);
    const row = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ status: "pending", deliveryAttempts: 1 });
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(row.lastDeliveryError).toContain("s006");

    // GET shows the receipt as issued: pending, its ZKI and QR code, no JIR yet.
    const waiting = await call(h.url, "GET", `/v1/invoices/${res.body.id}`, { key: a.key });
    expect(waiting.status).toBe(200);
    expect(waiting.body).toEqual(res.body);

    // A retry with the same key replays the answer; the receipt is not sent twice.
    const sent = cis.requests.length;
    const replay = await fiscalize(body, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(res.body);
    expect(cis.requests.length).toBe(sent);

    // Not due yet: nothing is sent.
    expect(await h.api.services.lateDelivery!.runOnce({ accountId: a.id })).toBe(0);
    expect(cis.requests.length).toBe(sent);

    await dueNow(res.body.id);
    expect(await h.api.services.lateDelivery!.runOnce({ accountId: a.id })).toBe(1);
    const late = cis.requests.at(-1)!;
    expect(late.racunZahtjev).toContain("<tns:NakDost>true</tns:NakDost>");
    expect(late.racunZahtjev).toContain(`<tns:ZastKod>${res.body.zki}</tns:ZastKod>`);
    expect(late.jir).toBeDefined();

    const get = await call(h.url, "GET", `/v1/invoices/${res.body.id}`, { key: a.key });
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ status: "fiscalized", jir: late.jir, late_delivery: true });
    expect(get.body.qr_url).toContain(`jir=${late.jir}`);

    const hook = await until(async () => hooks.find((e) => e.type === "invoice.fiscalized" && e.data.invoice_id === res.body.id));
    expect(hook.data).toMatchObject({ jir: late.jir, zki: res.body.zki, late_delivery: true, attempts: 2, number: `${body.number}/POSL1/1` });
    const stored = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored.announcedAt).not.toBeNull();
    // Announced once: another pass sends nothing and emits nothing.
    expect(await h.api.services.lateDelivery!.runOnce({ accountId: a.id })).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(hooks.filter((e) => e.data.invoice_id === res.body.id)).toHaveLength(1);
  });

  it("down, then still down (attempts and back-off recorded), then up: the JIR arrives", async () => {
    await cis.down();
    let id: string;
    try {
      const res = await fiscalize(receipt());
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "pending", jir: null });
      id = res.body.id;
      await dueNow(id);
      expect(await h.api.services.lateDelivery!.runOnce({ accountId: a.id })).toBe(0);
      const row = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ status: "pending", jir: null, deliveryAttempts: 2, lateDelivery: true });
      expect(row.lastDeliveryError).toContain("ECONNREFUSED");
      expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    } finally {
      await cis.up();
    }
    await dueNow(id);
    expect(await h.api.services.lateDelivery!.runOnce({ accountId: a.id })).toBe(1);
    const done = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id } });
    expect(done).toMatchObject({ status: "fiscalized", deliveryAttempts: 3, nextAttemptAt: null });
    expect(done.jir).toBe(cis.requests.at(-1)!.jir);
  });

  it("the backlog's gauges: waiting, less than 24 h to the legal deadline, past it (set after every pass of the job, at the job's clock)", async () => {
    const gauge = async (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(await h.api.services.metrics.registry.metrics())?.[1]);
    const gauges = async () => ({
      waiting: await gauge("fiskal_receipts_late_delivery_waiting"),
      near: await gauge("fiskal_receipts_late_delivery_near_deadline"),
      past: await gauge("fiskal_receipts_late_delivery_past_deadline"),
    });
    // The job at a chosen instant: gauges counted against it (the deliveries it attempts fail, CIS is down).
    const at = async (iso: string) => {
      const job = createLateDelivery({ ...h.api.services, webhooks: null, clock: () => Date.parse(iso) });
      try {
        await job.runOnce();
        return await gauges();
      } finally {
        await job.stop();
      }
    };
    await cis.down();
    try {
      const res = await fiscalize(receipt());
      expect(res.body).toMatchObject({ status: "pending", jir: null });
      await h.api.services.lateDelivery!.runOnce();
      const now = await gauges();
      expect(now.waiting).toBe(await h.api.services.db.invoice.count({ where: { status: "pending" } }));
      // Issued without a JIR long ago: past the deadline at the real clock.
      await h.api.services.db.invoice.update({ where: { id: res.body.id }, data: { createdAt: new Date(Date.now() - 10 * 86_400_000) } });
      await h.api.services.lateDelivery!.runOnce();
      expect(await gauges()).toEqual({ waiting: now.waiting, near: now.near, past: now.past + 1 });
      // What this receipt adds at an instant: the job's gauges with it issued then, less those with it
      // issued at that instant itself (neither near nor past: two working days are always ahead).
      const adds = async (issued: string, iso: string) => {
        await h.api.services.db.invoice.update({ where: { id: res.body.id }, data: { createdAt: new Date(iso) } });
        const without = await at(iso);
        await h.api.services.db.invoice.update({ where: { id: res.body.id }, data: { createdAt: new Date(issued) } });
        const withIt = await at(iso);
        return { near: withIt.near - without.near, past: withIt.past - without.past };
      };
      // Issued on Friday 20 November 2026: the deadline is Tuesday 24 November, 24:00 in Zagreb (23:00 UTC).
      const friday = "2026-11-20T09:00:00Z";
      expect(await adds(friday, "2026-11-22T22:00:00Z")).toEqual({ near: 0, past: 0 }); // Sunday evening: 49 h left
      expect(await adds(friday, "2026-11-23T23:30:00Z")).toEqual({ near: 1, past: 0 }); // 23.5 h left
      expect(await adds(friday, "2026-11-24T22:59:59Z")).toEqual({ near: 1, past: 0 });
      expect(await adds(friday, "2026-11-24T23:00:01Z")).toEqual({ near: 0, past: 1 });
      // Issued on Wednesday 23 December: Christmas and St Stephen's Day are not working days, so the
      // deadline is Monday 28 December, 24:00, not Friday 25 December.
      const christmas = "2026-12-23T10:00:00Z";
      expect(await adds(christmas, "2026-12-26T12:00:00Z")).toEqual({ near: 0, past: 0 });
      expect(await adds(christmas, "2026-12-28T12:00:00Z")).toEqual({ near: 1, past: 0 });
      expect(await adds(christmas, "2026-12-29T00:00:00Z")).toEqual({ near: 0, past: 1 });
    } finally {
      await cis.up();
    }
  });

  it("timeout: issued without a JIR within the configured time, then delivered late", async () => {
    cis.setMode({ kind: "timeout" }, 1);
    const t0 = Date.now();
    const res = await fiscalize(receipt());
    expect(Date.now() - t0).toBeLessThan(4_000);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "pending", jir: null });
    await dueNow(res.body.id);
    expect(await h.api.services.lateDelivery!.runOnce({ accountId: a.id })).toBe(1);
    const done = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(done.status).toBe("fiscalized");
    expect(cis.requests.at(-1)!.racunZahtjev).toContain("<tns:NakDost>true</tns:NakDost>");
  });

  it.each([["bad-signature"], ["untrusted-signer"], ["unsigned"]] as const)("%s: the JIR in that answer is not accepted; late delivery gets a trusted one", async (kind) => {
    cis.setMode({ kind }, 1);
    const res = await fiscalize(receipt());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "pending", jir: null });
    const untrusted = cis.requests.at(-1)!.jir;
    const row = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.jir).toBeNull();
    expect(row.lastDeliveryError).toContain("not accepted");
    await dueNow(res.body.id);
    expect(await h.api.services.lateDelivery!.runOnce({ accountId: a.id })).toBe(1);
    const done = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(done.jir).not.toBe(untrusted);
    expect(done.jir).toBe(cis.requests.at(-1)!.jir);
  });

  it("a late delivery CIS refuses (e.g. s002) stays pending with the code and waits for the customer", async () => {
    cis.setMode({ kind: "error", code: "s006" }, 1);
    const res = await fiscalize(receipt());
    expect(res.body.status).toBe("pending");
    cis.setMode({ kind: "error", code: "s002" }, 1);
    await dueNow(res.body.id);
    expect(await h.api.services.lateDelivery!.runOnce({ accountId: a.id })).toBe(0);
    const row = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ status: "pending", jir: null });
    expect(row.lastDeliveryError).toContain("s002");
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);
  });
});

describe("a receipt waiting for late delivery", () => {
  it("is never sent again by the client: the same number without a key is a 409 late_delivery", async () => {
    cis.setMode({ kind: "error", code: "s006" }, 1);
    const body = receipt();
    const first = await fiscalize(body);
    expect(first.body.status).toBe("pending");
    const sent = cis.requests.length;
    const again = await fiscalize(body);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "conflict", details: { reason: "late_delivery", id: first.body.id } });
    expect(cis.requests.length).toBe(sent);
  });
});

describe("several API processes", () => {
  it("never deliver one receipt twice: the claim lets exactly one of them send it", async () => {
    cis.setMode({ kind: "error", code: "s006" }, 1);
    const res = await fiscalize(receipt());
    expect(res.body.status).toBe("pending");
    await dueNow(res.body.id);
    const s = h.api.services;
    const jobs = [1, 2, 3].map(() => createLateDelivery({ ...s, webhooks: null }));
    const before = cis.requests.length;
    const delivered = await Promise.all(jobs.map((j) => j.runOnce({ accountId: a.id })));
    expect(delivered.reduce((x, y) => x + y, 0)).toBe(1);
    expect(cis.requests.length).toBe(before + 1);
    const row = await s.db.invoice.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ status: "fiscalized", jir: cis.requests.at(-1)!.jir, deliveryAttempts: 2 });
    await Promise.all(jobs.map((j) => j.stop()));
  });
});

describe("a JIR from late delivery that the database refuses", () => {
  it("is journaled, served from the journal, never sent for again, and stored when the database takes it", async () => {
    cis.setMode({ kind: "error", code: "s006" }, 1);
    const res = await fiscalize(receipt());
    expect(res.body.status).toBe("pending");
    await dueNow(res.body.id);
    const s = h.api.services;
    const sql = (text: string) => s.db.$executeRawUnsafe(text);
    await sql(`ALTER TABLE "Invoice" ADD CONSTRAINT refuse_jir CHECK (status <> 'fiscalized') NOT VALID`);
    let jir: string;
    try {
      expect(await s.lateDelivery!.runOnce({ accountId: a.id })).toBe(1);
      jir = cis.requests.at(-1)!.jir!;
      const row = await s.db.invoice.findUniqueOrThrow({ where: { id: res.body.id } });
      expect(row).toMatchObject({ status: "pending", jir: null });
      const entries = (await s.journal.entries()).filter((e) => e.entry.id === res.body.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]!.entry).toMatchObject({ kind: "invoice", jir });
      const get = await call(h.url, "GET", `/v1/invoices/${res.body.id}`, { key: a.key });
      expect(get.body).toMatchObject({ status: "fiscalized", jir });
      // Due again, but its JIR waits in the journal: nothing is sent.
      await dueNow(res.body.id);
      const sent = cis.requests.length;
      expect(await s.lateDelivery!.runOnce({ accountId: a.id })).toBe(0);
      expect(cis.requests.length).toBe(sent);
    } finally {
      await sql(`ALTER TABLE "Invoice" DROP CONSTRAINT refuse_jir`);
    }
    await s.reconciler.runOnce();
    const stored = await s.db.invoice.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored).toMatchObject({ status: "fiscalized", jir });
    expect((await s.journal.entries()).filter((e) => e.entry.id === res.body.id)).toHaveLength(0);
  });
});
