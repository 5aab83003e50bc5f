import { readFileSync } from "node:fs";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { buildUbl, documentTotals, type EInvoiceInput, FISKAL_RULES, HR_CIUS_CUSTOMIZATION_ID, isValidIban } from "./einvoice.ts";
import { validateEInvoice } from "./einvoice-validate.ts";
import { KpdIndex, parseKpdCsv } from "./kpd.ts";
import { formatMoney, parseMoney as parseMoneyText } from "./money.ts";

const formatCents = (c: bigint) => formatMoney(c);

let kpd: KpdIndex;
beforeAll(() => {
  kpd = KpdIndex.fromRows(parseKpdCsv(readFileSync(new URL("../../db/data/kpd-2025.csv", import.meta.url), "utf8")));
});

// VAT per rate group: 25% of 455.04 = 113.76 (per-line rounding would give 113.77: 113.75 + 0.01 + 0.01),
// 5% of 37.00 = 1.85, 13% of 3.15 = 0.4095 → 0.41, 0% of 10.00 = 0. Total 116.02; gross 621.21.
const valid = (): EInvoiceInput => ({
  number: "2026-000123",
  issueDate: "2026-11-20",
  issueTime: "09:30:00",
  dueDate: "2026-12-20",
  currency: "EUR",
  seller: { oib: "69435151530", name: "Primjer d.o.o.", address: { street: "Ilica 1", city: "Zagreb", postalCode: "10000" }, iban: "HR1210010051863000160" },
  buyer: { oib: "94577403194", name: "Kupac & Sin d.o.o.", address: { street: "Riva 2", city: "Split", postalCode: "21000", country: "HR" } },
  lines: [
    { description: "Izrada web aplikacije", quantity: "10", unit: "HUR", unitPrice: "45.50", vatRate: "25", kpd: "62.10.11", lineTotal: "455.00" },
    { description: "Knjiga", quantity: "3", unit: "H87", unitPrice: "12.333", vatRate: "5", kpd: "58.11.13", lineTotal: "37.00" },
    { description: "Tvrda pšenica & <sirovo>", quantity: "1.5", unit: "KGM", unitPrice: "2.10", vatRate: "13", kpd: "01.11.11", lineTotal: "3.15" },
    { description: "Sitni dodatak", quantity: "1", unit: "H87", unitPrice: "0.02", vatRate: "25", kpd: "62.10.11", lineTotal: "0.02" },
    { description: "Sitni dodatak 2", quantity: "1", unit: "H87", unitPrice: "0.02", vatRate: "25", kpd: "62.10.11", lineTotal: "0.02" },
    { description: "Obrazovna knjiga", quantity: "1", unit: "H87", unitPrice: "10", vatRate: "0", kpd: "58.11.11", lineTotal: "10.00" },
  ],
  operator: { name: "Ana Anić", oib: "12345678903" },
  totals: { net: "505.19", vat: "116.02", gross: "621.21" },
  note: "Plaćanje po ponudi 12/2026",
});

const paths = (input: EInvoiceInput) => validateEInvoice(input, kpd).map((p) => p.path);
const messageAt = (input: EInvoiceInput, path: string) => validateEInvoice(input, kpd).find((p) => p.path === path)?.message;
const ruleAt = (input: EInvoiceInput, path: string) => validateEInvoice(input, kpd).find((p) => p.path === path)?.rule;

describe("validateEInvoice", () => {
  it("accepts a correct invoice", () => {
    expect(validateEInvoice(valid(), kpd)).toEqual([]);
    const minimal = valid();
    delete minimal.dueDate;
    delete minimal.note;
    delete minimal.seller.address;
    delete minimal.seller.iban;
    delete minimal.buyer.address;
    expect(validateEInvoice(minimal, kpd)).toEqual([]);
  });

  it("does not change its input", () => {
    const input = valid();
    const copy = structuredClone(input);
    validateEInvoice(input, kpd);
    expect(input).toEqual(copy);
  });

  it("requires each line's KPD to exist, be level 5 and be written exactly", () => {
    const input = valid();
    input.lines[0]!.kpd = "99.99.99";
    input.lines[1]!.kpd = "62.10.1";
    input.lines[2]!.kpd = " 01.11.11";
    input.lines[3]!.kpd = "";
    expect(messageAt(input, "lines[0].kpd")).toMatch(/99.99.99 nije KPD 2025 šifra/);
    expect(ruleAt(input, "lines[0].kpd")).toBe("HR-BR-CL-2");
    expect(messageAt(input, "lines[1].kpd")).toBe("62.10.1 je kategorija (razina 4); potrebna je šifra razine 5 (potkategorija).");
    expect(ruleAt(input, "lines[1].kpd")).toBe("HR-BR-25");
    expect(messageAt(input, "lines[2].kpd")).toMatch(/točno 01.11.11/);
    expect(ruleAt(input, "lines[3].kpd")).toBe("HR-BR-25");
  });

  it("checks both OIBs", () => {
    const input = valid();
    input.seller.oib = "69435151531";
    input.buyer.oib = "9457740319";
    expect(messageAt(input, "seller.oib")).toMatch(/kontrolnu znamenku/);
    expect(messageAt(input, "buyer.oib")).toMatch(/11 znamenki/);
  });

  it("checks line arithmetic with half-up rounding to cents", () => {
    const input = valid();
    input.lines[1]!.lineTotal = "36.99"; // 3 × 12.333 = 36.999 → 37.00
    expect(messageAt(input, "lines[1].lineTotal")).toMatch(/37.00, a ne 36.99/);
  });

  it("checks net, VAT per rate group, and gross", () => {
    const input = valid();
    input.totals = { net: "505.18", vat: "116.03", gross: "621.20" };
    const problems = validateEInvoice(input, kpd);
    expect(problems.map((p) => p.path)).toEqual(["totals.net", "totals.vat", "totals.gross"]);
    expect(problems.map((p) => p.rule)).toEqual(["BR-CO-13", "BR-CO-14", "BR-CO-15"]);
    expect(problems[0]!.message).toMatch(/505.19, a ne 505.18/);
    expect(problems[1]!.message).toMatch(/S 25% od 455.04 = 113.76; S 5% od 37.00 = 1.85; S 13% od 3.15 = 0.41; Z 0% od 10.00 = 0.00\): 116.02, a ne 116.03/);
    expect(problems[2]!.message).toMatch(/621.21, a ne 621.20/);
  });

  it("accepts equivalent decimal spellings of amounts and rates", () => {
    const input = valid();
    input.lines[5]!.lineTotal = "10";
    input.lines[0]!.vatRate = "25.00";
    expect(validateEInvoice(input, kpd)).toEqual([]);
  });

  it("refuses anything but decimal strings for quantities and money", () => {
    const input = valid();
    input.lines[0]!.quantity = "1e1";
    input.lines[1]!.unitPrice = "12,333";
    input.lines[2]!.lineTotal = 3.15 as unknown as string; // a number where JSON may send one: the check must refuse it
    input.totals.net = "505.190";
    expect(paths(input)).toEqual(expect.arrayContaining(["lines[0].quantity", "lines[1].unitPrice", "lines[2].lineTotal", "totals.net"]));
  });

  it("refuses VAT rates Croatia does not have, zero quantities and negative prices", () => {
    const input = valid();
    input.lines[0]!.vatRate = "22";
    input.lines[1]!.quantity = "0";
    input.lines[2]!.unitPrice = "-2.10";
    expect(ruleAt(input, "lines[0].vatRate")).toBe("HR-BR-CL-1");
    expect(messageAt(input, "lines[1].quantity")).toMatch(/nula/);
    expect(ruleAt(input, "lines[2].unitPrice")).toBe("BR-27");
  });

  it("checks dates, number, currency, unit, IBAN and text", () => {
    const input = valid();
    input.issueDate = "2026-02-30";
    input.number = "2026 123";
    (input as { currency: string }).currency = "HRK";
    input.lines[0]!.unit = "sat";
    input.seller.iban = "HR1210010051863000161";
    input.lines[1]!.description = "bad\u0001char";
    input.buyer.name = " ";
    input.lines[2]!.description = "";
    expect(paths(input)).toEqual(
      expect.arrayContaining(["issueDate", "number", "currency", "lines[0].unit", "seller.iban", "lines[1].description", "buyer.name", "lines[2].description"]),
    );
    const early = valid();
    early.issueDate = "2025-12-31";
    early.dueDate = "2026-01-15";
    expect(ruleAt(early, "issueDate")).toBe("HR-BR-40");
    const late = valid();
    late.dueDate = "2026-11-19";
    expect(messageAt(late, "dueDate")).toMatch(/prije datuma izdavanja/);
  });

  it("requires at least one line", () => {
    const input = valid();
    input.lines = [];
    expect(paths(input)).toEqual(["lines"]);
  });
});

describe("isValidIban", () => {
  it("checks mod 97 and the Croatian length", () => {
    expect(isValidIban("HR1210010051863000160")).toBe(true);
    expect(isValidIban("HR12 1001 0051 8630 0016 0")).toBe(true);
    expect(isValidIban("HR1210010051863000161")).toBe(false);
    expect(isValidIban("HR121001005186300016")).toBe(false);
    expect(isValidIban("DE89370400440532013000")).toBe(true);
  });
});

describe("buildUbl", () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    parseTagValue: false,
    isArray: (name) => ["cac:InvoiceLine", "cac:TaxSubtotal"].includes(name),
  });
  type Node = Record<string, unknown> & { "#text"?: string };
  const text = (n: unknown) => (typeof n === "string" ? n : (n as Node)["#text"]);

  it("writes a well-formed UBL 2.1 invoice that parses back with the right values", () => {
    const xml = buildUbl(valid());
    expect(XMLValidator.validate(xml)).toBe(true);
    const inv = parser.parse(xml).Invoice as Record<string, any>;
    expect(inv["@xmlns"]).toBe("urn:oasis:names:specification:ubl:schema:xsd:Invoice-2");
    expect(inv["cbc:CustomizationID"]).toBe(HR_CIUS_CUSTOMIZATION_ID);
    expect(inv["cbc:CustomizationID"]).toBe("urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0");
    expect(inv["cbc:ProfileID"]).toBe("P1");
    expect(inv["cbc:ID"]).toBe("2026-000123");
    expect(inv["cbc:IssueDate"]).toBe("2026-11-20");
    expect(inv["cbc:IssueTime"]).toBe("09:30:00");
    expect(inv["cbc:DueDate"]).toBe("2026-12-20");
    expect(inv["cbc:InvoiceTypeCode"]).toBe("380");
    expect(inv["cbc:DocumentCurrencyCode"]).toBe("EUR");
    expect(inv["cbc:Note"]).toBe("Plaćanje po ponudi 12/2026");

    const seller = inv["cac:AccountingSupplierParty"]["cac:Party"];
    expect(seller["cbc:EndpointID"]).toEqual({ "#text": "69435151530", "@schemeID": "9934" });
    expect(seller["cac:PartyTaxScheme"]["cbc:CompanyID"]).toBe("HR69435151530");
    expect(seller["cac:PartyLegalEntity"]["cbc:RegistrationName"]).toBe("Primjer d.o.o.");
    expect(seller["cac:PostalAddress"]).toEqual({ "cbc:StreetName": "Ilica 1", "cbc:CityName": "Zagreb", "cbc:PostalZone": "10000", "cac:Country": { "cbc:IdentificationCode": "HR" } });
    expect(inv["cac:AccountingSupplierParty"]["cac:SellerContact"]).toEqual({ "cbc:ID": "12345678903", "cbc:Name": "Ana Anić" });
    const buyer = inv["cac:AccountingCustomerParty"]["cac:Party"];
    expect(buyer["cbc:EndpointID"]).toEqual({ "#text": "94577403194", "@schemeID": "9934" });
    expect(buyer["cac:PartyLegalEntity"]["cbc:RegistrationName"]).toBe("Kupac & Sin d.o.o.");
    expect(inv["cac:PaymentMeans"]["cac:PayeeFinancialAccount"]["cbc:ID"]).toBe("HR1210010051863000160");

    const tax = inv["cac:TaxTotal"];
    expect(text(tax["cbc:TaxAmount"])).toBe("116.02");
    expect(tax["cac:TaxSubtotal"].map((s: any) => [s["cac:TaxCategory"]["cbc:ID"], s["cac:TaxCategory"]["cbc:Percent"], text(s["cbc:TaxableAmount"]), text(s["cbc:TaxAmount"])])).toEqual([
      ["S", "25", "455.04", "113.76"],
      ["S", "5", "37.00", "1.85"],
      ["S", "13", "3.15", "0.41"],
      ["Z", "0", "10.00", "0.00"],
    ]);
    const totals = inv["cac:LegalMonetaryTotal"];
    expect(Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, text(v)]))).toEqual({
      "cbc:LineExtensionAmount": "505.19",
      "cbc:TaxExclusiveAmount": "505.19",
      "cbc:TaxInclusiveAmount": "621.21",
      "cbc:PayableAmount": "621.21",
    });
    expect(totals["cbc:PayableAmount"]["@currencyID"]).toBe("EUR");

    const lines = inv["cac:InvoiceLine"];
    expect(lines).toHaveLength(6);
    expect(lines.map((l: any) => l["cac:Item"]["cac:CommodityClassification"]["cbc:ItemClassificationCode"])).toEqual(
      ["62.10.11", "58.11.13", "01.11.11", "62.10.11", "62.10.11", "58.11.11"].map((code) => ({ "#text": code, "@listID": "CG" })),
    );
    const line2 = lines[2];
    expect(line2["cbc:ID"]).toBe("3");
    expect(line2["cac:Item"]["cbc:Name"]).toBe("Tvrda pšenica & <sirovo>");
    expect(line2["cbc:InvoicedQuantity"]).toEqual({ "#text": "1.50", "@unitCode": "KGM" });
    expect(text(line2["cbc:LineExtensionAmount"])).toBe("3.15");
    expect(text(lines[1]["cac:Price"]["cbc:PriceAmount"])).toBe("12.333");
    expect(line2["cac:Item"]["cac:ClassifiedTaxCategory"]).toEqual({ "cbc:ID": "S", "cbc:Name": "HR:PDV13", "cbc:Percent": "13", "cac:TaxScheme": { "cbc:ID": "VAT" } });
    expect(buyer["cac:PartyTaxScheme"]["cbc:CompanyID"]).toBe("HR94577403194");
  });

  it("escapes markup in every text field", () => {
    const input = valid();
    input.seller.name = 'A "&" <B>';
    input.note = "</cbc:Note><evil/>";
    const xml = buildUbl(input);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain("<evil/>");
    const inv = parser.parse(xml).Invoice;
    expect(inv["cbc:Note"]).toBe("</cbc:Note><evil/>");
    expect(inv["cac:AccountingSupplierParty"]["cac:Party"]["cac:PartyLegalEntity"]["cbc:RegistrationName"]).toBe('A "&" <B>');
  });

  it("defaults the due date to the issue date and omits what is absent (no empty elements, HR-BR-33)", () => {
    const input = valid();
    delete input.dueDate;
    delete input.note;
    delete input.seller.iban;
    delete input.seller.address;
    input.issueTime = "14:05:09";
    input.operator = { name: "Ana Anić", oib: "12345678903" };
    const xml = buildUbl(input);
    expect(xml).not.toMatch(/<(\w+:\w+)[^>]*\/>|<(\w+:\w+)[^>]*><\/\2>/);
    const inv = parser.parse(xml).Invoice;
    expect(inv["cbc:DueDate"]).toBe("2026-11-20");
    expect(inv["cbc:IssueTime"]).toBe("14:05:09");
    expect(inv["cbc:Note"]).toBeUndefined();
    expect(inv["cac:PaymentMeans"]).toBeUndefined();
    expect(inv["cac:AccountingSupplierParty"]["cac:Party"]["cac:PostalAddress"]).toEqual({ "cac:Country": { "cbc:IdentificationCode": "HR" } });
    expect(inv["cac:AccountingSupplierParty"]["cac:SellerContact"]).toEqual({ "cbc:ID": "12345678903", "cbc:Name": "Ana Anić" });
  });
});

describe("VAT categories, document types and the rules checked before sending", () => {
  const rulesOf = (input: EInvoiceInput) => validateEInvoice(input, kpd).map((p) => p.rule);
  const one = (over: Partial<EInvoiceInput["lines"][number]>): EInvoiceInput => ({
    ...valid(),
    lines: [{ description: "Usluga", quantity: "2", unit: "H87", unitPrice: "50.00", kpd: "62.10.11", lineTotal: "100.00", ...over }],
    totals: { net: "100.00", vat: "0.00", gross: "100.00" },
  });

  it("requires a reason for exempt items and writes the HR extension (HR-BR-26) with HR:E labels", () => {
    expect(rulesOf(one({ vatCategory: "E", vatRate: "0" }))).toContain("HR-BR-36");
    const input = one({ vatCategory: "E", exemptionReason: "Oslobođeno prema čl. 39. Zakona o PDV-u" });
    expect(validateEInvoice(input, kpd)).toEqual([]);
    const xml = buildUbl(input);
    expect(xml).toContain("<hrextac:HRFISK20Data>");
    expect(xml).toMatch(/<hrextac:HRTaxCategory>\s*<cbc:ID>E<\/cbc:ID>\s*<cbc:Name>HR:E<\/cbc:Name>\s*<cbc:Percent>0<\/cbc:Percent>/);
    expect(xml).toContain("<hrextac:OutOfScopeOfVATAmount currencyID=\"EUR\">0.00</hrextac:OutOfScopeOfVATAmount>");
    expect(buildUbl(valid())).not.toContain("HRFISK20Data");
  });

  it("refuses rates on categories that have none, and exemption reasons on S and Z", () => {
    expect(rulesOf(one({ vatCategory: "AE", vatRate: "25" }))).toContain("BR-AE-05");
    expect(rulesOf(one({ vatCategory: "O", vatRate: "0", exemptionReason: "Kamate" }))).toContain("BR-O-05");
    expect(rulesOf(one({ vatCategory: "K", vatRate: "13" }))).toContain("BR-IC-05");
    const s = valid();
    s.lines[0]!.exemptionReason = "Nema";
    expect(ruleAt(s, "lines[0].exemptionReason")).toBe("BR-S-10");
    expect(rulesOf(one({ vatCategory: "E", exemptionReasonCode: "VATEX-HR-1" }))).toContain("BR-CL-22");
  });

  it("gives reverse charge, export and intra-EU items their VATEX code when none is named", () => {
    const ae = one({ vatCategory: "AE" });
    expect(validateEInvoice(ae, kpd)).toEqual([]);
    expect(buildUbl(ae)).toContain("<cbc:TaxExemptionReasonCode>VATEX-EU-AE</cbc:TaxExemptionReasonCode>");
    const k: EInvoiceInput = {
      ...one({ vatCategory: "K" }),
      buyer: { name: "Käufer GmbH", vatId: "DE811569869", address: { country: "DE" }, endpoint: { scheme: "9930", id: "DE811569869" } },
      delivery: { date: "2026-11-19", address: { country: "DE" } },
    };
    expect(validateEInvoice(k, kpd)).toEqual([]);
    const xml = buildUbl(k);
    expect(xml).toContain("<cbc:TaxExemptionReasonCode>VATEX-EU-IC</cbc:TaxExemptionReasonCode>");
    expect(xml).toContain('<cbc:EndpointID schemeID="9930">DE811569869</cbc:EndpointID>');
    expect(xml).toContain("<cbc:CompanyID>DE811569869</cbc:CompanyID>");
    const noVat = { ...k, buyer: { ...k.buyer, vatId: undefined }, delivery: undefined };
    expect(rulesOf(noVat)).toEqual(expect.arrayContaining(["BR-IC-02", "BR-IC-11", "BR-IC-12"]));
  });

  it("writes a seller outside the VAT system under tax scheme FRE, and refuses taxed items from it", () => {
    const input = one({ vatCategory: "E", exemptionReason: "Nije u sustavu PDV-a, čl. 90. Zakona o PDV-u" });
    input.seller.inVatSystem = false;
    expect(validateEInvoice(input, kpd)).toEqual([]);
    const xml = buildUbl(input);
    expect(xml).toMatch(/<cac:PartyTaxScheme>\s*<cbc:CompanyID>69435151530<\/cbc:CompanyID>\s*<cac:TaxScheme>\s*<cbc:ID>FRE<\/cbc:ID>/);
    const taxed = valid();
    taxed.seller.inVatSystem = false;
    expect(ruleAt(taxed, "seller.inVatSystem")).toBe("BR-S-02");
  });

  it("keeps VAT identifiers off a document with items not subject to VAT (BR-O-02) and refuses mixing O with others (BR-O-11)", () => {
    const o = one({ vatCategory: "O", exemptionReason: "Zatezne kamate" });
    expect(validateEInvoice(o, kpd)).toEqual([]);
    expect(buildUbl(o)).not.toContain("PartyTaxScheme");
    o.buyer.vatId = "HR94577403194";
    expect(rulesOf(o)).toContain("BR-O-02");
    const mixed = valid();
    mixed.lines.push({ description: "Kamate", quantity: "1", unit: "H87", unitPrice: "1.00", vatCategory: "O", exemptionReason: "Kamate", kpd: "64.92.01", lineTotal: "1.00" });
    expect(rulesOf(mixed)).toContain("BR-O-11");
  });

  it("writes a credit note as a UBL CreditNote with its billing reference, and requires that reference (BG-3, HR-BR-6)", () => {
    const cn: EInvoiceInput = { ...valid(), documentType: "381" };
    expect(validateEInvoice(cn, kpd).map((p) => [p.path, p.rule])).toEqual([["billingReferences", "FISKAL-BILLING-REFERENCE"]]);
    cn.billingReferences = [{ number: "2026-000100", issueDate: "2026-11-01" }];
    expect(validateEInvoice(cn, kpd)).toEqual([]);
    const xml = buildUbl(cn);
    expect(xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(xml).toContain("<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>");
    expect(xml).toContain("<cbc:ProfileID>P9</cbc:ProfileID>");
    expect(xml).toMatch(/<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>2026-000100<\/cbc:ID>\s*<cbc:IssueDate>2026-11-01<\/cbc:IssueDate>/);
    expect(xml).toContain("<cac:CreditNoteLine>");
    expect(xml).toContain('<cbc:CreditedQuantity unitCode="HUR">10.00</cbc:CreditedQuantity>');
    expect(xml).not.toContain("<cbc:DueDate>");
    expect(xml).toContain("<cbc:PaymentDueDate>2026-12-20</cbc:PaymentDueDate>");
    cn.billingReferences = [{ number: "2026-000100" } as { number: string; issueDate: string }];
    expect(ruleAt(cn, "billingReferences[0].issueDate")).toBe("HR-BR-6");
  });

  it("computes the totals of allowances, charges and a prepaid amount, and checks every one given", () => {
    const input: EInvoiceInput = {
      ...one({ vatCategory: "S", vatRate: "25" }),
      allowances: [{ amount: "10.00", reason: "Popust", reasonCode: "95", vatCategory: "S", vatRate: "25" }],
      charges: [{ amount: "4.00", reasonCode: "FC", vatCategory: "S", vatRate: "25" }],
      totals: { lineTotal: "100.00", allowances: "10.00", charges: "4.00", net: "94.00", vat: "23.50", gross: "117.50", prepaid: "17.50", payable: "100.00" },
    };
    expect(validateEInvoice(input, kpd)).toEqual([]);
    const t = documentTotals(input);
    expect([t.lineTotal, t.allowances, t.charges, t.net, t.vat, t.gross, t.payable]).toEqual([10000n, 1000n, 400n, 9400n, 2350n, 11750n, 10000n]);
    const xml = buildUbl(input);
    expect(xml).toMatch(/<cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>\s*<cbc:AllowanceChargeReasonCode>95<\/cbc:AllowanceChargeReasonCode>/);
    expect(xml).toContain('<cbc:PrepaidAmount currencyID="EUR">17.50</cbc:PrepaidAmount>');
    expect(xml).toContain('<cbc:PayableAmount currencyID="EUR">100.00</cbc:PayableAmount>');
    const wrong = { ...input, totals: { ...input.totals, allowances: "9.00", payable: "117.50" }, charges: [{ amount: "4.00", vatCategory: "S" as const, vatRate: "25" }] };
    expect(rulesOf(wrong)).toEqual(expect.arrayContaining(["BR-CO-11", "BR-CO-16", "BR-38"]));
  });

  it("accepts negative quantities with a positive price, and refuses units outside UN/ECE Rec 20/21 (BR-CL-23)", () => {
    const neg = one({ vatCategory: "S", vatRate: "25", quantity: "-2", lineTotal: "-100.00" });
    neg.totals = { net: "-100.00", vat: "-25.00", gross: "-125.00" };
    expect(validateEInvoice(neg, kpd)).toEqual([]);
    expect(buildUbl(neg)).toContain('<cbc:InvoicedQuantity unitCode="H87">-2.00</cbc:InvoicedQuantity>');
    const kom = valid();
    kom.lines[1]!.unit = "KOM";
    const p = validateEInvoice(kom, kpd).find((x) => x.path === "lines[1].unit");
    expect(p).toMatchObject({ rule: "BR-CL-23" });
    expect(p!.message).toContain('"H87"');
  });

  it("checks the operator, issue time and process type of the HR CIUS", () => {
    const input = valid();
    input.operator = { name: "", oib: "12345678901" };
    input.issueTime = "24:00:00";
    input.processType = "P0";
    expect(rulesOf(input)).toEqual(expect.arrayContaining(["HR-BR-37", "HR-BR-9", "HR-BR-2", "HR-BR-34"]));
    input.operator = { name: "Ana Anić", oib: "12345678903" };
    input.issueTime = "23:59:59";
    input.processType = "P99:NABAVA-7";
    expect(validateEInvoice(input, kpd)).toEqual([]);
    expect(buildUbl(input)).toContain("<cbc:ProfileID>P99:NABAVA-7</cbc:ProfileID>");
  });

  it("requires the operator: the person who issued the document (HR-BT-4, HR-BT-5), never the seller by default", () => {
    const input = valid();
    delete (input as Partial<EInvoiceInput>).operator;
    expect(validateEInvoice(input, kpd).map((p) => [p.path, p.rule])).toEqual([["operator", "HR-BR-37"]]);
    expect(() => buildUbl(input)).toThrow(/operator/);
    const ubl = buildUbl(valid());
    expect(ubl).toContain("<cbc:ID>12345678903</cbc:ID>");
    expect(ubl).toContain("<cbc:Name>Ana Anić</cbc:Name>");
  });
});

describe("the issuer's VAT breakdown", () => {
  it("is checked group by group against the document's, with the rule of each category", () => {
    const input = valid();
    input.totals.vatBreakdown = [
      { category: "S", rate: "25", taxableAmount: "455.04", taxAmount: "113.76" },
      { category: "S", rate: "5", taxableAmount: "37.00", taxAmount: "1.85" },
      { category: "S", rate: "13", taxableAmount: "3.15", taxAmount: "0.41" },
      { category: "Z", rate: "0", taxableAmount: "10.00", taxAmount: "0.00" },
    ];
    expect(validateEInvoice(input, kpd)).toEqual([]);
    input.totals.vatBreakdown = [
      { category: "S", rate: "25.00", taxableAmount: "455.04", taxAmount: "113.77" },
      { category: "S", rate: "5", taxableAmount: "37.01", taxAmount: "1.85" },
      { category: "E", rate: "0", taxableAmount: "3.15", taxAmount: "0.00" },
    ];
    const problems = validateEInvoice(input, kpd).map((p) => [p.path, p.rule]);
    expect(problems).toEqual([
      ["totals.vatBreakdown[0].taxAmount", "BR-S-09"],
      ["totals.vatBreakdown[1].taxableAmount", "BR-S-08"],
      ["totals.vatBreakdown[2]", "BR-E-08"],
      ["totals.vatBreakdown", "BR-S-01"],
      ["totals.vatBreakdown", "BR-Z-01"],
    ]);
  });
});

describe("rule ids", () => {
  const official = `${readFileSync(new URL("../../../reference/en16931/EN16931-UBL-validation-1.3.15.xslt", import.meta.url), "utf8")}${readFileSync(new URL("../../../reference/hr-cius/HR-CIUS-EXT-EN16931-UBL-1.0.3.xslt", import.meta.url), "utf8")}`;
  const isOfficial = (rule: string) => official.includes(`[${rule}]`) || official.includes(`<xsl:attribute name="id">${rule}</xsl:attribute>`);

  it("are official EN 16931 / HR CIUS ids, or a documented FISKAL- id for what no official rule checks", () => {
    const source = ["./einvoice.ts", "./einvoice-validate.ts"].map((file) => readFileSync(new URL(file, import.meta.url), "utf8")).join("\n");
    const quoted = [...source.matchAll(/"((?:HR-)?BR-[A-Z0-9-]+|B[GT]-\d+|FISKAL-[A-Z-]+)"/g)].map((m) => m[1]!);
    const used = new Set(quoted);
    expect(used.size).toBeGreaterThan(30);
    for (const id of used) {
      if (id.startsWith("FISKAL-")) expect(FISKAL_RULES[id]?.length ?? 0, id).toBeGreaterThan(40);
      else expect(isOfficial(id), id).toBe(true);
    }
    for (const id of Object.keys(FISKAL_RULES)) expect(isOfficial(id), id).toBe(false);
  });

  it("FISKAL-LINE-NET: a line amount that is not quantity × price", () => {
    const input = valid();
    input.lines[0]!.lineTotal = "455.01";
    input.totals = { net: "505.20", vat: "116.02", gross: "621.22" };
    expect(validateEInvoice(input, kpd).find((p) => p.path === "lines[0].lineTotal")).toMatchObject({ rule: "FISKAL-LINE-NET" });
  });

  it("FISKAL-LINE-NET with a price base quantity: quantity × price ÷ base quantity", () => {
    const input = valid();
    const line = input.lines[0]!;
    const total = line.lineTotal;
    line.unitPrice = String(Number(line.unitPrice) * 100);
    line.baseQuantity = "100";
    expect(validateEInvoice(input, kpd).filter((p) => p.path.startsWith("lines[0]"))).toEqual([]);
    line.lineTotal = (Number(total) * 100).toFixed(2);
    expect(validateEInvoice(input, kpd).find((p) => p.path === "lines[0].lineTotal")?.message).toContain("÷ osnovna količina");
    line.baseQuantity = "0";
    expect(validateEInvoice(input, kpd).find((p) => p.path === "lines[0].baseQuantity")).toBeDefined();
  });

  it("FISKAL-BUSINESS-UNIT: the buyer's business unit needs the buyer's OIB, and is written as 9934:OIB::HR99:code", () => {
    const input = valid();
    input.buyer.businessUnit = "PJ-7";
    expect(validateEInvoice(input, kpd)).toEqual([]);
    expect(buildUbl(input)).toMatch(new RegExp(`<cac:PartyIdentification>\\s*<cbc:ID>9934:${input.buyer.oib}::HR99:PJ-7</cbc:ID>\\s*</cac:PartyIdentification>`));
    const foreign = valid();
    foreign.buyer = { ...foreign.buyer, oib: undefined, endpoint: { scheme: "9930", id: "DE123456789" }, address: { country: "DE" }, businessUnit: "PJ-7" };
    expect(validateEInvoice(foreign, kpd).find((p) => p.path === "buyer.businessUnit")).toMatchObject({ rule: "FISKAL-BUSINESS-UNIT" });
  });

  it("FISKAL-OUT-OF-SCOPE: an E item whose reason names an amount outside the VAT base is refused; marked, it is written as the tax authority does", () => {
    const input = valid();
    input.charges = [{ amount: "10.00", reason: "Turistička pristojba", vatCategory: "E", vatRate: "0", exemptionReason: "Turistička pristojba" }];
    const net = documentTotals({ ...input, totals: input.totals }).net;
    input.totals = { ...input.totals, net: formatCents(net), gross: formatCents(net + documentTotals(input).vat) };
    expect(validateEInvoice(input, kpd).find((p) => p.path === "charges[0].outOfScope")).toMatchObject({ rule: "FISKAL-OUT-OF-SCOPE", message: expect.stringContaining("HR:N") });
    input.charges[0]!.outOfScope = "HR:N";
    input.charges[0]!.reason = "#HR:N#Turistička pristojba";
    expect(validateEInvoice(input, kpd)).toEqual([]);
    const xml = buildUbl(input);
    // EN 16931: an E charge labelled HR:N; BG-23: E with "#HR:N#reason"; HR extension: O under HR:N, out of the HR tax-exclusive amount.
    expect(xml).toMatch(/<cbc:AllowanceChargeReason>#HR:N#Turistička pristojba<\/cbc:AllowanceChargeReason>\s*<cbc:Amount currencyID="EUR">10.00<\/cbc:Amount>\s*<cac:TaxCategory>\s*<cbc:ID>E<\/cbc:ID>\s*<cbc:Name>HR:N<\/cbc:Name>\s*<cbc:Percent>0<\/cbc:Percent>\s*<cbc:TaxExemptionReason>Turistička pristojba</);
    expect(xml).toContain("<cbc:TaxExemptionReason>#HR:N#Turistička pristojba</cbc:TaxExemptionReason>");
    expect(xml).toMatch(/<cbc:TaxableAmount currencyID="EUR">10.00<\/cbc:TaxableAmount>\s*<cbc:TaxAmount currencyID="EUR">0.00<\/cbc:TaxAmount>\s*<hrextac:HRTaxCategory>\s*<cbc:ID>O<\/cbc:ID>\s*<cbc:Name>HR:N<\/cbc:Name>/);
    expect(xml).toContain(`<cbc:TaxExclusiveAmount currencyID="EUR">${formatCents(net - 1000n)}</cbc:TaxExclusiveAmount>`);
    expect(xml).toContain('<hrextac:OutOfScopeOfVATAmount currencyID="EUR">10.00</hrextac:OutOfScopeOfVATAmount>');
    // out_of_scope goes only with E.
    input.charges[0]!.vatCategory = "O";
    delete input.charges[0]!.vatRate;
    expect(validateEInvoice(input, kpd).find((p) => p.rule === "FISKAL-OUT-OF-SCOPE")).toBeDefined();
  });

  it("FISKAL-ALLOWANCE-PERCENT: a percentage charge is base × percent / 100, percent and base together", () => {
    const input = valid();
    input.charges = [{ amount: "3.00", percent: "3", baseAmount: "100.00", reason: "Naknada", vatCategory: "S", vatRate: "25" }];
    const t = documentTotals(input);
    input.totals = { ...input.totals, net: formatCents(t.net), vat: formatCents(t.vat), gross: formatCents(t.gross) };
    expect(validateEInvoice(input, kpd)).toEqual([]);
    expect(buildUbl(input)).toMatch(/<cbc:MultiplierFactorNumeric>3<\/cbc:MultiplierFactorNumeric>\s*<cbc:Amount currencyID="EUR">3.00<\/cbc:Amount>\s*<cbc:BaseAmount currencyID="EUR">100.00<\/cbc:BaseAmount>/);
    input.charges[0]!.percent = "4";
    expect(validateEInvoice(input, kpd).find((p) => p.path === "charges[0].amount")).toMatchObject({ rule: "FISKAL-ALLOWANCE-PERCENT" });
    delete input.charges[0]!.baseAmount;
    expect(validateEInvoice(input, kpd).find((p) => p.path === "charges[0].baseAmount")).toMatchObject({ rule: "FISKAL-ALLOWANCE-PERCENT" });
  });

  it("line allowances and charges (BG-27/28) count in the line amount; invoicing periods (BG-14/26) are checked and written", () => {
    const input = valid();
    const line = input.lines[0]!;
    const before = parseMoneyText(line.lineTotal);
    line.allowances = [{ amount: "10.00", reason: "Rabat", reasonCode: "95" }];
    // The line total that ignores the allowance is refused.
    expect(validateEInvoice(input, kpd).find((p) => p.path === "lines[0].lineTotal")?.message).toContain("− popusti stavke + troškovi stavke");
    line.lineTotal = formatCents(before - 1000n);
    const t = documentTotals(input);
    input.totals = { net: formatCents(t.net), vat: formatCents(t.vat), gross: formatCents(t.gross) };
    input.period = { start: "2026-10-01", end: "2026-10-31" };
    line.period = { start: "2026-10-05" };
    expect(validateEInvoice(input, kpd)).toEqual([]);
    const xml = buildUbl(input);
    expect(xml).toMatch(/<cbc:DocumentCurrencyCode>EUR<\/cbc:DocumentCurrencyCode>\s*<cac:InvoicePeriod>\s*<cbc:StartDate>2026-10-01<\/cbc:StartDate>\s*<cbc:EndDate>2026-10-31<\/cbc:EndDate>/);
    expect(xml).toMatch(/<cac:InvoicePeriod>\s*<cbc:StartDate>2026-10-05<\/cbc:StartDate>\s*<\/cac:InvoicePeriod>\s*<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>\s*<cbc:AllowanceChargeReasonCode>95<\/cbc:AllowanceChargeReasonCode>\s*<cbc:AllowanceChargeReason>Rabat<\/cbc:AllowanceChargeReason>\s*<cbc:Amount currencyID="EUR">10.00<\/cbc:Amount>\s*<\/cac:AllowanceCharge>\s*<cac:Item>/);
    input.period = { start: "2026-10-31", end: "2026-10-01" };
    line.allowances = [{ amount: "10.00" }];
    const rules = validateEInvoice(input, kpd).map((p) => `${p.path} ${p.rule}`);
    expect(rules).toEqual(expect.arrayContaining(["period.end BR-29", "lines[0].allowances[0].reason BR-42"]));
  });

  it("cash-basis VAT is written as HRObracunPDVPoNaplati in the HR extension", () => {
    const input = valid();
    expect(buildUbl(input)).not.toContain("HRObracunPDVPoNaplati");
    input.cashBasisVat = true;
    expect(buildUbl(input)).toMatch(/<hrextac:HRFISK20Data>\s*<hrextac:HRObracunPDVPoNaplati>Obračun po naplaćenoj naknadi<\/hrextac:HRObracunPDVPoNaplati>/);
  });
});
