// Defects a new customer tripped on: an expired session on a sidebar click, and "Testni događaj"
// right after adding a webhook address.
import { expect, newClientContext, newUser, signIn, signUp, stack, test } from "../src/fixtures.ts";
import { startReceiver } from "../src/receiver.ts";

const SESSION_COOKIE = "next-auth.session-token";

test("an expired session on a sidebar click lands on /login with the deep link, and sign-in returns to it", async ({ page, context }) => {
  const user = newUser("Istek");
  await signUp(page, user);
  await page.goto("/dashboard");
  for (const [expire, target, testId] of [
    ["drop", "/keys", "nav-keys"],
    ["tamper", "/webhooks", "nav-webhooks"],
  ] as const) {
    await test.step(`${expire === "drop" ? "cookie gone" : "token no longer valid"}: click ${target}`, async () => {
      const cookies = await context.cookies();
      const session = cookies.find((c) => c.name === SESSION_COOKIE);
      expect(session, "signed in with a session cookie").toBeTruthy();
      if (expire === "drop") await context.clearCookies({ name: SESSION_COOKIE });
      else await context.addCookies([{ ...session!, value: `${session!.value.slice(0, -8)}AAAAAAAA` }]);
      await page.getByTestId(testId).click();
      await page.waitForURL((url) => url.pathname === "/login");
      expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(target);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Prijava");
      await expect(page.getByText("Stranicu nije moguće učitati")).toHaveCount(0);
      await page.getByTestId("login-email").fill(user.email);
      await page.getByTestId("login-password").fill(user.password);
      await page.getByTestId("login-submit").click();
      await page.waitForURL((url) => url.pathname === target);
      await expect(page.getByTestId("user-email")).toHaveAttribute("title", user.email);
    });
  }
});

test("an expired session on a button click (a portal call, not a page load) lands on /login and returns to the page", async ({ page, context }) => {
  const user = newUser("IstekGumb");
  await signUp(page, user);
  await page.goto("/keys");
  const session = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
  expect(session, "signed in with a session cookie").toBeTruthy();
  await context.addCookies([{ ...session!, value: `${session!.value.slice(0, -8)}AAAAAAAA` }]);
  await page.getByTestId("key-name").fill("Blagajna");
  await page.getByTestId("create-key").click();
  await page.waitForURL((url) => url.pathname === "/login");
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/keys");
  await page.getByTestId("login-email").fill(user.email);
  await page.getByTestId("login-password").fill(user.password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL((url) => url.pathname === "/keys");
  await expect(page.getByTestId("keys-table").or(page.getByTestId("keys-empty"))).toBeVisible();
});

test("a deep link opened without a session keeps its path and query through sign-in", async ({ page }) => {
  const user = newUser("Poveznica");
  await signUp(page, user);
  await page.context().clearCookies();
  await page.goto("/plan?od=poveznica");
  await page.waitForURL((url) => url.pathname === "/login");
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/plan?od=poveznica");
  await page.getByTestId("login-email").fill(user.email);
  await page.getByTestId("login-password").fill(user.password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL((url) => url.pathname === "/plan");
  expect(new URL(page.url()).search).toBe("?od=poveznica");
  await expect(page.getByTestId("current-plan")).toBeVisible();
});

test("an operator signing in without a page to return to lands on /admin; a customer on /dashboard", async ({ page, browser }) => {
  await signIn(page, stack.operator.email, stack.operator.password);
  expect(new URL(page.url()).pathname).toBe("/admin");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Administracija");
  const customer = newUser("Kupac");
  const other = await newClientContext(browser);
  const p2 = await other.newPage();
  await signUp(p2, customer);
  await p2.getByTestId("sign-out").click();
  await p2.waitForURL("**/login");
  await signIn(p2, customer.email, customer.password);
  expect(new URL(p2.url()).pathname).toBe("/dashboard");
  await other.close();
});

test("“Testni događaj” right after adding an address stays on /webhooks, 10 times in a row", async ({ page }) => {
  const user = newUser("Brzi");
  await signUp(page, user);
  const receiver = await startReceiver();
  try {
    await page.goto("/webhooks");
    for (let i = 1; i <= 10; i++) {
      await test.step(`try ${i}`, async () => {
        await page.getByTestId("webhook-url").fill(`${receiver.url}/${i}`);
        await page.getByTestId("create-webhook").click();
        const row = page.getByTestId("webhook-row").filter({ hasText: `${receiver.url}/${i}` });
        await row.getByTestId("send-test-event").click();
        await expect(page.getByTestId("webhooks-message")).toContainText("Testni događaj", { timeout: 10_000 });
        expect(new URL(page.url()).pathname).toBe("/webhooks");
        // remove it again so the account stays under its endpoint limit
        await row.getByRole("button", { name: /^Obriši/ }).click();
        await page.getByRole("dialog").getByRole("button", { name: "Obriši" }).click();
        await expect(row).toHaveCount(0);
        expect(new URL(page.url()).pathname).toBe("/webhooks");
      });
    }
  } finally {
    await receiver.close();
  }
});
