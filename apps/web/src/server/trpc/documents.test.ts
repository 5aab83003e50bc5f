// The Dokumenti page's procedures against a real PostgreSQL database: the account's own documents
// only, newest first with keyset pages, filters, a document's detail with its QR code, roles, and
// the eIzvještavanje notice while its deadline is ahead; received e-invoices listed, shown and decided
// (owner and developer; an accountant reads only), each decision in the audit log.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createAccount, storeReceivedEInvoice } from "@fiskal/accounts";
import { describe, expect, it } from "vitest";
import { createCaller } from "./root";
import { usePortalTestDatabase } from "./testing";

const portal = usePortalTestDatabase({ rateLimit: "webdocs" });

let seq = 0;
async function member(role: "OWNER" | "DEVELOPER" | "ACCOUNTANT" = "OWNER", existing?: { id: string }) {
  const account = existing ?? (await createAccount(portal.db, { name: `Dokumenti ${++seq}` }));
  seq++;
  const u = await portal.db.user.create({ data: { email: `d${seq}-${Date.now()}@primjer.hr`, passwordHash: "x", role: "CUSTOMER", accountId: account.id } });
  await portal.db.membership.upsert({ where: { userId_accountId: { userId: u.id, accountId: account.id } }, update: { role }, create: { userId: u.id, accountId: account.id, role } });
  const caller = createCaller({ db: portal.db, session: { user: { id: u.id, email: u.email, role: "CUSTOMER", accountId: account.id }, expires: "2999-01-01T00:00:00Z" }, headers: new Headers() });
  return { account, caller };
}

async function einvoices(accountId: string, prefix: string, n: number) {
  for (let i = 0; i < n; i++) {
    await portal.db.eInvoice.create({
      data: { accountId, number: `${prefix}-${i}`, sellerOib: "69435151530", buyerOib: i % 2 ? "94577403194" : null, issueDate: `2026-11-${String(1 + (i % 28)).padStart(2, "0")}`, currency: "EUR", totalNet: 100, totalTax: 25, totalGross: 125, ubl: "<Invoice/>", status: "accepted", intermediaryId: `im-${prefix}-${i}`, request: {}, createdAt: new Date(Date.UTC(2026, 10, 20, 10, 0, i)) },
    });
  }
}

describe("documents", () => {
  it("pages through the account's own e-invoices, newest first, and filters them", async () => {
    const a = await member();
    const b = await member();
    await einvoices(a.account.id, "A", 30);
    await einvoices(b.account.id, "B", 3);
    const first = await a.caller.documents.list({ kind: "einvoices" });
    expect(first.items).toHaveLength(25);
    expect(first.items[0]!.number).toBe("A-29");
    const second = await a.caller.documents.list({ kind: "einvoices", cursor: first.next! });
    expect(second.items.map((d) => d.number)).toEqual(["A-4", "A-3", "A-2", "A-1", "A-0"]);
    expect(second.next).toBeNull();
    expect((await a.caller.documents.list({ kind: "einvoices", buyerOib: "94577403194" })).items).toHaveLength(15);
    expect((await a.caller.documents.list({ kind: "einvoices", number: "B-1" })).items).toHaveLength(0);
    expect((await a.caller.documents.list({ kind: "einvoices", from: "2026-11-01", to: "2026-11-02" })).items).toHaveLength(4);
    await expect(a.caller.documents.list({ kind: "einvoices", from: "2026-11-03", to: "2026-11-01" })).rejects.toThrow(/nakon/);
    await expect(a.caller.documents.list({ kind: "einvoices", cursor: "nope" })).rejects.toThrow(/Neispravna stranica/);
    const own = await portal.db.eInvoice.findFirstOrThrow({ where: { accountId: b.account.id } });
    await expect(a.caller.documents.einvoice({ id: own.id })).rejects.toThrow(/ne postoji/);
    expect((await b.caller.documents.einvoice({ id: own.id })).number).toBe(own.number);
  });

  it("shows a receipt with its JIR and QR code to an accountant too", async () => {
    const a = await member("ACCOUNTANT");
    const r = await portal.db.invoice.create({
      data: { accountId: a.account.id, oib: "69435151530", number: "7", premises: "P1", device: "1", issuedAt: new Date("2026-11-20T09:00:00Z"), total: 10, paymentMethod: "G", zki: "a".repeat(32), status: "fiscalized", jir: "b5c0c6b6-3f1a-4a5e-9b1e-2a7f0c9d1e21", request: {} },
    });
    const listed = await a.caller.documents.list({ kind: "receipts" });
    expect(listed.items.map((d) => [d.number, d.fiscalization])).toEqual([["7/P1/1", "fiscalized"]]);
    const detail = await a.caller.documents.receipt({ id: r.id });
    expect(detail.qrUrl).toContain("jir=b5c0c6b6-3f1a-4a5e-9b1e-2a7f0c9d1e21");
    expect(detail.qrSvg).toMatch(/^<svg|<\?xml/);
  });

  it("filters receipts by Zagreb calendar days, also on the days the clocks change", async () => {
    const a = await member();
    const receipt = (number: string, issuedAt: string) =>
      portal.db.invoice.create({ data: { accountId: a.account.id, oib: "69435151530", number, premises: "DST", device: "1", issuedAt: new Date(issuedAt), total: 10, paymentMethod: "G", zki: "c".repeat(32), status: "pending", request: {} } });
    // 29 March 2026 in Zagreb runs from 28 March 23:00 UTC (CET) to 29 March 22:00 UTC (CEST): 23 hours.
    await receipt("1", "2026-03-28T22:59:59Z");
    await receipt("2", "2026-03-28T23:00:00Z");
    await receipt("3", "2026-03-29T21:59:59Z");
    await receipt("4", "2026-03-29T22:00:00Z");
    // 25 October 2026 runs from 24 October 22:00 UTC (CEST) to 25 October 23:00 UTC (CET): 25 hours.
    await receipt("5", "2026-10-24T21:59:59Z");
    await receipt("6", "2026-10-24T22:00:00Z");
    await receipt("7", "2026-10-25T22:59:59Z");
    await receipt("8", "2026-10-25T23:00:00Z");
    const day = async (d: string) => (await a.caller.documents.list({ kind: "receipts", from: d, to: d })).items.map((r) => [r.number, r.issued]);
    expect(await day("2026-03-29")).toEqual([["3/DST/1", "2026-03-29"], ["2/DST/1", "2026-03-29"]]);
    expect(await day("2026-10-25")).toEqual([["7/DST/1", "2026-10-25"], ["6/DST/1", "2026-10-25"]]);
  });

  it("shows the reporting notice until its deadline", async () => {
    const a = await member();
    expect(await a.caller.documents.reportingNotice()).toBeNull();
    const deadline = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const event = (key: string, due: string) =>
      portal.db.webhookEvent.create({ data: { id: `msg_${key}_${seq}`, accountId: a.account.id, type: "reporting.due", dedupeKey: key, payload: { type: "reporting.due", timestamp: new Date().toISOString(), data: { account_id: a.account.id, period: "2026-11", deadline: due, unreported_einvoices: 4, examples: [] } } } });
    await event("reporting.due:old", deadline(-30));
    expect(await a.caller.documents.reportingNotice()).toBeNull();
    await event("reporting.due:now", deadline(2));
    expect(await a.caller.documents.reportingNotice()).toMatchObject({ period: "2026-11", unreported_einvoices: 4 });
  });
});

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../../reference/examples");
const SELLER = "69435151530";
const BUYER = "94577403194";
const ubl = (number: string) =>
  readFileSync(path.join(EXAMPLES, "eRacun_PDV25.xml"), "utf8")
    .replace(/2025-(\d\d)-/g, (_, m: string) => `2026-${String(Number(m) - 2).padStart(2, "0")}-`)
    .replace(/12345678901/g, SELLER)
    .replace(/11111111119/g, BUYER)
    .replace(/<cbc:ID>1-P1-1<\/cbc:ID>/, `<cbc:ID>${number}</cbc:ID>`);

describe("received e-invoices", () => {
  it("lists and shows them; owners and developers accept or reject, an accountant only reads; each decision is audited", async () => {
    const owner = await member("OWNER");
    const developer = await member("DEVELOPER", owner.account);
    const accountant = await member("ACCOUNTANT", owner.account);
    const other = await member("OWNER");
    const validation = { valid: true, checked: ["xsd", "en16931", "hr-cius"], violations: [] };
    const store = (number: string) => storeReceivedEInvoice(portal.db, { accountId: owner.account.id, messageId: `msg-${number}`, recipientOib: BUYER, ubl: ubl(number), validation }).then((r) => r.row);
    const a = await store("PR-1");
    const b = await store("PR-2");

    const listed = await accountant.caller.documents.list({ kind: "received" });
    expect(listed.items.map((d) => [d.number, d.sellerOib, d.status, d.validation])).toEqual([
      ["PR-2", SELLER, "received", "valid"],
      ["PR-1", SELLER, "received", "valid"],
    ]);
    expect((await owner.caller.documents.list({ kind: "received", sellerOib: BUYER })).items).toHaveLength(0);
    expect((await owner.caller.documents.list({ kind: "received", number: "PR-1" })).items).toHaveLength(1);
    expect((await other.caller.documents.list({ kind: "received" })).items).toHaveLength(0);
    await expect(other.caller.documents.received({ id: a.id })).rejects.toThrow(/ne postoji/);

    const seen = await accountant.caller.documents.received({ id: a.id });
    expect(seen).toMatchObject({ number: "PR-1", validationStatus: "valid", status: "received", decidable: true, canDecide: false });
    await expect(accountant.caller.documents.decide({ id: a.id, decision: "accepted" })).rejects.toThrow(/Uloga „računovođa” nema pravo/);
    await expect(other.caller.documents.decide({ id: a.id, decision: "accepted" })).rejects.toThrow(/ne postoji/);
    expect((await portal.db.receivedEInvoice.findUniqueOrThrow({ where: { id: a.id } })).status).toBe("received");

    expect(await developer.caller.documents.decide({ id: a.id, decision: "accepted" })).toEqual({ ok: true, status: "accepted" });
    const again = await owner.caller.documents.decide({ id: a.id, decision: "rejected", reasonType: "U", reason: "Kasno" });
    expect(again).toMatchObject({ ok: false, reason: "already_decided" });

    const bad = await owner.caller.documents.decide({ id: b.id, decision: "rejected", reasonType: "X", reason: "  " });
    expect(bad.ok ? [] : bad.problems.map((p) => p.path)).toEqual(["reason_type", "reason"]);
    expect(await owner.caller.documents.decide({ id: b.id, decision: "rejected", reasonType: "U", reason: "Pogrešna stopa PDV-a" })).toEqual({ ok: true, status: "rejected" });
    expect(await owner.caller.documents.received({ id: b.id })).toMatchObject({ status: "rejected", rejectionReasonType: "U", rejectionReason: "Pogrešna stopa PDV-a", rejectionReportStatus: "pending", decidable: false, canDecide: true });

    const entries = await portal.db.auditLog.findMany({ where: { accountId: owner.account.id, action: { startsWith: "einvoice." } }, orderBy: { createdAt: "asc" } });
    expect(entries.map((e) => [e.action, e.target, (e.detail as { reasonType?: string }).reasonType ?? null])).toEqual([
      ["einvoice.accepted", "PR-1", null],
      ["einvoice.rejected", "PR-2", "U"],
    ]);
  });
});
