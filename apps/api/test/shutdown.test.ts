// A graceful stop loses no usage: what the API admitted before close() is in the request log and the
// hourly counts afterwards, although the meter flushes only once a minute here.
import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterAll, expect, it } from "vitest";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
import { usageSummary } from "@fiskal/usage";
import { startApi } from "../src/app.ts";
import { call, REDIS_URL, VALID_OIB } from "./harness.ts";

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

it("counts every request answered before a graceful stop, admitted and refused", async () => {
  const testDb = await createTestDatabase();
  cleanup.push(() => testDb.drop());
  const api = await startApi({
    databaseUrl: testDb.url,
    store: { kind: "redis", url: REDIS_URL },
    portalUrl: "http://portal.test",
    limiterPrefix: `t${randomBytes(6).toString("hex")}`,
    logger: pino({ level: "silent" }),
    meterFlushIntervalMs: 60_000,
  });
  let closed = false;
  cleanup.push(async () => {
    if (!closed) await api.close();
  });
  const account = await createAccount(api.services.db, { name: "Stop d.o.o.", plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 30, perDay: 10_000 } });
  const { key } = await createApiKey(api.services.db, account.id, "test");
  const statuses = await Promise.all(
    Array.from({ length: 40 }, () => call(api.url, "POST", "/v1/validate/oib", { key, body: { oib: VALID_OIB } }).then((r) => r.status)),
  );
  expect(statuses.filter((s) => s === 200)).toHaveLength(30);
  expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  expect(api.services.meter.buffered).toBeGreaterThan(0); // nothing flushed yet

  await api.close();
  closed = true;
  const db = createDb(testDb.url, { max: 1 });
  cleanup.push(() => db.$disconnect());
  const summary = await usageSummary(db, account.id);
  expect(summary.today).toMatchObject({ requests: 40, refused: 10 });
  expect(await db.usageEvent.count({ where: { accountId: account.id } })).toBe(40);
});
