// The parts of validateEInvoice, each on its own (the whole is tested in einvoice.test.ts).
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { EInvoiceInput } from "./einvoice.ts";
import {
  allowanceChargeProblems,
  billingReferenceProblems,
  breakdownProblems,
  categoryProblems,
  deliveryProblems,
  expectedLineTotal,
  headerProblems,
  kpdProblems,
  lineProblems,
  operatorProblems,
  partiesPresent,
  partyProblems,
  paymentProblems,
  percentProblems,
  periodProblems,
  ProblemList,
  taxItemProblems,
  totalsProblems,
} from "./einvoice-validate.ts";
import { KpdIndex, parseKpdCsv } from "./kpd.ts";
import { parseDecimal, type Decimal } from "./money.ts";

let kpd: KpdIndex;
beforeAll(() => {
  kpd = KpdIndex.fromRows(parseKpdCsv(readFileSync(new URL("../../db/data/kpd-2025.csv", import.meta.url), "utf8")));
});

const decimal = (s: string): Decimal => parseDecimal(s)!;
const rulesOf = (p: ProblemList) => p.problems.map((x) => `${x.path} ${x.rule ?? "-"}`);

const input = (): EInvoiceInput => ({
  number: "2026-1",
  issueDate: "2026-11-20",
  issueTime: "09:30:00",
  currency: "EUR",
  seller: { oib: "69435151530", name: "Primjer d.o.o.", iban: "HR1210010051863000160" },
  buyer: { oib: "94577403194", name: "Kupac d.o.o." },
  lines: [{ description: "Usluga", quantity: "2", unit: "HUR", unitPrice: "10", vatRate: "25", kpd: "62.10.11", lineTotal: "20.00" }],
  operator: { name: "Ana Anić", oib: "12345678903" },
  totals: { net: "20.00", vat: "5.00", gross: "25.00" },
});

describe("ProblemList", () => {
  it("text: required, not blank when given, at most max characters, no XML control characters", () => {
    const p = new ProblemList();
    expect(p.text("a", undefined, 5)).toBe(false);
    expect(p.text("b", undefined, 5, false)).toBe(false);
    expect(p.text("c", "  ", 5, false)).toBe(false);
    expect(p.text("d", "šešir", 5)).toBe(true);
    expect(p.text("e", "šešir!", 5, true, "HR-BR-46")).toBe(true);
    expect(p.text("f", "a\u0001", 5)).toBe(true);
    expect(p.problems).toEqual([
      { path: "a", message: "Obavezno polje." },
      { path: "c", message: "Ako je navedeno, ne smije biti prazno." },
      { path: "e", message: "Najviše 5 znakova.", rule: "HR-BR-46" },
      { path: "f", message: "Sadrži kontrolne znakove koji ne mogu biti u XML dokumentu." },
    ]);
  });

  it("date, money, oib and vatId", () => {
    const p = new ProblemList();
    p.date("d1", "2026-02-30", "HR-BR-41");
    p.date("d2", "1900-01-01", "HR-BR-41");
    p.date("d3", "2026-02-28", "HR-BR-41");
    expect(p.money("m1", "1.234")).toBe(false);
    expect(p.money("m2", "-1.5")).toBe(true);
    expect(p.oib("o1", "6943515153", "HR-BR-53")).toBe(false);
    expect(p.oib("o2", "69435151531", "HR-BR-9")).toBe(false);
    expect(p.oib("o3", "69435151530", "HR-BR-9")).toBe(true);
    p.vatId("v1", "69435151530", undefined);
    p.vatId("v2", "HR94577403194", "69435151530");
    p.vatId("v3", "DE123456789", "69435151530");
    p.vatId("v4", undefined, "69435151530");
    expect(rulesOf(p)).toEqual(["d1 -", "d2 HR-BR-41", "m1 BR-DEC-23", "o1 HR-BR-53", "o2 HR-BR-9", "v1 BR-CO-09", "v2 HR-BR-53"]);
    expect(p.problems.find((x) => x.path === "o1")?.message).toBe("OIB ima točno 11 znamenki.");
    expect(p.problems.find((x) => x.path === "v2")?.message).toContain("HR69435151530");
  });
});

describe("headerProblems", () => {
  it("refuses an unknown type, a number with spaces, a date before e-invoices, a bad time and another currency", () => {
    const p = new ProblemList();
    headerProblems({ ...input(), number: "2026 1", issueDate: "2025-12-31", issueTime: "9:30", currency: "USD" as "EUR" }, "999" as never, p);
    expect(rulesOf(p)).toEqual(["documentType BR-CL-01", "number HR-BR-1", "issueDate HR-BR-40", "issueTime HR-BR-2", "currency BR-CL-04"]);
  });

  it("a due date before the issue date", () => {
    const p = new ProblemList();
    headerProblems({ ...input(), dueDate: "2026-11-19" }, "380", p);
    expect(p.problems).toEqual([{ path: "dueDate", message: "Datum dospijeća ne smije biti prije datuma izdavanja." }]);
  });
});

describe("partiesPresent and partyProblems", () => {
  it("without a seller or a buyer nothing else is checked", () => {
    const p = new ProblemList();
    expect(partiesPresent({ ...input(), seller: undefined as never, buyer: undefined as never }, p)).toBe(false);
    expect(rulesOf(p)).toEqual(["seller -", "buyer -"]);
    expect(partiesPresent(input(), new ProblemList())).toBe(true);
  });

  it("a buyer is identified by OIB (a Croatian one always), a business unit is the buyer's and goes with its OIB", () => {
    const p = new ProblemList();
    const { seller } = input();
    partyProblems({ ...seller, businessUnit: "PJ1" }, { name: "Kunde GmbH", address: { country: "DE" } }, p);
    partyProblems(seller, { name: "Kupac", endpoint: { scheme: "0088", id: "123" } }, p);
    partyProblems(seller, { name: "Kupac", businessUnit: "PJ1", endpoint: { scheme: "9930", id: "DE123456789" }, address: { country: "DE" } }, p);
    expect(rulesOf(p)).toEqual([
      "buyer.oib HR-BR-10",
      "seller.businessUnit FISKAL-BUSINESS-UNIT",
      "buyer.oib HR-BR-53",
      "buyer.businessUnit FISKAL-BUSINESS-UNIT",
    ]);
  });

  it("electronic addresses: a scheme from the EAS list, an OIB under 9934", () => {
    const p = new ProblemList();
    partyProblems(input().seller, { name: "Kupac", oib: "94577403194", endpoint: { scheme: "XX", id: "1" } }, p);
    partyProblems(input().seller, { name: "Kupac", oib: "94577403194", endpoint: { scheme: "9934", id: "94577403195" } }, p);
    expect(rulesOf(p)).toEqual(["buyer.endpoint.scheme BR-CL-25", "buyer.endpoint.id HR-BR-53"]);
  });
});

describe("operatorProblems", () => {
  it("a person's name or mark and OIB", () => {
    const p = new ProblemList();
    operatorProblems({ ...input(), operator: undefined as never }, p);
    operatorProblems({ ...input(), operator: { name: " ", oib: "12345678904" } }, p);
    operatorProblems(input(), p);
    expect(rulesOf(p)).toEqual(["operator HR-BR-37", "operator.name HR-BR-37", "operator.oib HR-BR-9"]);
  });
});

describe("billingReferenceProblems and deliveryProblems", () => {
  it("a credit note or corrective invoice names the invoice it corrects, with its date", () => {
    const p = new ProblemList();
    billingReferenceProblems(input(), "381", p);
    billingReferenceProblems(input(), "380", p);
    billingReferenceProblems({ ...input(), billingReferences: [{ number: "2026-1" } as never] }, "384", p);
    expect(rulesOf(p)).toEqual(["billingReferences FISKAL-BILLING-REFERENCE", "billingReferences[0].issueDate HR-BR-6"]);
    expect(p.problems[0]!.message).toMatch(/^Odobrenje/);
  });

  it("a delivery's date and country", () => {
    const p = new ProblemList();
    deliveryProblems({ ...input(), delivery: { date: "2100-01-01", address: { country: "XX" } } }, p);
    deliveryProblems(input(), p);
    expect(rulesOf(p)).toEqual(["delivery.date HR-BR-44", "delivery.address.country BR-CL-14"]);
  });
});

describe("lineProblems", () => {
  it("quantity, price, unit (with the code to use instead) and the line amount", () => {
    const p = new ProblemList();
    const line = input().lines[0]!;
    lineProblems("lines[0]", { ...line, quantity: "0", lineTotal: "0.00" }, "380", kpd, p);
    lineProblems("lines[1]", { ...line, unitPrice: "-1", lineTotal: "-2.00" }, "380", kpd, p);
    lineProblems("lines[2]", { ...line, unit: "KOM" }, "380", kpd, p);
    lineProblems("lines[3]", { ...line, lineTotal: "20.01" }, "380", kpd, p);
    expect(rulesOf(p)).toEqual(["lines[0].quantity -", "lines[1].unitPrice BR-27", "lines[2].unit BR-CL-23", "lines[3].lineTotal FISKAL-LINE-NET"]);
    expect(p.problems[2]!.message).toContain('"H87"');
    expect(p.problems[3]!.message).toContain("20.00, a ne 20.01");
  });
});

describe("paymentProblems", () => {
  it("a credit transfer needs an IBAN: the payment's or the seller's", () => {
    const withoutIban = { ...input(), seller: { ...input().seller, iban: undefined } };
    const p = new ProblemList();
    paymentProblems({ ...withoutIban, payment: { meansCode: "30" } }, p);
    expect(rulesOf(p)).toEqual(["payment.iban BR-61"]);
    const q = new ProblemList();
    paymentProblems({ ...withoutIban, payment: { meansCode: "10" } }, q);
    paymentProblems(input(), q);
    expect(q.problems).toEqual([]);
  });

  it("a Croatian payment reference is model and number", () => {
    const p = new ProblemList();
    paymentProblems({ ...input(), payment: { reference: "HR00 2026-15" } }, p);
    expect(p.problems).toEqual([]);
    paymentProblems({ ...input(), payment: { reference: "HR002026" } }, p);
    expect(p.problems.map((x) => x.path)).toEqual(["payment.reference"]);
  });
});

describe("periodProblems", () => {
  it("needs a start or an end, calendar dates, and an end not before the start (document and line rules)", () => {
    const p = new ProblemList();
    periodProblems("period", {}, p);
    periodProblems("lines[0].period", {}, p);
    periodProblems("period", { start: "2026-11-20", end: "2026-11-01" }, p);
    periodProblems("lines[0].period", { start: "2026-11-20", end: "2026-11-01" }, p);
    periodProblems("period", { start: "2026-13-01" }, p);
    periodProblems("period", undefined, p);
    expect(rulesOf(p)).toEqual(["period BR-CO-19", "lines[0].period BR-CO-20", "period.end BR-29", "lines[0].period.end BR-30", "period.start -"]);
  });
});

describe("percentProblems", () => {
  it("percentage and base go together and the amount is base × percentage / 100, rounded to cents", () => {
    const p = new ProblemList();
    percentProblems("a", { amount: "3.00", percent: "3", baseAmount: "100.00" }, p);
    percentProblems("b", { amount: "0.37", percent: "3.33", baseAmount: "11.11" }, p);
    expect(p.problems).toEqual([]);
    percentProblems("c", { amount: "3.01", percent: "3", baseAmount: "100.00" }, p);
    percentProblems("d", { amount: "3.00", percent: "3" }, p);
    percentProblems("e", { amount: "3.00", percent: "0", baseAmount: "100.00" }, p);
    expect(rulesOf(p)).toEqual(["c.amount FISKAL-ALLOWANCE-PERCENT", "d.baseAmount FISKAL-ALLOWANCE-PERCENT", "e.percent HR-BR-56"]);
    expect(p.amountsOk).toBe(true);
  });

  it("an unreadable base amount stops the totals from being recomputed", () => {
    const p = new ProblemList();
    percentProblems("a", { amount: "3.00", percent: "3", baseAmount: "100" }, p);
    expect(p.amountsOk).toBe(true);
    percentProblems("a", { amount: "3.00", percent: "3", baseAmount: "1e2" }, p);
    expect(p.amountsOk).toBe(false);
  });
});

describe("expectedLineTotal", () => {
  it("quantity × price, or ÷ the base quantity, rounded half away from zero, less allowances plus charges", () => {
    expect(expectedLineTotal({}, decimal("3"), decimal("12.335"), null)).toBe(3701n);
    expect(expectedLineTotal({}, decimal("-3"), decimal("12.335"), null)).toBe(-3701n);
    expect(expectedLineTotal({}, decimal("1"), decimal("10"), decimal("3"))).toBe(333n);
    expect(expectedLineTotal({}, decimal("2"), decimal("10"), decimal("3"))).toBe(667n);
    expect(expectedLineTotal({ allowances: [{ amount: "1.50" }], charges: [{ amount: "0.25" }, { amount: "x" }] }, decimal("2"), decimal("10"), null)).toBe(1875n);
  });
});

describe("kpdProblems", () => {
  it("a level-5 code written exactly; none needed on a credit note", () => {
    const p = new ProblemList();
    kpdProblems("k", "62.10.11", "380", kpd, p);
    kpdProblems("k", undefined, "381", kpd, p);
    expect(p.problems).toEqual([]);
    kpdProblems("k1", undefined, "380", kpd, p);
    kpdProblems("k2", "62.10", "380", kpd, p);
    kpdProblems("k3", "99.99.99", "380", kpd, p);
    kpdProblems("k4", 621011, "380", kpd, p);
    expect(rulesOf(p)).toEqual(["k1 HR-BR-25", "k2 HR-BR-25", "k3 HR-BR-CL-2", "k4 HR-BR-25"]);
    expect(p.problems[1]!.message).toContain("je razred (razina 3)");
  });
});

describe("allowanceChargeProblems", () => {
  it("the reason rules of a line (BR-42, BR-44) and of the document (BR-33, BR-38)", () => {
    const p = new ProblemList();
    for (const level of ["line", "document"] as const) {
      for (const kind of ["allowances", "charges"] as const) allowanceChargeProblems(`${level}.${kind}`, { amount: "0.00" }, kind, level, p);
    }
    expect(rulesOf(p)).toEqual([
      "line.allowances.amount -",
      "line.allowances.reason BR-42",
      "line.charges.amount -",
      "line.charges.reason BR-44",
      "document.allowances.amount -",
      "document.allowances.reason BR-33",
      "document.charges.amount -",
      "document.charges.reason BR-38",
    ]);
  });

  it("reason codes from UNTDID 5189 (allowances) and 7161 (charges), with the examples of each level", () => {
    const p = new ProblemList();
    allowanceChargeProblems("a", { amount: "1.00", reasonCode: "FC" }, "allowances", "line", p);
    allowanceChargeProblems("b", { amount: "1.00", reasonCode: "95" }, "charges", "document", p);
    allowanceChargeProblems("c", { amount: "1.00", reasonCode: "95" }, "allowances", "document", p);
    expect(p.problems).toEqual([
      { path: "a.reasonCode", message: "Kod razloga popusta mora biti iz UNTDID 5189 (npr. 95 popust).", rule: "BR-CL-19" },
      { path: "b.reasonCode", message: "Kod razloga troška mora biti iz UNTDID 7161 (npr. FC prijevoz, ABL pakiranje).", rule: "BR-CL-20" },
    ]);
  });
});

describe("taxItemProblems", () => {
  it("rates by category, and the rule id of the item's kind", () => {
    const p = new ProblemList();
    taxItemProblems("l", { vatCategory: "S" }, "line", p);
    taxItemProblems("a", { vatCategory: "Z", vatRate: "5" }, "allowance", p);
    taxItemProblems("c", { vatCategory: "K", vatRate: "5" }, "charge", p);
    taxItemProblems("s", { vatRate: "22" }, "line", p);
    expect(rulesOf(p)).toEqual(["l.vatRate BR-S-05", "a.vatRate BR-Z-06", "c.vatRate BR-IC-07", "s.vatRate HR-BR-CL-1"]);
    expect(p.amountsOk).toBe(false);
  });

  it("one exemption reason per category and rate across the document", () => {
    const p = new ProblemList();
    taxItemProblems("lines[0]", { vatCategory: "E", vatRate: "0", exemptionReason: "čl. 39." }, "line", p);
    taxItemProblems("lines[1]", { vatCategory: "E", vatRate: "0", exemptionReason: "čl. 39." }, "line", p);
    taxItemProblems("lines[2]", { vatCategory: "E", vatRate: "0", exemptionReason: "čl. 40." }, "line", p);
    taxItemProblems("charges[0]", { vatCategory: "E", vatRate: "0" }, "charge", p);
    expect(rulesOf(p)).toEqual(["lines[2].exemptionReason BR-E-08", "charges[0].exemptionReason HR-BR-13"]);
    expect(p.problems[0]!.message).toContain("lines[0]");
    expect(p.amountsOk).toBe(true);
  });

  it("amounts outside the VAT base are E items marked out_of_scope", () => {
    const p = new ProblemList();
    taxItemProblems("a", { vatCategory: "E", vatRate: "0", exemptionReason: "Turistička pristojba" }, "line", p);
    taxItemProblems("b", { vatCategory: "S", vatRate: "25", outOfScope: "HR:N" }, "line", p);
    expect(rulesOf(p)).toEqual(["a.outOfScope FISKAL-OUT-OF-SCOPE", "b.vatCategory FISKAL-OUT-OF-SCOPE"]);
    const marked = new ProblemList();
    taxItemProblems("c", { vatCategory: "E", vatRate: "0", exemptionReason: "Turistička pristojba", outOfScope: "HR:N" }, "line", marked);
    expect(marked.problems).toEqual([]);
  });
});

describe("categoryProblems", () => {
  it("a seller outside the VAT system issues only E or O items and has no VAT id", () => {
    const p = new ProblemList();
    const i = input();
    categoryProblems({ ...i, seller: { ...i.seller, inVatSystem: false, vatId: "HR69435151530" } }, p);
    expect(rulesOf(p)).toEqual(["seller.inVatSystem BR-S-02", "seller.vatId BR-CO-09"]);
  });

  it("an intra-EU supply (K) needs the buyer's foreign VAT id, the delivery date and country", () => {
    const p = new ProblemList();
    const i = input();
    categoryProblems({ ...i, lines: [{ ...i.lines[0]!, vatCategory: "K", vatRate: "0" }] }, p);
    expect(rulesOf(p)).toEqual(["buyer.vatId BR-IC-02", "delivery.date BR-IC-11", "delivery.address.country BR-IC-12"]);
  });
});

describe("totalsProblems", () => {
  it("each given total against the document's", () => {
    const p = new ProblemList();
    totalsProblems({ ...input(), totals: { net: "20.00", vat: "5.01", gross: "25.00", lineTotal: "20.01", payable: "25.00" } }, "380", p);
    expect(rulesOf(p)).toEqual(["totals.lineTotal BR-CO-10", "totals.vat BR-CO-14", "totals.gross BR-CO-15"]);
  });

  it("checks only the shapes when an amount elsewhere could not be read", () => {
    const p = new ProblemList();
    p.amountsOk = false;
    totalsProblems({ ...input(), totals: { net: "99.00", vat: "5", gross: "x" } }, "380", p);
    expect(rulesOf(p)).toEqual(["totals.gross BR-DEC-23"]);
  });
});

describe("breakdownProblems", () => {
  it("one entry per category and rate with the document's amounts, none missing or repeated", () => {
    const groups = [
      { category: "S" as const, rate: "25", base: 2000n, vat: 500n, exemption: {} },
      { category: "Z" as const, rate: "0", base: 100n, vat: 0n, exemption: {} },
    ];
    const p = new ProblemList();
    breakdownProblems(
      [
        { category: "S", rate: "25.00", taxableAmount: "20.00", taxAmount: "5.01" },
        { category: "S", rate: "25", taxableAmount: "20.00", taxAmount: "5.00" },
        { category: "E", rate: "0", taxableAmount: "1.00", taxAmount: "0.00" },
      ],
      groups,
      p,
    );
    expect(rulesOf(p)).toEqual(["totals.vatBreakdown[0].taxAmount BR-S-09", "totals.vatBreakdown[1] BR-S-08", "totals.vatBreakdown[2] BR-E-08", "totals.vatBreakdown BR-Z-01"]);
  });
});
