// reporting.due: 5 days before the 20th, once per account and month, for a month with delivered
// e-invoices whose payment or rejection is not reported; signed delivery to a subscribed endpoint,
// and the notice the portal shows in the same days.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhooks } from "@fiskal/webhooks";
import { duePeriod, reportingNotice, warnReportingDue } from "../src/procedures/einvoices/reporting-due.ts";
import { startHarness, VALID_OIB, type Harness } from "./harness.ts";

let h: Harness;
let hooks: ReturnType<typeof createWebhooks>;
let receiver: Server;
const received: { headers: IncomingHttpHeaders; body: any }[] = [];
let late: { id: string };
let done: { id: string };

const at = (iso: string) => new Date(iso);
const db = () => h.api.services.db;

function einvoices(accountId: string, prefix: string, issueDates: string[]) {
  return Promise.all(
    issueDates.map((issueDate, i) =>
      db().eInvoice.create({
        data: { accountId, number: `${prefix}-${i}`, sellerOib: VALID_OIB, buyerOib: "94577403194", issueDate, currency: "EUR", totalNet: 100, totalTax: 25, totalGross: 125, ubl: "<Invoice/>", status: "accepted", intermediaryId: `im-${prefix}-${i}`, request: {} },
      }),
    ),
  );
}

beforeAll(async () => {
  h = await startHarness();
  receiver = createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body: JSON.parse(text) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hooks = createWebhooks({ db: db(), databaseUrl: h.databaseUrl, allowPrivate: true });
  await hooks.ready();
  late = await h.account({ name: "Kasni d.o.o." });
  done = await h.account({ name: "Uredni d.o.o." });
  const created = await hooks.endpoints.create(late.id, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, eventTypes: ["reporting.due"] });
  if (!created.ok) throw new Error(created.message);
  await hooks.startWorker();
  // November: two delivered e-invoices of "late", one with its payment reported; "done" reported everything.
  const [, paid] = await einvoices(late.id, "K", ["2026-11-03", "2026-11-28"]);
  await einvoices(late.id, "KD", ["2026-12-02"]);
  const [own] = await einvoices(done.id, "U", ["2026-11-10"]);
  for (const e of [paid!, own!]) {
    await db().eInvoiceReport.create({ data: { accountId: e.accountId, eInvoiceId: e.id, kind: "payment", status: "recorded", requestId: crypto.randomUUID(), data: {} } });
  }
});
afterAll(async () => {
  await hooks?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await h?.close();
});

describe("the deadline calendar", () => {
  it("warns from the 15th to the 20th (Zagreb) for the previous month", () => {
    expect(duePeriod(at("2026-12-14T22:59:59Z"))).toBeNull(); // 23:59:59 on the 14th in Zagreb
    expect(duePeriod(at("2026-12-14T23:00:00Z"))).toEqual({ period: "2026-11", deadline: "2026-12-20" });
    expect(duePeriod(at("2026-12-20T22:59:59Z"))).toEqual({ period: "2026-11", deadline: "2026-12-20" });
    expect(duePeriod(at("2026-12-20T23:00:00Z"))).toBeNull();
    expect(duePeriod(at("2027-01-16T12:00:00Z"))).toEqual({ period: "2026-12", deadline: "2027-01-20" });
  });
});

describe("reporting.due", () => {
  it("fires once per period for the account with unreported e-invoices, and is delivered signed", async () => {
    expect(await warnReportingDue(db(), hooks, at("2026-12-14T12:00:00Z"))).toBe(0);
    // Three instances at once on the 15th, then again on the 16th: one event.
    const runs = await Promise.all([1, 2, 3].map(() => warnReportingDue(db(), hooks, at("2026-12-15T08:00:00Z"))));
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await warnReportingDue(db(), hooks, at("2026-12-16T08:00:00Z"))).toBe(0);
    const events = await db().webhookEvent.findMany({ where: { type: "reporting.due" } });
    expect(events.map((e) => [e.accountId, e.dedupeKey])).toEqual([[late.id, "reporting.due:2026-11"]]);
    const data = (events[0]!.payload as { data: Record<string, unknown> }).data;
    expect(data).toMatchObject({ account_id: late.id, period: "2026-11", deadline: "2026-12-20", unreported_einvoices: 1 });
    expect(data.examples).toEqual([expect.objectContaining({ number: "K-0", issue_date: "2026-11-03" })]);

    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    expect(received[0]!.body).toMatchObject({ type: "reporting.due", data: { period: "2026-11" } });
    expect(received[0]!.headers["webhook-signature"]).toMatch(/^v1,/);
  });

  it("shows the portal notice during the warning days only, and fires again for the next month", async () => {
    expect(await reportingNotice(db(), late.id, at("2026-12-17T10:00:00Z"))).toMatchObject({ period: "2026-11", unreported_einvoices: 1 });
    expect(await reportingNotice(db(), done.id, at("2026-12-17T10:00:00Z"))).toBeNull();
    expect(await reportingNotice(db(), late.id, at("2026-12-21T10:00:00Z"))).toBeNull();
    expect(await warnReportingDue(db(), hooks, at("2027-01-15T10:00:00Z"))).toBe(1);
    expect(await warnReportingDue(db(), hooks, at("2027-01-19T10:00:00Z"))).toBe(0);
    const keys = (await db().webhookEvent.findMany({ where: { accountId: late.id, type: "reporting.due" }, orderBy: { createdAt: "asc" } })).map((e) => e.dedupeKey);
    expect(keys).toEqual(["reporting.due:2026-11", "reporting.due:2026-12"]);
  });
});
