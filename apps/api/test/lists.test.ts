// GET /v1/invoices and GET /v1/einvoices: cursor paging through 10,000 documents while others are
// inserted, the filters, the account scope, the cursor's checks, and the plan's windows only.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startHarness, trpcClient, VALID_OIB, type Harness } from "./harness.ts";

let h: Harness;
let a: { id: string; key: string };
let b: { id: string; key: string };
const big = { burst: 1_000, perMinute: 10_000, perDay: 1_000_000 };

beforeAll(async () => {
  h = await startHarness();
  a = await h.account({ plan: "ENTERPRISE", custom: big, name: "Lists A d.o.o." });
  b = await h.account({ plan: "ENTERPRISE", custom: big, name: "Lists B d.o.o." });
});
afterAll(() => h.close());

const sql = (text: string, ...values: unknown[]) => h.api.services.db.$executeRawUnsafe(text, ...values);

/**
 * n receipts of an account in one statement. created_at falls in 1 ms steps counted back from
 * `newest`, `tie` rows sharing each instant (so the id must break ties).
 */
function insertInvoices(accountId: string, n: number, opts: { start?: number; newest?: string; tie?: number; prefix?: string } = {}) {
  return sql(
    `INSERT INTO "Invoice" (id, "accountId", oib, number, premises, device, "issuedAt", total, "paymentMethod", zki, status, jir, request, "createdAt", "buyerOib")
     SELECT gen_random_uuid(), $1::uuid, '${VALID_OIB}', ($2::int + g)::text, $3, '1',
            timestamptz '2026-11-01 10:00:00+01' + (g || ' minutes')::interval, 10.00, 'K', md5(g::text),
            CASE WHEN g % 10 = 0 THEN 'pending' ELSE 'fiscalized' END,
            CASE WHEN g % 10 = 0 THEN NULL ELSE gen_random_uuid()::text END, '{}'::jsonb,
            $4::timestamptz - ((g / $5::int) || ' milliseconds')::interval,
            CASE WHEN g % 7 = 0 THEN '94577403194' END
     FROM generate_series(1, $6::int) AS g`,
    accountId,
    opts.start ?? 0,
    opts.prefix ?? "P1",
    opts.newest ?? "2026-11-20T12:00:00Z",
    opts.tie ?? 3,
    n,
  );
}

function insertEInvoices(accountId: string, n: number, opts: { start?: number; newest?: string } = {}) {
  return sql(
    `INSERT INTO "EInvoice" (id, "accountId", number, "documentType", "sellerOib", "buyerOib", "issueDate", currency, "totalNet", "totalTax", "totalGross", ubl, status, request, "createdAt", "intermediaryId", rejection)
     SELECT gen_random_uuid(), $1::uuid, 'E-' || ($2::int + g), CASE WHEN g % 5 = 0 THEN '381' ELSE '380' END, '${VALID_OIB}',
            CASE WHEN g % 3 = 0 THEN '94577403194' ELSE '${VALID_OIB}' END,
            to_char(date '2026-01-01' + (g % 300), 'YYYY-MM-DD'), 'EUR', 100, 25, 125, '<Invoice/>',
            CASE WHEN g % 4 = 0 THEN 'rejected' ELSE 'accepted' END, '{}'::jsonb,
            $3::timestamptz - ((g / 2) || ' milliseconds')::interval,
            CASE WHEN g % 4 = 0 THEN NULL ELSE gen_random_uuid()::text END,
            CASE WHEN g % 4 = 0 THEN '{"message":"BR-CL-23","rules":["BR-CL-23"]}'::jsonb END
     FROM generate_series(1, $4::int) AS g`,
    accountId,
    opts.start ?? 0,
    opts.newest ?? "2026-11-20T12:00:00Z",
    n,
  );
}

async function walk(path: string, key: string, query: Record<string, string> = {}) {
  const ids: string[] = [];
  const created: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const qs = new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) });
    const res = await call(h.url, "GET", `${path}?${qs}`, { key });
    expect(res.status, res.text).toBe(200);
    for (const d of res.body.data) {
      ids.push(d.id);
      created.push(d.created_at);
    }
    expect(res.body.has_more).toBe(res.body.next_cursor !== null);
    cursor = res.body.next_cursor;
    pages++;
  } while (cursor);
  return { ids, created, pages };
}

describe("paging", () => {
  it("pages through 10,000 receipts with no duplicate and no gap while receipts are inserted", async () => {
    await insertInvoices(a.id, 10_000);
    await insertInvoices(b.id, 50, { prefix: "B" });
    const initial = new Set((await h.api.services.db.invoice.findMany({ where: { accountId: a.id }, select: { id: true } })).map((r) => r.id));
    expect(initial.size).toBe(10_000);

    // While the walk runs: new receipts (newer than every page) and back-dated ones (inside the range).
    let stop = false;
    let inserted = 0;
    const writer = (async () => {
      for (let round = 0; !stop; round++) {
        await insertInvoices(a.id, 20, { start: 100_000 + round * 40, newest: new Date().toISOString(), prefix: "NEW" });
        await insertInvoices(a.id, 20, { start: 100_020 + round * 40, newest: `2026-11-20T11:59:${String(59 - (round % 50)).padStart(2, "0")}.5Z`, tie: 1, prefix: "OLD" });
        inserted += 40;
      }
    })();
    const { ids, created, pages } = await walk("/v1/invoices", a.key, { limit: "100" });
    stop = true;
    await writer;

    expect(inserted).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    const missing = [...initial].filter((id) => !ids.includes(id));
    expect(missing).toEqual([]);
    expect(pages).toBeGreaterThanOrEqual(100);
    // Newest first: created_at never increases along the walk.
    for (let i = 1; i < created.length; i++) expect(created[i]! <= created[i - 1]!).toBe(true);
    // Only the caller's receipts.
    const foreign = await h.api.services.db.invoice.count({ where: { id: { in: ids }, accountId: { not: a.id } } });
    expect(foreign).toBe(0);
  }, 120_000);

  it("pages through e-invoices on tRPC with the same cursors", async () => {
    await insertEInvoices(a.id, 1_000);
    const trpc = trpcClient(h.url, a.key);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await trpc.einvoices.list.query({ limit: 100, ...(cursor ? { cursor } : {}) });
      seen.push(...res.data.map((d) => d.id));
      if (!res.next_cursor) break;
      cursor = res.next_cursor;
    }
    expect(seen.length).toBe(1_000);
    expect(new Set(seen).size).toBe(1_000);
  });
});

describe("filters", () => {
  let c: { id: string; key: string };
  beforeAll(async () => {
    c = await h.account({ plan: "ENTERPRISE", custom: big, name: "Lists C d.o.o." });
    await insertInvoices(c.id, 300, { prefix: "F1" });
    await insertEInvoices(c.id, 300, { start: 50_000 });
  });
  const db = () => h.api.services.db;

  it("filters receipts by status, number, premises, buyer OIB and period (Zagreb days)", async () => {
    expect((await walk("/v1/invoices", c.key, { status: "pending" })).ids.length).toBe(30);
    expect((await walk("/v1/invoices", c.key, { buyer_oib: "94577403194" })).ids.length).toBe(42);
    const one = await walk("/v1/invoices", c.key, { number: "17" });
    expect(one.ids).toEqual([(await db().invoice.findFirstOrThrow({ where: { accountId: c.id, number: "17" } })).id]);
    expect((await walk("/v1/invoices", c.key, { premises: "NONE" })).ids.length).toBe(0);
    // Issued from 2026-11-01 10:01 +01 one per minute: 2026-11-01 (Zagreb) holds g = 1…839 (until 23:59).
    const day = await walk("/v1/invoices", c.key, { from: "2026-11-01", to: "2026-11-01", limit: "100" });
    expect(day.ids.length).toBe(300);
    expect((await walk("/v1/invoices", c.key, { from: "2026-11-02" })).ids.length).toBe(0);
  });

  it("filters e-invoices by status, document type, buyer OIB, number, period and direction", async () => {
    const count = (where: object) => db().eInvoice.count({ where: { accountId: c.id, ...where } });
    expect((await walk("/v1/einvoices", c.key, { status: "rejected" })).ids.length).toBe(await count({ status: "rejected" }));
    expect((await walk("/v1/einvoices", c.key, { document_type: "381" })).ids.length).toBe(60);
    expect((await walk("/v1/einvoices", c.key, { buyer_oib: "94577403194" })).ids.length).toBe(100);
    expect((await walk("/v1/einvoices", c.key, { number: "E-50005" })).ids.length).toBe(1);
    const period = await walk("/v1/einvoices", c.key, { from: "2026-02-01", to: "2026-02-28" });
    expect(period.ids.length).toBe(await count({ issueDate: { gte: "2026-02-01", lte: "2026-02-28" } }));
    expect(period.ids.length).toBeGreaterThan(0);
    expect((await walk("/v1/einvoices", c.key, { direction: "received" })).ids.length).toBe(0);
    const first = await call(h.url, "GET", "/v1/einvoices?limit=1&status=accepted", { key: c.key });
    expect(first.body.data[0]).toMatchObject({ direction: "issued", status: "accepted", fiscalization_status: "pending" });
    expect(first.body.data[0].ubl).toBeUndefined();
  });

  it("refuses a cursor made with other filters, a forged cursor and bad filters with 400 validation_error", async () => {
    const first = await call(h.url, "GET", "/v1/invoices?limit=5&status=fiscalized", { key: c.key });
    const cursor = first.body.next_cursor as string;
    const other = await call(h.url, "GET", `/v1/invoices?limit=5&status=pending&cursor=${cursor}`, { key: c.key });
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe("validation_error");
    expect(other.body.error.message).toContain("drugim filtrima");
    // Another limit with the same filters is fine.
    expect((await call(h.url, "GET", `/v1/invoices?limit=7&status=fiscalized&cursor=${cursor}`, { key: c.key })).status).toBe(200);
    const forged = Buffer.from(JSON.stringify({ t: new Date().toISOString(), i: randomUUID(), f: "x" })).toString("base64url");
    for (const q of [`cursor=${forged}`, "cursor=abc", "limit=0", "limit=101", "from=2026-13-01", "from=2026-05-02&to=2026-05-01", "status=done", "unknown=1"]) {
      const res = await call(h.url, "GET", `/v1/invoices?${q}`, { key: c.key });
      expect(res.status, q).toBe(400);
      expect(res.body.error.code, q).toBe("validation_error");
    }
    expect((await call(h.url, "GET", "/v1/einvoices?document_type=999", { key: c.key })).status).toBe(400);
  });

  it("counts against the plan's windows only, not an endpoint group's", async () => {
    const res = await call(h.url, "GET", "/v1/invoices?limit=1", { key: c.key });
    expect(res.status).toBe(200);
    const policy = res.headers.get("ratelimit-policy") ?? "";
    expect(policy).toContain('"minute"');
    expect(policy).not.toContain("endpoint:");
  });
});

describe("period bounds", () => {
  it("refuses days outside 2000–2099 with 400, on the lists and the export", async () => {
    const { key } = await h.account({ plan: "ENTERPRISE", custom: big, name: "Lists D d.o.o." });
    for (const path of ["/v1/invoices?to=9999-12-31", "/v1/einvoices?from=1999-12-31", "/v1/archive/export?from=2026-01-01&to=9999-12-31"]) {
      const res = await call(h.url, "GET", path, { key });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code, path).toBe("validation_error");
    }
  });
});
