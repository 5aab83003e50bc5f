// A second customer, signed in, tries the first customer's ids in the portal's procedures and in the
// API's id-bearing URLs: every attempt is refused or not found, and the first customer's data stays.
import { createDb } from "@fiskal/db";
import {
  callApi,
  createKeyInPortal,
  expect,
  newClientContext,
  newUser,
  signUp,
  stack,
  test,
  trpcCall,
  trpcData,
  validateOib,
} from "../src/fixtures.ts";
import { startReceiver } from "../src/receiver.ts";

test("a second account cannot read or change the first account's keys, webhooks, invoices or plan", async ({ page, browser, security }) => {
  const receiver = await startReceiver();
  const contextB = await newClientContext(browser);
  await security.watch(contextB);
  try {
    const alice = newUser("Prva");
    const bob = newUser("Druga");

    // Alice: a key, an invoice, a webhook endpoint with one delivered test event, a pending upgrade.
    await signUp(page, alice);
    const aliceKey = await createKeyInPortal(page, "Alice POS");
    const [aliceKeyRow] = await trpcData(page.request, "query", "keys.list");
    expect(aliceKeyRow.revokedAt).toBeNull();

    const invoice = await callApi(aliceKey, "POST", "/v1/invoices/fiscalize", {
      oib: "69435151530",
      issued_at: new Date().toISOString(),
      number: "1",
      premises: "POSL1",
      device: "1",
      total: "125.00",
      payment_method: "K",
      operator_oib: "94577403194",
      vat_registered: true,
      sequence: "P",
    });
    expect(invoice.status, JSON.stringify(invoice.body)).toBe(200);
    const invoiceId: string = invoice.body.id;
    expect(invoiceId).toBeTruthy();

    const created = await trpcData(page.request, "mutation", "webhooks.create", { url: receiver.url });
    expect(created.ok).toBe(true);
    const endpointId: string = created.id;
    receiver.setSecret(created.secret);
    expect((await trpcData(page.request, "mutation", "webhooks.sendTest", { id: endpointId })).ok).toBe(true);
    await receiver.waitFor((d) => d.event?.type === "webhook.test", "Alice's test event", 20_000);
    const aliceEvents = await trpcData(page.request, "query", "webhooks.events", {});
    const deliveryId: string = aliceEvents.items[0].deliveries[0].id;
    expect((await trpcData(page.request, "mutation", "plan.requestUpgrade", { plan: "STARTER" })).ok).toBe(true);

    const db = createDb(stack.databaseUrl, { max: 1 });
    let aliceAccountId: string;
    let requestId: string;
    try {
      aliceAccountId = (await db.user.findUniqueOrThrow({ where: { email: alice.email } })).accountId;
      requestId = (await db.upgradeRequest.findFirstOrThrow({ where: { accountId: aliceAccountId, status: "PENDING" } })).id;
    } finally {
      await db.$disconnect();
    }

    // Bob signs up in his own browser and gets a key of his own.
    const pageB = await contextB.newPage();
    await signUp(pageB, bob);
    const bobKey = await createKeyInPortal(pageB, "Bob POS");
    const asBob = pageB.request;

    await test.step("Bob's procedure calls with Alice's ids are refused or find nothing", async () => {
      expect(await trpcData(asBob, "mutation", "keys.revoke", { id: aliceKeyRow.id })).toEqual({ revoked: false });
      for (const [kind, procedure, input] of [
        ["query", "webhooks.secret", { id: endpointId }],
        ["mutation", "webhooks.rotateSecret", { id: endpointId }],
        ["mutation", "webhooks.setEnabled", { id: endpointId, enabled: false }],
        ["mutation", "webhooks.sendTest", { id: endpointId }],
        ["mutation", "webhooks.redeliver", { deliveryId }],
        ["mutation", "webhooks.remove", { id: endpointId }],
      ] as const) {
        const data = await trpcData(asBob, kind, procedure, input);
        expect(data, procedure).toEqual({ ok: false, message: expect.any(String) });
        expect(JSON.stringify(data)).not.toContain("whsec_");
      }
      for (const [kind, procedure, input] of [
        ["query", "admin.requests", undefined],
        ["query", "admin.accounts", { search: alice.company }],
        ["mutation", "admin.approve", { requestId }],
        ["mutation", "admin.reject", { requestId }],
        ["mutation", "admin.setCustomLimits", { accountId: aliceAccountId, burst: 1000, perMinute: 100000, perDay: 1000000 }],
      ] as const) {
        const r = await trpcCall(asBob, kind, procedure, input);
        expect(r.status, procedure).toBe(403);
        expect(r.body.error.data.code, procedure).toBe("FORBIDDEN");
      }
    });

    await test.step("Bob's own lists show none of Alice's data", async () => {
      const bobKeys = await trpcData(asBob, "query", "keys.list");
      expect(bobKeys.map((k: { id: string }) => k.id)).not.toContain(aliceKeyRow.id);
      expect(bobKeys).toHaveLength(1);
      expect(await trpcData(asBob, "query", "webhooks.endpoints")).toEqual([]);
      expect((await trpcData(asBob, "query", "webhooks.events", {})).items).toEqual([]);
      expect(await trpcData(asBob, "query", "usage.recent", { limit: 100 })).toEqual([]);
      const plan = await trpcData(asBob, "query", "plan.overview");
      expect(plan.requests).toEqual([]);
      expect((await pageB.goto("/admin"))?.status()).toBe(403);
      await expect(pageB.getByTestId("admin-forbidden")).toBeVisible();
      await expect(pageB.locator("body")).not.toContainText(alice.company);
      await pageB.goto("/webhooks");
      await expect(pageB.getByTestId("webhooks-empty")).toBeVisible();
      await expect(pageB.locator("body")).not.toContainText(receiver.url);
    });

    await test.step("the API's id-bearing URLs answer 404 to Bob's key", async () => {
      const asBobApi = await callApi(bobKey, "GET", `/v1/invoices/${invoiceId}`);
      expect(asBobApi.status).toBe(404);
      expect(asBobApi.body.error.code).toBe("not_found");
      expect(JSON.stringify(asBobApi.body)).not.toContain("69435151530");
      const asAliceApi = await callApi(aliceKey, "GET", `/v1/invoices/${invoiceId}`);
      expect(asAliceApi.status).toBe(200);
      expect(asAliceApi.body.id).toBe(invoiceId);
    });

    await test.step("without a session the procedures refuse", async () => {
      const anonymous = await newClientContext(browser);
      try {
        const r = await trpcCall(anonymous.request, "query", "keys.list");
        expect(r.status).toBe(401);
        expect(r.body.error.data.code).toBe("UNAUTHORIZED");
      } finally {
        await anonymous.close();
      }
    });

    await test.step("Alice's data is unchanged", async () => {
      const [keyNow] = await trpcData(page.request, "query", "keys.list");
      expect(keyNow.id).toBe(aliceKeyRow.id);
      expect(keyNow.revokedAt).toBeNull();
      expect((await validateOib(aliceKey)).status).toBe(200);
      const endpoints = await trpcData(page.request, "query", "webhooks.endpoints");
      expect(endpoints).toHaveLength(1);
      expect(endpoints[0]).toMatchObject({ id: endpointId, enabled: true, url: receiver.url });
      expect(await trpcData(page.request, "query", "webhooks.secret", { id: endpointId })).toEqual({ ok: true, secret: created.secret });
      const events = await trpcData(page.request, "query", "webhooks.events", {});
      expect(events.items).toHaveLength(1);
      expect(events.items[0].deliveries[0].attemptCount).toBe(1);
      // Bob's sendTest and redeliver reached nobody.
      expect(receiver.deliveries).toHaveLength(1);
      expect(receiver.deliveries[0]!.verified).toBe(true);
      const plan = await trpcData(page.request, "query", "plan.overview");
      expect(plan.plan).toBe("SANDBOX");
      expect(plan.requests).toHaveLength(1);
      expect(plan.requests[0]).toMatchObject({ id: requestId, requestedPlan: "STARTER", status: "PENDING" });
    });
  } finally {
    await contextB.close();
    await receiver.close();
  }
});
