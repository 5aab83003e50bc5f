// Revocation and plan changes reach every API instance: two servers share one database.
import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAccount, createApiKey, createTestDatabase, revokeApiKey, setPlan } from "@fiskal/accounts";
import { startApi, type RunningApi } from "../src/app.ts";
import { call, REDIS_URL, VALID_OIB } from "./harness.ts";

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let apis: RunningApi[];
beforeAll(async () => {
  db = await createTestDatabase();
  const prefix = `t${randomBytes(6).toString("hex")}`;
  apis = await Promise.all(
    [1, 2].map(() =>
      startApi({
        databaseUrl: db.url,
        store: { kind: "redis", url: REDIS_URL },
        portalUrl: "http://portal.test",
        limiterPrefix: prefix,
        logger: pino({ level: "silent" }),
      }),
    ),
  );
});
afterAll(async () => {
  await Promise.all(apis.map((a) => a.close()));
  await db.drop();
});

const validate = (api: RunningApi, key: string) => call(api.url, "POST", "/v1/validate/oib", { key, body: { oib: VALID_OIB } });

it("a revoked key is refused by every instance within 5 seconds", async () => {
  const prisma = apis[0]!.services.db;
  const account = await createAccount(prisma, { name: "Rev d.o.o.", plan: "STARTER" });
  const { id, key } = await createApiKey(prisma, account.id, "k");
  for (const api of apis) expect((await validate(api, key)).status).toBe(200);
  const revokedAt = Date.now();
  expect(await revokeApiKey(prisma, account.id, id)).toBe(true);
  for (const api of apis) {
    let status = 0;
    while (Date.now() - revokedAt < 5_000) {
      status = (await validate(api, key)).status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
  }
  const r = await validate(apis[1]!, key);
  expect(r.body.error.message).toMatch(/opozvan/);
});

it("both instances count one shared quota and see a plan change on the next request", async () => {
  const prisma = apis[0]!.services.db;
  const account = await createAccount(prisma, { name: "Shared d.o.o.", plan: "ENTERPRISE", custom: { burst: 100, perMinute: 4, perDay: 1_000 } });
  const { key } = await createApiKey(prisma, account.id, "k");
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await validate(apis[i % 2]!, key)).status);
  expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  const changedAt = Date.now();
  await setPlan(prisma, account.id, "BUSINESS");
  for (const api of apis) {
    let r = await validate(api, key);
    while (r.status !== 200 && Date.now() - changedAt < 500) r = await validate(api, key);
    expect(r.status).toBe(200);
    expect(r.headers.get("ratelimit-policy")).toContain('"minute";q=300;w=60');
  }
});
