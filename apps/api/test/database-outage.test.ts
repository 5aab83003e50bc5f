// The database goes away while keys are being checked: 503 service_unavailable with Retry-After,
// the account's own headers where the key was known from the cache, and no per-IP quota taken for
// a well-formed key. And the same answer for an unknown and a revoked key.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "@fiskal/accounts";
import { ANONYMOUS_LIMITS } from "@fiskal/limits";
import { call, callFrom, PORTAL, startHarness, trpcClient, VALID_OIB, type CallResult, type Harness } from "./harness.ts";

const CACHE_TTL_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let h: Harness;
let dbName: string;
let adminUrl: string;
beforeAll(async () => {
  h = await startHarness({ config: { authCacheTtlMs: CACHE_TTL_MS } });
  const url = new URL(h.databaseUrl);
  dbName = decodeURIComponent(url.pathname.slice(1));
  url.pathname = "/postgres";
  adminUrl = url.toString();
});
afterAll(async () => {
  await setDatabase("up").catch(() => {});
  await h?.close();
});

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Refuses every new connection to the test database and ends the open ones (the API's pool too). */
async function setDatabase(state: "up" | "down") {
  await admin(`ALTER DATABASE "${dbName}" WITH ALLOW_CONNECTIONS ${state === "up" ? "true" : "false"}`);
  if (state === "down") await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${dbName}' AND pid <> pg_backend_pid()`);
}

function expectUnavailable(r: CallResult) {
  expect(r.status).toBe(503);
  expect(r.body?.error?.code).toBe("service_unavailable");
  expect(r.body.error.message).toMatch(/baz/i);
  expect(r.body.error.doc_url).toBe(`${PORTAL}/docs/errors#service_unavailable`);
  expect(r.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
  expect(r.headers.get("x-request-id")).toMatch(/^req_/);
  expect(r.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
  expect(r.headers.get("ratelimit-policy")).toBeTruthy();
}

const anonymousWindows = (address: string) => h.api.services.limiter.peek({ identity: `ip:${address}`, limits: ANONYMOUS_LIMITS });
const minuteRemaining = async (address: string) => (await anonymousWindows(address)).find((w) => w.name === "minute")!.remaining;

describe("database unreachable during authentication", () => {
  it("answers 503 service_unavailable, never 500, and takes no per-IP quota for a well-formed key", async () => {
    const known = await h.account({ plan: "ENTERPRISE", custom: { burst: 77, perMinute: 777, perDay: 7_777 } });
    const unknownKey = "fsk_test_" + "Q".repeat(32);
    // The key is seen once, so the cache knows its account when the database goes away.
    expect((await call(h.url, "POST", "/v1/validate/oib", { key: known.key, body: { oib: VALID_OIB } })).status).toBe(200);

    await setDatabase("down");
    try {
      await sleep(CACHE_TTL_MS + 100);

      // Known from the cache: the account's own windows, read without counting.
      const cached = await callFrom("127.0.9.1", h.url, "POST", "/v1/validate/oib", { key: known.key, body: { oib: VALID_OIB } });
      expectUnavailable(cached);
      expect(cached.headers.get("ratelimit-policy")).toContain('"minute";q=777;w=60');

      // Never seen: the address's windows, read without counting, however many times it asks.
      const guesser = "127.0.9.2";
      for (let i = 0; i < ANONYMOUS_LIMITS.burst + 3; i++) {
        const r = await callFrom(guesser, h.url, "GET", "/v1/kpd/62", { key: unknownKey });
        expectUnavailable(r);
        expect(r.headers.get("ratelimit-policy")).toContain(`"ip:minute";q=${ANONYMOUS_LIMITS.perMinute};w=60`);
      }
      expect(await minuteRemaining(guesser)).toBe(ANONYMOUS_LIMITS.perMinute);

      // A malformed or missing key needs no database: still 401, still counted per IP.
      const sloppy = "127.0.9.3";
      const malformed = await callFrom(sloppy, h.url, "GET", "/v1/kpd/62", { headers: { authorization: "Bearer nope" } });
      expect(malformed.status).toBe(401);
      expect(await minuteRemaining(sloppy)).toBe(ANONYMOUS_LIMITS.perMinute - 1);

      // The same code on the tRPC surface.
      const trpcError = await trpcClient(h.url, unknownKey).kpd.get.query({ code: "62" }).catch((e: unknown) => e);
      expect((trpcError as { data?: { code?: string; httpStatus?: number } }).data).toMatchObject({ code: "service_unavailable", httpStatus: 503 });

      expect((await call(h.url, "GET", "/readyz")).body.checks.database).toBe("unreachable");
      const metrics = (await call(h.url, "GET", "/metrics")).text;
      expect(metrics).toMatch(/fiskal_auth_failures_total\{reason="unavailable"\} [1-9]/);
    } finally {
      await setDatabase("up");
    }

    // Back: the same key is admitted again.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await call(h.url, "POST", "/v1/validate/oib", { key: known.key, body: { oib: VALID_OIB } })).status;
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
  });

  it("a gate failure that is not an outage is still a 500", async () => {
    const broken = await h.account({ plan: "ENTERPRISE", custom: { burst: 5, perMinute: 50, perDay: 500 } });
    const client = new pg.Client({ connectionString: h.databaseUrl });
    await client.connect();
    await client.query(`UPDATE "Account" SET "customBurst" = NULL WHERE id = '${broken.id}'`);
    await client.end();
    h.api.services.auth.invalidateAccount(broken.id);
    const r = await call(h.url, "GET", "/v1/kpd/62", { key: broken.key });
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe("internal_error");
  });
});

describe("database unreachable inside a procedure", () => {
  it("answers 503 service_unavailable with Retry-After and the account's headers when the key was still cached", async () => {
    // a longer cache lifetime than the rest of this file, so the key is valid from the cache while the database is down
    const cachedHarness = await startHarness({ config: { authCacheTtlMs: 5_000 } });
    const url = new URL(cachedHarness.databaseUrl);
    const name = decodeURIComponent(url.pathname.slice(1));
    const toggle = async (up: boolean) => {
      await admin(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS ${up}`);
      if (!up) await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
    };
    try {
      const a = await cachedHarness.account({ plan: "ENTERPRISE", custom: { burst: 55, perMinute: 555, perDay: 5_555 } });
      const missing = "00000000-0000-4000-8000-000000000000";
      expect((await call(cachedHarness.url, "GET", `/v1/invoices/${missing}`, { key: a.key })).status).toBe(404);
      await toggle(false);
      const r = await call(cachedHarness.url, "GET", `/v1/invoices/${missing}`, { key: a.key });
      expectUnavailable(r);
      // admitted by the account's own windows: the key came from the cache
      expect(r.headers.get("ratelimit-policy")).toContain('"minute";q=555;w=60');
      await toggle(true);
      expect((await call(cachedHarness.url, "GET", `/v1/invoices/${missing}`, { key: a.key })).status).toBe(404);
    } finally {
      await toggle(true).catch(() => {});
      await cachedHarness.close();
    }
  });
});

describe("unknown and revoked keys", () => {
  it("get the same answer; only the logs and metrics tell them apart", async () => {
    const a = await h.account();
    await revokeApiKey(h.api.services.db, a.id, a.keyId);
    h.api.services.auth.invalidateAccount(a.id);
    const revoked = await callFrom("127.0.9.10", h.url, "GET", "/v1/limits", { key: a.key });
    const unknown = await callFrom("127.0.9.11", h.url, "GET", "/v1/limits", { key: "fsk_test_" + "Z".repeat(32) });
    expect(revoked.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(revoked.body).toEqual(unknown.body);
    expect(revoked.text).toBe(unknown.text);
    const metrics = (await call(h.url, "GET", "/metrics")).text;
    expect(metrics).toMatch(/fiskal_auth_failures_total\{reason="revoked"\} [1-9]/);
    expect(metrics).toMatch(/fiskal_auth_failures_total\{reason="unknown"\} [1-9]/);
  });
});
