import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DbInputError,
  INVALIDATION_CHANNEL,
  createAccount,
  createApiKey,
  ensureDemo,
  generateApiKey,
  hashApiKey,
  hashPassword,
  revokeApiKey,
  setPlan,
  verifyPassword,
} from "./accounts.ts";
import { createDb, type Db } from "@fiskal/db";
import { createTestDatabase } from "./testing.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, { max: 4 });
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

/** A connection that listens on the invalidation channel, and the payloads of what it has received. */
async function invalidationListener(): Promise<{ listener: pg.Client; notified: string[] }> {
  const listener = new pg.Client({ connectionString: database.url });
  await listener.connect();
  const notified: string[] = [];
  listener.on("notification", (n) => notified.push(n.payload ?? ""));
  await listener.query(`LISTEN ${INVALIDATION_CHANNEL}`);
  return { listener, notified };
}

describe("API keys", () => {
  it("generates fsk_<env>_ + 32 base62 characters with a 13-character prefix", () => {
    const keys = Array.from({ length: 200 }, () => generateApiKey("live"));
    for (const { key, prefix, hash } of keys) {
      expect(key).toMatch(/^fsk_live_[0-9A-Za-z]{32}$/);
      expect(prefix).toBe(key.slice(0, 13));
      expect(hash).toBe(hashApiKey(key));
    }
    expect(new Set(keys.map((k) => k.key)).size).toBe(200);
    expect(generateApiKey("test").key).toMatch(/^fsk_test_[0-9A-Za-z]{32}$/);
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("stores only the hash and a display prefix", async () => {
    const sandbox = await createAccount(db, { name: "Sandbox d.o.o." });
    const live = await createAccount(db, { name: "Live d.o.o.", plan: "STARTER" });
    const a = await createApiKey(db, sandbox.id, "ci");
    const b = await createApiKey(db, live.id, "prod");
    expect(a.key).toMatch(/^fsk_test_/);
    expect(b.key).toMatch(/^fsk_live_/);
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: a.id } });
    expect(row).toMatchObject({ accountId: sandbox.id, name: "ci", prefix: a.prefix, hash: hashApiKey(a.key), revokedAt: null });
    expect(JSON.stringify(row)).not.toContain(a.key);
    expect(await db.apiKey.findUnique({ where: { hash: hashApiKey(b.key) } })).toMatchObject({ accountId: live.id });
  });

  it("refuses keys for unknown accounts or without a name", async () => {
    await expect(createApiKey(db, "00000000-0000-7000-8000-000000000000", "x")).rejects.toThrow(DbInputError);
    await expect(createApiKey(db, "not-a-uuid", "x")).rejects.toThrow(DbInputError);
    const account = await createAccount(db, { name: "Nameless keys" });
    await expect(createApiKey(db, account.id, "  ")).rejects.toThrow(DbInputError);
    expect(await db.apiKey.count({ where: { accountId: account.id } })).toBe(0);
  });

  it("revokes only within the owning account, once", async () => {
    const owner = await createAccount(db, { name: "Owner d.o.o." });
    const other = await createAccount(db, { name: "Other d.o.o." });
    const key = await createApiKey(db, owner.id, "main");
    expect(await revokeApiKey(db, other.id, key.id)).toBe(false);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeNull();
    expect(await revokeApiKey(db, owner.id, "garbage")).toBe(false);
    expect(await revokeApiKey(db, owner.id, key.id)).toBe(true);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeInstanceOf(Date);
    expect(await revokeApiKey(db, owner.id, key.id)).toBe(false);
  });
});

describe("accounts and plans", () => {
  it("validates OIB and custom limits on creation", async () => {
    await expect(createAccount(db, { name: "Bad OIB", oib: "12345678901" })).rejects.toThrow(/invalid OIB/);
    const custom = { perMinute: 6000, perDay: 5_000_000, burst: 200 };
    await expect(createAccount(db, { name: "Not enterprise", plan: "BUSINESS", custom })).rejects.toThrow(/only for ENTERPRISE/);
    await expect(createAccount(db, { name: "Enterprise, no limits", plan: "ENTERPRISE" })).rejects.toThrow(/needs custom/);
    // the limiter's own bounds: nothing stored can be refused when a request is judged by it
    await expect(createAccount(db, { name: "Too big", plan: "ENTERPRISE", custom: { ...custom, perMinute: 10_000_001 } })).rejects.toThrow(
      /custom\.perMinute must be an integer from 1 to 10000000/,
    );
    await expect(
      createAccount(db, { name: "Too big", plan: "ENTERPRISE", custom: { ...custom, endpoints: { oib: 0 } } }),
    ).rejects.toThrow(/custom\.endpoints\.oib must be an integer/);
    await expect(createAccount(db, { name: "  " })).rejects.toThrow(DbInputError);
    expect(await db.account.count({ where: { name: { in: ["Bad OIB", "Not enterprise", "Enterprise, no limits"] } } })).toBe(0);
    const enterprise = await createAccount(db, { name: "Big d.o.o.", plan: "ENTERPRISE", oib: "69435151530", custom });
    expect(enterprise).toMatchObject({ plan: "ENTERPRISE", oib: "69435151530", customPerMinute: 6000, customPerDay: 5_000_000, customBurst: 200, limitsVersion: 1 });
    expect(await createAccount(db, { name: "Default" })).toMatchObject({ plan: "SANDBOX", customPerMinute: null, limitsVersion: 1 });
  });

  it("setPlan bumps limitsVersion, sets and clears custom limits, and validates", async () => {
    const account = await createAccount(db, { name: "Growing d.o.o." });
    const starter = await setPlan(db, account.id, "STARTER");
    expect(starter).toMatchObject({ plan: "STARTER", limitsVersion: 2, customPerMinute: null });
    const ent = await setPlan(db, account.id, "ENTERPRISE", { perMinute: 1000, perDay: 100_000, burst: 50 });
    expect(ent).toMatchObject({ plan: "ENTERPRISE", limitsVersion: 3, customPerMinute: 1000, customPerDay: 100_000, customBurst: 50 });
    const moreBurst = await setPlan(db, account.id, "ENTERPRISE", { perMinute: 1000, perDay: 100_000, burst: 60 });
    expect(moreBurst).toMatchObject({ limitsVersion: 4, customBurst: 60 });
    await expect(setPlan(db, account.id, "ENTERPRISE")).rejects.toThrow(/needs custom/);
    await expect(setPlan(db, account.id, "ENTERPRISE", { perMinute: 0, perDay: 1, burst: 1 })).rejects.toThrow(/perMinute/);
    await expect(setPlan(db, account.id, "ENTERPRISE", { perMinute: 1.5, perDay: 1, burst: 1 })).rejects.toThrow(/perMinute/);
    await expect(setPlan(db, account.id, "BUSINESS", { perMinute: 1, perDay: 1, burst: 1 })).rejects.toThrow(/only for ENTERPRISE/);
    await expect(setPlan(db, account.id, "GOLD" as never)).rejects.toThrow(/unknown plan/);
    expect(await db.account.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({ plan: "ENTERPRISE", limitsVersion: 4, customBurst: 60 });
    const business = await setPlan(db, account.id, "BUSINESS");
    expect(business).toMatchObject({ plan: "BUSINESS", limitsVersion: 5, customPerMinute: null, customPerDay: null, customBurst: null });
    await expect(setPlan(db, "00000000-0000-7000-8000-000000000000", "STARTER")).rejects.toThrow(/no account/);
  });

  it("setPlan with the plan and limits the account already has neither bumps limitsVersion nor announces", async () => {
    const { listener, notified } = await invalidationListener();
    try {
      const account = await createAccount(db, { name: "Steady d.o.o.", plan: "STARTER" });
      expect((await setPlan(db, account.id, "STARTER")).limitsVersion).toBe(1);
      const custom = { perMinute: 900, perDay: 90_000, burst: 30, endpoints: { oib: 700, kpd: 800 } };
      expect((await setPlan(db, account.id, "ENTERPRISE", custom)).limitsVersion).toBe(2);
      // The same overrides in another key order are the same limits.
      const same = await setPlan(db, account.id, "ENTERPRISE", { burst: 30, perDay: 90_000, perMinute: 900, endpoints: { kpd: 800, oib: 700 } });
      expect(same).toMatchObject({ limitsVersion: 2, customEndpointLimits: { oib: 700, kpd: 800 } });
      expect((await setPlan(db, account.id, "ENTERPRISE", { ...custom, endpoints: { oib: 700 } })).limitsVersion).toBe(3);
      expect((await setPlan(db, account.id, "ENTERPRISE", { perMinute: 900, perDay: 90_000, burst: 30 })).limitsVersion).toBe(4);
      expect((await setPlan(db, account.id, "ENTERPRISE", { perMinute: 900, perDay: 90_000, burst: 30 })).limitsVersion).toBe(4);
      // A round trip makes sure every notification sent before it has arrived.
      await listener.query("SELECT 1");
      await new Promise((r) => setTimeout(r, 100));
      expect(notified.filter((p) => p.includes(account.id))).toHaveLength(3);
    } finally {
      await listener.end();
    }
  });

  it("setPlan inside a transaction is undone with it and announces nothing", async () => {
    const { listener, notified } = await invalidationListener();
    try {
      const account = await createAccount(db, { name: "Undone d.o.o." });
      await expect(
        db.$transaction(async (tx) => {
          await setPlan(tx, account.id, "BUSINESS");
          throw new Error("later write failed");
        }),
      ).rejects.toThrow("later write failed");
      expect(await db.account.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({ plan: "SANDBOX", limitsVersion: 1 });
      await db.$transaction((tx) => setPlan(tx, account.id, "BUSINESS"));
      expect(await db.account.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({ plan: "BUSINESS", limitsVersion: 2 });
      await listener.query("SELECT 1");
      await new Promise((r) => setTimeout(r, 100));
      expect(notified.filter((p) => p.includes(account.id))).toHaveLength(1);
    } finally {
      await listener.end();
    }
  });
});

describe("passwords and the demo data", () => {
  it("hashes passwords with argon2id", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, "correct horse")).toBe(true);
    expect(await verifyPassword(hash, "wrong horse")).toBe(false);
    expect(await verifyPassword("not a hash", "correct horse")).toBe(false);
  });

  it("ensureDemo creates once, returns secrets once, and survives a race", async () => {
    const [first, racing] = await Promise.all([ensureDemo(db), ensureDemo(db)]);
    const created = first.apiKey ? first : racing;
    const loser = first.apiKey ? racing : first;
    expect(created.apiKey).toMatch(/^fsk_test_[0-9A-Za-z]{32}$/);
    expect(loser.apiKey).toBeUndefined();
    expect(loser.account.id).toBe(created.account.id);
    expect(created.account).toMatchObject({ name: "Demo d.o.o.", plan: "SANDBOX", oib: "69435151530" });

    const demoUser = await db.user.findUniqueOrThrow({ where: { email: "demo@fiskal.local" } });
    expect(demoUser).toMatchObject({ role: "CUSTOMER", accountId: created.account.id });
    expect(await verifyPassword(demoUser.passwordHash, created.user.password!)).toBe(true);
    const op = await db.user.findUniqueOrThrow({ where: { email: "operator@fiskal.local" }, include: { account: true } });
    expect(op).toMatchObject({ role: "OPERATOR", account: { name: "Fiskal — operater" } });
    const operatorPassword = first.operator.password ?? racing.operator.password;
    expect(await verifyPassword(op.passwordHash, operatorPassword!)).toBe(true);
    expect(await db.apiKey.findUnique({ where: { hash: hashApiKey(created.apiKey!) } })).toMatchObject({ accountId: created.account.id });

    const later = await ensureDemo(db);
    expect(later).toEqual({
      account: expect.objectContaining({ id: created.account.id }),
      user: { email: "demo@fiskal.local" },
      operator: { email: "operator@fiskal.local" },
    });
    expect(await db.account.count({ where: { name: "Demo d.o.o." } })).toBe(1);
    expect(await db.account.count({ where: { name: "Fiskal — operater" } })).toBe(1);
    expect(await db.apiKey.count({ where: { accountId: created.account.id } })).toBe(1);
  });
});
