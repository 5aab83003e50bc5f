// A customer subscribes a receiver, gets a signed test event and the real rate_limit.warning, and
// sees both in the portal's delivery log.
import { setPlan } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
import {
  callApi,
  createKeyInPortal,
  eventually,
  expect,
  newUser,
  screenshot,
  signUp,
  stack,
  test,
  validateOib,
} from "../src/fixtures.ts";
import { startReceiver, type Receiver } from "../src/receiver.ts";

let receiver: Receiver;
test.beforeEach(async () => {
  receiver = await startReceiver();
});
test.afterEach(async () => {
  await receiver.close();
});

test("subscribe, receive a verified test event and the rate_limit.warning, see them in the delivery log", async ({ page }) => {
  const user = newUser("Webhook");
  await signUp(page, user);
  const key = await createKeyInPortal(page, "Webhook test");

  await test.step("add the receiver's URL on /webhooks and reveal its secret", async () => {
    await page.goto("/webhooks");
    await expect(page.getByTestId("webhooks-empty")).toBeVisible();
    await page.getByTestId("webhook-url").fill(receiver.url);
    await page.getByTestId("create-webhook").click();
    const shown = page.getByTestId("webhook-secret");
    await expect(shown).toBeVisible();
    const secret = (await shown.textContent())?.trim() ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const row = page.getByTestId("webhook-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(receiver.url);
    // subscribed to the warning (every event type is chosen by default), named in Croatian
    await expect(row.getByRole("checkbox", { name: /Upozorenje o potrošnji/ })).toBeChecked();
    // "Show secret" on the endpoint row gives the same secret as the one shown at creation.
    await row.getByRole("button", { name: "Prikaži tajnu" }).click();
    await expect(row.locator("code")).toHaveText(secret);
    receiver.setSecret(secret);
  });

  await test.step("send a test event: the receiver verifies it and the log shows HTTP 200", async () => {
    await page.getByTestId("send-test-event").click();
    await expect(page.getByTestId("webhooks-message")).toContainText("Testni događaj");
    const delivery = await receiver.waitFor((d) => d.event?.type === "webhook.test", "webhook.test", 20_000);
    expect(delivery.verified).toBe(true);
    expect(delivery.id).toMatch(/^msg_/);
    expect(receiver.deliveries.filter((d) => !d.verified)).toEqual([]);

    const logged = page.locator('[data-testid="webhook-delivery"]', { hasText: "webhook.test" });
    await expect(async () => {
      await page.reload();
      await expect(logged).toHaveAttribute("data-status", "succeeded", { timeout: 1_000 });
    }).toPass({ timeout: 15_000, intervals: [500, 1_000] });
    await logged.locator("summary").click();
    await expect(logged).toContainText("HTTP 200");
    await expect(logged).toContainText(receiver.url);
  });

  await test.step("small custom limits: exactly one rate_limit.warning at 80 % of the day", async () => {
    const db = createDb(stack.databaseUrl, { max: 1 });
    let accountId: string;
    try {
      accountId = (await db.user.findUniqueOrThrow({ where: { email: user.email }, select: { accountId: true } })).accountId;
      await setPlan(db, accountId, "ENTERPRISE", { burst: 100, perMinute: 1000, perDay: 10 });
    } finally {
      await db.$disconnect();
    }
    // GET /v1/limits is free: wait there until the API judges the account by the new limits.
    await eventually(
      async () => {
        const r = await callApi(key, "GET", "/v1/limits");
        return r.status === 200 && r.body.limits.per_day === 10 ? r : undefined;
      },
      "the API applies the custom day limit",
      2_000,
      100,
    );

    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await validateOib(key)).status);
    // Ten admitted in the day, then refusals by the day window.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);

    const warning = await receiver.waitFor((d) => d.event?.type === "rate_limit.warning", "rate_limit.warning", 20_000);
    expect(warning.verified).toBe(true);
    expect(warning.event?.data).toMatchObject({ account_id: accountId, plan: "ENTERPRISE", window: "day", limit: 10, threshold: 0.8 });
    expect(warning.event?.data.used).toBeGreaterThanOrEqual(8);
    // At-least-once delivery may repeat a webhook-id; there must be exactly one event. An event and
    // its pending deliveries are recorded in one transaction, and a delivery stops being pending
    // once the receiver has answered: when none of the account's is pending, the receiver has
    // everything it will get.
    const settled = createDb(stack.databaseUrl, { max: 1 });
    try {
      await eventually(
        async () => ((await settled.webhookDelivery.count({ where: { endpoint: { accountId }, status: "pending" } })) === 0 ? true : undefined),
        "every delivery of the account settled",
        20_000,
        100,
      );
    } finally {
      await settled.$disconnect();
    }
    const warnings = receiver.deliveries.filter((d) => d.event?.type === "rate_limit.warning");
    expect(new Set(warnings.map((d) => d.id)).size).toBe(1);
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);

    const logged = page.locator('[data-testid="webhook-delivery"]', { hasText: "rate_limit.warning" });
    await expect(async () => {
      await page.reload();
      await expect(logged).toHaveCount(1, { timeout: 1_000 });
      await expect(logged).toHaveAttribute("data-status", "succeeded", { timeout: 1_000 });
    }).toPass({ timeout: 15_000, intervals: [500, 1_000] });
    await logged.locator("summary").click();
    await expect(logged).toContainText("HTTP 200");
    await expect(logged).toContainText('"limit": 10');
    await screenshot(page, "07-webhooks");
  });

  await test.step("the dashboard shows the warning banner at the exhausted quota", async () => {
    await page.goto("/dashboard");
    await expect(page.getByTestId("quota-warning")).toBeVisible();
    await expect(page.getByTestId("quota-limit")).toHaveText("10");
  });
});
