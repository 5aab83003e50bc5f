// Retry-After of the minute window on the rate limiter's test clock (ApiConfig.rateLimitClock), against
// the real Redis script: the minute passes by moving the clock, not by waiting 60 s. The clock only moves
// when the test moves it, so every figure is exact; it never runs behind real time by more than this
// test's own few seconds, far less than the minute window whose keys Redis expires by its own clock.
// (instances.test.ts checks Retry-After across several API processes on real time for the burst.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startHarness, VALID_OIB, type CallResult, type Harness } from "./harness.ts";

let h: Harness;
let now = Date.now();

beforeAll(async () => {
  h = await startHarness({ config: { rateLimitClock: () => now } });
});
afterAll(async () => {
  await h?.close();
});

/** An IETF field list (`"burst";r=9;t=1, "minute";r=59;t=60`) by policy name. */
function fields(header: string | null): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const m of (header ?? "").matchAll(/"([^"\\]+)"((?:;[a-z]+=\d+)+)/g)) {
    const params: Record<string, number> = {};
    for (const p of m[2]!.matchAll(/;([a-z]+)=(\d+)/g)) params[p[1]!] = Number(p[2]);
    out.set(m[1]!, params);
  }
  return out;
}

function expectRefusedByMinute(r: CallResult, limit: number): number {
  expect(r.status).toBe(429);
  const policy = fields(r.headers.get("ratelimit-policy")).get("minute");
  const state = fields(r.headers.get("ratelimit")).get("minute");
  expect(policy).toMatchObject({ q: limit, w: 60 });
  expect(state?.r).toBe(0);
  expect(r.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
  const retryAfter = Number(r.headers.get("retry-after"));
  expect(state?.t).toBe(retryAfter);
  return retryAfter;
}

describe("Retry-After of the minute on the test clock", () => {
  it("names the seconds until the minute admits again, and admits a client that waits exactly that long", async () => {
    const a = await h.account({ plan: "ENTERPRISE", custom: { burst: 100, perMinute: 3, perDay: 10_000 } });
    const oib = () => call(h.url, "POST", "/v1/validate/oib", { key: a.key, body: { oib: VALID_OIB } });
    const first = await oib();
    const firstAt = now;
    now += 2_500;
    const second = await oib();
    const third = await oib();
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    const refused = await oib();
    // the first request leaves the minute 57.5 s from now: 58 whole seconds, never early
    const retryAfter = expectRefusedByMinute(refused, 3);
    expect(retryAfter).toBe(58);
    expect(Number(refused.headers.get("x-ratelimit-reset"))).toBe(Math.ceil((firstAt + 60_000) / 1000));

    // one second short of Retry-After the minute still refuses (a refusal takes nothing from it)
    now += (retryAfter - 1) * 1000;
    expectRefusedByMinute(await oib(), 3);
    now += 1000;
    const retry = await oib();
    expect(retry.status).toBe(200);
    // only the first request has left: the next refusal names the wait for the second one, 2 s
    const again = await oib();
    expect(expectRefusedByMinute(again, 3)).toBe(2);
  });
});
