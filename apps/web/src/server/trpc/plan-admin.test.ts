// Cancelling a pending upgrade, and the operator's pending count and customer view, against a real
// PostgreSQL database and the real Redis.
import { describe, expect, it } from "vitest";
import { portalUsers, usePortalTestDatabase } from "./testing";

const portal = usePortalTestDatabase({ rateLimit: "plan" });
const user = portalUsers(portal, { account: "Plan", email: "p" });

describe("cancelling a pending upgrade", () => {
  it("cancels only the caller's own pending request, records it, and allows a new one", async () => {
    const a = await user();
    const other = await user();
    expect(await a.caller.plan.requestUpgrade({ plan: "STARTER" })).toEqual({ ok: true });
    const pending = (await a.caller.plan.overview()).requests.find((r) => r.status === "PENDING")!;

    // another account cannot cancel it, and learns nothing about it
    const foreign = await other.caller.plan.cancelRequest({ requestId: pending.id });
    expect(foreign.ok).toBe(false);
    expect((await portal.db.upgradeRequest.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe("PENDING");

    expect(await a.caller.plan.cancelRequest({ requestId: pending.id })).toEqual({ ok: true });
    const row = await portal.db.upgradeRequest.findUniqueOrThrow({ where: { id: pending.id } });
    expect(row.status).toBe("CANCELLED");
    expect(row.decidedAt).not.toBeNull();
    const entry = await portal.db.auditLog.findFirst({ where: { accountId: a.account.id, action: "plan.cancelled" } });
    expect(entry?.target).toBe("STARTER");
    expect(entry?.actor).toBe(a.user.email);

    // twice is refused as a value; a new request is possible at once
    expect((await a.caller.plan.cancelRequest({ requestId: pending.id })).ok).toBe(false);
    expect(await a.caller.plan.requestUpgrade({ plan: "BUSINESS" })).toEqual({ ok: true });
  });

  it("cannot cancel a request an operator already decided", async () => {
    const a = await user();
    const op = await user("OPERATOR");
    await a.caller.plan.requestUpgrade({ plan: "STARTER" });
    const pending = (await a.caller.plan.overview()).requests[0]!;
    expect(await op.caller.admin.reject({ requestId: pending.id })).toEqual({ ok: true });
    expect((await a.caller.plan.cancelRequest({ requestId: pending.id })).ok).toBe(false);
    expect((await portal.db.upgradeRequest.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe("REJECTED");
  });
});

describe("operator: pending count and customer view", () => {
  it("counts pending requests and shows a customer's windows, operators only", async () => {
    const op = await user("OPERATOR");
    const a = await user();
    const before = await op.caller.admin.pendingCount();
    await a.caller.plan.requestUpgrade({ plan: "STARTER" });
    expect(await op.caller.admin.pendingCount()).toBe(before + 1);
    await expect(a.caller.admin.pendingCount()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(a.caller.admin.account({ accountId: a.account.id })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const view = await op.caller.admin.account({ accountId: a.account.id });
    expect(view?.name).toBe(a.account.name);
    expect(view?.windows.map((w) => w.policy)).toEqual(expect.arrayContaining(["burst", "minute", "day", "endpoint:oib", "endpoint:kpd"]));
    const minute = view!.windows.find((w) => w.policy === "minute")!;
    expect(minute).toMatchObject({ limit: 60, remaining: 60 });
    expect(await op.caller.admin.account({ accountId: "01234567-89ab-7def-8123-456789abcdef" })).toBeNull();
  });
});
