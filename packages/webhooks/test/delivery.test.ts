import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@fiskal/db";
import { Webhook } from "standardwebhooks";
import { createEndpointStore } from "../src/endpoints.ts";
import { MAX_ENDPOINTS_PER_ACCOUNT, type Webhooks, type WebhookWorker } from "../src/index.ts";
import { FAST_WORKER, openTestDb, startReceiver, waitFor, type Receiver, type TestDb } from "./helpers.ts";

const warning = (accountId: string) => ({
  account_id: accountId,
  plan: "STARTER",
  window: "day" as const,
  limit: 10,
  used: 8,
  remaining: 2,
  threshold: 0.8,
  resets_at: "2026-11-22T00:00:00.000Z",
});

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

async function receiverFor(accountId: string, reply?: Parameters<typeof startReceiver>[0]) {
  const receiver = await startReceiver(reply);
  receivers.push(receiver);
  const created = await webhooks.endpoints.create(accountId, { url: receiver.url });
  if (!created.ok) throw new Error(created.message);
  receiver.setSecret(created.secret);
  return { receiver, endpoint: created.endpoint, secret: created.secret };
}

async function settled(accountId: string, deliveryStatus: string) {
  return waitFor(async () => {
    const page = await webhooks.listDeliveries(accountId);
    const d = page.items[0];
    return d && d.status === deliveryStatus ? d : undefined;
  });
}

describe("delivery", () => {
  it("signs with Standard Webhooks; a tampered body fails verification", async () => {
    const account = await t.account();
    const { receiver, secret } = await receiverFor(account.id);
    const emitted = await webhooks.emit(account.id, "rate_limit.warning", warning(account.id));
    expect(emitted?.deliveries).toBe(1);

    const delivery = await settled(account.id, "succeeded");
    expect(delivery.attemptCount).toBe(1);
    expect(delivery.attempts).toMatchObject([{ number: 1, statusCode: 200, error: null, manual: false }]);
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.headers["webhook-id"]).toBe(emitted?.eventId);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.verified).toMatchObject({ type: "rate_limit.warning", data: warning(account.id) });
    expect(Object.keys(JSON.parse(got.body) as object)).toEqual(["type", "timestamp", "data"]);

    const wh = new Webhook(secret);
    const tampered = got.body.replace('"used":8', '"used":1');
    expect(tampered).not.toBe(got.body);
    expect(() => wh.verify(tampered, got.headers)).toThrow();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(got.body, got.headers)).toThrow();
  });

  it("retries after failures and succeeds on the third attempt with the same webhook-id", async () => {
    const account = await t.account();
    const { receiver } = await receiverFor(account.id, (n) => (n <= 2 ? { status: 500, body: "try later" } : { status: 204 }));
    const emitted = await webhooks.emit(account.id, "rate_limit.warning", warning(account.id));

    const delivery = await settled(account.id, "succeeded");
    expect(delivery.attemptCount).toBe(3);
    expect(delivery.nextAttemptAt).toBeNull();
    expect(delivery.attempts.map((a) => [a.number, a.statusCode, a.error, a.responseBody])).toEqual([
      [1, 500, "HTTP 500", "try later"],
      [2, 500, "HTTP 500", "try later"],
      [3, 204, null, null],
    ]);
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual(Array(3).fill(emitted?.eventId));
    expect(receiver.received.every((r) => r.verified !== null)).toBe(true);
  });

  it("gives up once the retry schedule is used up", async () => {
    const account = await t.account();
    const { receiver } = await receiverFor(account.id, () => ({ status: 503 }));
    await webhooks.emit(account.id, "rate_limit.warning", warning(account.id));
    const delivery = await settled(account.id, "failed");
    // One first attempt plus one per configured retry delay (three in the tests).
    expect(delivery.attemptCount).toBe(4);
    expect(receiver.received).toHaveLength(4);
    expect(delivery.nextAttemptAt).toBeNull();
  });

  it("disables the endpoint on 410 Gone and sends it nothing more", async () => {
    const account = await t.account();
    const { receiver, endpoint } = await receiverFor(account.id, () => ({ status: 410 }));
    await webhooks.emit(account.id, "rate_limit.warning", warning(account.id));
    const delivery = await settled(account.id, "failed");
    expect(delivery.attemptCount).toBe(1);

    const after = await webhooks.endpoints.get(account.id, endpoint.id);
    expect(after?.enabled).toBe(false);
    expect(after?.disabledReason).toMatch(/410/);
    expect(await webhooks.emit(account.id, "rate_limit.warning", warning(account.id))).toMatchObject({ deliveries: 0 });
    expect(await webhooks.redeliver(account.id, delivery.id)).toMatchObject({ ok: false, error: "endpoint_disabled" });
    expect(await webhooks.sendTestEvent(account.id, endpoint.id)).toMatchObject({ ok: false, error: "endpoint_disabled" });
    expect(receiver.received).toHaveLength(1);
  });

  it("keeps a delivery succeeded when a slower attempt then gets 410 Gone, and still disables the endpoint", async () => {
    // Its own queue and a long timeout, so the held first attempt is answered, not timed out.
    const slow = t.webhooks({ queueSchema: "pgboss_gone", timeoutMs: 10_000, jobExpireSeconds: 20 });
    const slowWorker = await slow.startWorker(FAST_WORKER);
    let releaseFirst: (() => void) | undefined;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (!releaseFirst) releaseFirst = () => res.writeHead(410).end();
        else res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const account = await t.account();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      const created = await slow.endpoints.create(account.id, { url });
      if (!created.ok) throw new Error(created.message);
      await slow.emit(account.id, "rate_limit.warning", warning(account.id));
      await waitFor(() => releaseFirst !== undefined);
      const delivery = (await slow.listDeliveries(account.id)).items[0]!;
      expect(await slow.redeliver(account.id, delivery.id)).toEqual({ ok: true });
      await waitFor(async () => (await slow.getDelivery(account.id, delivery.id))?.status === "succeeded");
      releaseFirst!();
      const after = await waitFor(async () => {
        const d = await slow.getDelivery(account.id, delivery.id);
        return d && d.attemptCount === 2 ? d : undefined;
      });
      expect(after.status).toBe("succeeded");
      expect(after.nextAttemptAt).toBeNull();
      expect(after.attempts.map((a) => [a.number, a.manual, a.statusCode])).toEqual([[1, true, 200], [2, false, 410]]);
      expect((await slow.endpoints.get(account.id, created.endpoint.id))?.enabled).toBe(false);
    } finally {
      await slowWorker.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("honours Retry-After", async () => {
    const account = await t.account();
    const { receiver } = await receiverFor(account.id, (n) => (n === 1 ? { status: 429, headers: { "retry-after": "2" } } : { status: 200 }));
    await webhooks.emit(account.id, "rate_limit.warning", warning(account.id));
    const delivery = await settled(account.id, "succeeded");
    expect(delivery.attemptCount).toBe(2);
    const [first, second] = receiver.received;
    // The configured retry delay is 100 ms; the receiver asked for 2 s.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_950);
  });

  it("does not follow redirects", async () => {
    const account = await t.account();
    const target = await startReceiver();
    receivers.push(target);
    const { receiver } = await receiverFor(account.id, () => ({ status: 307, headers: { location: target.url } }));
    await webhooks.emit(account.id, "rate_limit.warning", warning(account.id));
    const delivery = await settled(account.id, "failed");
    expect(delivery.attempts[0]).toMatchObject({ statusCode: 307, error: "redirect (307) not followed" });
    expect(receiver.received).toHaveLength(4);
    expect(target.received).toHaveLength(0);
  });

  it("times out a receiver that does not answer", async () => {
    const account = await t.account();
    const { receiver } = await receiverFor(account.id, (n) => (n === 1 ? "hang" : { status: 200 }));
    await webhooks.emit(account.id, "rate_limit.warning", warning(account.id));
    const delivery = await settled(account.id, "succeeded");
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: "timed out after 1000 ms" });
    expect(delivery.attempts[0]!.durationMs).toBeGreaterThanOrEqual(990);
    expect(delivery.attempts[1]).toMatchObject({ statusCode: 200 });
    expect(receiver.received).toHaveLength(2);
  });

  it("redelivers by hand and sends test events; the log is scoped to the account", async () => {
    const account = await t.account();
    const other = await t.account("Other d.o.o.");
    const { receiver, endpoint } = await receiverFor(account.id);
    const emitted = await webhooks.emit(account.id, "rate_limit.warning", warning(account.id));
    const delivery = await settled(account.id, "succeeded");

    expect(await webhooks.redeliver(other.id, delivery.id)).toMatchObject({ ok: false, error: "not_found" });
    expect(await webhooks.redeliver(account.id, delivery.id)).toEqual({ ok: true });
    const redelivered = await waitFor(async () => {
      const d = await webhooks.getDelivery(account.id, delivery.id);
      return d && d.attemptCount === 2 ? d : undefined;
    });
    expect(redelivered.attempts.map((a) => [a.number, a.manual])).toEqual([[1, false], [2, true]]);
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([emitted?.eventId, emitted?.eventId]);

    expect(await webhooks.sendTestEvent(other.id, endpoint.id)).toMatchObject({ ok: false, error: "not_found" });
    const test = await webhooks.sendTestEvent(account.id, endpoint.id);
    if (!test.ok) throw new Error(test.message);
    await waitFor(() => receiver.received.length === 3);
    expect(receiver.received[2]!.verified).toMatchObject({ type: "webhook.test", data: { endpoint_id: endpoint.id } });

    const events = await webhooks.listEvents(account.id, { limit: 1 });
    expect(events.items).toHaveLength(1);
    expect(events.items[0]).toMatchObject({ id: test.eventId, type: "webhook.test" });
    expect(events.nextCursor).toBe(test.eventId);
    const older = await webhooks.listEvents(account.id, { limit: 10, cursor: events.nextCursor });
    expect(older.items.map((e) => e.id)).toEqual([emitted?.eventId]);
    expect(older.items[0]!.deliveries[0]).toMatchObject({ endpointUrl: receiver.url, attemptCount: 2 });
    expect(older.nextCursor).toBeNull();

    expect((await webhooks.listEvents(other.id)).items).toEqual([]);
    expect((await webhooks.listDeliveries(other.id)).items).toEqual([]);
    expect(await webhooks.getDelivery(other.id, delivery.id)).toBeNull();
  });
});

describe("portal-triggered sends", () => {
  it("queue one manual attempt per delivery until it runs, and ask admission only for real sends", async () => {
    // No worker on this queue schema: queued jobs stay queued for the test to count.
    const idle = t.webhooks({ queueSchema: "pgboss_idle" });
    const account = await t.account();
    const created = await idle.endpoints.create(account.id, { url: "http://127.0.0.1:9/hook" });
    if (!created.ok) throw new Error(created.message);
    const emitted = await idle.emit(account.id, "rate_limit.warning", warning(account.id));
    const delivery = (await idle.listDeliveries(account.id)).items[0]!;
    expect(emitted?.deliveries).toBe(1);

    let asked = 0;
    const admit = async () => {
      asked++;
      return { allowed: true as const };
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => idle.redeliver(account.id, delivery.id, { admit })));
    expect(results.filter((r) => r.ok && !r.alreadyQueued)).toHaveLength(1);
    expect(results.filter((r) => r.ok && r.alreadyQueued)).toHaveLength(4);
    expect(asked).toBe(1);
    const manualJobs = async () =>
      (
        await t.db.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pgboss_idle.job WHERE data->>'deliveryId' = $1 AND data->>'mode' = 'manual'`,
          delivery.id,
        )
      )[0]!.n;
    expect(await manualJobs()).toBe(1);

    // Once the queued attempt has been taken, a new redeliver is queued again.
    await t.db.$executeRawUnsafe(`UPDATE pgboss_idle.job SET state = 'completed' WHERE data->>'deliveryId' = $1`, delivery.id);
    expect(await idle.redeliver(account.id, delivery.id, { admit })).toEqual({ ok: true });
    expect(await manualJobs()).toBe(2);

    await t.db.$executeRawUnsafe(`UPDATE pgboss_idle.job SET state = 'completed' WHERE data->>'deliveryId' = $1`, delivery.id);
    const refuse = async () => ({ allowed: false as const, retryAfterSeconds: 7 });
    expect(await idle.redeliver(account.id, delivery.id, { admit: refuse })).toMatchObject({ ok: false, error: "rate_limited", retryAfterSeconds: 7 });
    expect(await idle.sendTestEvent(account.id, created.endpoint.id, { admit: refuse })).toMatchObject({
      ok: false,
      error: "rate_limited",
      retryAfterSeconds: 7,
    });
    expect(await manualJobs()).toBe(2);
    expect((await idle.listEvents(account.id)).items.map((e) => e.type)).toEqual(["rate_limit.warning"]);

    // Invalid or disabled targets are answered without asking for admission.
    asked = 0;
    expect(await idle.redeliver(account.id, "00000000-0000-7000-8000-000000000000", { admit })).toMatchObject({ error: "not_found" });
    await idle.endpoints.disable(account.id, created.endpoint.id);
    expect(await idle.sendTestEvent(account.id, created.endpoint.id, { admit })).toMatchObject({ error: "endpoint_disabled" });
    expect(await idle.redeliver(account.id, delivery.id, { admit })).toMatchObject({ error: "endpoint_disabled" });
    expect(asked).toBe(0);
  });
});

describe("endpoints", () => {
  it("creates, updates, rotates and removes, scoped to the account", async () => {
    const account = await t.account();
    const other = await t.account("Other d.o.o.");
    const receiver = await startReceiver();
    receivers.push(receiver);

    expect(await webhooks.endpoints.create(account.id, { url: receiver.url, eventTypes: ["invoice.paid"] })).toMatchObject({
      ok: false,
      error: "invalid_input",
    });
    expect(await webhooks.endpoints.create(account.id, { url: "ftp://example.com/x" })).toMatchObject({ ok: false, error: "invalid_url" });
    expect(await webhooks.endpoints.list(account.id)).toEqual([]);

    const created = await webhooks.endpoints.create(account.id, { url: receiver.url, description: "  ERP  " });
    if (!created.ok) throw new Error(created.message);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.endpoint).toMatchObject({ url: receiver.url, description: "ERP", eventTypes: ["rate_limit.warning", "invoice.fiscalized", "reporting.due", "einvoice.received", "einvoice.fiscalized", "einvoice.rejected"], enabled: true });
    expect(created.endpoint).not.toHaveProperty("secret");
    const id = created.endpoint.id;

    expect(await webhooks.endpoints.get(other.id, id)).toBeNull();
    expect(await webhooks.endpoints.update(other.id, id, { enabled: false })).toMatchObject({ ok: false, error: "not_found" });
    expect(await webhooks.endpoints.rotateSecret(other.id, id)).toMatchObject({ ok: false, error: "not_found" });
    expect(await webhooks.endpoints.remove(other.id, id)).toMatchObject({ ok: false, error: "not_found" });
    expect(await webhooks.endpoints.get(account.id, "not-a-uuid")).toBeNull();

    expect(await webhooks.endpoints.disable(account.id, id)).toMatchObject({ ok: true, endpoint: { enabled: false } });
    expect(await webhooks.emit(account.id, "rate_limit.warning", warning(account.id))).toMatchObject({ deliveries: 0 });
    expect(await webhooks.endpoints.update(account.id, id, { enabled: true, description: null })).toMatchObject({
      ok: true,
      endpoint: { enabled: true, description: null, disabledReason: null },
    });

    const rotated = await webhooks.endpoints.rotateSecret(account.id, id);
    if (!rotated.ok) throw new Error(rotated.message);
    expect(rotated.secret).not.toBe(created.secret);
    expect((await webhooks.endpoints.get(account.id, id))?.secret).toBe(rotated.secret);
    receiver.setSecret(rotated.secret);
    await webhooks.sendTestEvent(account.id, id);
    await waitFor(() => receiver.received.length === 1);
    expect(receiver.received[0]!.verified).not.toBeNull();
    expect(() => new Webhook(created.secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers)).toThrow();

    expect(await webhooks.endpoints.remove(account.id, id)).toEqual({ ok: true });
    expect(await webhooks.endpoints.list(account.id)).toEqual([]);
  });

  it("never exceed the endpoint cap under concurrent creates", async () => {
    const account = await t.account("Busy d.o.o.");
    for (let i = 0; i < MAX_ENDPOINTS_PER_ACCOUNT - 3; i++) {
      const r = await webhooks.endpoints.create(account.id, { url: `http://127.0.0.1:9/existing-${i}` });
      expect(r.ok).toBe(true);
    }
    // Separate clients, as separate portal processes would be, so the creates really overlap.
    const clients = Array.from({ length: 10 }, () => createDb(t.url, { max: 1 }));
    try {
      await Promise.all(clients.map((c) => c.$queryRaw`SELECT 1`));
      const results = await Promise.all(
        clients.map((c, i) => createEndpointStore(c, true).create(account.id, { url: `http://127.0.0.1:9/parallel-${i}` })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(3);
      expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.error === "limit_reached")).toBe(true);
    } finally {
      await Promise.all(clients.map((c) => c.$disconnect()));
    }
    expect(await t.db.webhookEndpoint.count({ where: { accountId: account.id } })).toBe(MAX_ENDPOINTS_PER_ACCOUNT);
    expect(await webhooks.endpoints.create("00000000-0000-7000-8000-000000000000", { url: "http://127.0.0.1:9/x" })).toMatchObject({
      ok: false,
      error: "not_found",
    });
  });
});
