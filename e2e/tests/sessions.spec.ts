// Portal sessions end on the server: sign-out, "Sesije" and a password change each make an old
// session cookie worthless, and the session list shows every browser a user is signed in with.
import type { Browser, BrowserContext } from "@playwright/test";
import { randomInt } from "node:crypto";
import { expect, newUser, signIn, signUp, stack, test, trpcCall } from "../src/fixtures.ts";
import { mailTo, waitForMail } from "../src/mail.ts";

const SESSION_COOKIE = "next-auth.session-token";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

/** A second browser: another User-Agent and another client address behind the portal's proxy. */
async function otherBrowser(browser: Browser): Promise<{ context: BrowserContext; ip: string }> {
  const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const context = await browser.newContext({
    baseURL: stack.portalUrl,
    extraHTTPHeaders: { "X-Forwarded-For": ip },
    userAgent: FIREFOX_WINDOWS,
    locale: "hr-HR",
    timezoneId: "Europe/Zagreb",
  });
  return { context, ip };
}

test("after Odjava the old session cookie put back opens nothing: pages go to /login, portal calls get 401", async ({ page, context }) => {
  const user = newUser("Odjava");
  await signUp(page, user);
  await page.goto("/keys");
  const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
  expect(cookie, "signed in with a session cookie").toBeTruthy();
  // The cookie lives as long as the session: 7 days, not next-auth's default of 30.
  const days = (cookie!.expires * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(6.99);
  expect(days).toBeLessThanOrEqual(7);
  expect((await trpcCall(context.request, "query", "account.me")).status).toBe(200);

  await page.getByTestId("sign-out").click();
  await page.waitForURL((url) => url.pathname === "/login");
  expect((await context.cookies()).find((c) => c.name === SESSION_COOKIE), "sign-out removed the cookie").toBeUndefined();

  await context.addCookies([cookie!]);
  await page.goto("/keys");
  await page.waitForURL((url) => url.pathname === "/login");
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/keys");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Prijava");
  const call = await trpcCall(context.request, "query", "account.me");
  expect(call.status).toBe(401);
  expect(call.body.error.message).toBe("Prijavite se za nastavak.");
});

test("Sesije lists the sessions of two browsers and ends the other one; that browser is signed out", async ({ page, browser, security }) => {
  const user = newUser("Sesije");
  await signUp(page, user);
  const other = await otherBrowser(browser);
  await security.watch(other.context);
  const otherPage = await other.context.newPage();
  await signIn(otherPage, user.email, user.password);

  await page.goto("/account/sessions");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sesije");
  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(2);
  await expect(page.locator('[data-testid=session-row][data-current="true"]')).toHaveCount(1);
  const otherRow = page.locator('[data-testid=session-row][data-current="false"]');
  await expect(otherRow).toContainText("Firefox, Windows");
  await expect(otherRow.getByTestId("session-ip")).toHaveText(other.ip);
  await expect(page.locator('[data-testid=session-row][data-current="true"]')).toContainText("Chrome, Linux");

  await otherRow.getByTestId("end-session").click();
  const dialog = page.getByTestId("end-session-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("confirm-end-session").click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("sessions-notice")).toHaveText("Sesija (Firefox, Windows) je završena.");
  await expect(rows).toHaveCount(1);
  // Focus stays in the page: on the outcome, not on <body>.
  await expect(page.getByTestId("sessions-outcome")).toBeFocused();

  await otherPage.goto("/keys");
  await otherPage.waitForURL((url) => url.pathname === "/login");
  expect((await trpcCall(other.context.request, "query", "account.me")).status).toBe(401);
  // This browser stays signed in.
  await page.goto("/keys");
  expect(new URL(page.url()).pathname).toBe("/keys");
  await other.context.close();
});

test("Završi sve ostale ends every other session and keeps this one", async ({ page, browser, security }) => {
  const user = newUser("SveOstale");
  await signUp(page, user);
  const others = [await otherBrowser(browser), await otherBrowser(browser)];
  for (const o of others) {
    await security.watch(o.context);
    await signIn(await o.context.newPage(), user.email, user.password);
  }
  await page.goto("/account/sessions");
  await expect(page.getByTestId("session-row")).toHaveCount(3);
  await page.getByTestId("end-other-sessions").click();
  await page.getByTestId("confirm-end-session").click();
  await expect(page.getByTestId("sessions-notice")).toHaveText("Završeno: 2 sesije.");
  await expect(page.getByTestId("session-row")).toHaveCount(1);
  await expect(page.getByTestId("end-other-sessions")).toBeDisabled();
  for (const o of others) {
    expect((await trpcCall(o.context.request, "query", "account.me")).status).toBe(401);
    await o.context.close();
  }
});

test("a password change ends every other session; the new password signs in, the old one does not", async ({ page, browser, security }) => {
  const user = newUser("Lozinka");
  await signUp(page, user);
  const other = await otherBrowser(browser);
  await security.watch(other.context);
  const otherPage = await other.context.newPage();
  await signIn(otherPage, user.email, user.password);

  await page.goto("/account/security");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lozinka i prijava");
  // Checked in the page, in Croatian, before anything is sent.
  await page.getByTestId("password-current").fill(user.password);
  await page.getByTestId("password-next").fill("kratka");
  await page.getByTestId("password-submit").click();
  await expect(page.getByTestId("password-notice")).toHaveText("Nova lozinka mora imati barem 10 znakova.");
  await page.getByTestId("password-current").fill("Pogresna-lozinka-1");
  await page.getByTestId("password-next").fill("Nova-lozinka-123456");
  await page.getByTestId("password-repeat").fill("Nova-lozinka-123456");
  await page.getByTestId("password-submit").click();
  await expect(page.getByTestId("password-notice")).toHaveText("Trenutačna lozinka nije ispravna.");
  expect((await trpcCall(other.context.request, "query", "account.me")).status, "a refused change ends nothing").toBe(200);

  const next = `Nova-${user.password}`;
  await page.getByTestId("password-current").fill(user.password);
  await page.getByTestId("password-next").fill(next);
  await page.getByTestId("password-repeat").fill(next);
  await page.getByTestId("password-submit").click();
  await expect(page.getByTestId("password-notice")).toHaveText("Lozinka je promijenjena. Odjavljeno: 1 sesija na drugim uređajima.");
  await expect(page.getByTestId("password-outcome")).toBeFocused();

  await otherPage.goto("/dashboard");
  await otherPage.waitForURL((url) => url.pathname === "/login");
  await page.goto("/dashboard");
  expect(new URL(page.url()).pathname).toBe("/dashboard");

  await otherPage.getByTestId("login-email").fill(user.email);
  await otherPage.getByTestId("login-password").fill(user.password);
  await otherPage.getByTestId("login-submit").click();
  await expect(otherPage.getByTestId("login-error")).toHaveText("Neispravan e-mail ili lozinka.");
  await signIn(otherPage, user.email, next);
  await other.context.close();
});

test("a sign-in from a kind of device not seen before is told by e-mail, once; the sign-up's own device is not", async ({ page, browser, security }) => {
  const user = newUser("Uredaj");
  await signUp(page, user);
  const NEW_DEVICE = /^Nova prijava na Fiskal s novog uređaja$/;
  const other = await otherBrowser(browser);
  await security.watch(other.context);
  const otherPage = await other.context.newPage();
  await signIn(otherPage, user.email, user.password);
  const mail = await waitForMail(user.email, NEW_DEVICE);
  expect(mail.text).toContain(`Firefox, Windows (adresa ${other.ip})`);
  expect(mail.text).toContain(`${stack.portalUrl}/account/sessions`);

  // The same kind again, and the sign-up's own browser again: no further message.
  await otherPage.getByTestId("sign-out").click();
  await otherPage.waitForURL("**/login");
  await signIn(otherPage, user.email, user.password);
  await page.getByTestId("sign-out").click();
  await page.waitForURL("**/login");
  await signIn(page, user.email, user.password);
  // A later message would have arrived by now: the catcher has the first within a second.
  await new Promise((r) => setTimeout(r, 1_500));
  expect((await mailTo(user.email)).filter((m) => NEW_DEVICE.test(m.subject))).toHaveLength(1);
  await other.context.close();
});
