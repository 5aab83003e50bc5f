import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWarningDetector, type Webhooks, type WebhookWorker } from "../src/index.ts";
import { FAST_WORKER, openTestDb, startReceiver, waitFor, type Receiver, type TestDb } from "./helpers.ts";
import { exited, spawnFixture } from "./processes.ts";

const RESET = Date.UTC(2026, 10, 22); // window of 2026-11-21
let t: TestDb;
let webhooks: Webhooks;
let worker: WebhookWorker;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await openTestDb();
  webhooks = t.webhooks();
  worker = await webhooks.startWorker(FAST_WORKER);
});

afterAll(async () => {
  await worker?.stop();
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

async function subscribed(accountId: string) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const created = await webhooks.endpoints.create(accountId, { url: receiver.url });
  if (!created.ok) throw new Error(created.message);
  receiver.setSecret(created.secret);
  return receiver;
}

function counting() {
  const calls: Parameters<Webhooks["emit"]>[] = [];
  return {
    calls,
    emit: (...args: Parameters<Webhooks["emit"]>) => {
      calls.push(args);
      return webhooks.emit(...args);
    },
  };
}

const warnings = (accountId: string) =>
  t.db.webhookEvent.findMany({ where: { accountId, type: "rate_limit.warning" }, orderBy: { createdAt: "asc" } });

describe("rate_limit.warning", () => {
  it("stays off the database below the threshold and fires once when it is reached", async () => {
    const account = await t.account();
    const receiver = await subscribed(account.id);
    const spy = counting();
    const detector = createWarningDetector({ webhooks: spy });
    const observe = (used: number) =>
      detector.observe({ accountId: account.id, plan: "STARTER", limitsVersion: 1, day: { limit: 10, remaining: 10 - used, reset: RESET } });

    for (let used = 1; used <= 7; used++) observe(used);
    await detector.flush();
    expect(spy.calls).toHaveLength(0);

    for (let used = 8; used <= 10; used++) observe(used);
    observe(10);
    await detector.flush();
    expect(spy.calls).toHaveLength(1);
    expect(spy.calls[0]?.[3]).toBe("rate_limit.warning:2026-11-21:v1");
    expect(await warnings(account.id)).toHaveLength(1);

    await waitFor(() => receiver.received.length === 1);
    expect(receiver.received[0]!.verified).toEqual({
      type: "rate_limit.warning",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: {
        account_id: account.id,
        plan: "STARTER",
        window: "day",
        limit: 10,
        used: 8,
        remaining: 2,
        threshold: 0.8,
        resets_at: "2026-11-22T00:00:00.000Z",
      },
    });
  });

  it("fires once per day even from a second detector (another instance) and again the next day", async () => {
    const account = await t.account();
    const day = { limit: 1000, remaining: 150, reset: RESET };
    const a = createWarningDetector({ webhooks });
    const b = createWarningDetector({ webhooks });
    a.observe({ accountId: account.id, plan: "STARTER", limitsVersion: 1, day });
    b.observe({ accountId: account.id, plan: "STARTER", limitsVersion: 1, day });
    await Promise.all([a.flush(), b.flush()]);
    expect(await warnings(account.id)).toHaveLength(1);

    a.observe({ accountId: account.id, plan: "STARTER", limitsVersion: 1, day: { ...day, reset: RESET + 86_400_000 } });
    await a.flush();
    expect((await warnings(account.id)).map((e) => e.dedupeKey)).toEqual([
      "rate_limit.warning:2026-11-21:v1",
      "rate_limit.warning:2026-11-22:v1",
    ]);
  });

  it("re-arms when the plan changes mid-day (limitsVersion bump)", async () => {
    const account = await t.account();
    const detector = createWarningDetector({ webhooks });
    detector.observe({ accountId: account.id, plan: "STARTER", limitsVersion: 1, day: { limit: 10, remaining: 1, reset: RESET } });
    // Upgraded: 9 used of the new 100 is far below the threshold.
    detector.observe({ accountId: account.id, plan: "BUSINESS", limitsVersion: 2, day: { limit: 100, remaining: 91, reset: RESET } });
    await detector.flush();
    expect(await warnings(account.id)).toHaveLength(1);
    detector.observe({ accountId: account.id, plan: "BUSINESS", limitsVersion: 2, day: { limit: 100, remaining: 20, reset: RESET } });
    detector.observe({ accountId: account.id, plan: "BUSINESS", limitsVersion: 2, day: { limit: 100, remaining: 0, reset: RESET } });
    await detector.flush();
    const events = await warnings(account.id);
    expect(events.map((e) => e.dedupeKey)).toEqual(["rate_limit.warning:2026-11-21:v1", "rate_limit.warning:2026-11-21:v2"]);
    expect(events[1]!.payload).toMatchObject({ data: { plan: "BUSINESS", limit: 100, used: 80, remaining: 20 } });
  });

  it("tries again on a later request when recording failed", async () => {
    const account = await t.account();
    let failures = 1;
    const errors: unknown[] = [];
    const detector = createWarningDetector({
      webhooks: {
        emit: (...args) => (failures-- > 0 ? Promise.reject(new Error("database unavailable")) : webhooks.emit(...args)),
      },
      onError: (err) => errors.push(err),
    });
    const observation = { accountId: account.id, plan: "STARTER", limitsVersion: 1, day: { limit: 10, remaining: 2, reset: RESET } };
    detector.observe(observation);
    await detector.flush();
    expect(errors).toHaveLength(1);
    expect(await warnings(account.id)).toHaveLength(0);
    detector.observe(observation);
    await detector.flush();
    expect(await warnings(account.id)).toHaveLength(1);
  });

  it("fires exactly once when four processes cross the threshold together", async () => {
    const account = await t.account();
    const receiver = await subscribed(account.id);
    const env = { DATABASE_URL: t.url, ACCOUNT_ID: account.id, RESET_MS: String(RESET) };
    const children = Array.from({ length: 4 }, () => spawnFixture("observe", env));
    try {
      await Promise.all(children.map((c) => c.waitForLine("ready")));
      for (const c of children) c.stdin!.write("go\n");
      const reports = await Promise.all(children.map((c) => c.waitForLine("emits")));
      expect(await Promise.all(children.map(exited))).toEqual([0, 0, 0, 0]);
      const parsed = reports.map((r) => JSON.parse(r) as { emits: number; recorded: number });
      // Each process asks the database once (the local set absorbs its later observations)…
      expect(parsed.map((p) => p.emits)).toEqual([1, 1, 1, 1]);
      // …and exactly one of them wins the unique key.
      expect(parsed.reduce((n, p) => n + p.recorded, 0)).toBe(1);
    } finally {
      for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    }
    expect(await warnings(account.id)).toHaveLength(1);
    await waitFor(() => receiver.received.length === 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.verified).toMatchObject({ type: "rate_limit.warning", data: { account_id: account.id, used: 8 } });
  }, 60_000);
});
