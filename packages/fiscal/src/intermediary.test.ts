import { describe, expect, it } from "vitest";
import { buildUbl, type EInvoiceInput } from "./einvoice.ts";
import { createIntermediarySimulator, IntermediaryError, type IntermediarySendRequest } from "./intermediary.ts";

const invoice: EInvoiceInput = {
  number: "R-1",
  issueDate: "2026-11-20",
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
