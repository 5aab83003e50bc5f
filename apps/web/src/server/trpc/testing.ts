// For tests of the portal's procedures: a fresh PostgreSQL database with the environment the portal's
// server code reads, and signed-in callers of their own accounts.
import { createAccount, createTestDatabase } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { afterAll, beforeAll } from "vitest";
import { createCaller } from "./root";

export interface PortalTestDatabase {
  /** The test database's client, there from the file's `beforeAll` on. */
  readonly db: Db;
}

/**
 * Registers the file's `beforeAll` and `afterAll`: a test database, DATABASE_URL and NEXTAUTH_SECRET
 * for it, then the options' variables; afterwards the portal's global webhooks and database client
 * are closed and the database dropped.
 */
export function usePortalTestDatabase(
  options: {
    /** The portal's limiter on the real Redis, under a prefix (`fiskal_t_<rateLimit>_…`) no other run uses. */
    rateLimit?: string;
    /** Lets endpoints point at loopback, so no test depends on outside DNS. */
    allowPrivateWebhooks?: boolean;
    env?: Record<string, string>;
  } = {},
): PortalTestDatabase {
  let db: Db | undefined;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const t = await createTestDatabase();
    drop = t.drop;
    db = createDb(t.url, { max: 4 });
    process.env.DATABASE_URL = t.url;
    process.env.NEXTAUTH_SECRET = "test-secret-0123456789abcdef";
    if (options.allowPrivateWebhooks) process.env.WEBHOOKS_ALLOW_PRIVATE = "1";
    if (options.rateLimit !== undefined) {
      process.env.REDIS_URL = "redis://127.0.0.1:6379";
      process.env.RATE_LIMIT_PREFIX = `fiskal_t_${options.rateLimit}_${process.pid}_${Date.now()}`;
    }
    Object.assign(process.env, options.env);
  });

  afterAll(async () => {
    await (globalThis as { __fiskalWebhooks?: { close(): Promise<void> } }).__fiskalWebhooks?.close();
    await (globalThis as { __fiskalWebDb?: Db }).__fiskalWebDb?.$disconnect();
    await db?.$disconnect();
    await drop?.();
  });

  return {
    get db() {
      if (!db) throw new Error("the test database is there only from beforeAll on");
      return db;
    },
  };
}

/**
 * Makes users of the portal, each with an account of its own (`<account> <n>`, e-mail `<email><n>-…`)
 * and a caller signed in as that user, whose requests come from 198.51.100.<n>; n counts the users
 * this function made. `forwardedFor` writes the X-Forwarded-For header around that address.
 */
export function portalUsers(
  portal: PortalTestDatabase,
  names: { account: string; email: string },
  forwardedFor: (ip: string) => string = (ip) => ip,
) {
  let seq = 0;
  return async (role: "CUSTOMER" | "OPERATOR" = "CUSTOMER", oib?: string) => {
    const db = portal.db;
    const account = await createAccount(db, { name: `${names.account} ${++seq}`, oib });
    const user = await db.user.create({ data: { email: `${names.email}${seq}-${Date.now()}@primjer.hr`, passwordHash: "x", role, accountId: account.id } });
    const ip = `198.51.100.${seq}`;
    const caller = createCaller({
      db,
      session: { user: { id: user.id, email: user.email, role, accountId: account.id }, expires: "2999-01-01T00:00:00Z" },
      headers: new Headers({ "x-forwarded-for": forwardedFor(ip) }),
    });
    return { account, user, caller, ip };
  };
}
