import { afterAll, beforeAll, expect, it } from "vitest";
import { FAST_WORKER, openTestDb, startReceiver, waitFor, type Receiver, type TestDb } from "./helpers.ts";

let t: TestDb;
let receiver: Receiver | undefined;

beforeAll(async () => {
  t = await openTestDb();
});

afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

// An endpoint whose name resolves to a refused address at delivery time (as after DNS rebinding) is
// not contacted: the address is checked again when the connection is made.
it("checks resolved addresses again at delivery time", async () => {
  const permissive = t.webhooks({ allowPrivate: true, retryDelaysMs: [] });
  const strict = t.webhooks({ allowPrivate: false, retryDelaysMs: [] });
  const account = await t.account();
  receiver = await startReceiver();
  const created = await permissive.endpoints.create(account.id, { url: `http://localhost:${receiver.port}/hooks` });
  if (!created.ok) throw new Error(created.message);

  const worker = await strict.startWorker(FAST_WORKER);
  try {
    await strict.sendTestEvent(account.id, created.endpoint.id);
    const delivery = await waitFor(async () => {
      const d = (await strict.listDeliveries(account.id)).items[0];
      return d?.status === "failed" ? d : undefined;
    });
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/EWEBHOOKSSRF.*loopback/) });
    expect(receiver.received).toHaveLength(0);
  } finally {
    await worker.stop();
  }
});
