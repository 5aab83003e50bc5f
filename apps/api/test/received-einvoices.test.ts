// Incoming e-invoices end to end, against real PostgreSQL, the official validators (UBL 2.1 XSD,
// EN 16931, HR CIUS), the local Fiscalization 2.0 double and xmlsec1: the intermediary simulator
// delivers an official example to an account's OIB → the inbox job receives, validates and archives
// it (the export verifies) → records it with the tax authority as type U → the recipient rejects it;
// each message valid per its XSD and its signature verified; the webhooks reach a real receiver,
// signed. Also: an invalid document is kept and reported, a redelivery is stored once, and only the
// recipient can reject.
import { createHmac } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideReceivedEInvoice, readZip } from "@fiskal/accounts";
import { createIntermediarySimulator, EFIS_NS, EIZV_NS, type Intermediary } from "@fiskal/fiscal";
import { EFIS_XSD, EIZV_XSD, forLibxml2, startLocalCis, type LocalCis } from "@fiskal/fiscal/testing/local-cis";
import { generateSecret } from "@fiskal/webhooks";
import { verifyExport } from "../src/archive/manifest.ts";
import { call, startHarness, VALID_OIB, type Harness } from "./harness.ts";

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../reference/examples");
const SELLER = "33445566771";
const BUYER = "94577403194";

/** An official example addressed to BUYER, with valid OIBs and IBAN and its dates 10 months later (2025-12-01 → 2026-10-01), as einvoice-official.test.ts does. */
function example(name: string): string {
  return readFileSync(path.join(EXAMPLES, name), "utf8")
    .replace(/2025-(\d\d)-/g, (_, m: string) => `2026-${String(Number(m) - 2).padStart(2, "0")}-`)
    .replace(/12345678901/g, SELLER)
    .replace(/11111111119/g, BUYER)
    .replace(/HRXXXXXXXXXXXXXXXX/g, "HR1210010051863000160");
}

const sim = createIntermediarySimulator({ latencyMs: [1, 2], deliverToBuyers: true });
let failAcknowledge = 0;
const intermediary: Intermediary = {
  send: (req) => sim.send(req),
  fetchInbox: (req) => sim.fetchInbox(req),
  acknowledge: async (req) => {
    if (failAcknowledge > 0) {
      failAcknowledge--;
      throw new Error("connection reset");
    }
    return sim.acknowledge(req);
  },
};

let cis: LocalCis;
let h: Harness;
let recipient: { id: string; key: string };
let issuer: { id: string; key: string };
let receiver: Server;
let secret: string;
const hooks: { headers: IncomingHttpHeaders; text: string; body: { type: string; data: Record<string, any> } }[] = [];
let work: string;

beforeAll(async () => {
  cis = await startLocalCis();
  const trust = { ca: [cis.caPem], names: ["fiskalcistest"] };
  h = await startHarness({
    config: { intermediary, f2: { url: cis.url, ca: cis.caPem, signer: trust, timeoutMs: 3_000, connectTimeoutMs: 1_000 }, webhooks: { allowPrivate: true, worker: true } },
  });
  recipient = await h.account({ plan: "ENTERPRISE", custom: { burst: 100, perMinute: 1_000, perDay: 10_000 }, name: "Kupac d.o.o." });
  issuer = await h.account({ plan: "ENTERPRISE", custom: { burst: 100, perMinute: 1_000, perDay: 10_000 }, name: "Prodavatelj d.o.o." });
  await h.api.services.db.account.update({ where: { id: recipient.id }, data: { oib: BUYER } });
  receiver = createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString("utf8")));
    req.on("end", () => {
      hooks.push({ headers: req.headers, text, body: JSON.parse(text) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  secret = generateSecret();
  await h.api.services.db.webhookEndpoint.create({
    data: { accountId: recipient.id, url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, eventTypes: ["einvoice.received", "einvoice.fiscalized", "einvoice.rejected"], secret },
  });
  work = mkdtempSync(path.join(tmpdir(), "received-"));
}, 60_000);
afterAll(async () => {
  await h?.close();
  await cis?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  if (work) rmSync(work, { recursive: true, force: true });
});

const db = () => h.api.services.db;
const job = () => h.api.services.receivedEInvoices!;

/** xmllint against the official XSD, xmlsec1 against the recipient's certificate. */
async function independentCheck(signed: string, xsd: string, ns: string, element: string): Promise<void> {
  const cert = await db().certificate.findUniqueOrThrow({ where: { accountId: recipient.id } });
  const file = path.join(work, `${element}-${Math.random().toString(16).slice(2)}.xml`);
  writeFileSync(file, signed);
  writeFileSync(`${file}.schema.xml`, forLibxml2(signed));
  writeFileSync(`${file}.pem`, cert.certPem);
  execFileSync("xmllint", ["--noout", "--path", cis.schemaPath, "--schema", xsd, `${file}.schema.xml`], { stdio: "pipe" });
  execFileSync("xmlsec1", ["--verify", "--id-attr:id", `${ns}:${element}`, "--pubkey-cert-pem", `${file}.pem`, file], { stdio: "pipe" });
}

/** Standard Webhooks: v1 = base64(HMAC-SHA256(secret, id.timestamp.body)). */
function signatureValid(hook: (typeof hooks)[number]): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${String(hook.headers["webhook-id"])}.${String(hook.headers["webhook-timestamp"])}.${hook.text}`).digest("base64");
  return String(hook.headers["webhook-signature"]).split(" ").includes(`v1,${expected}`);
}

const hooksFor = (id: string) => hooks.filter((x) => x.body.data.einvoice_id === id);

async function exportOctober(key: string): Promise<Buffer> {
  const res = await fetch(`${h.url}/v1/archive/export?from=2026-10-01&to=2026-10-31`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe("an official example e-invoice delivered to the account's OIB", () => {
  let id: string;
  const ubl = example("eRacun_PDV25.xml");

  it("is received, validated by the official validators, archived and fiscalized as type U", async () => {
    const { messageId } = sim.deliver(BUYER, ubl);
    const before = cis.requests.length;
    expect(await job().runOnce({ accountId: recipient.id })).toEqual({ stored: 1, fiscalized: 1, reported: 0 });
    expect(sim.inboxSize(BUYER)).toBe(0);

    const row = await db().receivedEInvoice.findFirstOrThrow({ where: { accountId: recipient.id, messageId } });
    id = row.id;
    expect(row).toMatchObject({ number: "1-P1-1", sellerOib: SELLER, buyerOib: BUYER, issueDate: "2026-10-01", validationStatus: "valid", status: "received", fiscalizationStatus: "recorded" });
    expect(row.ubl).toBe(ubl);
    expect((row.validation as { checked: string[] }).checked).toEqual(["xsd", "en16931", "hr-cius"]);

    const sent = cis.requests.slice(before);
    expect(sent.map((r) => r.element)).toEqual(["EvidentirajERacunZahtjev"]);
    expect(sent[0]!.error).toBeUndefined();
    expect(sent[0]!.racunZahtjev).toContain("<efis:vrstaERacuna>U</efis:vrstaERacuna>");
    expect(sent[0]!.racunZahtjev).toContain(`<efis:oibPorezniBroj>${BUYER}</efis:oibPorezniBroj>`);
    expect(row.fiscalizationRequestId).toBe(sent[0]!.jir);
    await independentCheck(sent[0]!.racunZahtjev, EFIS_XSD, EFIS_NS, "EvidentirajERacunZahtjev");
  }, 120_000);

  it("is listed with direction=received and returned by GET with its UBL and Fiscalization 2.0 state", async () => {
    const list = await call(h.url, "GET", "/v1/einvoices?direction=received", { key: recipient.key });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id, direction: "received", status: "received", number: "1-P1-1", seller_oib: SELLER, fiscalization_status: "recorded", validation: { valid: true } });
    expect(list.body.data[0]).not.toHaveProperty("ubl");
    const one = await call(h.url, "GET", `/v1/einvoices/${id}`, { key: recipient.key });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id, direction: "received", ubl, fiscalization: { status: "recorded", type: "U", attempts: 1 }, decision: null });
    // The issued list stays the issued list; another account sees nothing.
    expect((await call(h.url, "GET", "/v1/einvoices", { key: recipient.key })).body.data).toEqual([]);
    expect((await call(h.url, "GET", `/v1/einvoices/${id}`, { key: issuer.key })).status).toBe(404);
  });

  it("is in the archive export, which verifies", async () => {
    const zip = await exportOctober(recipient.key);
    const names = readZip(zip).map((f) => f.name);
    const folder = `received/2026-10/${SELLER}-1-P1-1-${id}`;
    expect(names).toEqual(expect.arrayContaining([`${folder}/invoice.xml`, `${folder}/delivery.json`, `${folder}/fiscalization.json`]));
    expect(readZip(zip).find((f) => f.name === `${folder}/invoice.xml`)!.content.toString("utf8")).toBe(ubl);
    expect(verifyExport(zip)).toMatchObject({ ok: true, problems: [] });
  });

  it("the recipient rejects it: the report is sent at once, valid per its XSD and signed", async () => {
    const before = cis.requests.length;
    const res = await call(h.url, "POST", `/v1/einvoices/${id}/rejection`, {
      key: recipient.key,
      body: { rejected_on: "2026-10-02", reason_type: "U", reason: "Obračunana stopa PDV-a ne odgovara ugovorenoj." },
      headers: { "idempotency-key": `reject-${id}` },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ einvoice_id: id, kind: "rejection", status: "recorded", data: { oibPorezniBrojIzdavatelja: SELLER, oibPorezniBrojPrimatelja: BUYER, vrstaRazlogaOdbijanja: "U" } });
    const sent = cis.requests.slice(before);
    expect(sent.map((r) => r.element)).toEqual(["EvidentirajOdbijanjeZahtjev"]);
    expect(sent[0]!.error).toBeUndefined();
    expect(res.body.request_id).toBe(sent[0]!.jir);
    await independentCheck(sent[0]!.racunZahtjev, EIZV_XSD, EIZV_NS, "EvidentirajOdbijanjeZahtjev");
    // decided once; the same key replays the answer
    const again = await call(h.url, "POST", `/v1/einvoices/${id}/acceptance`, { key: recipient.key, body: {} });
    expect([again.status, again.body.error?.details?.reason]).toEqual([409, "already_decided"]);
    const replay = await call(h.url, "POST", `/v1/einvoices/${id}/rejection`, {
      key: recipient.key,
      body: { rejected_on: "2026-10-02", reason_type: "U", reason: "Obračunana stopa PDV-a ne odgovara ugovorenoj." },
      headers: { "idempotency-key": `reject-${id}` },
    });
    expect(replay.body).toEqual(res.body);
    expect(cis.requests.length).toBe(before + 1);
    const got = await call(h.url, "GET", `/v1/einvoices/${id}`, { key: recipient.key });
    expect(got.body).toMatchObject({ status: "rejected", decision: { reason_type: "U", rejected_on: "2026-10-02", report: { status: "recorded", request_id: sent[0]!.jir } } });
    const f2 = await call(h.url, "GET", `/v1/einvoices/${id}/fiscalization`, { key: recipient.key });
    expect(f2.body).toMatchObject({ status: "recorded", type: "U", reports: [{ kind: "rejection", status: "recorded" }] });
    // the decision and its report are in the archive, and the export still verifies
    const zip = await exportOctober(recipient.key);
    expect(readZip(zip).filter((f) => f.name.includes(id)).map((f) => path.basename(f.name))).toEqual(
      expect.arrayContaining([`rejection-${sent[0]!.jir}.json`, `rejection-${sent[0]!.jir}-report.json`]),
    );
    expect(verifyExport(zip)).toMatchObject({ ok: true });
  }, 60_000);

  it("einvoice.received, einvoice.fiscalized and einvoice.rejected reach the receiver, signed", async () => {
    await expect.poll(() => hooksFor(id).map((x) => x.body.type).sort(), { timeout: 20_000 }).toEqual(["einvoice.fiscalized", "einvoice.received", "einvoice.rejected"]);
    for (const hook of hooksFor(id)) expect(signatureValid(hook), hook.body.type).toBe(true);
    const byType = Object.fromEntries(hooksFor(id).map((x) => [x.body.type, x.body.data]));
    expect(byType["einvoice.received"]).toMatchObject({ direction: "received", number: "1-P1-1", seller_oib: SELLER, buyer_oib: BUYER, valid: true, violations: [] });
    expect(byType["einvoice.fiscalized"]).toMatchObject({ direction: "received", type: "U", number: "1-P1-1" });
    expect(byType["einvoice.rejected"]).toMatchObject({ reason_type: "U", rejected_on: "2026-10-02", report: { status: "recorded" } });
  });
});

describe("what else arrives", () => {
  it("an invalid document is stored as received but invalid, reported, and not fiscalized", async () => {
    const broken = example("eRacun_PDV13.xml").replace(/<cbc:PayableAmount currencyID="EUR">[^<]*</, '<cbc:PayableAmount currencyID="EUR">1.00<');
    const { messageId } = sim.deliver(BUYER, broken);
    const before = cis.requests.length;
    expect(await job().runOnce({ accountId: recipient.id })).toMatchObject({ stored: 1, fiscalized: 0 });
    expect(sim.inboxSize(BUYER)).toBe(0);
    const row = await db().receivedEInvoice.findFirstOrThrow({ where: { accountId: recipient.id, messageId } });
    expect(row).toMatchObject({ validationStatus: "invalid", fiscalizationStatus: null, ubl: broken });
    const rules = (row.validation as { violations: { rule: string; flag: string }[] }).violations.filter((v) => v.flag === "fatal").map((v) => v.rule);
    expect(rules).toContain("BR-CO-16");
    expect(cis.requests.length).toBe(before);
    const got = await call(h.url, "GET", `/v1/einvoices/${row.id}`, { key: recipient.key });
    expect(got.body).toMatchObject({ validation: { valid: false }, fiscalization: { status: "not_applicable" } });
    await expect.poll(() => hooksFor(row.id).map((x) => x.body.type), { timeout: 20_000 }).toEqual(["einvoice.received"]);
    expect(hooksFor(row.id)[0]!.body.data).toMatchObject({ valid: false, violations: expect.arrayContaining([expect.objectContaining({ rule: "BR-CO-16" })]) });
  }, 120_000);

  it("a redelivery is stored once: acknowledged only after the row is committed, found by its message id", async () => {
    const ubl = example("eRacun_PDV5.xml");
    const { messageId } = sim.deliver(BUYER, ubl);
    failAcknowledge = 1; // the row is stored, the acknowledgement is lost: the intermediary delivers it again
    await job().runOnce({ accountId: recipient.id });
    expect(sim.inboxSize(BUYER)).toBe(1);
    sim.deliver(BUYER, ubl, { messageId }); // and once more, explicitly
    expect(await job().runOnce({ accountId: recipient.id })).toMatchObject({ stored: 0 });
    expect(sim.inboxSize(BUYER)).toBe(0);
    expect(await db().receivedEInvoice.count({ where: { accountId: recipient.id, messageId } })).toBe(1);
    const row = await db().receivedEInvoice.findFirstOrThrow({ where: { accountId: recipient.id, messageId } });
    expect(await db().archiveEntry.count({ where: { accountId: recipient.id, documentId: row.id, name: { endsWith: "/invoice.xml" } } })).toBe(1);
    expect(await db().webhookEvent.count({ where: { accountId: recipient.id, type: "einvoice.received", dedupeKey: `einvoice.received:${row.id}` } })).toBe(1);
  }, 120_000);

  it("the issuer cannot reject the e-invoice it issued; its recipient can", async () => {
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Zagreb" }).format(new Date());
    const sent = await call(h.url, "POST", "/v1/einvoices/send", {
      key: issuer.key,
      body: {
        number: `R-${Date.now()}`,
        issue_date: today,
        seller: { oib: VALID_OIB, name: "Prodavatelj d.o.o.", iban: "HR1210010051863000160" },
        buyer: { oib: BUYER, name: "Kupac d.o.o." },
        operator: { name: "Ana Horvat", oib: "12345678903" },
        lines: [{ description: "Razvoj aplikacije", quantity: "10", unit: "HUR", unit_price: "50.00", vat_rate: "25", kpd: "62.10.11", line_total: "500.00" }],
        totals: { net: "500.00", vat: "125.00", gross: "625.00" },
      },
    });
    expect(sent.status, sent.text).toBe(200);
    const rejection = { rejected_on: today, reason_type: "N", reason: "Pogrešan broj narudžbe." };
    const own = await call(h.url, "POST", `/v1/einvoices/${sent.body.id}/rejection`, { key: issuer.key, body: rejection });
    expect([own.status, own.body.error?.details?.reason]).toEqual([403, "recipient_reports"]);

    // The network delivered it to the buyer, whose account receives it and rejects it.
    expect(await job().runOnce({ accountId: recipient.id })).toMatchObject({ stored: 1, fiscalized: 1 });
    const received = await db().receivedEInvoice.findFirstOrThrow({ where: { accountId: recipient.id, number: sent.body.number } });
    expect(received).toMatchObject({ sellerOib: VALID_OIB, validationStatus: "valid" });
    const theirs = await call(h.url, "POST", `/v1/einvoices/${received.id}/rejection`, { key: recipient.key, body: rejection });
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body).toMatchObject({ status: "recorded", data: { oibPorezniBrojIzdavatelja: VALID_OIB, oibPorezniBrojPrimatelja: BUYER } });
    // The issuer's own row is untouched: still its issued e-invoice, without a rejection report.
    expect(await db().eInvoiceReport.count({ where: { eInvoiceId: sent.body.id } })).toBe(0);
  }, 120_000);

  it("acceptance: recorded once, repeated acceptance answers it as accepted; bad input changes nothing", async () => {
    sim.deliver(BUYER, example("eRacun_PDV0.xml"));
    await job().runOnce({ accountId: recipient.id });
    const row = await db().receivedEInvoice.findFirstOrThrow({ where: { accountId: recipient.id, status: "received", validationStatus: "valid" } });
    const bad = await call(h.url, "POST", `/v1/einvoices/${row.id}/rejection`, { key: recipient.key, body: { rejected_on: "2026-10-02", reason_type: "X", reason: "x" } });
    expect(bad.status).toBe(400);
    expect((await db().receivedEInvoice.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("received");
    const first = await call(h.url, "POST", `/v1/einvoices/${row.id}/acceptance`, { key: recipient.key, body: {} });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ id: row.id, status: "accepted", decision: { report: null } });
    const second = await call(h.url, "POST", `/v1/einvoices/${row.id}/acceptance`, { key: recipient.key, body: {} });
    expect(second.body).toEqual(first.body);
    const rejectAfter = await call(h.url, "POST", `/v1/einvoices/${row.id}/rejection`, { key: recipient.key, body: { rejected_on: "2026-10-02", reason_type: "O", reason: "Kasnije." } });
    expect([rejectAfter.status, rejectAfter.body.error?.details?.reason]).toEqual([409, "already_decided"]);
    const list = await call(h.url, "GET", "/v1/einvoices?direction=received&status=accepted", { key: recipient.key });
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([row.id]);
  }, 120_000);

  it("a rejection stands while the tax authority is away: its report is sent by the job, as one the portal recorded", async () => {
    for (const f of ["eRacun_PDV13.xml", "eRacun_Oslobodjeno_PDV.xml"]) sim.deliver(BUYER, example(f));
    await job().runOnce({ accountId: recipient.id });
    const [viaApi, viaPortal] = await db().receivedEInvoice.findMany({ where: { accountId: recipient.id, status: "received", validationStatus: "valid" }, orderBy: { createdAt: "desc" }, take: 2 });
    await cis.down();
    let pending;
    try {
      pending = await call(h.url, "POST", `/v1/einvoices/${viaApi!.id}/rejection`, { key: recipient.key, body: { rejected_on: "2026-10-02", reason_type: "O", reason: "Roba nije isporučena." } });
    } finally {
      await cis.up();
    }
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body).toMatchObject({ status: "pending", request_id: expect.any(String) });
    // The portal records its decision with the same function and sends nothing itself.
    const portal = await decideReceivedEInvoice(db(), { accountId: recipient.id, id: viaPortal!.id, decision: "rejected", reasonType: "N", reason: "Pogrešan broj narudžbe.", rejectedOn: "2026-10-02", actor: "user:test" });
    expect(portal.rejectionReportStatus).toBe("pending");
    // The back-off of the first report has passed.
    await db().receivedEInvoice.update({ where: { id: viaApi!.id }, data: { rejectionReportNextAttemptAt: new Date() } });
    const before = cis.requests.length;
    expect(await job().runOnce({ accountId: recipient.id })).toMatchObject({ reported: 2 });
    const sent = cis.requests.slice(before).filter((r) => r.element === "EvidentirajOdbijanjeZahtjev");
    expect(sent.map((r) => r.jir).sort()).toEqual([pending.body.request_id, portal.rejectionReportRequestId].sort());
    for (const r of sent) await independentCheck(r.racunZahtjev, EIZV_XSD, EIZV_NS, "EvidentirajOdbijanjeZahtjev");
    for (const id of [viaApi!.id, viaPortal!.id]) {
      expect(await db().receivedEInvoice.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "rejected", rejectionReportStatus: "recorded" });
    }
    await expect.poll(() => hooks.filter((x) => x.body.type === "einvoice.rejected" && [viaApi!.id, viaPortal!.id].includes(x.body.data.einvoice_id)).length, { timeout: 20_000 }).toBe(2);
  }, 120_000);

  it("a report the tax authority refuses: 400 with its code, and the rejection may be corrected and sent again", async () => {
    sim.deliver(BUYER, example("eRacun_PDV25_Obracun_PDV_po_naplati.xml"));
    await job().runOnce({ accountId: recipient.id });
    const row = await db().receivedEInvoice.findFirstOrThrow({ where: { accountId: recipient.id, status: "received", validationStatus: "valid" } });
    cis.setMode({ kind: "error", code: "S004" }, 1);
    const refused = await call(h.url, "POST", `/v1/einvoices/${row.id}/rejection`, { key: recipient.key, body: { rejected_on: "2026-10-02", reason_type: "U", reason: "Pogrešna stopa." } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toMatchObject({ reason: "report_refused", f2_code: "S004" });
    const again = await call(h.url, "POST", `/v1/einvoices/${row.id}/rejection`, { key: recipient.key, body: { rejected_on: "2026-10-02", reason_type: "U", reason: "Pogrešna stopa PDV-a (25 % umjesto 13 %)." } });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ status: "recorded", data: { razlogOdbijanja: "Pogrešna stopa PDV-a (25 % umjesto 13 %)." } });
    expect(again.body.request_id).not.toBe(refused.body.error.details.request_id);
  }, 120_000);
});
