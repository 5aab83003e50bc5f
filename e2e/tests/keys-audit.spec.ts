// Keys as Stripe and Unkey users expect them: usage per key, an optional expiry, rotation with an
// overlap shown on the page, an expired or revoked key answered like an unknown one; and the audit
// log of key, plan and webhook changes for the customer (/audit) and the operator (/admin/audit).
import { generateApiKey } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
import {
  callApi,
  createKeyInPortal,
  eventually,
  expect,
  newClientContext,
  newUser,
  screenshot,
  signIn,
  signUp,
  stack,
  test,
  trpcData,
  validateOib,
} from "../src/fixtures.ts";
import { startReceiver } from "../src/receiver.ts";

const zagrebDate = new Intl.DateTimeFormat("hr-HR", { day: "numeric", month: "numeric", year: "numeric", timeZone: "Europe/Zagreb" });

test("usage per key, expiry, rotation with overlap; expired and revoked keys answer like unknown ones", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newUser("Kljucevi"));
  const main = await createKeyInPortal(page, "Glavni");
  const side = await createKeyInPortal(page, "Sporedni");

  await test.step("each key's requests show on the keys page", async () => {
    for (let i = 0; i < 3; i++) expect((await validateOib(main)).status).toBe(200);
    expect((await validateOib(side)).status).toBe(200);
    await eventually(
      async () => {
        await page.goto("/keys");
        const usage = await page.getByTestId("key-usage").allTextContents();
        return usage.join("|").includes("3") && usage.join("|").includes("1") ? true : undefined;
      },
      "usage per key",
      10_000,
    );
    await expect(page.locator('[data-testid="key-row"]', { hasText: "Glavni" }).getByTestId("key-usage")).toHaveText("3");
    await expect(page.locator('[data-testid="key-row"]', { hasText: "Sporedni" }).getByTestId("key-usage")).toHaveText("1");
  });

  await test.step("a key created with an expiry shows it", async () => {
    await page.getByTestId("key-name").fill("Privremeni");
    await page.getByTestId("key-expiry").selectOption("30");
    await page.getByTestId("create-key").click();
    await expect(page.getByTestId("new-key-panel")).toContainText("Ključ istječe");
    const row = page.locator('[data-testid="key-row"]', { hasText: "Privremeni" });
    await expect(row.getByTestId("key-expires")).toContainText(zagrebDate.format(new Date(Date.now() + 30 * 86_400_000)));
  });

  let rotated = "";
  await test.step("rotation with a one-hour overlap: both keys work, the old one shows until when", async () => {
    await page.locator('[data-testid="key-row"]', { hasText: "Glavni" }).getByTestId("rotate-key").click();
    await expect(page.getByTestId("rotate-dialog")).toBeVisible();
    await page.getByTestId("rotate-overlap").selectOption("3600");
    await page.getByTestId("confirm-rotate").click();
    await expect(page.getByTestId("new-key-panel")).toContainText("Stari ključ vrijedi do");
    rotated = ((await page.getByTestId("new-key-value").textContent()) ?? "").trim();
    expect(rotated).toMatch(/^fsk_test_/);
    const old = page.locator('[data-testid="key-row"][data-state="rotating"]');
    await expect(old).toHaveCount(1);
    await expect(old).toContainText("Glavni");
    await expect(old).toContainText("vrijedi do");
    await expect(old).toContainText(`zamijenjen ključem ${rotated.slice(0, 13)}…`);
    expect((await validateOib(main)).status).toBe(200);
    expect((await validateOib(rotated)).status).toBe(200);
    await screenshot(page, "keys-rotation");
  });

  const unknown = await validateOib(generateApiKey("test").key);
  expect(unknown.status).toBe(401);

  await test.step("rotation without overlap: the old key is refused within 5 s, like an unknown key", async () => {
    await page.locator('[data-testid="key-row"]', { hasText: "Sporedni" }).getByTestId("rotate-key").click();
    await page.getByTestId("rotate-overlap").selectOption("0");
    await page.getByTestId("confirm-rotate").click();
    await expect(page.getByTestId("keys-notice")).toContainText("opozvan");
    const refused = await eventually(async () => {
      const r = await validateOib(side);
      return r.status === 401 ? r : undefined;
    }, "old key refused", 5_000, 100);
    expect(refused.body).toEqual(unknown.body);
  });

  await test.step("an expired key is refused from its expiry instant, like an unknown key, though cached", async () => {
    const short = await createKeyInPortal(page, "Kratki");
    // Its expiry is brought forward to seconds from now before its first use; the first request
    // then puts it into every API cache (5 s), and the key must still stop at the instant.
    const db = createDb(stack.databaseUrl, { max: 1 });
    const expiresAt = new Date(Date.now() + 4_000);
    try {
      const [row] = await db.apiKey.findMany({ where: { prefix: short.slice(0, 13) } });
      await db.apiKey.update({ where: { id: row!.id }, data: { expiresAt } });
    } finally {
      await db.$disconnect();
    }
    expect((await validateOib(short)).status).toBe(200);
    expect(Date.now(), "the key was used before its expiry").toBeLessThan(expiresAt.getTime() - 500);
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt.getTime() + 50 - Date.now())));
    const r = await validateOib(short);
    expect(r.status).toBe(401);
    expect(r.body).toEqual(unknown.body);
    await page.goto("/keys");
    const expired = page.locator('[data-testid="key-row"][data-state="expired"]');
    await expect(expired).toHaveCount(1);
    await expect(expired).toContainText("Kratki");
    await expect(expired).toContainText("Istekao");
    expect((await validateOib(rotated)).status).toBe(200);
  });
});

test("the audit log: who, when, from which address — for the customer and the operator", async ({ browser, security }) => {
  test.setTimeout(120_000);
  const address = "10.77.12.34";
  const customer = await browser.newContext({ baseURL: stack.portalUrl, extraHTTPHeaders: { "X-Forwarded-For": address }, locale: "hr-HR", timezoneId: "Europe/Zagreb" });
  await security.watch(customer);
  const page = await customer.newPage();
  const user = newUser("Revizija");
  await signUp(page, user);
  const receiver = await startReceiver();
  try {
    await test.step("key, webhook and plan changes", async () => {
      await createKeyInPortal(page, "Za reviziju");
      const keys = await trpcData(page.request, "query", "keys.list");
      await trpcData(page.request, "mutation", "keys.rotate", { id: keys[0].id, overlapSeconds: 60 });
      const afterRotation = await trpcData(page.request, "query", "keys.list");
      const fresh = afterRotation.find((k: { state: string }) => k.state === "active");
      await trpcData(page.request, "mutation", "keys.revoke", { id: fresh.id });
      const hook = await trpcData(page.request, "mutation", "webhooks.create", { url: receiver.url });
      expect(hook.ok).toBe(true);
      await trpcData(page.request, "mutation", "webhooks.remove", { id: hook.id });
      expect((await trpcData(page.request, "mutation", "plan.requestUpgrade", { plan: "STARTER" })).ok).toBe(true);
    });

    await test.step("the customer's /audit lists each change with their e-mail and address", async () => {
      await page.goto("/audit");
      const rows = page.getByTestId("audit-row");
      const actions = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-action")));
      expect(actions).toEqual(["plan.requested", "webhook.deleted", "webhook.created", "key.revoked", "key.rotated", "key.created"]);
      for (const row of await rows.all()) {
        await expect(row).toContainText(user.email);
        await expect(row).toContainText(address);
      }
      await expect(page.locator('[data-action="webhook.created"]')).toContainText(receiver.url);
      await expect(page.locator('[data-action="key.rotated"]')).toContainText("Ključ rotiran");
      await page.getByTestId("audit-action").selectOption("key.");
      await page.getByRole("button", { name: "Prikaži" }).click();
      await page.waitForURL((u) => u.searchParams.get("action") === "key.");
      await expect(page.getByTestId("audit-row")).toHaveCount(3);
      await screenshot(page, "audit-customer");
    });

    await test.step("the operator approves; /admin/audit shows every account, the customer sees the decision", async () => {
      const opContext = await newClientContext(browser);
      await security.watch(opContext);
      const op = await opContext.newPage();
      await signIn(op, stack.operator.email, stack.operator.password);
      const requests = await trpcData(op.request, "query", "admin.requests");
      const mine = requests.pending.find((r: { account: { name: string } }) => r.account.name === user.company);
      expect((await trpcData(op.request, "mutation", "admin.approve", { requestId: mine.id })).ok).toBe(true);
      await op.goto("/admin/audit");
      const approved = op.locator('[data-testid="audit-row"][data-action="plan.approved"]', { hasText: user.company });
      await expect(approved).toHaveCount(1);
      await expect(approved).toContainText(stack.operator.email);
      await expect(op.locator('[data-testid="audit-row"]', { hasText: user.company }).first()).toBeVisible();
      await screenshot(op, "audit-operator");
      await opContext.close();
      await page.goto("/audit");
      await expect(page.getByTestId("audit-row").first()).toHaveAttribute("data-action", "plan.approved");
    });

    await test.step("a customer cannot open the operator's audit log", async () => {
      const response = await page.goto("/admin/audit");
      expect(response?.status()).toBe(403);
    });
  } finally {
    await receiver.close();
    await customer.close();
  }
});

test("CSV export needs a session", async ({ playwright }) => {
  const anon = await playwright.request.newContext({ baseURL: stack.portalUrl, maxRedirects: 0 });
  const r = await anon.get("/dashboard/export");
  expect([303, 307, 401]).toContain(r.status());
  if (r.status() !== 401) expect(r.headers().location).toContain("/login");
  await anon.dispose();
  expect((await callApi(null, "GET", "/v1/limits")).status).toBe(401);
});
