import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildUbl, type EInvoiceInput } from "./einvoice.ts";
import { officialValidator, quickUblProblems, runOfficialValidators, xsdProblems, xsdUblValidator } from "./intermediary-validators.ts";
import { createIntermediarySimulator, IntermediaryError, type IntermediarySendRequest } from "./intermediary.ts";

const invoice: EInvoiceInput = {
  number: "R-1",
  issueDate: "2026-11-20",
  issueTime: "10:00:00",
  currency: "EUR",
  seller: { oib: "69435151530", name: "Prodavatelj d.o.o." },
  buyer: { oib: "94577403194", name: "Kupac d.o.o." },
  lines: [{ description: "Usluga", quantity: "1", unit: "H87", unitPrice: "100.00", vatRate: "25", kpd: "62.10.11", lineTotal: "100.00" }],
  totals: { net: "100.00", vat: "25.00", gross: "125.00" },
};
const ubl = buildUbl(invoice);
let seq = 0;
const request = (over: Partial<IntermediarySendRequest> = {}): IntermediarySendRequest => ({
  ubl,
  sellerOib: "69435151530",
  buyerOib: "94577403194",
  messageId: `msg-${++seq}`,
  ...over,
});
const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(IntermediaryError);
  return err as IntermediaryError;
};
const fast = { latencyMs: [1, 2] as [number, number] };

describe("intermediary simulator", () => {
  it("accepts a valid document and returns an id", async () => {
    const sim = createIntermediarySimulator(fast);
    const res = await sim.send(request());
    expect(res.status).toBe("accepted");
    expect(res.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("returns the same id when the same message is sent again", async () => {
    const sim = createIntermediarySimulator(fast);
    const req = request();
    const first = await sim.send(req);
    expect(await sim.send(req)).toEqual(first);
    expect((await sim.send(request())).id).not.toBe(first.id);
  });

  it("throttles above perSecond with a retry-after in whole seconds", async () => {
    let now = 1_000_000;
    const sim = createIntermediarySimulator({ ...fast, perSecond: 3, now: () => now });
    await Promise.all([sim.send(request()), sim.send(request()), sim.send(request())]);
    now += 200;
    const err = await failure(sim.send(request()));
    expect(err.kind).toBe("throttled");
    expect(err.retryAfterSeconds).toBe(1);
    now += 799;
    expect((await failure(sim.send(request()))).kind).toBe("throttled");
    now += 1; // the first three are now a full second old
    await expect(sim.send(request())).resolves.toMatchObject({ status: "accepted" });
  });

  it("counts only admitted sends against the window", async () => {
    let now = 0;
    const sim = createIntermediarySimulator({ ...fast, perSecond: 1, now: () => now });
    await sim.send(request());
    for (let i = 0; i < 5; i++) expect((await failure(sim.send(request()))).kind).toBe("throttled");
    now = 1000;
    await expect(sim.send(request())).resolves.toBeDefined();
  });

  it("defaults to 20 per second", async () => {
    const sim = createIntermediarySimulator({ ...fast, now: () => 5_000 });
    await Promise.all(Array.from({ length: 20 }, () => sim.send(request())));
    expect((await failure(sim.send(request()))).kind).toBe("throttled");
  });

  it("fails the next N sends when told to", async () => {
    const sim = createIntermediarySimulator(fast);
    sim.inject({ failNext: 2 });
    expect((await failure(sim.send(request()))).kind).toBe("unavailable");
    expect((await failure(sim.send(request()))).kind).toBe("unavailable");
    await expect(sim.send(request())).resolves.toMatchObject({ status: "accepted" });
  });

  it("rejects documents it cannot deliver", async () => {
    const sim = createIntermediarySimulator({ ...fast, perSecond: 100 });
    const cases: Partial<IntermediarySendRequest>[] = [
      { sellerOib: "69435151531" },
      { buyerOib: "123" },
      { ubl: "<html/>" },
      { ubl: ubl.replace("cius-2025", "cius-2024") },
      { buyerOib: "12345678903" },
      { messageId: "" },
    ];
    for (const c of cases) {
      const err = await failure(sim.send(request(c)));
      expect(err.kind, JSON.stringify(Object.keys(c))).toBe("rejected");
      expect(err.retryAfterSeconds).toBeUndefined();
    }
  });

  it("queues at the configured rate", async () => {
    const sim = createIntermediarySimulator({ ...fast, queuedRate: 0.5, random: () => 0.25 });
    expect((await sim.send(request())).status).toBe("queued");
  });
});

const hasXmllint = (() => {
  try {
    execFileSync("xmllint", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe("the document checks of the simulated access point", () => {
  it("refuses documents that break the official rules, with the rule ids", async () => {
    const sim = createIntermediarySimulator({ ...fast, perSecond: 100 });
    const cases: [string, string, string][] = [
      ["unit KOM", ubl.replace('unitCode="H87"', 'unitCode="KOM"'), "BR-CL-23"],
      ["no issue time", ubl.replace("<cbc:IssueTime>10:00:00</cbc:IssueTime>", ""), "HR-BR-2"],
      ["issue date before 2026", ubl.replace("<cbc:IssueDate>2026-11-20<", "<cbc:IssueDate>2025-11-20<"), "HR-BR-40"],
      ["process P13", ubl.replace("<cbc:ProfileID>P1<", "<cbc:ProfileID>P13<"), "HR-BR-34"],
      ["operator OIB check digit", ubl.replace("<cbc:ID>69435151530</cbc:ID>\n      <cbc:Name>", "<cbc:ID>69435151531</cbc:ID>\n      <cbc:Name>"), "HR-BR-9"],
      ["category X", ubl.replace(/<cbc:ID>S<\/cbc:ID>/g, "<cbc:ID>X</cbc:ID>"), "BR-CL-18"],
    ];
    for (const [what, doc, rule] of cases) {
      expect(doc, what).not.toBe(ubl);
      const err = await failure(sim.send(request({ ubl: doc })));
      expect(err.kind, what).toBe("rejected");
      expect(err.rules, what).toContain(rule);
      expect(err.message, what).toContain(`[${rule}]`);
    }
    expect(quickUblProblems(ubl)).toEqual([]);
  });

  it.runIf(hasXmllint)("refuses a document the UBL 2.1 XSD refuses (xmllint)", async () => {
    expect(await xsdProblems(ubl)).toEqual([]);
    const misplaced = ubl.replace(/(<cbc:IssueTime>[^<]*<\/cbc:IssueTime>)\s*(<cbc:DueDate>[^<]*<\/cbc:DueDate>)/, "$2$1");
    expect(misplaced).not.toBe(ubl);
    expect((await xsdProblems(misplaced)).map((v) => v.rule)).toContain("UBL-XSD");
    const sim = createIntermediarySimulator({ ...fast, perSecond: 100, validate: xsdUblValidator });
    await expect(sim.send(request())).resolves.toMatchObject({ status: "accepted" });
    expect((await failure(sim.send(request({ ubl: misplaced })))).rules).toEqual(["UBL-XSD"]);
    // The default simulator checks the structure only (the full validators run in CI).
    await expect(createIntermediarySimulator(fast).send(request({ ubl: misplaced }))).resolves.toMatchObject({ status: "accepted" });
  });

  it.runIf(hasXmllint)(
    "can run the three official validators on every document: ours passes, the official example fails only on its placeholder data",
    async () => {
      const example = readFileSync(new URL("../../../reference/examples/eRacun_PDV25.xml", import.meta.url), "utf8");
      const [ours, theirs] = await runOfficialValidators([ubl, example]);
      expect(ours!.fatal).toEqual([]);
      expect(ours!.violations.map((v) => v.rule)).toEqual(expect.arrayContaining(["UBL-CR-006", "UBL-CR-200"]));
      expect(theirs!.fatal.map((v) => v.rule).sort()).toEqual(["HR-BR-40", "HR-BR-54", "HR-BR-9"]);
      const sim = createIntermediarySimulator({ ...fast, validate: officialValidator() });
      const err = await failure(sim.send(request({ ubl: ubl.replace("<cbc:IssueDate>2026-11-20<", "<cbc:IssueDate>2025-11-20<") })));
      expect(err.rules).toContain("HR-BR-40");
    },
    60_000,
  );
});
