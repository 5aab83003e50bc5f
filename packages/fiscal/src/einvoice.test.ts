import { readFileSync } from "node:fs";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { buildUbl, type EInvoiceInput, HR_CIUS_CUSTOMIZATION_ID, isValidIban, validateEInvoice } from "./einvoice.ts";
import { KpdIndex, parseKpdCsv } from "./kpd.ts";

let kpd: KpdIndex;
beforeAll(() => {
  kpd = KpdIndex.fromRows(parseKpdCsv(readFileSync(new URL("../../db/data/kpd-2025.csv", import.meta.url), "utf8")));
});

// VAT per rate group: 25% of 455.04 = 113.76 (per-line rounding would give 113.77: 113.75 + 0.01 + 0.01),
// 5% of 37.00 = 1.85, 13% of 3.15 = 0.4095 → 0.41, 0% of 10.00 = 0. Total 116.02; gross 621.21.
const valid = (): EInvoiceInput => ({
  number: "2026-000123",
  issueDate: "2026-11-20",
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
  totals: { net: "505.19", vat: "116.02", gross: "621.21" },
  note: "Plaćanje po ponudi 12/2026",
});

const paths = (input: EInvoiceInput) => validateEInvoice(input, kpd).map((p) => p.path);
const messageAt = (input: EInvoiceInput, path: string) => validateEInvoice(input, kpd).find((p) => p.path === path)?.message;

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
    expect(messageAt(input, "lines[0].kpd")).toMatch(/99.99.99 is not a KPD 2025 code/);
    expect(messageAt(input, "lines[1].kpd")).toMatch(/62.10.1 is a category; a level-5 subcategory code is required/);
    expect(messageAt(input, "lines[2].kpd")).toMatch(/exactly as 01.11.11/);
    expect(messageAt(input, "lines[3].kpd")).toBe("is required");
  });

  it("checks both OIBs", () => {
    const input = valid();
    input.seller.oib = "69435151531";
    input.buyer.oib = "9457740319";
    expect(messageAt(input, "seller.oib")).toMatch(/check digit/);
    expect(messageAt(input, "buyer.oib")).toMatch(/11 digits/);
  });

  it("checks line arithmetic with half-up rounding to cents", () => {
    const input = valid();
    input.lines[1]!.lineTotal = "36.99"; // 3 × 12.333 = 36.999 → 37.00
    expect(messageAt(input, "lines[1].lineTotal")).toBe("must equal quantity × unitPrice rounded to cents: expected 37.00, got 36.99");
  });

  it("checks net, VAT per rate group, and gross", () => {
    const input = valid();
    input.totals = { net: "505.18", vat: "116.03", gross: "621.20" };
    const problems = validateEInvoice(input, kpd);
    expect(problems.map((p) => p.path)).toEqual(["totals.net", "totals.vat", "totals.gross"]);
    expect(problems[0]!.message).toMatch(/expected 505.19, got 505.18/);
    expect(problems[1]!.message).toMatch(/25% of 455.04 = 113.76; 5% of 37.00 = 1.85; 13% of 3.15 = 0.41; 0% of 10.00 = 0.00\): expected 116.02, got 116.03/);
    expect(problems[2]!.message).toBe("must equal net + vat: expected 621.21, got 621.20");
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
    input.lines[2]!.lineTotal = 3.15 as unknown as string;
    input.totals.net = "505.190";
    expect(paths(input)).toEqual(expect.arrayContaining(["lines[0].quantity", "lines[1].unitPrice", "lines[2].lineTotal", "totals.net"]));
  });

  it("refuses VAT rates Croatia does not have, zero quantities and negative prices", () => {
    const input = valid();
    input.lines[0]!.vatRate = "22";
    input.lines[1]!.quantity = "0";
    input.lines[2]!.unitPrice = "-2.10";
    expect(messageAt(input, "lines[0].vatRate")).toBe("must be one of 25, 13, 5, 0");
    expect(messageAt(input, "lines[1].quantity")).toBe("must not be zero");
    expect(messageAt(input, "lines[2].unitPrice")).toMatch(/negative/);
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
    expect(messageAt(early, "issueDate")).toMatch(/HR-BR-40/);
    const late = valid();
    late.dueDate = "2026-11-19";
    expect(messageAt(late, "dueDate")).toBe("must not be before issueDate");
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
    expect(inv["cbc:IssueTime"]).toBe("00:00:00");
    expect(inv["cbc:DueDate"]).toBe("2026-12-20");
    expect(inv["cbc:InvoiceTypeCode"]).toBe("380");
    expect(inv["cbc:DocumentCurrencyCode"]).toBe("EUR");
    expect(inv["cbc:Note"]).toBe("Plaćanje po ponudi 12/2026");

    const seller = inv["cac:AccountingSupplierParty"]["cac:Party"];
    expect(seller["cbc:EndpointID"]).toEqual({ "#text": "69435151530", "@schemeID": "9934" });
    expect(seller["cac:PartyTaxScheme"]["cbc:CompanyID"]).toBe("HR69435151530");
    expect(seller["cac:PartyLegalEntity"]["cbc:RegistrationName"]).toBe("Primjer d.o.o.");
    expect(seller["cac:PostalAddress"]).toEqual({ "cbc:StreetName": "Ilica 1", "cbc:CityName": "Zagreb", "cbc:PostalZone": "10000", "cac:Country": { "cbc:IdentificationCode": "HR" } });
    expect(inv["cac:AccountingSupplierParty"]["cac:SellerContact"]).toEqual({ "cbc:ID": "69435151530", "cbc:Name": "Primjer d.o.o." });
    const buyer = inv["cac:AccountingCustomerParty"]["cac:Party"];
    expect(buyer["cbc:EndpointID"]).toEqual({ "#text": "94577403194", "@schemeID": "9934" });
    expect(buyer["cac:PartyName"]["cbc:Name"]).toBe("Kupac & Sin d.o.o.");
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
    expect(line2["cac:Item"]["cac:ClassifiedTaxCategory"]).toEqual({ "cbc:ID": "S", "cbc:Percent": "13", "cac:TaxScheme": { "cbc:ID": "VAT" } });
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
    expect(inv["cac:AccountingSupplierParty"]["cac:Party"]["cac:PartyName"]["cbc:Name"]).toBe('A "&" <B>');
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
