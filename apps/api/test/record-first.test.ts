// Issue 12, item 1: a request to the tax authority or the intermediary is validated completely and
// recorded as pending before it is sent; an answer the database then refuses to store goes to the
// journal on disk, from which the reconciler stores it. A retry never sends the same receipt twice.
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import type { FiscalizeRequest, IntermediarySendRequest } from "@fiskal/fiscal";
import { startApi, type ApiConfig, type RunningApi } from "../src/app.ts";
import { call, PORTAL, REDIS_URL, startHarness, VALID_OIB, type CallResult, type Harness } from "./harness.ts";

const ENTERPRISE = { plan: "ENTERPRISE" as const, custom: { burst: 500, perMinute: 5_000, perDay: 100_000 } };

let h: Harness;
let a: { id: string; key: string };
let journalDir: string;
let cisCalls = 0;
let sends = 0;
/** Runs inside the next call to the tax authority / intermediary, before it is forwarded. */
let onFiscalize: ((req: FiscalizeRequest) => Promise<void>) | null = null;
let onSend: ((req: IntermediarySendRequest) => Promise<void>) | null = null;
/** Runs after the tax authority answered, before the answer reaches the API. */
let afterFiscalize: ((jir: string) => void) | null = null;

beforeAll(async () => {
  journalDir = await mkdtemp(path.join(tmpdir(), "fiskal-journal-"));
  h = await startHarness({ config: { journalDir, reconcileIntervalMs: 100 } });
  a = await h.account(ENTERPRISE);
  const cis = h.api.services.taxAuthority;
  const fiscalize = cis.fiscalize.bind(cis);
  cis.fiscalize = async (req) => {
    cisCalls++;
    const before = onFiscalize;
    onFiscalize = null;
    await before?.(req);
    const answer = await fiscalize(req);
    const after = afterFiscalize;
    afterFiscalize = null;
    after?.(answer.jir);
    return answer;
  };
  const intermediary = h.api.services.intermediary;
  const send = intermediary.send.bind(intermediary);
  intermediary.send = async (req) => {
    sends++;
    const before = onSend;
    onSend = null;
    await before?.(req);
    return send(req);
  };
  await installFailureSwitch(h.databaseUrl);
});
afterAll(async () => {
  await h?.close();
  await rm(journalDir, { recursive: true, force: true });
});

async function sql(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/**
 * While "test_fail_store" names a table, every write that stores an upstream answer in it (a JIR or
 * an intermediary id) fails, as a database that went away right after the call would.
 */
async function installFailureSwitch(url: string) {
  await sql(
    url,
    `CREATE TABLE test_fail_store (tbl text PRIMARY KEY);
     CREATE FUNCTION test_fail_store() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF EXISTS (SELECT 1 FROM test_fail_store WHERE tbl = TG_TABLE_NAME)
          AND coalesce(to_jsonb(NEW)->>'jir', to_jsonb(NEW)->>'intermediaryId') IS NOT NULL THEN
         RAISE EXCEPTION 'storing the answer in % failed', TG_TABLE_NAME;
       END IF;
       RETURN NEW;
     END $$;
     CREATE TRIGGER test_fail_store BEFORE INSERT OR UPDATE ON "Invoice" FOR EACH ROW EXECUTE FUNCTION test_fail_store();
     CREATE TRIGGER test_fail_store BEFORE INSERT OR UPDATE ON "EInvoice" FOR EACH ROW EXECUTE FUNCTION test_fail_store();`,
  );
}
const failStoring = (url: string, table: "Invoice" | "EInvoice") => sql(url, `INSERT INTO test_fail_store VALUES ($1)`, [table]);
const allowStoring = (url: string) => sql(url, `DELETE FROM test_fail_store`);

async function journalText(dir: string): Promise<string> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const texts = await Promise.all(names.filter((n) => n.endsWith(".json")).map((n) => readFile(path.join(dir, n), "utf8")));
  return texts.join("\n");
}

async function until<T>(probe: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let receiptNo = 7000;
const receipt = (over: Record<string, unknown> = {}) => ({
  oib: VALID_OIB,
  issued_at: new Date().toISOString(),
  number: String(receiptNo++),
  premises: "POSL7",
  device: "1",
  total: "42.00",
  payment_method: "G",
  operator_oib: "94577403194",
  vat_registered: true,
  sequence: "P",
  ...over,
});
let einvoiceNo = 1;
const einvoice = (over: Record<string, unknown> = {}) => ({
  number: `R-${einvoiceNo++}-${randomBytes(3).toString("hex")}`,
  issue_date: "2026-11-21",
  seller: { oib: VALID_OIB, name: "Prodavatelj d.o.o." },
  buyer: { oib: "94577403194", name: "Kupac d.o.o." },
  operator: { name: "Ana Horvat", oib: "12345678903" },
  lines: [{ description: "Usluga", quantity: "1", unit: "H87", unit_price: "100.00", vat_rate: "25", kpd: "62.10.11", line_total: "100.00" }],
  totals: { net: "100.00", vat: "25.00", gross: "125.00" },
  ...over,
});

/** YYYY-MM-DD in Zagreb, `days` from now. */
function zagrebDay(days: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Zagreb" }).format(new Date(Date.now() + days * 86_400_000));
}

describe("validation before anything is recorded or sent", () => {
  it("refuses issue times the law and the database do not allow with 400, and calls nothing", async () => {
    const before = cisCalls;
    const refused = [
      "0000-01-01T00:00:00Z",
      "0001-01-01T00:00:00+14:00",
      "9999-12-31T23:59:59-23:59",
      "2012-12-31T23:59:59+01:00",
      "2100-01-01T00:00:00+01:00",
      new Date(Date.now() + 10 * 60_000).toISOString(),
    ];
    for (const issued_at of refused) {
      for (const headers of [{}, { "idempotency-key": `bad-date-${randomBytes(4).toString("hex")}` }] as Record<string, string>[]) {
        const body = receipt({ issued_at });
        const r = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
        expect(r.status, `${issued_at}: ${r.text}`).toBe(400);
        expect(r.body.error.code).toBe("validation_error");
        expect(r.body.error.details).toEqual([{ path: "issued_at", message: expect.any(String) }]);
        expect(await h.api.services.db.invoice.count({ where: { number: body.number } })).toBe(0);
      }
    }
    expect(cisCalls - before).toBe(0);
    expect(await h.api.services.db.idempotencyRecord.count({ where: { key: { startsWith: "bad-date-" } } })).toBe(0);
  });

  it("accepts a till clock a little ahead; the first day of fiscalization passes the date bounds but is past the late-delivery window", async () => {
    const ahead = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body: receipt({ issued_at: new Date(Date.now() + 60_000).toISOString() }) });
    expect(ahead.status, ahead.text).toBe(200);
    const first = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body: receipt({ issued_at: "2013-01-01T00:00:00+01:00" }) });
    expect(first.status, first.text).toBe(400);
    expect(first.body.error.details).toEqual([{ path: "issued_at", message: expect.stringContaining("najkasnije 3. 1. 2013.") }]);
  });

  it("refuses e-invoice issue dates ahead of today or past 2099 and due dates past 2099, and sends nothing", async () => {
    const before = sends;
    const cases: [Record<string, unknown>, string][] = [
      [{ issue_date: "9999-12-31" }, "issue_date"],
      [{ issue_date: zagrebDay(2) }, "issue_date"],
      [{ due_date: "9999-12-31" }, "due_date"],
      [{ due_date: "2100-01-01" }, "due_date"],
    ];
    for (const [over, field] of cases) {
      const body = einvoice(over);
      const r = await call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body });
      expect(r.status, `${JSON.stringify(over)}: ${r.text}`).toBe(400);
      expect(r.body.error.code).toBe("validation_error");
      expect(r.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
      expect(await h.api.services.db.eInvoice.count({ where: { number: body.number } })).toBe(0);
    }
    expect(sends - before).toBe(0);
  });
});

describe("fiscalization is recorded before it is sent", () => {
  it("the receipt is a committed pending row with its ZKI when the tax authority is called", async () => {
    const body = receipt();
    let seen: unknown[] = [];
    let req: FiscalizeRequest | undefined;
    onFiscalize = async (r) => {
      req = r;
      seen = (await sql(h.databaseUrl, `SELECT status, zki, jir, "messageId"::text AS "messageId" FROM "Invoice" WHERE number = $1`, [body.number])).rows;
    };
    const r = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body });
    expect(r.status, r.text).toBe(200);
    expect(seen).toEqual([{ status: "pending", zki: req!.zki, jir: null, messageId: req!.messageId }]);
    const row = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: r.body.id } });
    expect(row).toMatchObject({ status: "fiscalized", jir: r.body.jir, zki: r.body.zki });
  });

  it("keeps a JIR the database refused to store: journal, reconciler, replay, and no second submission", async () => {
    const body = receipt();
    const headers = { "idempotency-key": `journal-${body.number}` };
    const before = cisCalls;
    await failStoring(h.databaseUrl, "Invoice");
    let first!: CallResult;
    try {
      first = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
      expect(first.status, first.text).toBe(200);
      expect(first.body.jir).toMatch(/^[0-9a-f-]{36}$/);
      expect(await journalText(journalDir)).toContain(first.body.jir);
      const row = await h.api.services.db.invoice.findUniqueOrThrow({ where: { id: first.body.id } });
      expect(row).toMatchObject({ status: "pending", jir: null });

      // While the database still refuses: the key answers with what the tax authority returned,
      // and the receipt number is not sent again.
      const replay = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
      expect(replay.status, replay.text).toBe(200);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body).toEqual(first.body);
      const again = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("conflict");
    } finally {
      await allowStoring(h.databaseUrl);
    }

    const stored = await until(async () => {
      const row = await h.api.services.db.invoice.findUnique({ where: { id: first.body.id } });
      return row?.status === "fiscalized" ? row : null;
    }, "the reconciler stored the JIR");
    expect(stored.jir).toBe(first.body.jir);
    await until(async () => !(await journalText(journalDir)).includes(first.body.jir), "the journal entry is removed");
    const record = await h.api.services.db.idempotencyRecord.findFirstOrThrow({ where: { accountId: a.id, key: headers["idempotency-key"] } });
    expect(record.state).toBe("done");

    const replay = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    const got = await call(h.url, "GET", `/v1/invoices/${first.body.id}`, { key: a.key });
    expect(got.body).toEqual(first.body);
    const again = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict");
    expect(again.body.error.message).toContain(first.body.jir);
    expect(cisCalls - before).toBe(1);
  });

  it("without an Idempotency-Key too: the JIR is journaled and stored, and a retry is not submitted", async () => {
    const body = receipt();
    const before = cisCalls;
    await failStoring(h.databaseUrl, "Invoice");
    let first!: CallResult;
    try {
      first = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body });
      expect(first.status, first.text).toBe(200);
      expect(await journalText(journalDir)).toContain(first.body.jir);
      const retry = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body });
      expect(retry.status).toBe(409);
      expect(retry.body.error.code).toBe("conflict");
    } finally {
      await allowStoring(h.databaseUrl);
    }
    const stored = await until(async () => {
      const row = await h.api.services.db.invoice.findUnique({ where: { id: first.body.id } });
      return row?.status === "fiscalized" ? row : null;
    }, "the reconciler stored the JIR");
    expect(stored.jir).toBe(first.body.jir);
    const retry = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body });
    expect(retry.status).toBe(409);
    expect(retry.body.error.message).toContain(first.body.jir);
    expect(cisCalls - before).toBe(1);
    expect(await h.api.services.db.invoice.count({ where: { accountId: a.id, number: body.number } })).toBe(1);
  });

  it("never submits a receipt again as new whose answer was lost on the way back; after its lease it is delivered late with NakDost", async () => {
    const body = receipt();
    const headers = { "idempotency-key": `lost-${body.number}` };
    const before = cisCalls;
    afterFiscalize = () => {
      throw new Error("connection reset after the request was sent");
    };
    const first = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
    // The outcome is unknown, and the answer says so (never 503 "nothing happened").
    expect(first.status).toBe(504);
    expect(first.body.error.code).toBe("outcome_unknown");
    expect(first.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    const id = first.body.error.details.id as string;
    const withKey = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
    expect(withKey.status).toBe(409);
    expect(withKey.body.error).toMatchObject({ code: "idempotency_conflict", details: { reason: "in_progress" } });
    const withoutKey = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body });
    expect(withoutKey.status).toBe(409);
    expect(withoutKey.body.error).toMatchObject({ code: "conflict", details: { reason: "in_progress", id } });
    expect(cisCalls - before).toBe(1);
    const rows = await h.api.services.db.invoice.findMany({ where: { accountId: a.id, number: body.number } });
    expect(rows.map((r) => [r.id, r.status, r.deliveryAttempts])).toEqual([[id, "pending", 0]]);
    expect(rows[0]!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());

    // The first call's lease ends without an answer: the retry with the key takes the receipt over
    // and delivers it late (NakDost), once, and replays what that brought.
    await sql(h.databaseUrl, `UPDATE "Invoice" SET "nextAttemptAt" = now() - interval '1 second' WHERE id = $1`, [id]);
    let resent: FiscalizeRequest | null = null;
    onFiscalize = async (req) => {
      resent = req;
    };
    const later = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers });
    expect(later.status).toBe(200);
    expect(later.headers.get("idempotent-replayed")).toBe("true");
    expect(later.body).toMatchObject({ id, status: "fiscalized", late_delivery: true });
    expect((resent as FiscalizeRequest | null)?.racun?.NakDost).toBe(true);
    expect(cisCalls - before).toBe(2);
    const newKey = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body, headers: { "idempotency-key": `lost-again-${body.number}` } });
    expect(newKey.status).toBe(409);
    expect(newKey.body.error).toMatchObject({ code: "conflict", details: { reason: "fiscalized", id, jir: later.body.jir } });
    expect(cisCalls - before).toBe(2);
  });
});

describe("e-invoices are recorded before they are sent", () => {
  it("the e-invoice is a committed pending row with its UBL when the intermediary is called", async () => {
    const body = einvoice();
    let seen: unknown[] = [];
    let req: IntermediarySendRequest | undefined;
    onSend = async (r) => {
      req = r;
      seen = (await sql(h.databaseUrl, `SELECT status, ubl, "intermediaryId", "messageId"::text AS "messageId" FROM "EInvoice" WHERE number = $1`, [body.number])).rows;
    };
    const r = await call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body });
    expect(r.status, r.text).toBe(200);
    expect(seen).toEqual([{ status: "pending", ubl: req!.ubl, intermediaryId: null, messageId: req!.messageId }]);
  });

  it("keeps an intermediary id the database refused to store: journal, reconciler, replay, and no second send", async () => {
    const body = einvoice();
    const headers = { "idempotency-key": `journal-${body.number}` };
    const before = sends;
    await failStoring(h.databaseUrl, "EInvoice");
    let first!: CallResult;
    try {
      first = await call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body, headers });
      expect(first.status, first.text).toBe(200);
      expect(first.body.intermediary_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await journalText(journalDir)).toContain(first.body.intermediary_id);
      const replay = await call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body, headers });
      expect(replay.status, replay.text).toBe(200);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body).toEqual(first.body);
      const again = await call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("conflict");
    } finally {
      await allowStoring(h.databaseUrl);
    }
    const stored = await until(async () => {
      const row = await h.api.services.db.eInvoice.findUnique({ where: { id: first.body.id } });
      return row && row.status !== "pending" ? row : null;
    }, "the reconciler stored the intermediary id");
    expect(stored.intermediaryId).toBe(first.body.intermediary_id);
    expect(stored.status).toBe(first.body.status);
    const replay = await call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    const again = await call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body });
    expect(again.status).toBe(409);
    const got = await call(h.url, "GET", `/v1/einvoices/${first.body.id}`, { key: a.key });
    expect(got.status).toBe(200);
    expect(got.body.intermediary_id).toBe(first.body.intermediary_id);
    expect(sends - before).toBe(1);
  });
});

describe("a restarted API", () => {
  it("stores a journaled JIR when it starts, and the key then replays it", async () => {
    const testDb = await createTestDatabase();
    const dir = await mkdtemp(path.join(tmpdir(), "fiskal-journal-"));
    const config = {
      databaseUrl: testDb.url,
      store: { kind: "redis", url: REDIS_URL },
      portalUrl: PORTAL,
      limiterPrefix: `t${randomBytes(6).toString("hex")}`,
      logger: pino({ level: "silent" }),
      journalDir: dir,
      // No periodic runs: only the run at start can store the answer.
      reconcileIntervalMs: 3_600_000,
    } as ApiConfig;
    let api: RunningApi | null = null;
    try {
      api = await startApi(config);
      const account = await createAccount(api.services.db, { name: "Restart d.o.o.", ...ENTERPRISE });
      const { key } = await createApiKey(api.services.db, account.id, "test");
      await installFailureSwitch(testDb.url);
      await failStoring(testDb.url, "Invoice");
      const body = receipt();
      const headers = { "idempotency-key": `restart-${body.number}` };
      const first = await call(api.url, "POST", "/v1/invoices/fiscalize", { key, body, headers });
      expect(first.status, first.text).toBe(200);
      expect(await journalText(dir)).toContain(first.body.jir);
      await api.close();
      api = null;

      await allowStoring(testDb.url);
      api = await startApi(config);
      const row = await api.services.db.invoice.findUniqueOrThrow({ where: { id: first.body.id } });
      expect(row).toMatchObject({ status: "fiscalized", jir: first.body.jir });
      expect(await journalText(dir)).toBe("");
      const replay = await call(api.url, "POST", "/v1/invoices/fiscalize", { key, body, headers });
      expect(replay.status).toBe(200);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body).toEqual(first.body);
    } finally {
      await api?.close();
      await testDb.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
