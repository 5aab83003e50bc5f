// The stack a pacing measurement runs against in its own process: a fresh test database, and the
// API's options for it with limits on Redis under a private key prefix (the caller adds its logger
// and starts the API).
import { randomBytes } from "node:crypto";
import { createTestDatabase } from "@fiskal/accounts";

export async function pacingStack(redisUrl: string, prefix: string) {
  const db = await createTestDatabase();
  const apiOptions = {
    databaseUrl: db.url,
    store: { kind: "redis" as const, url: redisUrl },
    portalUrl: "http://portal.test",
    limiterPrefix: `${prefix}${randomBytes(6).toString("hex")}`,
  };
  return { db, apiOptions };
}
