import { afterAll, beforeAll, expect, it } from "vitest";
import { FAST_WORKER, openTestDb, startReceiver, waitFor, type Receiver, type TestDb } from "./helpers.ts";
import { exited, spawnFixture } from "./processes.ts";

let t: TestDb;
let receiver: Receiver | undefined;

beforeAll(async () => {
  t = await openTestDb();
});

afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

it("a worker killed mid-delivery loses nothing: the next worker delivers it", async () => {
  const webhooks = t.webhooks();
  const account = await t.account();
  // The first request is held open until the worker sending it is dead.
  receiver = await startReceiver((n) => (n === 1 ? "hang" : { status: 200 }));
  const created = await webhooks.endpoints.create(account.id, { url: receiver.url });
  if (!created.ok) throw new Error(created.message);
  receiver.setSecret(created.secret);

  const child = spawnFixture("worker", { DATABASE_URL: t.url });
  try {
    await child.waitForLine("started");
    const emitted = await webhooks.emit(account.id, "rate_limit.warning", {
      account_id: account.id,
      plan: "STARTER",
      window: "day",
      limit: 10,
      used: 8,
      remaining: 2,
      threshold: 0.8,
      resets_at: "2026-11-22T00:00:00.000Z",
    });
    await waitFor(() => receiver!.received.length === 1);
    child.kill("SIGKILL");
    await exited(child);

    const pending = await webhooks.listDeliveries(account.id);
    expect(pending.items[0]).toMatchObject({ status: "pending", attemptCount: 0 });

    const worker = await webhooks.startWorker(FAST_WORKER);
    try {
      const delivery = await waitFor(async () => {
        const d = (await webhooks.listDeliveries(account.id)).items[0];
        return d?.status === "succeeded" ? d : undefined;
      }, 20_000);
      expect(delivery.attempts).toMatchObject([{ number: 1, statusCode: 200 }]);
      expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([emitted?.eventId, emitted?.eventId]);
      expect(receiver.received[1]!.verified).not.toBeNull();
    } finally {
      await worker.stop();
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}, 60_000);
