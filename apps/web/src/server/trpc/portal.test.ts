// Portal procedures against a real PostgreSQL database: scoping to the session's account,
// expected outcomes as values, and the operator-only area.
import { createAccount, createApiKey, hashPassword } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
import { createMeter } from "@fiskal/usage";
import { authOptions } from "~/server/auth";
import { describe, expect, it } from "vitest";
import { createCaller } from "./root";
import { portalUsers, usePortalTestDatabase } from "./testing";

const portal = usePortalTestDatabase({ rateLimit: "web", allowPrivateWebhooks: true });
const customer = portalUsers(portal, { account: "Račun", email: "u" });

/**
 * Callers for the same session, each on its own database client, as separate portal processes
 * would be: their calls really run side by side instead of queueing on one small pool.
 */
async function inParallel<T>(
  who: Awaited<ReturnType<typeof customer>>,
  n: number,
  call: (caller: ReturnType<typeof createCaller>, i: number) => Promise<T>,
): Promise<T[]> {
  const clients = Array.from({ length: n }, () => createDb(process.env.DATABASE_URL!, { max: 1 }));
  try {
    const session = { user: { id: who.user.id, email: who.user.email, role: who.user.role, accountId: who.account.id }, expires: "2999-01-01T00:00:00Z" };
    const callers = clients.map((c) => createCaller({ db: c, session, headers: new Headers() }));
    // Connect first so that the calls themselves start together.
    await Promise.all(clients.map((c) => c.$queryRaw`SELECT 1`));
    return await Promise.all(callers.map((c, i) => call(c, i)));
  } finally {
    await Promise.all(clients.map((c) => c.$disconnect()));
  }
}

function anonymous(ip = "203.0.113.9") {
  return createCaller({ db: portal.db, session: null, headers: new Headers({ "x-forwarded-for": ip }) });
}

describe("keys", () => {
  it("are visible and revocable only by their own account", async () => {
    const a = await customer();
    const b = await customer();
    const created = await a.caller.keys.create({ name: "Blagajna 1" });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.key.startsWith(created.prefix)).toBe(true);

    expect((await a.caller.keys.list()).map((k) => k.id)).toEqual([created.id]);
    expect(await b.caller.keys.list()).toEqual([]);

    expect(await b.caller.keys.revoke({ id: created.id })).toEqual({ revoked: false });
    expect((await a.caller.keys.list())[0]?.revokedAt).toBeNull();

    expect(await a.caller.keys.revoke({ id: created.id })).toEqual({ revoked: true });
    expect((await a.caller.keys.list())[0]?.revokedAt).not.toBeNull();
    expect(await a.caller.keys.revoke({ id: created.id })).toEqual({ revoked: false });
  });

  it("never return the full key or its hash when listing", async () => {
    const a = await customer();
    const created = await a.caller.keys.create({ name: "ERP" });
    if (!created.ok) throw new Error("key not created");
    const listed = JSON.stringify(await a.caller.keys.list());
    expect(listed).not.toContain(created.key);
    expect(listed).not.toContain("hash");
  });

  it("reject an empty name with a Croatian message and write nothing", async () => {
    const a = await customer();
    await expect(a.caller.keys.create({ name: "   " })).rejects.toThrow("Unesite naziv ključa.");
    expect(await a.caller.keys.list()).toEqual([]);
  });

  it("never exceed the cap of active keys under concurrent creates", async () => {
    const a = await customer();
    for (let i = 0; i < 20; i++) await createApiKey(portal.db, a.account.id, `postojeći ${i}`);
    const results = await inParallel(a, 12, (c, i) => c.keys.create({ name: `paralelni ${i}` }));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok)[0]).toMatchObject({ ok: false, message: expect.stringContaining("najviše 25 aktivnih ključeva") });
    expect(await portal.db.apiKey.count({ where: { accountId: a.account.id, revokedAt: null } })).toBe(25);
  });

  it("require a session", async () => {
    await expect(anonymous().keys.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("sign-up", () => {
  it("creates a user with a new Sandbox account; a taken e-mail gets the same answer and nothing is created", async () => {
    const email = `novi-${Date.now()}@primjer.hr`;
    const api = anonymous("192.0.2.10");
    expect(await api.auth.signUp({ company: "Primjer d.o.o.", email, password: "dovoljno-duga" })).toEqual({ ok: true });
    const user = await portal.db.user.findUniqueOrThrow({ where: { email }, include: { account: true } });
    expect(user.account.plan).toBe("SANDBOX");
    expect(user.role).toBe("CUSTOMER");
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);

    const again = await api.auth.signUp({ company: "Drugi d.o.o.", email: email.toUpperCase(), password: "dovoljno-duga" });
    expect(again).toEqual({ ok: true });
    expect(await portal.db.user.count({ where: { email } })).toBe(1);
    expect(await portal.db.account.count({ where: { name: "Drugi d.o.o." } })).toBe(0);
  });

  it("rejects a short password", async () => {
    await expect(
      anonymous("192.0.2.11").auth.signUp({ company: "Primjer", email: "kratka@primjer.hr", password: "kratka" }),
    ).rejects.toThrow("Lozinka mora imati barem 10 znakova.");
  });

  it("limits sign-ups per IP", async () => {
    const api = anonymous("192.0.2.77");
    const results = [];
    for (let i = 0; i < 6; i++) {
      results.push(await api.auth.signUp({ company: "Brzi d.o.o.", email: `brzi${i}-${Date.now()}@primjer.hr`, password: "dovoljno-duga" }));
    }
    expect(results[0]).toEqual({ ok: true });
    const refused = results.filter((r) => !r.ok);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]).toMatchObject({ ok: false, reason: "rate_limited" });
    expect(refused[0]?.ok === false && refused[0].message).toMatch(/Pokušajte ponovno za \d+ sekund/);
  });
});

describe("sign-in", () => {
  type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;
  const authorize = () => (authOptions().providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;

  it("accepts the right password and refuses a wrong one in the same words as an unknown e-mail", async () => {
    const account = await createAccount(portal.db, { name: "Prijava d.o.o." });
    const email = `prijava-${Date.now()}@primjer.hr`;
    await portal.db.user.create({ data: { email, passwordHash: await hashPassword("ispravna-lozinka"), accountId: account.id } });
    const req = { headers: { "x-forwarded-for": "198.18.0.1" } };
    await expect(authorize()({ email, password: "ispravna-lozinka" }, req)).resolves.toMatchObject({ email, accountId: account.id });
    await expect(authorize()({ email, password: "kriva-lozinka" }, req)).rejects.toThrow("Neispravan e-mail ili lozinka.");
    await expect(authorize()({ email: `nema-${email}`, password: "x" }, req)).rejects.toThrow("Neispravan e-mail ili lozinka.");
  });

  // Limits per (e-mail, address) and the slow-down per e-mail: src/server/sign-in.test.ts.
});

describe("plan", () => {
  it("accepts one pending upgrade at a time and only to a higher plan", async () => {
    const a = await customer();
    expect(await a.caller.plan.requestUpgrade({ plan: "STARTER" })).toEqual({ ok: true });
    expect(await a.caller.plan.requestUpgrade({ plan: "BUSINESS" })).toMatchObject({ ok: false, reason: "pending_exists" });
    expect(
      await a.caller.plan.contactEnterprise({ expectedVolume: "1M/mj", message: "Trebamo više od Business paketa." }),
    ).toMatchObject({ ok: false, reason: "pending_exists" });
    const overview = await a.caller.plan.overview();
    expect(overview.requests.map((r) => [r.requestedPlan, r.status])).toEqual([["STARTER", "PENDING"]]);
    expect(overview.current).toEqual(overview.plans.SANDBOX);
  });

  it("keeps exactly one pending request when many are sent at once", async () => {
    // Several rounds: a check-then-insert race does not lose every single time.
    for (let round = 0; round < 4; round++) {
      const a = await customer();
      const results = await inParallel(a, 8, (c, i) =>
        i === 7
          ? c.plan.contactEnterprise({ expectedVolume: "1M/mj", message: "Trebamo više od Business paketa." })
          : c.plan.requestUpgrade({ plan: i % 2 ? "STARTER" : "BUSINESS" }),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      for (const r of results.filter((r) => !r.ok)) {
        expect(r).toEqual({ ok: false, reason: "pending_exists", message: "Već imate zahtjev na čekanju. Operater će ga uskoro obraditi." });
      }
      expect(await portal.db.upgradeRequest.count({ where: { accountId: a.account.id, status: "PENDING" } })).toBe(1);
    }
  });

  it("shows each account only its own requests", async () => {
    const a = await customer();
    const b = await customer();
    await a.caller.plan.requestUpgrade({ plan: "BUSINESS" });
    expect((await b.caller.plan.overview()).requests).toEqual([]);
  });
});

describe("admin", () => {
  it("is closed to customers", async () => {
    const a = await customer();
    await expect(a.caller.admin.requests()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      a.caller.admin.setCustomLimits({ accountId: a.account.id, burst: 1000, perMinute: 10000, perDay: 1000000 }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await portal.db.account.findUniqueOrThrow({ where: { id: a.account.id } })).plan).toBe("SANDBOX");
  });

  it("approves an upgrade exactly once and the new limits apply", async () => {
    const op = await customer("OPERATOR");
    const a = await customer();
    await a.caller.plan.requestUpgrade({ plan: "BUSINESS" });
    const pending = (await op.caller.admin.requests()).pending.find((r) => r.account.id === a.account.id);
    expect(pending).toBeDefined();
    if (!pending) return;

    const [first, second] = await Promise.all([
      op.caller.admin.approve({ requestId: pending.id }),
      op.caller.admin.approve({ requestId: pending.id }),
    ]);
    expect([first.ok, second.ok].sort()).toEqual([false, true]);
    const overview = await a.caller.plan.overview();
    expect(overview.plan).toBe("BUSINESS");
    expect(overview.current).toEqual(overview.plans.BUSINESS);
    expect(overview.requests[0]?.status).toBe("APPROVED");
    expect(await op.caller.admin.reject({ requestId: pending.id })).toMatchObject({ ok: false });
  });

  it("refuses to approve a request that would lower or keep the plan, and changes nothing", async () => {
    const op = await customer("OPERATOR");
    const a = await customer();
    await a.caller.plan.requestUpgrade({ plan: "STARTER" });
    const starterReq = (await op.caller.admin.requests()).pending.find((r) => r.account.id === a.account.id);
    if (!starterReq) throw new Error("request missing");
    // Meanwhile an operator gives the account Enterprise limits directly.
    expect(await op.caller.admin.setCustomLimits({ accountId: a.account.id, burst: 100, perMinute: 5000, perDay: 1_000_000 })).toEqual({ ok: true });
    const before = await portal.db.account.findUniqueOrThrow({ where: { id: a.account.id } });

    const refused = await op.caller.admin.approve({ requestId: starterReq.id });
    expect(refused).toEqual({ ok: false, message: expect.stringContaining("nije viši") });
    expect(await portal.db.account.findUniqueOrThrow({ where: { id: a.account.id } })).toEqual(before);
    expect((await portal.db.upgradeRequest.findUniqueOrThrow({ where: { id: starterReq.id } })).status).toBe("PENDING");
    expect(await op.caller.admin.reject({ requestId: starterReq.id })).toEqual({ ok: true });

    // BUSINESS approved first, then an old STARTER request: the account stays on BUSINESS.
    const b = await customer();
    await b.caller.plan.requestUpgrade({ plan: "STARTER" });
    const old = await portal.db.upgradeRequest.findFirstOrThrow({ where: { accountId: b.account.id, status: "PENDING" } });
    await portal.db.account.update({ where: { id: b.account.id }, data: { plan: "BUSINESS" } });
    expect(await op.caller.admin.approve({ requestId: old.id })).toMatchObject({ ok: false, message: expect.stringContaining("Business") });
    expect((await portal.db.account.findUniqueOrThrow({ where: { id: b.account.id } })).plan).toBe("BUSINESS");
  });

  it("approves atomically: when the plan change fails the request stays pending", async () => {
    const op = await customer("OPERATOR");
    const a = await customer();
    await a.caller.plan.requestUpgrade({ plan: "BUSINESS" });
    const req = await portal.db.upgradeRequest.findFirstOrThrow({ where: { accountId: a.account.id, status: "PENDING" } });
    const fn = `fail_plan_${a.account.id.replaceAll("-", "")}`;
    // A real failure of the second write, raised by the database itself.
    await portal.db.$executeRawUnsafe(
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
         IF NEW.id = '${a.account.id}' AND NEW.plan <> OLD.plan THEN RAISE EXCEPTION 'plan change refused'; END IF;
         RETURN NEW; END $$`,
    );
    await portal.db.$executeRawUnsafe(`CREATE TRIGGER ${fn} BEFORE UPDATE ON "Account" FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    try {
      await expect(op.caller.admin.approve({ requestId: req.id })).rejects.toThrow();
      expect((await portal.db.upgradeRequest.findUniqueOrThrow({ where: { id: req.id } })).status).toBe("PENDING");
      expect((await portal.db.account.findUniqueOrThrow({ where: { id: a.account.id } })).plan).toBe("SANDBOX");
    } finally {
      await portal.db.$executeRawUnsafe(`DROP TRIGGER ${fn} ON "Account"`);
      await portal.db.$executeRawUnsafe(`DROP FUNCTION ${fn}()`);
    }
    expect(await op.caller.admin.approve({ requestId: req.id })).toEqual({ ok: true });
    expect(await portal.db.account.findUniqueOrThrow({ where: { id: a.account.id } })).toMatchObject({ plan: "BUSINESS", limitsVersion: 2 });
  });

  it("needs limits to approve Enterprise and sets them", async () => {
    const op = await customer("OPERATOR");
    const a = await customer();
    await a.caller.plan.contactEnterprise({ expectedVolume: "5M mjesečno", message: "Lanac od 300 trgovina." });
    const req = (await op.caller.admin.requests()).pending.find((r) => r.account.id === a.account.id);
    if (!req) throw new Error("request missing");
    expect(await op.caller.admin.approve({ requestId: req.id })).toMatchObject({ ok: false });
    expect(
      await op.caller.admin.approve({ requestId: req.id, custom: { burst: 100, perMinute: 1000, perDay: 500000 } }),
    ).toEqual({ ok: true });
    expect((await a.caller.plan.overview()).current).toEqual({ burst: 100, perMinute: 1000, perDay: 500000 });
  });

  it("sets Enterprise limits with endpoint overrides directly on an account", async () => {
    const op = await customer("OPERATOR");
    const a = await customer();
    expect(
      await op.caller.admin.setCustomLimits({ accountId: a.account.id, burst: 200, perMinute: 5000, perDay: 2_000_000, endpoints: { oib: 4000 } }),
    ).toEqual({ ok: true });
    const o = await a.caller.plan.overview();
    expect(o.plan).toBe("ENTERPRISE");
    expect(o.currentEndpoints.oib).toBe(4000);
    expect(o.currentEndpoints.kpd).toBe(o.endpoints.kpd.perMinute);
  });

  it("rejects inconsistent custom limits without changing the account", async () => {
    const op = await customer("OPERATOR");
    const a = await customer();
    const r = await op.caller.admin.setCustomLimits({ accountId: a.account.id, burst: 500, perMinute: 100, perDay: 1000 });
    expect(r.ok).toBe(false);
    expect((await portal.db.account.findUniqueOrThrow({ where: { id: a.account.id } })).plan).toBe("SANDBOX");
  });
});

describe("usage", () => {
  it("reports the account's own usage and quota", async () => {
    const a = await customer();
    const b = await customer();
    const now = new Date();
    // recorded as the API records them: the request log and the hourly counts together
    const meter = createMeter(portal.db, { flushIntervalMs: 60_000 });
    for (const e of [
      { accountId: a.account.id, requestId: "r1", method: "POST", endpoint: "POST /v1/validate/oib", status: 200, durationMs: 10, refused: false },
      { accountId: a.account.id, requestId: "r2", method: "POST", endpoint: "POST /v1/validate/oib", status: 429, durationMs: 1, refused: true },
      { accountId: b.account.id, requestId: "r3", method: "GET", endpoint: "GET /v1/kpd/{code}", status: 200, durationMs: 5, refused: false },
    ]) {
      meter.record({ ...e, apiKeyId: null, at: now });
    }
    await meter.close();
    expect(meter.written).toBe(3);
    const o = await a.caller.usage.overview();
    expect(o.totals.requests).toBe(2);
    expect(o.totals.refused).toBe(1);
    expect(o.quota).toMatchObject({ used: 1, limit: o.limits.perDay, warn: false });
    const recent = await a.caller.usage.recent({ limit: 10 });
    expect(recent.map((r) => r.requestId).sort()).toEqual(["r1", "r2"]);
    expect((await b.caller.usage.recent({ limit: 10 })).map((r) => r.requestId)).toEqual(["r3"]);
  });
});

describe("webhooks", () => {
  it("keep endpoints, secrets, test events and deliveries inside the account", async () => {
    const a = await customer();
    const b = await customer();
    const created = await a.caller.webhooks.create({ url: "http://127.0.0.1:9/hook", description: "Test" });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.secret).toMatch(/^whsec_/);

    expect((await a.caller.webhooks.endpoints()).map((e) => e.id)).toEqual([created.id]);
    expect(await b.caller.webhooks.endpoints()).toEqual([]);
    expect(await b.caller.webhooks.secret({ id: created.id })).toMatchObject({ ok: false });
    expect(await b.caller.webhooks.sendTest({ id: created.id })).toMatchObject({ ok: false });
    expect(await b.caller.webhooks.remove({ id: created.id })).toMatchObject({ ok: false });

    expect(await a.caller.webhooks.sendTest({ id: created.id })).toEqual({ ok: true });
    const log = await a.caller.webhooks.events({});
    expect(log.items.map((e) => e.type)).toEqual(["webhook.test"]);
    const deliveryId = log.items[0]?.deliveries[0]?.id;
    expect(deliveryId).toBeDefined();
    expect((await b.caller.webhooks.events({})).items).toEqual([]);
    expect(await b.caller.webhooks.redeliver({ deliveryId: deliveryId! })).toMatchObject({ ok: false });
    expect(await a.caller.webhooks.redeliver({ deliveryId: deliveryId! })).toEqual({ ok: true });

    expect(await a.caller.webhooks.setEnabled({ id: created.id, enabled: false })).toEqual({ ok: true });
    expect(await a.caller.webhooks.sendTest({ id: created.id })).toMatchObject({ ok: false, message: expect.stringContaining("isključena") });
    expect(await a.caller.webhooks.remove({ id: created.id })).toEqual({ ok: true });
    expect(await a.caller.webhooks.endpoints()).toEqual([]);
  });

  it("limit test events and redeliveries per account, and do not queue a redeliver twice", async () => {
    const a = await customer();
    const b = await customer();
    const created = await a.caller.webhooks.create({ url: "http://127.0.0.1:9/hook" });
    if (!created.ok) throw new Error(created.message);
    expect(await a.caller.webhooks.sendTest({ id: created.id })).toEqual({ ok: true });
    const deliveryId = (await a.caller.webhooks.events({})).items[0]!.deliveries[0]!.id;
    // Nothing delivers in this process, so the first redeliver is still queued at the second.
    expect(await a.caller.webhooks.redeliver({ deliveryId })).toEqual({ ok: true });
    expect(await a.caller.webhooks.redeliver({ deliveryId })).toEqual({ ok: true, message: expect.stringContaining("već čeka") });

    const results = [];
    for (let i = 0; i < 12; i++) results.push(await a.caller.webhooks.sendTest({ id: created.id }));
    const refused = results.filter((r) => !r.ok);
    // 10 per minute: at most 8 more after the first two sends, however the burst window falls.
    expect(results.filter((r) => r.ok).length).toBeLessThanOrEqual(8);
    expect(refused[0]).toMatchObject({ ok: false, message: expect.stringMatching(/^Previše slanja webhookova\. Pokušajte ponovno za \d+ sekund[uei]\.$/) });
    expect((await a.caller.webhooks.events({})).items).toHaveLength(1 + results.filter((r) => r.ok).length);

    const other = await b.caller.webhooks.create({ url: "http://127.0.0.1:9/hook" });
    if (!other.ok) throw new Error(other.message);
    expect(await b.caller.webhooks.sendTest({ id: other.id })).toEqual({ ok: true });
  });

  it("refuse a URL that is not http(s) with a Croatian message", async () => {
    const a = await customer();
    const r = await a.caller.webhooks.create({ url: "ftp://primjer.hr/hook" });
    expect(r).toMatchObject({ ok: false, message: expect.stringContaining("nije dopuštena") });
    expect(await a.caller.webhooks.endpoints()).toEqual([]);
  });
});
