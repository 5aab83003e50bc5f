// The API drops the request log's daily partitions past USAGE_EVENT_RETENTION_DAYS at start and
// hourly; the hourly rollup behind the dashboard keeps their events counted.
import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterAll, expect, it } from "vitest";
import { createAccount, createTestDatabase } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
import { createMeter } from "@fiskal/usage";
import { startApi, type RunningApi } from "../src/app.ts";
import { loadEnv } from "../src/env.ts";
import { REDIS_URL } from "./harness.ts";

const DAY = 86_400_000;
const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

it("deletes events older than the retention period when it starts; the hourly history still counts them", async () => {
  const testDb = await createTestDatabase();
  cleanup.push(() => testDb.drop());
  const db = createDb(testDb.url, { max: 2 });
  cleanup.push(() => db.$disconnect());
  const account = await createAccount(db, { name: "Retention d.o.o." });
  const now = Date.now();
  const ages = [45, 31, 29, 1, 0];
  // recorded as the API records them: the request log and the hourly counts together
  const meter = createMeter(db, { flushIntervalMs: 60_000 });
  ages.forEach((days, i) =>
    meter.record({
      accountId: account.id,
      apiKeyId: null,
      requestId: `r${i}`,
      method: "POST",
      endpoint: "POST /v1/validate/oib",
      status: 200,
      durationMs: 1,
      refused: false,
      at: new Date(now - days * DAY - 60_000),
    }),
  );
  await meter.close();
  expect(meter.written).toBe(ages.length);

  const api: RunningApi = await startApi({
    databaseUrl: testDb.url,
    store: { kind: "redis", url: REDIS_URL },
    portalUrl: "http://portal.test",
    limiterPrefix: `t${randomBytes(6).toString("hex")}`,
    logger: pino({ level: "silent" }),
    usageEventRetentionDays: 30,
  });
  cleanup.push(() => api.close());

  const left = async () => (await db.usageEvent.findMany({ where: { accountId: account.id }, orderBy: { requestId: "asc" } })).map((e) => e.requestId);
  await expect.poll(left, { timeout: 5_000 }).toEqual(["r2", "r3", "r4"]);
  // the hourly history still counts every event, the deleted ones included
  const [hours] = await db.$queryRaw<[{ n: bigint }]>`SELECT sum(requests)::int8 AS n FROM "UsageHour" WHERE "accountId" = ${account.id}::uuid`;
  expect(Number(hours.n)).toBe(ages.length);
});

it("reads the retention from USAGE_EVENT_RETENTION_DAYS: 30 days by default, 1 to 3650", () => {
  const env = (vars: Record<string, string>) => loadEnv(vars as NodeJS.ProcessEnv);
  expect(env({}).USAGE_EVENT_RETENTION_DAYS).toBe(30);
  expect(env({ USAGE_EVENT_RETENTION_DAYS: "7" }).USAGE_EVENT_RETENTION_DAYS).toBe(7);
  expect(() => env({ USAGE_EVENT_RETENTION_DAYS: "0" })).toThrow(/USAGE_EVENT_RETENTION_DAYS/);
  expect(() => env({ USAGE_EVENT_RETENTION_DAYS: "ninety" })).toThrow(/USAGE_EVENT_RETENTION_DAYS/);
});
