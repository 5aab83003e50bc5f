import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@fiskal/db";
import { createAccount } from "./accounts.ts";
import { GENESIS, chainHash } from "./archive/chain.ts";
import { completeRejectionReport, decideReceivedEInvoice, inboxAccounts, ReceivedEInvoiceError, storeReceivedEInvoice } from "./received.ts";
import { createTestDatabase } from "./testing.ts";

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../reference/examples");
const SELLER = "69435151530";
const BUYER = "94577403194";
const example = readFileSync(path.join(EXAMPLES, "eRacun_PDV25.xml"), "utf8").replace(/2025-(\d\d)-/g, (_, m: string) => `2026-${String(Number(m) - 2).padStart(2, "0")}-`).replace(/12345678901/g, SELLER).replace(/11111111119/g, BUYER);
const validation = { valid: true, checked: ["xsd", "en16931", "hr-cius"], violations: [] };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let accountId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, { max: 4 });
  accountId = (await createAccount(db, { name: "Kupac d.o.o.", oib: BUYER })).id;
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

async function chainIsWhole(): Promise<number> {
  const entries = await db.archiveEntry.findMany({ where: { accountId }, orderBy: { seq: "asc" } });
  let prev = GENESIS;
  entries.forEach((e, i) => {
    expect(e.seq).toBe(i + 1);
    expect(e.prevHash).toBe(prev);
    expect(e.chainHash).toBe(chainHash({ prevHash: prev, seq: e.seq, name: e.name, sha256: e.sha256 }));
    prev = e.chainHash;
  });
  return entries.length;
}

describe("received e-invoices", () => {
  it("stores a delivery once with its archive entries; the recipient's OIB decides the account", async () => {
    const first = await storeReceivedEInvoice(db, { accountId, messageId: "m-1", recipientOib: BUYER, ubl: example, validation });
    expect(first.created).toBe(true);
    expect(first.row).toMatchObject({ number: "1-P1-1", sellerOib: SELLER, buyerOib: BUYER, issueDate: "2026-10-01", validationStatus: "valid", status: "received" });
    const again = await storeReceivedEInvoice(db, { accountId, messageId: "m-1", recipientOib: BUYER, ubl: example, validation });
    expect(again).toEqual({ row: first.row, created: false });
    expect(await db.receivedEInvoice.count({ where: { accountId } })).toBe(1);
    expect(await chainIsWhole()).toBe(2);
    expect(await inboxAccounts(db)).toContainEqual({ accountId, oib: BUYER });
  });

  it("a document that is not UBL, or not addressed to the recipient, is kept as invalid", async () => {
    const garbage = await storeReceivedEInvoice(db, { accountId, messageId: "m-2", recipientOib: BUYER, ubl: "<nije/>", validation });
    expect(garbage.row).toMatchObject({ validationStatus: "invalid", number: null });
    const other = await storeReceivedEInvoice(db, { accountId, messageId: "m-3", recipientOib: "33445566771", ubl: example, validation });
    expect(other.row.validationStatus).toBe("invalid");
    expect((other.row.validation as { violations: { rule: string }[] }).violations.map((v) => v.rule)).toContain("FISKAL-RECIPIENT");
  });

  it("rejects with a pending report, refuses a second decision, and allows a new rejection after a refused report", async () => {
    const { row } = await storeReceivedEInvoice(db, { accountId, messageId: "m-4", recipientOib: BUYER, ubl: example, validation });
    const bad = await decideReceivedEInvoice(db, { accountId, id: row.id, decision: "rejected", reasonType: "X", reason: " ", actor: "test" }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ReceivedEInvoiceError);
    expect((bad as ReceivedEInvoiceError).problems.map((p) => p.path)).toEqual(["reason_type", "reason"]);
    const rejected = await decideReceivedEInvoice(db, { accountId, id: row.id, decision: "rejected", reasonType: "U", reason: "Pogrešna stopa PDV-a", rejectedOn: "2026-10-02", actor: "test", now: new Date("2026-10-03T10:00:00Z") });
    expect(rejected).toMatchObject({ status: "rejected", rejectionReportStatus: "pending", rejectionReasonType: "U", rejectionDate: "2026-10-02" });
    await expect(decideReceivedEInvoice(db, { accountId, id: row.id, decision: "accepted", actor: "test" })).rejects.toMatchObject({ reason: "already_decided" });
    await completeRejectionReport(db, row.id, rejected.rejectionReportRequestId!, { status: "refused", error: "S005" });
    const again = await decideReceivedEInvoice(db, { accountId, id: row.id, decision: "rejected", reasonType: "N", reason: "Ispravljeno", rejectedOn: "2026-10-02", actor: "test", now: new Date("2026-10-03T10:00:00Z") });
    expect(again.rejectionReportStatus).toBe("pending");
    expect(again.rejectionReportRequestId).not.toBe(rejected.rejectionReportRequestId);
    expect(await chainIsWhole()).toBe(11); // 2 + 2×2 + 2 + rejection, report, rejection
  });

  it("another account cannot decide it", async () => {
    const { row } = await storeReceivedEInvoice(db, { accountId, messageId: "m-5", recipientOib: BUYER, ubl: example, validation });
    const other = await createAccount(db, { name: "Netko drugi" });
    await expect(decideReceivedEInvoice(db, { accountId: other.id, id: row.id, decision: "accepted", actor: "test" })).rejects.toMatchObject({ reason: "not_found" });
  });
});
