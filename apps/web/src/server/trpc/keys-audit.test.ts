// Keys (expiry, rotation, usage per key) and the audit log through the portal's procedures, against
// a real PostgreSQL database: who, what, when and from which address, scoped to the account.
import { createMeter } from "@fiskal/usage";
import { describe, expect, it } from "vitest";
import { portalUsers, usePortalTestDatabase } from "./testing";

const portal = usePortalTestDatabase({ rateLimit: "webaudit", allowPrivateWebhooks: true });
// A client-written entry on the left, the proxy's on the right: the right one is the address.
const user = portalUsers(portal, { account: "Račun", email: "a" }, (ip) => `10.9.9.9, ${ip}`);

describe("keys", () => {
  it("creates a key with an expiry and refuses expiries in the past or beyond five years", async () => {
    const a = await user();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await a.caller.keys.create({ name: "CI", expiresAt });
    if (!created.ok) throw new Error(created.message);
    expect(created.expiresAt).toBe(expiresAt);
    const [listed] = await a.caller.keys.list();
    expect(listed).toMatchObject({ name: "CI", state: "active", expiresAt });
    await expect(a.caller.keys.create({ name: "x", expiresAt: new Date(Date.now() - 1000).toISOString() })).rejects.toThrow(/budućnosti/);
    await expect(a.caller.keys.create({ name: "x", expiresAt: new Date(Date.now() + 6 * 365 * 86_400_000).toISOString() })).rejects.toThrow(/pet godina/);
    await expect(a.caller.keys.create({ name: "x", expiresAt: "sutra" })).rejects.toThrow(/Neispravan datum/);
    expect(await portal.db.apiKey.count({ where: { accountId: a.account.id } })).toBe(1);
  });

  it("rotates with an overlap: both keys listed, the old one marked with its end and successor", async () => {
    const a = await user();
    const b = await user();
    const created = await a.caller.keys.create({ name: "Blagajna" });
    if (!created.ok) throw new Error(created.message);
    expect(await b.caller.keys.rotate({ id: created.id, overlapSeconds: 3600 })).toMatchObject({ ok: false });
    await expect(a.caller.keys.rotate({ id: created.id, overlapSeconds: 8 * 86_400 })).rejects.toThrow(/7 dana/);
    const before = Date.now();
    const rotated = await a.caller.keys.rotate({ id: created.id, overlapSeconds: 3600 });
    if (!rotated.ok) throw new Error(rotated.message);
    expect(rotated.key).toMatch(/^fsk_test_/);
    expect(Date.parse(rotated.oldKeyEndsAt) - before).toBeGreaterThanOrEqual(3600_000 - 50);
    expect(Date.parse(rotated.oldKeyEndsAt) - before).toBeLessThan(3600_000 + 5_000);
    const list = await a.caller.keys.list();
    const old = list.find((k) => k.id === created.id)!;
    expect(old).toMatchObject({ state: "rotating", expiresAt: rotated.oldKeyEndsAt, replacedByPrefix: rotated.prefix });
    expect(list.find((k) => k.id === rotated.id)).toMatchObject({ state: "active", name: "Blagajna", expiresAt: null });
    expect(await a.caller.keys.rotate({ id: created.id, overlapSeconds: 60 })).toEqual({ ok: false, message: "Ovaj ključ je već rotiran." });
  });

  it("shows each key's requests of the last 30 days", async () => {
    const a = await user();
    const k1 = await a.caller.keys.create({ name: "k1" });
    const k2 = await a.caller.keys.create({ name: "k2" });
    if (!k1.ok || !k2.ok) throw new Error("create failed");
    const meter = createMeter(portal.db, { flushIntervalMs: 60_000 });
    const base = { accountId: a.account.id, method: "POST", endpoint: "POST /v1/validate/oib", durationMs: 2, at: new Date() };
    meter.record({ ...base, apiKeyId: k1.id, requestId: "1", status: 200, refused: false });
    meter.record({ ...base, apiKeyId: k1.id, requestId: "2", status: 429, refused: true });
    meter.record({ ...base, apiKeyId: k2.id, requestId: "3", status: 400, refused: false });
    await meter.close();
    const list = await a.caller.keys.list();
    expect(list.find((k) => k.id === k1.id)?.usage).toEqual({ requests: 2, refused: 1, errors: 0 });
    expect(list.find((k) => k.id === k2.id)?.usage).toEqual({ requests: 1, refused: 0, errors: 1 });
  });
});

describe("audit log", () => {
  it("records key, plan and webhook changes with the user, the time and the client address", async () => {
    const a = await user();
    const created = await a.caller.keys.create({ name: "ERP" });
    if (!created.ok) throw new Error(created.message);
    const rotated = await a.caller.keys.rotate({ id: created.id, overlapSeconds: 0 });
    if (!rotated.ok) throw new Error(rotated.message);
    await a.caller.keys.revoke({ id: rotated.id });
    expect((await a.caller.plan.requestUpgrade({ plan: "STARTER" })).ok).toBe(true);
    const hook = await a.caller.webhooks.create({ url: "http://127.0.0.1:9/hook" });
    if (!hook.ok) throw new Error(hook.message);
    await a.caller.webhooks.setEnabled({ id: hook.id, enabled: false });
    await a.caller.webhooks.remove({ id: hook.id });

    const { items } = await a.caller.audit.list({});
    expect(items.map((i) => i.action)).toEqual([
      "webhook.deleted",
      "webhook.disabled",
      "webhook.created",
      "plan.requested",
      "key.revoked",
      "key.rotated",
      "key.created",
    ]);
    for (const i of items) {
      expect(i).toMatchObject({ actor: a.user.email, ip: a.ip, accountId: a.account.id });
      expect(Date.now() - Date.parse(i.at)).toBeLessThan(60_000);
    }
    expect(items.find((i) => i.action === "key.rotated")).toMatchObject({ target: created.prefix, detail: { overlapSeconds: 0, newPrefix: rotated.prefix } });
    expect(items.find((i) => i.action === "webhook.deleted")?.target).toBe("http://127.0.0.1:9/hook");
    // No secret of any kind in the log.
    const text = JSON.stringify(items);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(rotated.key);
    expect(text).not.toContain(hook.secret);
    // Filter by action prefix.
    expect((await a.caller.audit.list({ action: "key." })).items).toHaveLength(3);
  });

  it("shows the customer only their account; the operator sees every account and the decisions", async () => {
    const a = await user();
    const b = await user();
    const op = await user("OPERATOR");
    await a.caller.keys.create({ name: "a" });
    await b.caller.keys.create({ name: "b" });
    expect((await a.caller.audit.list({})).items.every((i) => i.accountId === a.account.id)).toBe(true);
    expect((await b.caller.audit.list({})).items).toHaveLength(1);
    await expect(a.caller.audit.all({})).rejects.toThrow(/operateri/);

    expect((await b.caller.plan.requestUpgrade({ plan: "BUSINESS" })).ok).toBe(true);
    const pending = await portal.db.upgradeRequest.findFirstOrThrow({ where: { accountId: b.account.id, status: "PENDING" } });
    expect((await op.caller.admin.reject({ requestId: pending.id, note: "Premalo podataka" })).ok).toBe(true);
    expect((await a.caller.plan.requestUpgrade({ plan: "STARTER" })).ok).toBe(true);
    const pendingA = await portal.db.upgradeRequest.findFirstOrThrow({ where: { accountId: a.account.id, status: "PENDING" } });
    expect((await op.caller.admin.approve({ requestId: pendingA.id })).ok).toBe(true);

    const all = await op.caller.audit.all({});
    const accounts = new Set(all.items.map((i) => i.accountId));
    expect(accounts.has(a.account.id) && accounts.has(b.account.id)).toBe(true);
    const refused = all.items.find((i) => i.action === "plan.refused")!;
    expect(refused).toMatchObject({ accountId: b.account.id, actor: op.user.email, ip: op.ip, target: "BUSINESS", accountName: b.account.name });
    expect(all.items.find((i) => i.action === "plan.approved")).toMatchObject({ accountId: a.account.id, actor: op.user.email, target: "STARTER" });
    // The customer sees the operator's decision on their own account.
    expect((await b.caller.audit.list({})).items.map((i) => i.action)).toContain("plan.refused");
    expect((await op.caller.audit.all({ accountId: a.account.id })).items.every((i) => i.accountId === a.account.id)).toBe(true);
  });
});
