// Structured logs: an error is logged as the error object (type, message, stack) with the id of the
// request it belongs to, and never with the caller's key.
import { Writable } from "node:stream";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startHarness, type Harness } from "./harness.ts";

const lines: Record<string, any>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) lines.push(JSON.parse(line) as Record<string, any>);
    done();
  },
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { logger: pino({ level: "info" }, sink) } });
});
afterAll(() => h?.close());

const logged = (msg: string) => lines.filter((l) => l.msg === msg);

describe("error logs", () => {
  it("a failing gate logs the error with its stack and the request id, not the key", async () => {
    const broken = await h.account({ plan: "ENTERPRISE", custom: { burst: 5, perMinute: 50, perDay: 500 } });
    const client = new pg.Client({ connectionString: h.databaseUrl });
    await client.connect();
    try {
      await client.query(`UPDATE "Account" SET "customBurst" = NULL WHERE id = $1`, [broken.id]);
    } finally {
      await client.end();
    }
    h.api.services.auth.invalidateAccount(broken.id);
    const r = await call(h.url, "GET", "/v1/kpd/62", { key: broken.key });
    expect(r.status).toBe(500);
    const requestId = r.headers.get("x-request-id");
    const line = logged("gate failed").find((l) => l.requestId === requestId);
    expect(line).toBeDefined();
    expect(line!.err).toMatchObject({ type: "InvalidLimitsError", message: expect.stringMatching(/customBurst/) });
    expect(line!.err.stack).toMatch(/InvalidLimitsError[\s\S]*\n\s+at /);
    expect(JSON.stringify(lines)).not.toContain(broken.key);
  });

  it("a procedure that fails logs the cause with its stack and the request id", async () => {
    const a = await h.account({ plan: "SANDBOX" });
    const kpd = h.api.services.kpd;
    const original = kpd.get.bind(kpd);
    kpd.get = () => {
      throw new RangeError("index broken");
    };
    try {
      const r = await call(h.url, "GET", "/v1/kpd/62.10.11", { key: a.key });
      expect(r.status).toBe(500);
      const line = logged("procedure failed").find((l) => l.requestId === r.headers.get("x-request-id"));
      expect(line).toMatchObject({ route: "GET /v1/kpd/{code}", err: { type: "RangeError", message: "index broken" } });
      expect(line!.err.stack).toMatch(/RangeError: index broken\n\s+at /);
    } finally {
      kpd.get = original;
    }
  });
});
