import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUbl, type EInvoiceInput } from "./einvoice.ts";
import { officialValidator, quickUblProblems, receivedValidator, REFERENCE_DIR, runOfficialValidators, xsdProblems, xsdUblValidator } from "./intermediary-validators.ts";
import { createHttpIntermediary, serveIntermediary } from "./intermediary-http.ts";
import { createIntermediarySimulator, IntermediaryError, type IntermediarySendRequest } from "./intermediary.ts";

const invoice: EInvoiceInput = {
  number: "R-1",
  issueDate: "2026-11-20",
  issueTime: "10:00:00",
  currency: "EUR",
  seller: { oib: "69435151530", name: "Prodavatelj d.o.o." },
  buyer: { oib: "94577403194", name: "Kupac d.o.o." },
  operator: { name: "Ana Horvat", oib: "33445566771" },
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
      ["operator OIB check digit", ubl.replace("<cbc:ID>33445566771</cbc:ID>\n      <cbc:Name>", "<cbc:ID>33445566772</cbc:ID>\n      <cbc:Name>"), "HR-BR-9"],
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

describe("intermediary simulator: the inbox", () => {
  it("holds a delivered document until acknowledged; a redelivery keeps one copy per message id", async () => {
    const sim = createIntermediarySimulator(fast);
    const { messageId } = sim.deliver("94577403194", ubl);
    expect(await sim.fetchInbox({ oib: "69435151530" })).toEqual([]);
    const first = await sim.fetchInbox({ oib: "94577403194" });
    expect(first).toEqual([{ messageId, recipientOib: "94577403194", ubl, deliveredAt: expect.any(String) }]);
    // not acknowledged: fetched again
    expect((await sim.fetchInbox({ oib: "94577403194" })).map((d) => d.messageId)).toEqual([messageId]);
    sim.deliver("94577403194", ubl, { messageId });
    expect(sim.inboxSize("94577403194")).toBe(1);
    await sim.acknowledge({ oib: "94577403194", messageIds: [messageId, "unknown"] });
    expect(await sim.fetchInbox({ oib: "94577403194" })).toEqual([]);
  });

  it("fetches oldest first up to the limit, fails when told to, and refuses an invalid recipient OIB", async () => {
    const sim = createIntermediarySimulator(fast);
    const ids = [1, 2, 3].map(() => sim.deliver("94577403194", ubl).messageId);
    expect((await sim.fetchInbox({ oib: "94577403194", limit: 2 })).map((d) => d.messageId)).toEqual(ids.slice(0, 2));
    sim.inject({ failInbox: 1 });
    expect((await failure(sim.fetchInbox({ oib: "94577403194" }))).kind).toBe("unavailable");
    expect(sim.inboxSize("94577403194")).toBe(3);
    expect(() => sim.deliver("12345678901", ubl)).toThrow(IntermediaryError);
  });

  it("deliverToBuyers: an accepted send reaches the buyer's inbox once", async () => {
    const sim = createIntermediarySimulator({ ...fast, deliverToBuyers: true });
    const req = request();
    const sent = await sim.send(req);
    await sim.send(req); // the same message again: deduplicated
    expect(await sim.fetchInbox({ oib: "94577403194" })).toEqual([{ messageId: sent.id, recipientOib: "94577403194", ubl, deliveredAt: expect.any(String) }]);
    expect(createIntermediarySimulator(fast).inboxSize("94577403194")).toBe(0);
  });
});

describe("receivedValidator", () => {
  it("without Saxon HE: the structural rules and the XSD, and says so", async () => {
    const [good, bad] = await receivedValidator(REFERENCE_DIR, "/nonexistent/Saxon-HE.jar")([ubl, "<Invoice/>"]);
    expect(good).toEqual({ valid: true, checked: ["structure", "xsd"], violations: [] });
    expect(bad!.valid).toBe(false);
    expect(await receivedValidator()([])).toEqual([]);
  });
});

// The HTTP connector against the simulator served over HTTP (intermediary-http.ts).
let httpSim: ReturnType<typeof createIntermediarySimulator>;
let served: { url: string; close(): Promise<void> };
let client: ReturnType<typeof createHttpIntermediary>;

beforeAll(async () => {
  httpSim = createIntermediarySimulator({ latencyMs: [1, 2], deliverToBuyers: true });
  served = await serveIntermediary(httpSim, { apiKey: "tajna" });
  client = createHttpIntermediary({ url: served.url, apiKey: "tajna", timeoutMs: 5_000 });
});
afterAll(() => served?.close());

describe("HTTP intermediary connector, tested against the simulator", () => {
  it("sends, then the buyer's inbox holds the document until it is acknowledged", async () => {
    const sent = await client.send({ ubl, sellerOib: "69435151530", buyerOib: "94577403194", messageId: "m-1" });
    expect(sent).toEqual({ id: expect.any(String), status: "accepted" });
    const inbox = await client.fetchInbox!({ oib: "94577403194", limit: 10 });
    expect(inbox).toEqual([{ messageId: sent.id, recipientOib: "94577403194", ubl, deliveredAt: expect.any(String) }]);
    const other = httpSim.deliver("94577403194", "<Invoice/>");
    await client.acknowledge!({ oib: "94577403194", messageIds: [sent.id] });
    expect((await client.fetchInbox!({ oib: "94577403194" })).map((d) => d.messageId)).toEqual([other.messageId]);
    await client.acknowledge!({ oib: "94577403194", messageIds: [other.messageId] });
  });

  it("a refused document is rejected with its rules; throttling and outages keep their kind", async () => {
    const rejected = await failure(client.send({ ubl: ubl.replace('unitCode="H87"', 'unitCode="KOM"'), sellerOib: "69435151530", buyerOib: "94577403194", messageId: "m-2" }));
    expect([rejected.kind, rejected.rules]).toEqual(["rejected", ["BR-CL-23"]]);
    httpSim.inject({ failInbox: 1 });
    expect((await failure(client.fetchInbox!({ oib: "94577403194" }))).kind).toBe("unavailable");
    // a simulator whose clock stands still: the fourth send in its one second is throttled
    const frozen = await serveIntermediary(createIntermediarySimulator({ latencyMs: [1, 2], perSecond: 3, now: () => 1_800_000_000_000 }), { apiKey: "tajna" });
    const paced = createHttpIntermediary({ url: frozen.url, apiKey: "tajna" });
    const throttled: unknown[] = [];
    for (let i = 0; i < 4; i++) await paced.send({ ubl, sellerOib: "69435151530", buyerOib: "94577403194", messageId: `burst-${i}` }).catch((e: unknown) => throttled.push(e));
    await frozen.close();
    expect(throttled.map((e) => [(e as IntermediaryError).kind, (e as IntermediaryError).retryAfterSeconds])).toEqual([["throttled", 1]]);
  });

  it("a wrong key, an unreachable address and a plain-http remote address fail clearly", async () => {
    const wrong = createHttpIntermediary({ url: served.url, apiKey: "kriva" });
    expect((await failure(wrong.fetchInbox!({ oib: "94577403194" }))).message).toContain("HTTP 401");
    const down = createHttpIntermediary({ url: "http://127.0.0.1:9", apiKey: "x", timeoutMs: 1_000 });
    expect((await failure(down.send({ ubl, sellerOib: "69435151530", buyerOib: "94577403194", messageId: "m-3" }))).kind).toBe("unavailable");
    expect(() => createHttpIntermediary({ url: "http://posrednik.example/api", apiKey: "x" })).toThrow(/https/);
    expect(() => createHttpIntermediary({ url: "https://posrednik.example/api", apiKey: "" })).toThrow(/API key/);
  });
});
