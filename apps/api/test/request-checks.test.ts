// What Node's HTTP parser lets through but the API refuses (a repeated Host or Content-Type, an Expect
// other than 100-continue, repeated JSON keys), an invalid request line followed by FIN, /readyz
// while the database hangs, and 503 answers during a database outage (never metered).
import { randomUUID } from "node:crypto";
import net from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApiKey, createTestDatabase } from "@fiskal/accounts";
import { startApi, type RunningApi } from "../src/app.ts";
import { call, PORTAL, REDIS_URL, startHarness, trpcClient, VALID_OIB, type Harness } from "./harness.ts";
import { rawExchange, type RawResponse } from "./raw-http.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness();
  key = (await h.account({ plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 10_000, perDay: 100_000 } })).key;
});
afterAll(() => h?.close());

let nextAddress = 0;
const freshAddress = () => `127.0.${80 + Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

function expectEnvelope(r: RawResponse | undefined, status: number, code: string) {
  expect(r, "no parseable HTTP response").toBeDefined();
  expect(r!.status).toBe(status);
  expect(r!.headers["content-type"]).toMatch(/^application\/json/);
  expect(r!.body?.error?.code).toBe(code);
  expect(r!.body.error.message.length).toBeGreaterThan(5);
  expect(r!.body.error.doc_url).toBe(`${PORTAL}/docs/errors#${code}`);
  expect(r!.headers["x-request-id"]).toMatch(/^req_[\w-]+$/);
  expect(r!.headers["x-ratelimit-limit"]).toMatch(/^\d+$/);
  expect(r!.headers["ratelimit-policy"]).toBeTruthy();
}

const oibPost = (headers: string, body = JSON.stringify({ oib: VALID_OIB })) =>
  `POST /v1/validate/oib HTTP/1.1\r\nAuthorization: Bearer ${"KEY"}\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const withKey = (bytes: string) => bytes.replace("Bearer KEY", `Bearer ${key}`);

describe("headers Node accepts but the API refuses", () => {
  it("a repeated Host → 400 malformed_request (RFC 9112 §3.2), connection closed", async () => {
    const ex = await rawExchange(h.api.port, [withKey(oibPost("Host: api.test\r\nHost: evil.test\r\nContent-Type: application/json\r\n"))], {
      localAddress: freshAddress(),
      untilClose: true,
      waitMs: 3_000,
    });
    expectEnvelope(ex.responses[0], 400, "malformed_request");
    expect(ex.responses[0]!.body.error.details).toEqual({ reason: "duplicate_host" });
    expect(ex.responses[0]!.headers.connection).toBe("close");
    expect(ex.closed).toBe(true);
  });

  it("a repeated Content-Type → 400 malformed_request, whichever comes first", async () => {
    for (const pair of ["application/json\r\nContent-Type: text/plain", "text/plain\r\nContent-Type: application/json", "application/json\r\nContent-Type: application/json"]) {
      const ex = await rawExchange(h.api.port, [withKey(oibPost(`Host: api.test\r\nContent-Type: ${pair}\r\n`))], { localAddress: freshAddress(), untilClose: true, waitMs: 3_000 });
      expectEnvelope(ex.responses[0], 400, "malformed_request");
      expect(ex.responses[0]!.body.error.details).toEqual({ reason: "duplicate_content_type" });
    }
  });

  it("one Host and one Content-Type are answered as always", async () => {
    const ex = await rawExchange(h.api.port, [withKey(oibPost("Host: api.test\r\nContent-Type: application/json\r\n"))], { localAddress: freshAddress() });
    expect(ex.responses[0]?.status).toBe(200);
    expect(ex.responses[0]!.body).toEqual({ oib: VALID_OIB, valid: true });
  });

  it("an unknown Expect on a GET → 417 expectation_failed, with no 100 Continue", async () => {
    for (const expectation of ["coffee", "100-continue-please", "100-continue, coffee"]) {
      const ex = await rawExchange(h.api.port, [`GET /v1/limits HTTP/1.1\r\nHost: api.test\r\nAuthorization: Bearer ${key}\r\nExpect: ${expectation}\r\n\r\n`], {
        localAddress: freshAddress(),
        untilClose: true,
        waitMs: 3_000,
      });
      expect(ex.received.startsWith("HTTP/1.1 100"), `${expectation}: an interim 100 Continue`).toBe(false);
      expectEnvelope(ex.responses[0], 417, "expectation_failed");
      expect(ex.responses[0]!.headers.connection).toBe("close");
    }
  });

  it("Expect: 100-continue gets its 100 Continue, then the answer", async () => {
    const body = JSON.stringify({ oib: VALID_OIB });
    const head = `POST /v1/validate/oib HTTP/1.1\r\nHost: api.test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n`;
    const ex = await rawExchange(h.api.port, [head, 300, body], { localAddress: freshAddress(), expect: 2 });
    expect(ex.received.startsWith("HTTP/1.1 100 Continue\r\n\r\n")).toBe(true);
    expect(ex.responses.map((r) => r.status)).toEqual([100, 200]);
  });
});

describe("repeated keys in a JSON body are refused (strict input)", () => {
  it("REST: 400 validation_error naming the key, at any depth", async () => {
    const cases: [string, string][] = [
      ['{"oib":"12345678901","oib":"69435151530"}', "oib"],
      ['{"oibs":["69435151530"],"oibs":["1"]}', "oibs"],
      [`{"oib":"${VALID_OIB}","x":{"a":1,"\\u0061":2}}`, "x.a"],
    ];
    for (const [rawBody, path] of cases) {
      const r = await call(h.url, "POST", rawBody.includes("oibs") ? "/v1/validate/oib/batch" : "/v1/validate/oib", { key, rawBody, headers: { "content-type": "application/json" } });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("validation_error");
      expect(r.body.error.details).toEqual([{ path, message: expect.stringMatching(/ponavlja/) }]);
    }
  });

  it("/trpc: the same validation_error in tRPC's shape", async () => {
    const r = await call(h.url, "POST", "/trpc/oib.validate", { key, rawBody: '{"oib":"12345678901","oib":"69435151530"}', headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.error.data.code).toBe("validation_error");
    // A body without repeated keys still works there.
    expect(await trpcClient(h.url, key).oib.validate.mutate({ oib: VALID_OIB })).toEqual({ oib: VALID_OIB, valid: true });
  });
});

describe("an invalid request line and then FIN", () => {
  it("gets the same 405 envelope as a client that keeps its side open", async () => {
    const waiting = await rawExchange(h.api.port, ["GETT / HTTP/1.1\r\n\r\n"], { localAddress: freshAddress(), untilClose: true, waitMs: 3_000 });
    expectEnvelope(waiting.responses[0], 405, "method_not_allowed");
    for (const bytes of ["GETT / HTTP/1.1\r\n\r\n", "GETT /v1/limits HTTP/1.1\r\nHost: api.test\r\n\r\n"]) {
      const halfClosed = await rawExchange(h.api.port, [bytes], {
        localAddress: freshAddress(),
        untilClose: true,
        waitMs: 3_000,
        onSocket: (s) => s.once("connect", () => setImmediate(() => s.end())),
      });
      expect(halfClosed.received.length, "no answer at all").toBeGreaterThan(0);
      expectEnvelope(halfClosed.responses[0], 405, "method_not_allowed");
      expect(halfClosed.responses[0]!.headers.allow).toBeTruthy();
      expect(halfClosed.closed).toBe(true);
    }
  });
});

/** A TCP proxy to PostgreSQL that can hang (accept, never answer), cut (reset and refuse) and recover. */
async function dbProxy(target: { host: string; port: number }) {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let mode: "up" | "hang" | "cut" = "up";
  const server = net.createServer((client) => {
    client.on("error", () => {});
    if (mode === "cut") return void client.destroy();
    const upstream = net.connect(target.port, target.host);
    upstream.on("error", () => client.destroy());
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const forward = (from: net.Socket, to: net.Socket) => from.on("data", (d: Buffer) => mode === "up" && to.write(d));
    forward(client, upstream);
    forward(upstream, client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on("close", drop);
    upstream.on("close", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** "hang": connections stay open and new ones are accepted, but no byte goes through. */
    set(next: "up" | "hang" | "cut") {
      mode = next;
      if (next === "cut") {
        for (const [a, b] of pairs) {
          a.destroy();
          b.destroy();
        }
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [a, b] of pairs) {
          a.destroy();
          b.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

describe("the database through a proxy that fails", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: Awaited<ReturnType<typeof dbProxy>>;
  let api: RunningApi;
  let accountKey: string;
  let accountId: string;
  const CACHE_TTL_MS = 1_000;

  beforeAll(async () => {
    database = await createTestDatabase();
    const url = new URL(database.url);
    proxy = await dbProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    api = await startApi({
      databaseUrl: url.toString(),
      store: { kind: "redis", url: REDIS_URL },
      portalUrl: PORTAL,
      limiterPrefix: `t-checks-${randomUUID().slice(0, 8)}`,
      logger: pino({ level: "silent" }),
      meterFlushIntervalMs: 100,
      authCacheTtlMs: CACHE_TTL_MS,
    });
    const account = await createAccount(api.services.db, { name: "Outage d.o.o.", plan: "ENTERPRISE", custom: { burst: 1_000, perMinute: 10_000, perDay: 100_000 } });
    accountId = account.id;
    accountKey = (await createApiKey(api.services.db, account.id, "k")).key;
  }, 60_000);

  afterAll(async () => {
    proxy?.set("up");
    await api?.close();
    await proxy?.close();
    await database?.drop();
  }, 60_000);

  it("/readyz answers 503 within 1 s while the database hangs, and 200 once it answers again", async () => {
    expect((await call(api.url, "GET", "/readyz")).status).toBe(200);
    proxy.set("hang");
    try {
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const r = await call(api.url, "GET", "/readyz");
        const ms = performance.now() - started;
        expect(r.status).toBe(503);
        expect(r.body).toMatchObject({ status: "not_ready", checks: { database: "unreachable" } });
        expect(ms).toBeLessThan(1_000);
      }
    } finally {
      proxy.set("up");
    }
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await call(api.url, "GET", "/readyz")).status;
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
  }, 30_000);

  it("outage answers are never metered: of many 503s, none in UsageEvent or UsageHour", async () => {
    const meter = api.services.meter;
    // Answered before the outage: metered as always.
    for (let i = 0; i < 5; i++) expect((await call(api.url, "GET", `/v1/invoices/${randomUUID()}`, { key: accountKey })).status).toBe(404);
    await meter.flush();
    const dayBefore = await dayRemaining();

    proxy.set("cut");
    const statuses: number[] = [];
    try {
      // Through the key cache's lifetime and beyond: first admitted by the gate and failing in the
      // procedure, then refused at the gate because the key cannot be looked up.
      const until = performance.now() + CACHE_TTL_MS + 1_000;
      while (performance.now() < until) {
        const batch = await Promise.all(Array.from({ length: 10 }, () => call(api.url, "GET", `/v1/invoices/${randomUUID()}`, { key: accountKey })));
        statuses.push(...batch.map((r) => r.status));
      }
    } finally {
      proxy.set("up");
    }
    expect(statuses.length).toBeGreaterThan(100);
    expect(new Set(statuses)).toEqual(new Set([503]));
    // Some of them passed the gate (the limiter counted them): both kinds of outage answer were sent.
    expect(await dayRemaining()).toBeLessThan(dayBefore);

    // The database is back: everything buffered is written.
    for (let i = 0; i < 50 && meter.buffered > 0; i++) {
      await meter.flush();
      if (meter.buffered > 0) await sleep(100);
    }
    expect(meter.buffered).toBe(0);
    const events = await api.services.db.usageEvent.groupBy({ by: ["status"], where: { accountId }, _count: true });
    expect(events.map((e) => [e.status, e._count])).toEqual([[404, 5]]);
    const hours = await api.services.db.usageHour.aggregate({ where: { accountId }, _sum: { requests: true } });
    expect(Number(hours._sum.requests)).toBe(5);
  }, 60_000);

  async function dayRemaining(): Promise<number> {
    const windows = await api.services.limiter.peek({ identity: `acct:${accountId}`, limits: { burst: 1_000, perMinute: 10_000, perDay: 100_000 } });
    return windows.find((w) => w.name === "day")!.remaining;
  }
});
