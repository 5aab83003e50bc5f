// Key expiry and rotation against the real API: an expired key stops at its expiry instant (not
// when a cache entry lapses), a rotated key works through its overlap and no longer, and an
// expired, revoked or unknown key all get the same answer. Two instances share one database.
import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAccount, createApiKey, createTestDatabase, generateApiKey, revokeApiKey, rotateApiKey } from "@fiskal/accounts";
import { startApi, type RunningApi } from "../src/app.ts";
import { parseHeaderLines } from "@fiskal/usage";
import { call, callFrom, REDIS_URL, VALID_OIB } from "./harness.ts";

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

const RATE_ORDER = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit", "Retry-After"];
const validate = (api: RunningApi, key: string) => call(api.url, "POST", "/v1/validate/oib", { key, body: { oib: VALID_OIB } });
const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));

it("an expired key stops working at its expiry instant on every instance, though its cache entry is fresh", async () => {
  const prisma = apis[0]!.services.db;
  const account = await createAccount(prisma, { name: "Exp d.o.o.", plan: "STARTER" });
  const expiresAt = new Date(Date.now() + 1_500);
  const { key } = await createApiKey(prisma, account.id, "short", { expiresAt });
  // Cached as valid on both instances well within the 5 s cache period.
  for (const api of apis) expect((await validate(api, key)).status).toBe(200);
  await sleepUntil(expiresAt.getTime() + 20);
  for (const api of apis) {
    const r = await validate(api, key);
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("unauthorized");
  }
});

it("a key whose expiry has passed is refused from its first request", async () => {
  const prisma = apis[0]!.services.db;
  const account = await createAccount(prisma, { name: "Exp2 d.o.o." });
  const { id, key } = await createApiKey(prisma, account.id, "k", { expiresAt: new Date(Date.now() + 200) });
  await sleepUntil(Date.now() + 250);
  expect((await validate(apis[1]!, key)).status).toBe(401);
  expect((await prisma.apiKey.findUniqueOrThrow({ where: { id } })).revokedAt).toBeNull();
});

it("an expired, a revoked and an unknown key get the same answer", async () => {
  const prisma = apis[0]!.services.db;
  const account = await createAccount(prisma, { name: "Same d.o.o." });
  const expired = await createApiKey(prisma, account.id, "e", { expiresAt: new Date(Date.now() + 100) });
  const revoked = await createApiKey(prisma, account.id, "r");
  await revokeApiKey(prisma, account.id, revoked.id);
  await sleepUntil(Date.now() + 150);
  const unknown = generateApiKey("test").key;
  // Each from its own address, so that each starts the same per-address quota.
  const answers = await Promise.all(
    [expired.key, revoked.key, unknown].map((key, i) =>
      callFrom(`127.0.0.${21 + i}`, apis[0]!.url, "POST", "/v1/validate/oib", { key, body: { oib: VALID_OIB } }),
    ),
  );
  const shape = (r: (typeof answers)[number]) => ({
    status: r.status,
    body: r.body,
    rate: ["x-ratelimit-limit", "x-ratelimit-remaining", "ratelimit-policy", "ratelimit"].map((h) => r.headers.get(h)),
  });
  expect(shape(answers[0]!)).toEqual(shape(answers[2]!));
  expect(shape(answers[1]!)).toEqual(shape(answers[2]!));
  expect(answers[2]!.status).toBe(401);
});

it("rotation: the new key works at once, the old one through the overlap and not after it", async () => {
  const prisma = apis[0]!.services.db;
  const account = await createAccount(prisma, { name: "Rot d.o.o.", plan: "BUSINESS" });
  const old = await createApiKey(prisma, account.id, "prod");
  for (const api of apis) expect((await validate(api, old.key)).status).toBe(200);
  const rotated = await rotateApiKey(prisma, account.id, old.id, { overlapSeconds: 2 });
  if (!rotated.ok) throw new Error(rotated.reason);
  expect(rotated.name).toBe("prod");
  for (const api of apis) {
    expect((await validate(api, rotated.key)).status).toBe(200);
    expect((await validate(api, old.key)).status).toBe(200);
  }
  await sleepUntil(rotated.oldKeyEndsAt.getTime() + 20);
  for (const api of apis) {
    expect((await validate(api, old.key)).status).toBe(401);
    expect((await validate(api, rotated.key)).status).toBe(200);
  }
  // Rotated once: the old key cannot be rotated again.
  expect(await rotateApiKey(prisma, account.id, old.id, { overlapSeconds: 60 })).toEqual({ ok: false, reason: "not_found" });
});

it("rotation without overlap retires the old key at once; overlaps over 7 days are refused", async () => {
  const prisma = apis[0]!.services.db;
  const account = await createAccount(prisma, { name: "Rot0 d.o.o." });
  const old = await createApiKey(prisma, account.id, "k");
  for (const api of apis) expect((await validate(api, old.key)).status).toBe(200);
  const rotated = await rotateApiKey(prisma, account.id, old.id, { overlapSeconds: 0 });
  expect(rotated.ok).toBe(true);
  const at = Date.now();
  for (const api of apis) {
    let status = 0;
    while (Date.now() - at < 5_000) {
      status = (await validate(api, old.key)).status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
  }
  const other = await createApiKey(prisma, account.id, "k2");
  await expect(rotateApiKey(prisma, account.id, other.id, { overlapSeconds: 7 * 86_400 + 1 })).rejects.toThrow(/overlapSeconds/);
  // Another account's key is not found.
  const stranger = await createAccount(prisma, { name: "Stranger" });
  expect(await rotateApiKey(prisma, stranger.id, other.id, { overlapSeconds: 60 })).toEqual({ ok: false, reason: "not_found" });
});

it("the request log keeps the decision and the rate-limit headers each response carried", async () => {
  const prisma = apis[0]!.services.db;
  const account = await createAccount(prisma, { name: "Log d.o.o.", plan: "ENTERPRISE", custom: { burst: 100, perMinute: 2, perDay: 1_000 } });
  const { key } = await createApiKey(prisma, account.id, "k");
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await validate(apis[0]!, key));
  expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
  await apis[0]!.services.meter.flush();
  const events = await prisma.usageEvent.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } });
  expect(events).toHaveLength(3);
  for (const [i, e] of events.entries()) {
    const sent = answers[i]!.headers;
    const expected: Record<string, string> = {};
    for (const name of RATE_ORDER) {
      const v = sent.get(name);
      if (v !== null) expected[name] = v;
    }
    expect(parseHeaderLines(e.headers!)).toEqual(expected);
    expect(Object.keys(parseHeaderLines(e.headers!))).toEqual(Object.keys(expected).sort((x, y) => RATE_ORDER.indexOf(x) - RATE_ORDER.indexOf(y)));
    expect(e.requestId).toBe(sent.get("x-request-id"));
  }
  expect(events[2]).toMatchObject({ status: 429, rateWindow: "minute", rateLimit: 2, rateRemaining: 0, retryAfter: Number(answers[2]!.headers.get("retry-after")) });
  expect(events[1]).toMatchObject({ rateWindow: "minute", rateRemaining: 0, retryAfter: null });
});
