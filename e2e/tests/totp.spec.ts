// Two-factor sign-in: enable TOTP on the account page, sign in with a code computed here from the
// secret (an implementation of RFC 6238 of its own, not the portal's), a recovery code works once,
// and the operator can require it of every owner.
import { createHmac } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, newClientContext, newUser, signIn, signUp, stack, test, trpcData } from "../src/fixtures.ts";

function base32(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of text) bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

const stepNow = () => Math.floor(Date.now() / 30_000);

function codeAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", base32(secret)).update(counter).digest();
  const o = mac[19]! & 15;
  return String((mac.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

async function enableTotp(page: Page): Promise<{ secret: string; step: number; recovery: string[] }> {
  await page.goto("/account/security");
  await page.getByTestId("totp-begin").click();
  const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByTestId("totp-qr").getByRole("img", { name: "QR kod za aplikaciju za autentifikaciju" })).toBeVisible();
  await expect(page.getByTestId("totp-code")).toBeFocused();
  const step = stepNow();
  await page.getByTestId("totp-code").fill(codeAt(secret, step));
  await page.getByTestId("totp-confirm").click();
  await expect(page.getByTestId("totp-notice")).toContainText("Dvofaktorska prijava je uključena.");
  await expect(page.getByTestId("totp-outcome")).toBeFocused();
  const recovery = (await page.getByTestId("recovery-code").allTextContents()).map((c) => c.trim());
  expect(recovery).toHaveLength(10);
  expect(new Set(recovery).size).toBe(10);
  return { secret, step, recovery };
}

async function passwordStep(page: Page, email: string, password: string): Promise<void> {
  await pace(page);
  await page.goto("/login");
  await page.getByTestId("login-email").fill(email);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await expect(page.getByTestId("login-error")).toHaveText("Unesite kôd iz aplikacije za autentifikaciju ili jedan od kodova za oporavak.");
  await expect(page.getByTestId("login-code")).toBeFocused();
}

/** Sign-in allows 3 attempts a second per (e-mail, address): the test types no faster than a person. */
const pace = (page: Page) => page.waitForTimeout(400);

async function submitCode(page: Page, code: string): Promise<void> {
  await pace(page);
  await page.getByTestId("login-code").fill(code);
  await page.getByTestId("login-submit").click();
}

async function signOut(page: Page): Promise<void> {
  await page.getByTestId("sign-out").click();
  await page.waitForURL((url) => url.pathname === "/login");
}

test("with TOTP on, sign-in asks for the code after the password; a code works once per step, a recovery code once", async ({ page: first, browser, security }) => {
  let page = first;
  const user = newUser("Dvofaktor");
  await signUp(page, user);
  const { secret, step, recovery } = await enableTotp(page);
  await expect(page.getByTestId("totp-state")).toContainText("Preostalo kodova za oporavak: 10.");
  await signOut(page);

  // A wrong password still says only that: the second factor is not revealed.
  await page.goto("/login");
  await page.getByTestId("login-email").fill(user.email);
  await page.getByTestId("login-password").fill("Kriva-lozinka-123");
  await page.getByTestId("login-submit").click();
  await expect(page.getByTestId("login-error")).toHaveText("Neispravan e-mail ili lozinka.");
  await expect(page.getByTestId("login-code")).toHaveCount(0);

  await passwordStep(page, user.email, user.password);
  // The code of the enabling step was used up; one from a minute and a half ago is too old.
  await submitCode(page, codeAt(secret, step));
  await expect(page.getByTestId("login-error")).toHaveText("Kôd nije ispravan ili je već iskorišten.");
  await submitCode(page, codeAt(secret, stepNow() - 3));
  await expect(page.getByTestId("login-error")).toHaveText("Kôd nije ispravan ili je već iskorišten.");
  const next = Math.max(stepNow(), step + 1);
  await submitCode(page, codeAt(secret, next));
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await expect(page.getByTestId("user-email")).toHaveAttribute("title", user.email);
  await signOut(page);

  // Another browser (another address, with its own 10 attempts a minute): a recovery code signs in once.
  const second = await newClientContext(browser);
  await security.watch(second);
  page = await second.newPage();
  await passwordStep(page, user.email, user.password);
  await submitCode(page, recovery[3]!.toUpperCase());
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await page.goto("/account/security");
  await expect(page.getByTestId("totp-state")).toContainText("Preostalo kodova za oporavak: 9.");
  await signOut(page);
  await passwordStep(page, user.email, user.password);
  await submitCode(page, recovery[3]!);
  await expect(page.getByTestId("login-error")).toHaveText("Kôd nije ispravan ili je već iskorišten.");

  // Turned off with the password, sign-in is the password alone again.
  await submitCode(page, recovery[4]!);
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await page.goto("/account/security");
  await page.getByTestId("totp-disable-password").fill(user.password);
  await page.getByTestId("totp-disable").click();
  await expect(page.getByTestId("totp-notice")).toHaveText("Dvofaktorska prijava je isključena.");
  await signOut(page);
  await signIn(page, user.email, user.password);
  await second.close();
});

// The rule is portal-wide: while it is on, no other test may sign up or open a page as an owner.
test("the operator requires TOTP of every owner: one without it is sent to enable it and cannot turn it off", { lock: "-exclusive-" }, async ({ page, browser }) => {
  const operator = await newClientContext(browser);
  const op = await operator.newPage();
  await signIn(op, stack.operator.email, stack.operator.password);
  await op.goto("/admin");
  try {
    await op.getByTestId("require-totp").check();
    await expect(op.getByTestId("totp-policy-notice")).toHaveText("Vlasnici računa moraju uključiti dvofaktorsku prijavu.");
    expect((await trpcData(operator.request, "query", "security.totpPolicy")).requireTotpForOwners).toBe(true);

    const user = newUser("Obavezno");
    await page.goto("/signup");
    await page.getByTestId("signup-company").fill(user.company);
    await page.getByTestId("signup-email").fill(user.email);
    await page.getByTestId("signup-password").fill(user.password);
    await page.getByTestId("signup-password2").fill(user.password);
    await page.getByTestId("signup-submit").click();
    await page.waitForURL((url) => url.pathname === "/account/security");
    await expect(page.getByTestId("totp-mandatory")).toBeVisible();
    await page.goto("/keys");
    await page.waitForURL((url) => url.pathname === "/account/security");

    await enableTotp(page);
    await page.goto("/keys");
    expect(new URL(page.url()).pathname).toBe("/keys");
    await page.goto("/account/security");
    await expect(page.getByTestId("totp-disable-form")).toHaveCount(0);
    const refused = await page.request.post(`${stack.portalUrl}/api/trpc/security.totpDisable`, {
      data: { password: user.password },
      headers: { "content-type": "application/json" },
    });
    expect(refused.status()).toBe(403);
  } finally {
    // The rule is portal-wide: the other tests' sign-ups must not inherit it.
    await trpcData(operator.request, "mutation", "security.setTotpPolicy", { requireTotpForOwners: false });
    await operator.close();
  }
});
