import { describe, expect, it } from "vitest";
import { racunProblems } from "./cis/racun.ts";
import { receiptProblems, taxFor, toRacunType, type Receipt } from "./receipt.ts";

const NOW = new Date("2026-11-23T12:00:00Z");
const base: Receipt = {
  oib: "69435151530",
  issuedAt: new Date("2026-11-21T09:15:00Z"),
  number: "123",
  premises: "POSL1",
  device: "12",
  total: "125.00",
  paymentMethod: "K",
  operatorOib: "94577403194",
  vatRegistered: true,
  sequence: "P",
};
const paths = (r: Receipt) => receiptProblems(r, NOW).map((p) => p.path);

describe("toRacunType", () => {
  // The request of the CIS specification v2.6 §2.1.2, field by field.
  const full: Receipt = {
    ...base,
    issuedAt: new Date("2012-09-01T19:10:34Z"),
    number: "123456789",
    premises: "POSL1",
    device: "12",
    vat: [
      { rate: "25", base: "10.00", amount: "2.50" },
      { rate: "10.00", base: "10", amount: "1.00" },
      { rate: "0", base: "10.00", amount: "0.00" },
    ],
    consumptionTax: [{ rate: "3", base: "10.00", amount: "0.30" }],
    otherTaxes: [{ name: "Porez na luksuz", rate: "15", base: "10.00", amount: "1.50" }],
    exemptAmount: "12.00",
    marginAmount: "13",
    fees: [{ name: "Povratna naknada", amount: "1.00" }],
    total: "30.00",
    operatorOib: "01234567890",
    paragonNumber: "123/458/5",
    specialPurpose: "Navedeno kao primjer",
  };

  it("maps every field to the schema's names, two decimals everywhere, in the schema's order", () => {
    const racun = toRacunType(full, "e4d909c290d0fb1ca068ffaddf22cbd0");
    expect(racun).toEqual({
      Oib: "69435151530",
      USustPdv: true,
      DatVrijeme: "01.09.2012T21:10:34",
      OznSlijed: "P",
      BrRac: { BrOznRac: "123456789", OznPosPr: "POSL1", OznNapUr: "12" },
      Pdv: [
        { Stopa: "25.00", Osnovica: "10.00", Iznos: "2.50" },
        { Stopa: "10.00", Osnovica: "10.00", Iznos: "1.00" },
        { Stopa: "0.00", Osnovica: "10.00", Iznos: "0.00" },
      ],
      Pnp: [{ Stopa: "3.00", Osnovica: "10.00", Iznos: "0.30" }],
      OstaliPor: [{ Naziv: "Porez na luksuz", Stopa: "15.00", Osnovica: "10.00", Iznos: "1.50" }],
      IznosOslobPdv: "12.00",
      IznosMarza: "13.00",
      Naknade: [{ NazivN: "Povratna naknada", IznosN: "1.00" }],
      IznosUkupno: "30.00",
      NacinPlac: "K",
      OibOper: "01234567890",
      ZastKod: "e4d909c290d0fb1ca068ffaddf22cbd0",
      // A re-entered paragon receipt is by definition delivered late.
      NakDost: true,
      ParagonBrRac: "123/458/5",
      SpecNamj: "Navedeno kao primjer",
    });
    expect(Object.keys(racun)).toEqual([
      "Oib", "USustPdv", "DatVrijeme", "OznSlijed", "BrRac", "Pdv", "Pnp", "OstaliPor", "IznosOslobPdv", "IznosMarza",
      "Naknade", "IznosUkupno", "NacinPlac", "OibOper", "ZastKod", "NakDost", "ParagonBrRac", "SpecNamj",
    ]);
    expect(racunProblems(racun)).toEqual([]);
  });

  it("leaves out what the receipt does not have and sets NakDost only when delivered late", () => {
    const racun = toRacunType(base, "0".repeat(32));
    expect(Object.keys(racun)).toEqual(["Oib", "USustPdv", "DatVrijeme", "OznSlijed", "BrRac", "IznosUkupno", "NacinPlac", "OibOper", "ZastKod", "NakDost"]);
    expect(racun.NakDost).toBe(false);
    expect(toRacunType({ ...base, lateDelivery: true }, "0".repeat(32)).NakDost).toBe(true);
    expect(toRacunType({ ...base, vatRegistered: false, sequence: "N" }, "0".repeat(32))).toMatchObject({ USustPdv: false, OznSlijed: "N" });
    expect(toRacunType({ ...base, buyerOib: "12345678903", paymentMethod: "G" }, "0".repeat(32)).OibPrimateljaRacuna).toBe("12345678903");
  });

  it("carries a storno's negative amounts", () => {
    const storno = toRacunType({ ...base, total: "-125.00", vat: [{ rate: "25", base: "-100.00", amount: "-25.00" }] }, "0".repeat(32));
    expect(storno.IznosUkupno).toBe("-125.00");
    expect(storno.Pdv).toEqual([{ Stopa: "25.00", Osnovica: "-100.00", Iznos: "-25.00" }]);
    expect(racunProblems(storno)).toEqual([]);
  });
});

describe("receiptProblems", () => {
  it("accepts a complete, consistent receipt", () => {
    expect(
      receiptProblems(
        {
          ...base,
          vat: [
            { rate: "25", base: "100.00", amount: "25.00" },
            { rate: "13", base: "10.00", amount: "1.30" },
          ],
          consumptionTax: [{ rate: "3", base: "100.00", amount: "3.00" }],
          otherTaxes: [{ name: "Porez na luksuz", rate: "15", base: "10.00", amount: "1.50" }],
          exemptAmount: "5.00",
          marginAmount: "7.00",
          notTaxableAmount: "2.00",
          fees: [{ name: "Povratna naknada", amount: "0.07" }],
          buyerOib: "12345678903",
        },
        NOW,
      ),
    ).toEqual([]);
  });

  it("checks each tax amount against base × rate, within one cent", () => {
    expect(taxFor("10.10", "13")).toBe(131n); // 1.313 → 1.31
    expect(taxFor("-10.02", "25")).toBe(-251n); // -2.505 → -2.51, half away from zero
    const line = (amount: string) => ({ ...base, vat: [{ rate: "25", base: "10.02", amount }] });
    expect(paths(line("2.51"))).toEqual([]);
    expect(paths(line("2.50"))).toEqual([]);
    expect(paths(line("2.52"))).toEqual([]);
    expect(paths(line("2.53"))).toEqual(["vat.0.amount"]);
    expect(receiptProblems(line("3.00"), NOW)[0]!.message).toMatch(/očekuje se 2\.51/);
    expect(paths({ ...base, vat: [{ rate: "25", base: "-10.00", amount: "2.50" }] })).toEqual(["vat.0.amount"]);
  });

  it("knows the rates the law allows and wants each rate once", () => {
    expect(paths({ ...base, vat: [{ rate: "52", base: "1.00", amount: "0.52" }] })).toEqual(["vat.0.rate"]);
    expect(paths({ ...base, vat: [{ rate: "5.00", base: "1.00", amount: "0.05" }] })).toEqual([]);
    expect(paths({ ...base, vat: [{ rate: "25", base: "1.00", amount: "0.25" }, { rate: "25.00", base: "2.00", amount: "0.50" }] })).toEqual(["vat.1.rate"]);
    expect(paths({ ...base, consumptionTax: [{ rate: "4", base: "1.00", amount: "0.04" }] })).toEqual(["consumption_tax.0.rate"]);
    expect(paths({ ...base, consumptionTax: [{ rate: "0", base: "1.00", amount: "0.00" }] })).toEqual(["consumption_tax.0.rate"]);
    expect(paths({ ...base, otherTaxes: [{ name: "A", rate: "1000", base: "1.00", amount: "10.00" }] })).toEqual(["other_taxes.0.rate"]);
  });

  it("takes only the VAT rates in force on the receipt's date: 25, 13, 5 and 0 now, 10 only in 2013", () => {
    const amounts: Record<string, string> = { "25": "2.50", "13": "1.30", "13.00": "1.30", "10": "1.00", "5": "0.50", "0": "0.00" };
    const vat = (rate: string, issuedAt = base.issuedAt) => receiptProblems({ ...base, issuedAt, vat: [{ rate, base: "10.00", amount: amounts[rate] ?? "" }] }, NOW);
    for (const rate of ["25", "13", "5", "0", "13.00"]) expect(vat(rate), rate).toEqual([]);
    expect(vat("10")).toEqual([{ path: "vat.0.rate", message: "Stopa PDV-a 10.00 % ne vrijedi na dan 21. 11. 2026.; dopuštene su 25, 13, 5, 0 (%)." }]);
    expect(vat("10", new Date("2013-06-01T10:00:00+02:00"))).toEqual([]);
    expect(vat("10", new Date("2014-01-01T00:30:00+01:00")).map((p) => p.path)).toEqual(["vat.0.rate"]);
    expect(vat("10", new Date("2013-12-31T23:30:00+01:00"))).toEqual([]);
  });

  it("refuses combinations the specification forbids", () => {
    expect(paths({ ...base, vatRegistered: false, vat: [{ rate: "25", base: "1.00", amount: "0.25" }] })).toEqual(["vat"]);
    expect(paths({ ...base, buyerOib: "12345678903", paymentMethod: "T" })).toEqual(["buyer_oib"]);
    expect(paths({ ...base, buyerOib: base.oib })).toEqual(["buyer_oib"]);
  });

  it("checks OIBs, the issue time, amounts and text", () => {
    expect(paths({ ...base, oib: "69435151531", operatorOib: "94577403195", buyerOib: "12345678901" })).toEqual(["oib", "operator_oib", "buyer_oib"]);
    expect(paths({ ...base, issuedAt: new Date("2012-12-31T12:00:00Z") })).toEqual(["issued_at"]);
    expect(paths({ ...base, issuedAt: new Date(NOW.getTime() + 10 * 60_000) })).toEqual(["issued_at"]);
    expect(paths({ ...base, total: "1234567890123.00" })).toEqual(["total"]);
    // The QR code holds the total in cents in at most 10 characters.
    expect(paths({ ...base, total: "99999999.99" })).toEqual([]);
    expect(paths({ ...base, total: "100000000.00" })).toEqual(["total"]);
    expect(paths({ ...base, total: "-9999999.99" })).toEqual([]);
    expect(paths({ ...base, total: "-10000000.00" })).toEqual(["total"]);
    expect(paths({ ...base, fees: [{ name: "Naknada\u0007", amount: "1.00" }] })).toEqual(["fees.0.name"]);
    expect(paths({ ...base, fees: [{ name: "  ", amount: "1.00" }] })).toEqual(["fees.0.name"]);
    expect(paths({ ...base, otherTaxes: [{ name: "x".repeat(101), rate: "1", base: "1.00", amount: "0.01" }] })).toEqual(["other_taxes.0.name"]);
    expect(paths({ ...base, specialPurpose: "x".repeat(1001) })).toEqual(["special_purpose"]);
  });

  it("accepts a storno with negative amounts", () => {
    expect(
      paths({ ...base, total: "-125.00", vat: [{ rate: "25", base: "-100.00", amount: "-25.00" }], fees: [{ name: "Povratna naknada", amount: "-0.07" }] }),
    ).toEqual([]);
  });
});
