// Every example request in examples/einvoices goes through the real API (PostgreSQL + Redis) and the
// UBL the API stored is checked by the three official validators (UBL 2.1 XSD, EN 16931 1.3.15,
// HR CIUS 1.0.3) in one run: 0 fatal each. Plus the requests the API must refuse, with the rule ids.
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIntermediarySimulator, runOfficialValidators, type Intermediary } from "@fiskal/fiscal";
import { call, startHarness, VALID_OIB, type Harness } from "./harness.ts";

const EXAMPLES = new URL("../../../examples/einvoices/", import.meta.url);
const files = readdirSync(EXAMPLES)
  .filter((f) => /^\d{2}-.+\.json$/.test(f))
  .sort();
const index = JSON.parse(readFileSync(new URL("index.json", EXAMPLES), "utf8")) as { file: string; title: string; covers: string }[];
type Body = Record<string, any>;
const example = (file: string): Body => JSON.parse(readFileSync(new URL(file, EXAMPLES), "utf8")) as Body;

// The intermediary: the simulator with its default document checks; `tamper` lets a test change
// the document on its way, as a broken sender would.
let tamper: ((ubl: string) => string) | null = null;
const simulator = createIntermediarySimulator({ latencyMs: [1, 5], perSecond: 1_000 });
let sends = 0;
const intermediary: Intermediary = {
  send: (req) => {
    sends++;
    return simulator.send(tamper ? { ...req, ubl: tamper(req.ubl) } : req);
  },
};

let h: Harness;
let a: { id: string; key: string };
const sellers = new Map<string, { id: string; key: string }>();
beforeAll(async () => {
  h = await startHarness({ config: { intermediary } });
  a = await h.account({ plan: "ENTERPRISE", custom: { burst: 500, perMinute: 5_000, perDay: 100_000 }, name: "Primjeri d.o.o." });
  // A seller's e-invoices go out from its own account (its certificate is the seller's, checked before sending).
  for (const oib of new Set(files.map((f) => example(f).seller.oib as string))) {
    sellers.set(oib, oib === VALID_OIB ? a : await h.account({ plan: "ENTERPRISE", custom: { burst: 500, perMinute: 5_000, perDay: 100_000 }, name: `Primjeri ${oib}` }));
  }
});
afterAll(() => h?.close());

const send = (body: unknown) => call(h.url, "POST", "/v1/einvoices/send", { key: a.key, body });
const stored = (number: string) => h.api.services.db.eInvoice.count({ where: { accountId: a.id, number } });
const rules = (r: { body: any }) => (r.body?.error?.details ?? []).map((d: { rule?: string }) => d.rule);
const detailPaths = (r: { body: any }) => (r.body?.error?.details ?? []).map((d: { path: string }) => d.path);

describe("examples/einvoices", () => {
  it("lists every example once in index.json, with a title and the case it covers", () => {
    expect(index.map((e) => e.file).sort()).toEqual(files);
    for (const e of index) {
      expect(e.title.length).toBeGreaterThan(5);
      expect(e.covers.length).toBeGreaterThan(20);
    }
    // At least the cases the product promises.
    const types = files.map((f) => example(f).document_type);
    expect(new Set(types)).toEqual(new Set(["380", "381", "384", "386"]));
    const categories = new Set(files.flatMap((f) => example(f).lines.map((l: { vat_category: string }) => l.vat_category)));
    for (const c of ["S", "E", "AE", "K", "G", "O"]) expect(categories).toContain(c);
    expect(files.some((f) => example(f).seller.in_vat_system === false)).toBe(true);
    expect(files.some((f) => example(f).allowances?.length && example(f).charges?.length)).toBe(true);
    expect(files.some((f) => example(f).lines.some((l: { quantity: string }) => l.quantity.startsWith("-")))).toBe(true);
  });

  it(
    "are each accepted by the API, and the stored UBL passes the three official validators with 0 fatal",
    async () => {
      const documents: { file: string; ubl: string; type: string }[] = [];
      for (const file of files) {
        const body = example(file);
        const owner = sellers.get(body.seller.oib)!;
        const r = await call(h.url, "POST", "/v1/einvoices/send", { key: owner.key, body });
        expect(r.status, `${file}: ${r.text}`).toBe(200);
        expect(r.body).toMatchObject({ number: body.number, document_type: body.document_type, status: "accepted", rejection: null });
        expect(r.body.issue_time).toBe(body.issue_time);
        const got = await call(h.url, "GET", `/v1/einvoices/${r.body.id}`, { key: owner.key });
        expect(got.status, got.text).toBe(200);
        documents.push({ file, ubl: got.body.ubl, type: body.document_type });
      }
      // The document says what the request said: the root, the type, the issue time.
      for (const d of documents) {
        const credit = d.type === "381";
        expect(d.ubl).toContain(credit ? "<CreditNote " : "<Invoice ");
        expect(d.ubl).toContain(credit ? `<cbc:CreditNoteTypeCode>381<` : `<cbc:InvoiceTypeCode>${d.type}<`);
        expect(d.ubl).toContain(`<cbc:IssueTime>${example(d.file).issue_time}</cbc:IssueTime>`);
      }
      const results = await runOfficialValidators(documents.map((d) => d.ubl));
      const report = results.map((r, i) => {
        const warnings = [...new Set(r.violations.filter((v) => v.flag !== "fatal").map((v) => v.rule))].join(" ");
        return `${documents[i]!.file}: ${r.fatal.length} fatal${warnings ? `; warnings ${warnings}` : ""}${r.fatal.length ? ` — ${r.fatal.map((v) => `${v.rule} ${v.message}`).join("; ")}` : ""}`;
      });
      console.log(`official validators (UBL 2.1 XSD, EN 16931 1.3.15, HR CIUS 1.0.3):\n${report.join("\n")}`);
      for (const [i, r] of results.entries()) expect(r.fatal, report[i]).toEqual([]);
    },
    180_000,
  );
});

describe("strict input and the rules checked before sending", () => {
  const base = (): Body => ({ ...example("01-standard-multi-rate.json"), number: `N-${Math.random().toString(36).slice(2, 10)}` });

  it("refuses an unknown field with 400 naming it, at the top and at any depth, and stores nothing", async () => {
    const top: Body = { ...base(), document_type_typo: "381" };
    const r = await send(top);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.code).toBe("validation_error");
    expect(detailPaths(r)).toContain("document_type_typo");
    expect(await stored(top.number)).toBe(0);

    const nested = base();
    nested.lines = [{ ...nested.lines[0], vat_catgory: "S" }];
    nested.buyer = { ...nested.buyer, adress: "Korzo 5" };
    const n = await send(nested);
    expect(n.status, n.text).toBe(400);
    expect(detailPaths(n)).toEqual(expect.arrayContaining(["lines.0.vat_catgory", "buyer.adress"]));
    expect(await stored(nested.number)).toBe(0);
  });

  it("refuses a credit note without the invoice it credits (BG-3, FISKAL-BILLING-REFERENCE), and one whose reference has no date", async () => {
    const body: Body = { ...example("07-credit-note.json"), number: "CN-NOREF-1" };
    delete body.billing_references;
    const r = await send(body);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.details).toContainEqual(expect.objectContaining({ path: "billing_references", rule: "FISKAL-BILLING-REFERENCE" }));
    const corrective = { ...example("08-corrective.json"), number: "COR-NOREF-1", billing_references: [] };
    expect(rules(await send(corrective))).toContain("FISKAL-BILLING-REFERENCE");
    const noDate = { ...example("07-credit-note.json"), number: "CN-NODATE-1", billing_references: [{ number: "2026-101-1" }] };
    const d = await send(noDate);
    expect(d.status).toBe(400);
    expect(detailPaths(d)).toContain("billing_references.0.issue_date");
    expect(await stored("CN-NOREF-1")).toBe(0);
  });

  it("requires the operator who issued the document (HR-BT-4, HR-BT-5): 400 without it, nothing stored or sent", async () => {
    const body = base();
    delete body.operator;
    const sentBefore = sends;
    const r = await send(body);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.code).toBe("validation_error");
    expect(detailPaths(r)).toEqual(["operator"]);
    expect(await stored(body.number)).toBe(0);
    expect(sends).toBe(sentBefore);
    for (const file of files) expect(example(file).operator?.oib, file).toMatch(/^\d{11}$/);
  });

  it('refuses the unit "KOM" with BR-CL-23 and names the code to use', async () => {
    const body = base();
    body.lines = [{ ...body.lines[0], unit: "KOM" }, ...body.lines.slice(1)];
    const r = await send(body);
    expect(r.status, r.text).toBe(400);
    const detail = r.body.error.details.find((d: { rule?: string }) => d.rule === "BR-CL-23");
    expect(detail).toMatchObject({ path: "lines[0].unit" });
    expect(detail.message).toContain("H87");
    expect(await stored(body.number)).toBe(0);
  });

  it("checks VAT categories, exemption reasons, parties and totals with the official rule ids", async () => {
    const cases: [string, (b: any) => void, string][] = [
      ["exempt without a reason", (b) => (b.lines = [{ ...example("02-exempt-with-reason.json").lines[0], exemption_reason: undefined, exemption_reason_code: undefined }]), "HR-BR-36"],
      ["S line without a rate", (b) => (b.lines = [{ ...b.lines[0], vat_rate: undefined }, ...b.lines.slice(1)]), "BR-S-05"],
      ["S line at 10 %", (b) => (b.lines = [{ ...b.lines[0], vat_rate: "10" }, ...b.lines.slice(1)]), "HR-BR-CL-1"],
      ["wrong VAT total", (b) => (b.totals = { ...b.totals, vat: "138.66", gross: "783.66", payable: "783.66" }), "BR-CO-14"],
      ["wrong net total", (b) => (b.totals = { ...b.totals, net: "640.00" }), "BR-CO-13"],
      ["operator OIB with a wrong check digit", (b) => (b.operator = { name: "Ana", oib: "12345678901" }), "HR-BR-9"],
      ["buyer OIB with a wrong check digit", (b) => (b.buyer = { ...b.buyer, oib: "94577403195" }), "HR-BR-53"],
      ["issue time missing its minutes", (b) => (b.issue_time = "9"), ""],
      ["process type P13", (b) => (b.process_type = "P13"), "HR-BR-34"],
      ["negative price", (b) => (b.lines = [{ ...b.lines[0], quantity: "-10", unit_price: "-50.00" }, ...b.lines.slice(1)]), "BR-27"],
    ];
    for (const [what, change, rule] of cases) {
      const body = base();
      change(body);
      const r = await send(body);
      expect(r.status, `${what}: ${r.text}`).toBe(400);
      expect(r.body.error.code).toBe("validation_error");
      if (rule) expect(rules(r), `${what}: ${r.text}`).toContain(rule);
      expect(await stored(body.number)).toBe(0);
    }
    const k: Body = { ...example("04-intra-eu-supply.json"), number: "K-NOVAT-1" };
    k.buyer = { ...k.buyer, vat_id: undefined };
    delete k.delivery;
    expect(rules(await send(k))).toEqual(expect.arrayContaining(["BR-IC-02", "BR-IC-11", "BR-IC-12"]));
    const o: Body = { ...example("12-not-subject-to-vat.json"), number: "O-MIX-1" };
    o.lines = [...o.lines, { ...example("01-standard-multi-rate.json").lines[0] }];
    o.totals = { net: "537.42", vat: "125.00", gross: "662.42" };
    expect(rules(await send(o))).toContain("BR-O-11");
  });

  it("checks the issuer's VAT breakdown group by group (BR-S-08, BR-S-09) and writes HH:mm as HH:mm:00", async () => {
    const body: Body = { ...example("10-allowances-and-charges.json"), number: "BRK-1" };
    body.totals = { ...body.totals, vat_breakdown: [{ category: "S", rate: "25", taxable_amount: "500.00", tax_amount: "114.50" }, body.totals.vat_breakdown[1]] };
    const r = await send(body);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.details).toContainEqual(expect.objectContaining({ path: "totals.vat_breakdown[0].taxable_amount", rule: "BR-S-08" }));
    const ok = await send({ ...example("10-allowances-and-charges.json"), number: "BRK-2", issue_time: "09:41" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.issue_time).toBe("09:41:00");
    const got = await call(h.url, "GET", `/v1/einvoices/${ok.body.id}`, { key: a.key });
    expect(got.body.ubl).toContain("<cbc:IssueTime>09:41:00</cbc:IssueTime>");
    expect(await stored("BRK-1")).toBe(0);
  });

  it("defaults the issue time to when the request arrived (Zagreb), with hour and minute", async () => {
    const body = base();
    delete body.issue_time;
    const r = await send(body);
    expect(r.status, r.text).toBe(200);
    expect(r.body.issue_time).toMatch(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
    const zagreb = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Zagreb", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date());
    const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
    expect(Math.abs(minutes(r.body.issue_time) - minutes(zagreb)) % (24 * 60)).toBeLessThanOrEqual(1);
  });
});

describe("a document the intermediary refuses", () => {
  it("is answered 400 with the rule ids, kept as rejected with its reasons, and the number can be sent again", async () => {
    const body = { ...example("01-standard-multi-rate.json"), number: "REJ-1" };
    tamper = (ubl) => ubl.replace('unitCode="HUR"', 'unitCode="KOM"');
    let r;
    try {
      r = await send(body);
    } finally {
      tamper = null;
    }
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.code).toBe("validation_error");
    expect(rules(r)).toContain("BR-CL-23");
    const row = await h.api.services.db.eInvoice.findFirstOrThrow({ where: { accountId: a.id, number: "REJ-1" } });
    expect(row.status).toBe("rejected");
    expect(row.ubl).toContain('unitCode="HUR"');
    const got = await call(h.url, "GET", `/v1/einvoices/${row.id}`, { key: a.key });
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ status: "rejected", intermediary_id: null, rejection: { rules: ["BR-CL-23"] } });

    const again = await send(body);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id: row.id, status: "accepted", rejection: null });
    expect(await stored("REJ-1")).toBe(1);
  });
});
