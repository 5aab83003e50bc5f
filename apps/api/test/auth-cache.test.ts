// The key cache (auth.ts) against a real database, on a clock the test moves: a key in steady use
// is looked up again in the last fifth of its entry's time, in the background, so that no request
// waits for the database when the entry lapses; an entry never answers past its time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { createAuthenticator } from "../src/auth.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let key: string;
let accountId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, { max: 2 });
  const account = await createAccount(db, { name: "Predmemorija d.o.o.", plan: "BUSINESS" });
  accountId = account.id;
  key = (await createApiKey(db, account.id, "cache")).key;
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

/** The database as the authenticator sees it, counting its key lookups. */
function counted(): { db: Db; lookups: () => number; settled: () => Promise<void> } {
  let n = 0;
  let last: Promise<unknown> = Promise.resolve();
  const apiKey = new Proxy(db.apiKey, {
    get(target, prop, receiver) {
      if (prop === "findUnique") {
        return (...args: Parameters<Db["apiKey"]["findUnique"]>) => {
          n++;
          return (last = target.findUnique(...args));
        };
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  const wrapped = new Proxy(db, { get: (target, prop, receiver) => (prop === "apiKey" ? apiKey : (Reflect.get(target, prop, receiver) as unknown)) });
  // the latest lookup has answered and the cache has taken its entry
  const settled = async () => {
    await last;
    await new Promise((r) => setTimeout(r, 20));
  };
  return { db: wrapped, lookups: () => n, settled };
}

const bearer = () => `Bearer ${key}`;

describe("the key cache", () => {
  it("renews an entry in its last fifth in the background: a key in steady use never waits when its entry lapses", async () => {
    const { db: counting, lookups, settled } = counted();
    let clock = 1_000_000;
    const auth = createAuthenticator({ db: counting, ttlMs: 5_000, now: () => clock });
    expect((await auth.authenticate(bearer())).kind).toBe("valid");
    expect(lookups()).toBe(1);

    clock += 3_500; // 70 % of the entry's time: answered from the cache, nothing asked
    expect((await auth.authenticate(bearer())).kind).toBe("valid");
    expect(lookups()).toBe(1);

    clock += 800; // 86 %: answered at once from the cache, and looked up again meanwhile, once
    const outcomes = await Promise.all([auth.authenticate(bearer()), auth.authenticate(bearer()), auth.authenticate(bearer())]);
    expect(outcomes.map((o) => o.kind)).toEqual(["valid", "valid", "valid"]);
    expect(lookups()).toBe(2);
    await settled();

    clock += 1_000; // past the first entry's time, within the renewed one's: no lookup on the request path
    expect((await auth.authenticate(bearer())).kind).toBe("valid");
    expect(lookups()).toBe(2);
  });

  it("never answers from an entry past its time: a key not renewed is looked up on the request", async () => {
    const { db: counting, lookups } = counted();
    let clock = 2_000_000;
    const auth = createAuthenticator({ db: counting, ttlMs: 5_000, now: () => clock });
    await auth.authenticate(bearer());
    expect(lookups()).toBe(1);
    clock += 5_001; // no request in the last fifth: the entry lapsed unrenewed
    // revoked meanwhile: the lookup on this request sees it
    await db.apiKey.updateMany({ where: { accountId }, data: { revokedAt: new Date() } });
    try {
      expect((await auth.authenticate(bearer())).kind).toBe("revoked");
      expect(lookups()).toBe(2);
    } finally {
      await db.apiKey.updateMany({ where: { accountId }, data: { revokedAt: null } });
    }
  });
});
