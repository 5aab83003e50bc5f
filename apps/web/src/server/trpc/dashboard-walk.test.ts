// The dashboard and keys as a customer walks them, through the portal's procedures on a real
// PostgreSQL database: bad URL parameters fall back with a Croatian notice, a rotated key keeps its
// expiry, the calendar month in Europe/Zagreb beside the previous one, and one success rate for the
// customer and the operator.
import { createMeter, localMidnight } from "@fiskal/usage";
import { describe, expect, it } from "vitest";
import { portalUsers, usePortalTestDatabase } from "./testing";

const portal = usePortalTestDatabase({ rateLimit: "webwalk", allowPrivateWebhooks: true });
const user = portalUsers(portal, { account: "Račun", email: "w" });

describe("dashboard parameters", () => {
  it("a bad or overlong parameter falls back with a Croatian notice instead of failing", async () => {
    const a = await user();
    for (const [input, notice] of [
      [{ from: "aaaaaaaaaaaaaaa" }, /datum/i],
      [{ range: "custom", from: "2026-11-20T00:00", to: "2026-11-21" }, /datume od i do/],
      [{ status: "x".repeat(300) }, /klasa statusa/],
      [{ range: "r".repeat(300) }, /Nepoznato razdoblje/],
      [{ key: "k".repeat(300) }, /ključ/i],
      [{ endpoint: "e".repeat(300) }, /endpoint/i],
    ] as const) {
      const o = await a.caller.usage.overview(input);
      expect(o.view.range, JSON.stringify(input).slice(0, 60)).toBe("24h");
      expect(o.view.problems.join(" "), JSON.stringify(input).slice(0, 60)).toMatch(notice);
      expect(o.view.problems.join(" ")).not.toMatch(/zadnja 24 sata.*zadnja 24 sata/);
      const rows = await a.caller.usage.recent({ ...input, limit: 5 });
      expect(rows).toEqual([]);
    }
  });
});

describe("key rotation", () => {
  it("keeps the expiry of the rotated key", async () => {
    const a = await user();
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const created = await a.caller.keys.create({ name: "Tjedni", expiresAt });
    if (!created.ok) throw new Error(created.message);
    const rotated = await a.caller.keys.rotate({ id: created.id, overlapSeconds: 3600 });
    if (!rotated.ok) throw new Error(rotated.message);
    expect(rotated.expiresAt).toBe(expiresAt);
    const listed = (await a.caller.keys.list()).find((k) => k.id === rotated.id);
    expect(listed).toMatchObject({ state: "active", expiresAt });
    // a key without an expiry stays without one
    const plain = await a.caller.keys.create({ name: "Trajni" });
    if (!plain.ok) throw new Error(plain.message);
    const r2 = await a.caller.keys.rotate({ id: plain.id, overlapSeconds: 0 });
    if (!r2.ok) throw new Error(r2.message);
    expect(r2.expiresAt).toBeNull();
  });
});

describe("monthly usage", () => {
  it("counts the calendar month in Europe/Zagreb and the previous one; customer and operator see one success rate", async () => {
    const a = await user();
    const op = await user("OPERATOR");
    const now = new Date();
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Zagreb", year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
    const monthStart = localMidnight(`${day.slice(0, 8)}01`, "Europe/Zagreb");
    const prevMonth = new Date(monthStart.getTime() - 86_400_000);
    const meter = createMeter(portal.db, { flushIntervalMs: 60_000 });
    let n = 0;
    const rec = (at: Date, status: number) =>
      meter.record({ accountId: a.account.id, apiKeyId: null, requestId: `m${++n}`, method: "POST", endpoint: "POST /v1/validate/oib", status, durationMs: 2, refused: status === 429, at });
    // this month: 2 × 200, 1 × 400, 2 × 429 (one at 00:30 on the 1st, Zagreb time: still this month, although the UTC date is the month before)
    const early = new Date(monthStart.getTime() + 30 * 60_000);
    rec(early, 429);
    rec(now, 200);
    rec(now, 200);
    rec(now, 400);
    rec(now, 429);
    // the month before: 3 × 200
    for (let i = 0; i < 3; i++) rec(prevMonth, 200);
    await meter.close();

    const o = await a.caller.usage.overview();
    expect(o.month.current).toMatchObject({ requests: 5, refused: 2, ok: 2, handled: 3 });
    expect(o.month.previous).toMatchObject({ requests: 3, refused: 0, ok: 3 });
    expect(o.month.current.successRate).toBeCloseTo(2 / 3, 10);
    expect(o.month.today.requests).toBe(localDay(early) === day ? 5 : 4);

    const seen = await op.caller.admin.account({ accountId: a.account.id });
    expect(seen?.month).toMatchObject({ requests: 5, refused: 2 });
    expect(seen?.month.successRate).toBe(o.month.current.successRate);
  });
});

function localDay(at: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Zagreb", year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

describe("request log", () => {
  it("finds a request by its id whatever the period, and counts the filtered view", async () => {
    const a = await user();
    const b = await user();
    const meter = createMeter(portal.db, { flushIntervalMs: 60_000 });
    const now = new Date();
    const threeDaysAgo = new Date(now.getTime() - 3 * 86_400_000);
    const rec = (accountId: string, requestId: string, status: number, at: Date) =>
      meter.record({ accountId, apiKeyId: null, requestId, method: "POST", endpoint: "POST /v1/validate/oib", status, durationMs: 1, refused: status === 429, at });
    for (let i = 0; i < 7; i++) rec(a.account.id, `req_a${i}`, i < 2 ? 429 : 200, now);
    rec(a.account.id, "req_old", 200, threeDaysAgo);
    rec(b.account.id, "req_b", 200, now);
    await meter.close();

    const all = await a.caller.usage.overview();
    expect(all.logCount).toBe(7);
    expect((await a.caller.usage.overview({ status: "429" })).logCount).toBe(2);
    expect((await a.caller.usage.overview({ range: "7d" })).logCount).toBe(8);

    // older than the 24 hours shown: still found
    const found = await a.caller.usage.recent({ request: "req_old", limit: 25 });
    expect(found.map((r) => r.requestId)).toEqual(["req_old"]);
    expect((await a.caller.usage.overview({ request: "req_old" })).logCount).toBe(1);
    // another account's request is not found
    expect(await a.caller.usage.recent({ request: "req_b", limit: 25 })).toEqual([]);
    expect((await a.caller.usage.overview({ request: "req_b" })).logCount).toBe(0);
    // a malformed id is named and ignored
    const bad = await a.caller.usage.overview({ request: "a b" });
    expect(bad.view.problems.join(" ")).toMatch(/ID zahtjeva/);
  });
});

describe("webhook event types", () => {
  it("an address receives only the event types it chose, and can change them", async () => {
    const a = await user();
    const only = await a.caller.webhooks.create({ url: "http://127.0.0.1:9/only-invoices", eventTypes: ["invoice.fiscalized"] });
    const every = await a.caller.webhooks.create({ url: "http://127.0.0.1:9/everything" });
    if (!only.ok || !every.ok) throw new Error("create failed");
    await expect(a.caller.webhooks.create({ url: "http://127.0.0.1:9/none", eventTypes: [] })).rejects.toThrow(/barem jednu/);
    const listed = await a.caller.webhooks.endpoints();
    expect(listed.find((e) => e.id === only.id)?.eventTypes).toEqual(["invoice.fiscalized"]);

    const { webhooks } = await import("~/server/webhooks");
    const warning = { account_id: a.account.id, plan: "SANDBOX", window: "day" as const, limit: 100, used: 80, remaining: 20, threshold: 0.8, resets_at: new Date().toISOString() };
    expect(await webhooks().emit(a.account.id, "rate_limit.warning", warning)).toMatchObject({ deliveries: 1 });
    const deliveries = await portal.db.webhookDelivery.findMany({ where: { endpoint: { accountId: a.account.id } }, select: { endpointId: true } });
    expect(deliveries.map((d) => d.endpointId)).toEqual([every.id]);

    expect(await a.caller.webhooks.setEventTypes({ id: only.id, eventTypes: ["invoice.fiscalized", "rate_limit.warning"] })).toEqual({ ok: true });
    expect(await webhooks().emit(a.account.id, "rate_limit.warning", warning)).toMatchObject({ deliveries: 2 });
    await expect(a.caller.webhooks.setEventTypes({ id: only.id, eventTypes: [] })).rejects.toThrow(/barem jednu/);
  });
});
