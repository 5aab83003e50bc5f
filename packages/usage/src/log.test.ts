// The request log as the portal reads it: decisions and headers written through COPY, filters,
// export paging, usage per key, the quota count without free calls, and periods in Europe/Zagreb.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApiKey } from "@fiskal/accounts";
import type { Db } from "@fiskal/db";
import { createMeter, type UsageRecord } from "./meter.ts";
import { exportRequests, recentRequests, usageByKey, EXPORT_PAGE, type RecentRequest } from "./recent.ts";
import { localMidnight, usageRange } from "./range.ts";
import { requestsToday } from "./summary.ts";
import { openTestDatabase, recordUsage, type TestDatabase } from "./testing.ts";
import { headerLines, parseHeaderLines } from "./writer.ts";

let testDb: TestDatabase;
let db: Db;
let a: string;
let b: string;
let k1: string;
let k2: string;
let kb: string;

const HEADERS_429 = {
  "X-RateLimit-Limit": "60",
  "X-RateLimit-Remaining": "0",
  "X-RateLimit-Reset": "1785000000",
  "RateLimit-Policy": '"burst";q=10;w=1, "minute";q=60;w=60, "day";q=10000;w=86400',
  RateLimit: '"burst";r=9;t=1, "minute";r=0;t=12, "day";r=9940;t=3600',
  "Retry-After": "12",
};

function rec(accountId: string, apiKeyId: string | null, requestId: string, at: string, status: number, endpoint = "POST /v1/validate/oib"): UsageRecord {
  const refused = status === 429;
  return {
    accountId,
    apiKeyId,
    requestId,
    method: endpoint.split(" ")[0]!,
    endpoint,
    status,
    durationMs: 3,
    refused,
    at: new Date(at),
    rate: refused
      ? { window: "minute", limit: 60, remaining: 0, retryAfter: 12, headers: HEADERS_429 }
      : { window: "day", limit: 10_000, remaining: 9_000, retryAfter: null, headers: { "X-RateLimit-Limit": "10000", "X-RateLimit-Remaining": "9000" } },
  };
}

beforeAll(async () => {
  testDb = await openTestDatabase();
  db = testDb.db;
  a = (await createAccount(db, { name: "A" })).id;
  b = (await createAccount(db, { name: "B" })).id;
  k1 = (await createApiKey(db, a, "prod")).id;
  k2 = (await createApiKey(db, a, "ci")).id;
  kb = (await createApiKey(db, b, "b")).id;
  await recordUsage(db, [
    rec(a, k1, "a1", "2026-05-10T21:30:00Z", 200),
    rec(a, k1, "a2", "2026-05-10T22:10:00Z", 429),
    rec(a, k2, "a3", "2026-05-10T22:20:00Z", 404, "GET /v1/kpd/{code}"),
    rec(a, k2, "a4", "2026-05-11T08:00:00Z", 304, "GET /v1/kpd/{code}"),
    rec(a, k1, "a5", "2026-05-11T09:00:00Z", 503),
    rec(a, k1, "a6", "2026-05-11T09:30:00Z", 200, "GET /v1/limits"),
    rec(b, kb, "b1", "2026-05-11T09:00:00Z", 200),
  ]);
});

afterAll(async () => {
  await testDb?.close();
});

describe("request log", () => {
  it("keeps each request's decision and the rate-limit headers it was answered with (COPY path)", async () => {
    const [row] = await recentRequests(db, a, { filter: { status: "429" } });
    expect(row).toMatchObject({
      requestId: "a2",
      keyName: "prod",
      decision: { window: "minute", limit: 60, remaining: 0, retryAfter: 12 },
      headers: HEADERS_429,
    });
    const [ok] = await recentRequests(db, a, { filter: { status: "2xx", endpoint: "POST /v1/validate/oib" } });
    expect(ok).toMatchObject({ requestId: "a1", decision: { window: "day", remaining: 9_000, retryAfter: null } });
  });

  it("filters by status class, endpoint, key and time range, within the account only", async () => {
    const ids = async (filter: Parameters<typeof recentRequests>[2]) => (await recentRequests(db, a, filter)).map((r) => r.requestId);
    expect(await ids({ filter: { status: "4xx" } })).toEqual(["a3"]);
    expect(await ids({ filter: { status: "3xx" } })).toEqual(["a4"]);
    expect(await ids({ filter: { status: "5xx" } })).toEqual(["a5"]);
    expect(await ids({ filter: { status: "2xx" } })).toEqual(["a6", "a1"]);
    expect(await ids({ filter: { endpoint: "GET /v1/kpd/{code}" } })).toEqual(["a4", "a3"]);
    expect(await ids({ filter: { apiKeyId: k2 } })).toEqual(["a4", "a3"]);
    // Another account's key filters to nothing.
    expect(await ids({ filter: { apiKeyId: kb } })).toEqual([]);
    expect(await ids({ filter: { from: new Date("2026-05-10T22:00:00Z"), to: new Date("2026-05-11T09:00:00Z") } })).toEqual(["a4", "a3", "a2"]);
    expect(await ids({ filter: { apiKeyId: k1, from: new Date("2026-05-11T00:00:00Z") } })).toEqual(["a6", "a5"]);
    // Paging keeps the filter.
    const p1 = await recentRequests(db, a, { filter: { apiKeyId: k1 }, limit: 2 });
    const p2 = await recentRequests(db, a, { filter: { apiKeyId: k1 }, limit: 2, before: p1[1]!.id });
    expect([...p1, ...p2].map((r) => r.requestId)).toEqual(["a6", "a5", "a2", "a1"]);
  });

  it("rejects malformed filters", async () => {
    await expect(recentRequests(db, a, { filter: { status: "6xx" as never } })).rejects.toThrow(TypeError);
    await expect(recentRequests(db, a, { filter: { apiKeyId: "x' OR 1=1" } })).rejects.toThrow(TypeError);
    await expect(recentRequests(db, a, { filter: { from: new Date("nope") } })).rejects.toThrow(TypeError);
  });

  it("exports every row of a view in pages of EXPORT_PAGE, newest first", async () => {
    const c = (await createAccount(db, { name: "C" })).id;
    const n = EXPORT_PAGE * 2 + 3;
    await recordUsage(
      db,
      Array.from({ length: n }, (_, i) => rec(c, null, `c${i}`, new Date(Date.UTC(2026, 4, 1) + i * 1000).toISOString(), 200)),
    );
    const pages: number[] = [];
    const seen: string[] = [];
    for await (const page of exportRequests(db, c, {})) {
      pages.push(page.length);
      seen.push(...page.map((r) => r.requestId));
    }
    expect(pages).toEqual([EXPORT_PAGE, EXPORT_PAGE, 3]);
    expect(new Set(seen).size).toBe(n);
    expect(seen[0]).toBe(`c${n - 1}`);
    expect(seen[n - 1]).toBe("c0");
  });
});

describe("usage by key", () => {
  it("counts each key's requests, 429s and errors since a moment", async () => {
    const rows = await usageByKey(db, a, new Date("2026-05-01T00:00:00Z"));
    const byKey = Object.fromEntries(rows.map((r) => [r.apiKeyId, r]));
    expect(byKey[k1]).toMatchObject({ requests: 4, refused: 1, errors: 1 });
    expect(byKey[k2]).toMatchObject({ requests: 2, refused: 0, errors: 1 });
    expect(byKey[kb]).toBeUndefined();
    expect(await usageByKey(db, a, new Date("2026-05-11T09:15:00Z"))).toEqual([{ apiKeyId: k1, requests: 1, refused: 0, errors: 0, lastAt: new Date("2026-05-11T09:30:00Z") }]);
  });

  it("reads whole hours from the per-key hourly counts, not from every event of the period", async () => {
    const c = (await createAccount(db, { name: "C" })).id;
    const kc = (await createApiKey(db, c, "c")).id;
    await recordUsage(db, [
      rec(c, kc, "c1", "2026-05-12T10:05:00Z", 200),
      rec(c, kc, "c2", "2026-05-12T10:40:00Z", 429),
      rec(c, kc, "c3", "2026-05-12T11:20:00Z", 500),
      rec(c, kc, "c4", "2026-05-12T12:10:00Z", 200),
    ]);
    const hours = await db.$queryRaw<{ hour: Date; requests: bigint; refused: bigint; errors: bigint; lastAt: Date }[]>`
      SELECT hour, requests, refused, errors, "lastAt" FROM "UsageKeyHour" WHERE "accountId" = ${c}::uuid ORDER BY hour`;
    expect(hours).toEqual([
      { hour: new Date("2026-05-12T10:00:00Z"), requests: 2n, refused: 1n, errors: 0n, lastAt: new Date("2026-05-12T10:40:00Z") },
      { hour: new Date("2026-05-12T11:00:00Z"), requests: 1n, refused: 0n, errors: 1n, lastAt: new Date("2026-05-12T11:20:00Z") },
      { hour: new Date("2026-05-12T12:00:00Z"), requests: 1n, refused: 0n, errors: 0n, lastAt: new Date("2026-05-12T12:10:00Z") },
    ]);
    // With the log's rows of the whole hours gone (as retention would drop them), their counts remain;
    // the part of an hour before the first whole one is read from the log.
    await db.$executeRaw`DELETE FROM "UsageEvent" WHERE "accountId" = ${c}::uuid AND "createdAt" >= '2026-05-12T11:00:00Z'`;
    expect(await usageByKey(db, c, new Date("2026-05-12T10:30:00Z"))).toEqual([
      { apiKeyId: kc, requests: 3, refused: 1, errors: 1, lastAt: new Date("2026-05-12T12:10:00Z") },
    ]);
    expect(await usageByKey(db, c, new Date("2026-05-12T10:00:00Z"))).toEqual([
      { apiKeyId: kc, requests: 4, refused: 1, errors: 1, lastAt: new Date("2026-05-12T12:10:00Z") },
    ]);
  });
});

describe("quota count", () => {
  it("leaves out refused requests and the free GET /v1/limits calls, like the API's day window", async () => {
    // 11 May UTC: a4 (304), a5 (503) count; a6 is GET /v1/limits and is free.
    expect(await requestsToday(db, a, new Date("2026-05-11T12:00:00Z"))).toBe(2);
    // 10 May UTC: a1, a3 count; a2 was refused.
    expect(await requestsToday(db, a, new Date("2026-05-10T23:59:00Z"))).toBe(2);
  });
});

describe("usageRange in Europe/Zagreb", () => {
  it("buckets by local day: 22:10 UTC on 10 May is 11 May in Zagreb (UTC+2)", async () => {
    const from = localMidnight("2026-05-10", "Europe/Zagreb");
    const to = localMidnight("2026-05-12", "Europe/Zagreb");
    expect(from.toISOString()).toBe("2026-05-09T22:00:00.000Z");
    const r = await usageRange(db, a, { from, to, bucket: "day", timeZone: "Europe/Zagreb" });
    expect(r.series.map((s) => [s.start.toISOString(), s.requests, s.refused, s.ok, s.errors])).toEqual([
      ["2026-05-09T22:00:00.000Z", 1, 0, 1, 0],
      ["2026-05-10T22:00:00.000Z", 5, 1, 1, 2],
    ]);
    expect(r.totals).toMatchObject({ requests: 6, refused: 1, handled: 5, ok: 2, errors: 2 });
    // Success: 2xx among what the API handled (the 429 is left out).
    expect(r.totals.successRate).toBeCloseTo(2 / 5);
    expect(r.endpoints.map((e) => e.endpoint)).toEqual(["POST /v1/validate/oib", "GET /v1/kpd/{code}", "GET /v1/limits"]);
  });

  it("zero-fills every hour of a 24-hour view", async () => {
    const to = new Date("2026-05-11T10:00:00Z");
    const r = await usageRange(db, a, { from: new Date(to.getTime() - 24 * 3_600_000), to, bucket: "hour", timeZone: "Europe/Zagreb" });
    expect(r.series).toHaveLength(24);
    expect(r.series.filter((s) => s.requests > 0).map((s) => [s.start.toISOString(), s.requests])).toEqual([
      ["2026-05-10T21:00:00.000Z", 1],
      ["2026-05-10T22:00:00.000Z", 2],
      ["2026-05-11T08:00:00.000Z", 1],
      ["2026-05-11T09:00:00.000Z", 2],
    ]);
  });

  it("finds local midnight across the daylight-saving change", () => {
    expect(localMidnight("2026-03-29", "Europe/Zagreb").toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(localMidnight("2026-03-30", "Europe/Zagreb").toISOString()).toBe("2026-03-29T22:00:00.000Z");
    expect(localMidnight("2026-10-26", "Europe/Zagreb").toISOString()).toBe("2026-10-25T23:00:00.000Z");
  });
});

describe("meter", () => {
  it("rejects a malformed decision without losing the counts of valid events", async () => {
    const errors: unknown[] = [];
    const meter = createMeter(db, { flushIntervalMs: 3_600_000, onError: (e) => errors.push(e) });
    meter.record({ ...rec(b, kb, "bad", "2026-05-12T00:00:00Z", 200), rate: { window: "day", limit: 1.5, remaining: 0, retryAfter: null, headers: {} } });
    expect(meter.dropped).toBe(1);
    await meter.close();
    expect(String(errors[0])).toMatch(/rate\.limit/);
  });
});

describe("stored headers", () => {
  const cases: Record<string, string>[] = [
    HEADERS_429,
    { "X-RateLimit-Limit": "10000", "X-RateLimit-Remaining": "9000" },
    {},
    // the IETF pair out of the policy's order, an unknown header, text of another shape
    { RateLimit: '"minute";r=0;t=12', "RateLimit-Policy": '"minute";q=60;w=60', "X-Custom": "a: b" },
    { "RateLimit-Policy": '"burst";q=10;w=1, "day";q=5;w=86400;pk=:abc=:', RateLimit: '"burst";r=9;t=1, "day";r=4;t=3600' },
    { "RateLimit-Policy": '"ip:minute";q=60;w=60, "ip:burst";q=10;w=1', RateLimit: '"ip:burst";r=9;t=1, "ip:minute";r=59;t=60' },
    { "RateLimit-Policy": "", RateLimit: "", "Retry-After": "0" },
  ];

  it("pack every header set losslessly, in order, in far fewer bytes", () => {
    for (const headers of cases) {
      const stored = headerLines(headers);
      expect(parseHeaderLines(stored)).toEqual(headers);
      expect(Object.keys(parseHeaderLines(stored))).toEqual(Object.keys(headers));
    }
    const plain = Object.entries(HEADERS_429).map(([k, v]) => `${k}: ${v}`).join("\n");
    expect(headerLines(HEADERS_429).length).toBeLessThan(plain.length * 0.6);
  });

  it("rows stored as plain 'Name: value' lines (before packing) still read back", () => {
    const plain = Object.entries(HEADERS_429).map(([k, v]) => `${k}: ${v}`).join("\n");
    expect(parseHeaderLines(plain)).toEqual(HEADERS_429);
    expect(parseHeaderLines("")).toEqual({});
  });
});

describe("a request log of several days and accounts", () => {
  // Deterministic pseudo-random events over five UTC days, three accounts, keys, statuses and
  // endpoints, inserted out of time order with ties; every portal query is compared with the
  // answer computed here from the records themselves.
  const DAY = 86_400_000;
  const START = Date.UTC(2026, 8, 28, 20);
  const ENDPOINTS = ["POST /v1/validate/oib", "GET /v1/kpd/{code}", "POST /v1/fiscalize"];
  const STATUSES = [200, 200, 200, 201, 304, 404, 429, 500, 503];
  let accounts: string[];
  let keys: Record<string, string[]>;
  let records: UsageRecord[];

  beforeAll(async () => {
    accounts = [];
    keys = {};
    for (let i = 0; i < 3; i++) {
      const id = (await createAccount(db, { name: `M${i}` })).id;
      accounts.push(id);
      keys[id] = [(await createApiKey(db, id, "k1")).id, (await createApiKey(db, id, "k2")).id];
    }
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    records = [];
    for (let i = 0; i < 1500; i++) {
      const acct = accounts[rnd(3)]!;
      const status = STATUSES[rnd(STATUSES.length)]!;
      const endpoint = ENDPOINTS[rnd(3)]!;
      // whole seconds, so that many events share an instant; some right at midnight
      const at = i % 97 === 0 ? START + (1 + rnd(4)) * DAY - 4 * 3_600_000 : START + rnd(5 * 86_400) * 1000;
      const r = rec(acct, rnd(4) === 0 ? null : keys[acct]![rnd(2)]!, `m${i}`, new Date(at).toISOString(), status, endpoint);
      records.push(r);
    }
    // two meters' worth of flushes, not in time order
    await recordUsage(db, records.slice(750));
    await recordUsage(db, records.slice(0, 750));
  });

  const statusClass = (s: number) => (s === 429 ? "429" : s >= 500 ? "5xx" : `${Math.floor(s / 100)}xx`);

  it("spans five daily partitions", async () => {
    const days = await db.$queryRaw<{ part: string }[]>`
      SELECT DISTINCT tableoid::regclass::text AS part FROM "UsageEvent" WHERE "accountId" = ANY(${accounts}::uuid[]) ORDER BY 1`;
    expect(days.map((d) => d.part.replace(/"/g, ""))).toEqual(["UsageEvent_p20260928", "UsageEvent_p20260929", "UsageEvent_p20260930", "UsageEvent_p20261001", "UsageEvent_p20261002", "UsageEvent_p20261003"]);
  });

  it("pages every filtered view newest first, exactly the records of the account that match", async () => {
    const views: { status?: "2xx" | "3xx" | "4xx" | "429" | "5xx"; endpoint?: string; key?: number; from?: number; to?: number }[] = [
      {},
      { status: "5xx" },
      { status: "4xx" },
      { endpoint: "GET /v1/kpd/{code}", status: "2xx" },
      { key: 1 },
      { from: START + DAY, to: START + 3 * DAY },
      { from: START + 2 * DAY + 3_600_000, status: "429", key: 0 },
    ];
    for (const acct of accounts) {
      const ids = new Map<string, string>();
      for (const view of views) {
        const apiKeyId = view.key === undefined ? undefined : keys[acct]![view.key]!;
        const filter = {
          status: view.status,
          endpoint: view.endpoint,
          apiKeyId,
          from: view.from === undefined ? undefined : new Date(view.from),
          to: view.to === undefined ? undefined : new Date(view.to),
        };
        const expected = records
          .filter(
            (r) =>
              r.accountId === acct &&
              (view.status === undefined || statusClass(r.status) === view.status) &&
              (view.endpoint === undefined || r.endpoint === view.endpoint) &&
              (apiKeyId === undefined || r.apiKeyId === apiKeyId) &&
              (view.from === undefined || r.at.getTime() >= view.from) &&
              (view.to === undefined || r.at.getTime() < view.to),
          )
          .map((r) => ({ requestId: r.requestId, at: r.at.toISOString() }));
        // pages of 7 through the cursor
        const got: RecentRequest[] = [];
        let before: string | undefined;
        for (;;) {
          const page = await recentRequests(db, acct, { limit: 7, before, filter });
          got.push(...page);
          if (page.length < 7) break;
          before = page.at(-1)!.id;
        }
        // newest first; ties by id, newest id first
        for (let i = 1; i < got.length; i++) {
          const [p, c] = [got[i - 1]!, got[i]!];
          expect(p.at.getTime() > c.at.getTime() || (p.at.getTime() === c.at.getTime() && BigInt(p.id) > BigInt(c.id))).toBe(true);
        }
        expect(got.map((r) => ({ requestId: r.requestId, at: r.at.toISOString() })).sort((x, y) => x.requestId.localeCompare(y.requestId))).toEqual(
          expected.sort((x, y) => x.requestId.localeCompare(y.requestId)),
        );
        for (const r of got) {
          if (ids.has(r.requestId)) expect(ids.get(r.requestId)).toBe(r.id);
          ids.set(r.requestId, r.id);
        }
      }
    }
  });

  it("counts per key and per hour as the records say", async () => {
    const since = START + DAY + 12 * 3_600_000;
    for (const acct of accounts) {
      const expected = new Map<string, { requests: number; refused: number; errors: number; lastAt: number }>();
      for (const r of records) {
        if (r.accountId !== acct || r.apiKeyId === null || r.at.getTime() < since) continue;
        const e = expected.get(r.apiKeyId) ?? { requests: 0, refused: 0, errors: 0, lastAt: 0 };
        e.requests++;
        if (r.status === 429) e.refused++;
        else if (r.status >= 400) e.errors++;
        e.lastAt = Math.max(e.lastAt, r.at.getTime());
        expected.set(r.apiKeyId, e);
      }
      const got = await usageByKey(db, acct, new Date(since));
      expect(Object.fromEntries(got.map((g) => [g.apiKeyId, { requests: g.requests, refused: g.refused, errors: g.errors, lastAt: g.lastAt!.getTime() }]))).toEqual(Object.fromEntries(expected));

      const range = await usageRange(db, acct, { from: new Date(START), to: new Date(START + 5 * DAY), bucket: "hour", timeZone: "Europe/Zagreb" });
      const mine = records.filter((r) => r.accountId === acct);
      expect(range.totals.requests).toBe(mine.length);
      expect(range.totals.refused).toBe(mine.filter((r) => r.status === 429).length);
      for (const b of range.series) {
        expect(b.requests).toBe(mine.filter((r) => r.at.getTime() >= b.start.getTime() && r.at.getTime() < b.start.getTime() + 3_600_000).length);
      }
    }
  });
});
