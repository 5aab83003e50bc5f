// Auto-paging iterators against the real API: every document once, in order, one request per page,
// filters kept on every page, and no further request after the loop stops.
import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "@fiskal/api";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import { allEInvoices, allInvoices, allReceivedEInvoices, FiskalClient, listInvoices } from "../src/index.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const VALID_OIB = "69435151530";

let api: RunningApi;
let dropDatabase: () => Promise<void>;
let accountId: string;
let key: string;
const requested: string[] = [];
let fiskal: FiskalClient;

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
  const acct = await createAccount(api.services.db, { name: "Stranice d.o.o.", plan: "ENTERPRISE", custom: { burst: 500, perMinute: 5_000, perDay: 100_000 } });
  accountId = acct.id;
  key = (await createApiKey(api.services.db, acct.id, "pagination")).key;
  await api.services.db.$executeRawUnsafe(
    `INSERT INTO "Invoice" (id, "accountId", oib, number, premises, device, "issuedAt", total, "paymentMethod", zki, status, jir, request, "createdAt")
     SELECT gen_random_uuid(), $1::uuid, '${VALID_OIB}', g::text, 'PG1', '1', timestamptz '2026-11-02 09:00:00+01' + (g || ' minutes')::interval, 5.00, 'G', md5(g::text),
            CASE WHEN g % 5 = 0 THEN 'pending' ELSE 'fiscalized' END, CASE WHEN g % 5 = 0 THEN NULL ELSE gen_random_uuid()::text END, '{}'::jsonb,
            timestamptz '2026-11-20 12:00:00Z' - (g || ' milliseconds')::interval
     FROM generate_series(1, 250) AS g`,
    accountId,
  );
  await api.services.db.$executeRawUnsafe(
    `INSERT INTO "EInvoice" (id, "accountId", number, "sellerOib", "issueDate", currency, "totalNet", "totalTax", "totalGross", ubl, status, request, "intermediaryId")
     SELECT gen_random_uuid(), $1::uuid, 'PG-' || g, '${VALID_OIB}', '2026-11-02', 'EUR', 100, 25, 125, '<Invoice/>', 'accepted', '{}'::jsonb, gen_random_uuid()::text
     FROM generate_series(1, 30) AS g`,
    accountId,
  );
  // Received e-invoices, as the inbox job stores them (the UBL is not read back here).
  await api.services.db.$executeRawUnsafe(
    `INSERT INTO "ReceivedEInvoice" (id, "accountId", "messageId", number, "documentType", "sellerOib", "buyerOib", "issueDate", currency, ubl, "ublSha256", "validationStatus", validation, "createdAt")
     SELECT gen_random_uuid(), $1::uuid, 'msg-' || g, 'UL-' || g, '380', '${VALID_OIB}', '94577403194', '2026-11-02', 'EUR', '<Invoice/>', md5(g::text), 'valid', '{"checked":["xsd"],"violations":[]}'::jsonb,
            timestamptz '2026-11-20 12:00:00Z' - (g || ' milliseconds')::interval
     FROM generate_series(1, 12) AS g`,
    accountId,
  );
  fiskal = new FiskalClient({
    apiKey: key,
    baseUrl: api.url,
    fetch: (input, init) => {
      requested.push(String(input));
      return fetch(input, init);
    },
  });
});

afterAll(async () => {
  await fiskal?.close();
  await api?.close();
  await dropDatabase?.();
});

describe("auto-paging", () => {
  it("yields every receipt once, newest first, one request per page of 100", async () => {
    requested.length = 0;
    const numbers: string[] = [];
    for await (const invoice of allInvoices(fiskal)) numbers.push(invoice.number);
    expect(numbers).toEqual(Array.from({ length: 250 }, (_, i) => String(i + 1)));
    expect(requested.filter((u) => u.includes("/v1/invoices"))).toHaveLength(3);
  });

  it("keeps the filters on every page and the chosen page size", async () => {
    requested.length = 0;
    const pending: string[] = [];
    for await (const invoice of allInvoices(fiskal, { status: "pending", limit: 20 })) pending.push(invoice.status);
    expect(pending).toHaveLength(50);
    expect(new Set(pending)).toEqual(new Set(["pending"]));
    const pages = requested.filter((u) => u.includes("/v1/invoices"));
    expect(pages).toHaveLength(3);
    for (const url of pages) expect(new URL(url).searchParams.get("status")).toBe("pending");
  });

  it("fetches no further page after the loop stops", async () => {
    requested.length = 0;
    let seen = 0;
    for await (const invoice of allInvoices(fiskal, { limit: 50 })) {
      expect(invoice.id).toBeTruthy();
      if (++seen === 60) break;
    }
    expect(requested).toHaveLength(2);
  });

  it("continues from a cursor of a single page, and pages e-invoices", async () => {
    const first = await listInvoices(fiskal, { limit: 100 });
    expect(first.has_more).toBe(true);
    const rest: string[] = [];
    for await (const invoice of allInvoices(fiskal, { cursor: first.next_cursor! })) rest.push(invoice.number);
    expect(rest).toEqual(Array.from({ length: 150 }, (_, i) => String(i + 101)));
    const einvoices: string[] = [];
    for await (const e of allEInvoices(fiskal, { limit: 7 })) einvoices.push(`${e.direction}:${e.number}`);
    expect(new Set(einvoices).size).toBe(30);
    expect(einvoices.every((e) => e.startsWith("issued:PG-"))).toBe(true);
  });

  it("pages received e-invoices, and accepts or rejects one", async () => {
    requested.length = 0;
    const received: string[] = [];
    for await (const e of allReceivedEInvoices(fiskal, { limit: 5 })) received.push(e.number ?? "");
    expect(received).toEqual(Array.from({ length: 12 }, (_, i) => `UL-${i + 1}`));
    expect(requested.map((u) => new URL(u).searchParams.get("direction"))).toEqual(["received", "received", "received"]);

    const [first, second] = await Promise.all(["UL-1", "UL-2"].map((number) => api.services.db.receivedEInvoice.findFirstOrThrow({ where: { accountId, number } })));
    const accepted = await fiskal.acceptEInvoice(first!.id);
    expect(accepted).toMatchObject({ id: first!.id, direction: "received", status: "accepted" });
    const report = await fiskal.rejectEInvoice(second!.id, { rejected_on: "2026-11-03", reason_type: "N", reason: "Pogrešan broj narudžbe." });
    expect(report).toMatchObject({ einvoice_id: second!.id, kind: "rejection", status: "recorded", data: { vrstaRazlogaOdbijanja: "N" } });
    const got = await fiskal.getEInvoice(second!.id);
    expect(got.direction === "received" && got.status).toBe("rejected");
    const pending: string[] = [];
    for await (const e of allReceivedEInvoices(fiskal, { status: "received" })) pending.push(e.id);
    expect(pending).toHaveLength(10);
  });
});
