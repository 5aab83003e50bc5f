// A team: the owner invites an accountant from the Tim page, the invitation arrives by e-mail (read
// from the SMTP catcher the stack sends to), the accountant accepts and signs in, and cannot create
// keys: the page is not offered (no link, 403 page without the form) and the server refuses the call.
import AxeBuilder from "@axe-core/playwright";
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { createKeyInPortal, expect, newClientContext, newUser, signUp, stack, test, trpcCall } from "../src/fixtures.ts";
import { waitForMail } from "../src/mail.ts";

async function axeSerious(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  return axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

test("an invited accountant accepts from the e-mail and cannot create keys", async ({ page, browser, security }) => {
  test.setTimeout(120_000);
  const owner = newUser("Vlasnik");
  await signUp(page, owner);
  await createKeyInPortal(page, "Blagajna");
  const accountantEmail = `racunovodja-${randomBytes(4).toString("hex")}@e2e.fiskal.test`;

  await test.step("the owner invites an accountant; the page validates in Croatian and keeps the focus", async () => {
    await page.getByTestId("nav-team").click();
    await expect(page.getByRole("heading", { level: 1, name: "Tim" })).toBeVisible();
    await page.getByTestId("invite-submit").click();
    await expect(page.getByTestId("invite-email-error")).toHaveText("Unesite e-mail adresu osobe koju pozivate.");
    await expect(page.locator("#invite-email")).toBeFocused();
    await page.locator("#invite-email").fill(accountantEmail);
    await page.locator("#invite-role").selectOption("ACCOUNTANT");
    await page.getByTestId("invite-submit").click();
    await expect(page.getByTestId("team-ok")).toHaveText(`Poziv je poslan na ${accountantEmail}.`);
    await expect(page.getByTestId("team-outcome")).toBeFocused();
    await expect(page.getByTestId("invitation-row")).toHaveAttribute("data-email", accountantEmail);
  });

  const mail = await test.step("the invitation arrives by e-mail, in Croatian", async () => {
    const m = await waitForMail(accountantEmail, /^Poziv u tim tvrtke /);
    expect(m.subject).toBe(`Poziv u tim tvrtke ${owner.company} na Fiskalu`);
    expect(m.text).toContain(`${owner.email} poziva vas da se pridružite timu tvrtke ${owner.company} na Fiskalu s ulogom: računovođa.`);
    expect(m.envelope.to).toEqual([accountantEmail]);
    return m;
  });
  const link = /(http:\/\/\S+\/invite\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect(link, mail.text).toBeDefined();
  expect(link!.startsWith(stack.portalUrl)).toBe(true);

  const context = await newClientContext(browser);
  await security.watch(context);
  const accountant = await context.newPage();
  const password = `Lozinka-${randomBytes(6).toString("hex")}`;

  await test.step("the accept page: axe finds nothing serious at 1440 and 390 px; the accountant sets a password", async () => {
    for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
      await accountant.setViewportSize(size);
      await accountant.goto(link!);
      await expect(accountant.getByTestId("invite-summary")).toContainText(`Pozvani ste kao računovođa na adresu ${accountantEmail}`);
      expect(await axeSerious(accountant), `axe at ${size.width} px`).toEqual([]);
    }
    await accountant.getByTestId("accept-password").fill("kratka");
    await accountant.getByTestId("accept-submit").click();
    await expect(accountant.getByTestId("accept-error")).toHaveText("Lozinka mora imati barem 10 znakova.");
    await accountant.getByTestId("accept-name").fill("Ana Računić");
    await accountant.getByTestId("accept-password").fill(password);
    await accountant.getByTestId("accept-password2").fill(password);
    await accountant.getByTestId("accept-submit").click();
    await accountant.waitForURL("**/team");
    await expect(accountant.getByTestId("my-role")).toHaveText("Vaša uloga: računovođa");
    await expect(accountant.getByTestId("user-email")).toHaveAttribute("title", accountantEmail);
  });

  await test.step("the UI offers no keys to the accountant: no link, and /keys answers 403 without the form", async () => {
    await accountant.setViewportSize({ width: 1440, height: 900 });
    await expect(accountant.getByTestId("nav-keys")).toHaveCount(0);
    await expect(accountant.getByTestId("nav-audit")).toHaveCount(1);
    const res = await accountant.goto("/keys");
    expect(res?.status()).toBe(403);
    await expect(accountant.getByTestId("forbidden-title")).toHaveText("Nemate pristup");
    await expect(accountant.getByTestId("key-name")).toHaveCount(0);
    await expect(accountant.getByTestId("create-key")).toHaveCount(0);
    // The dashboard shows usage without the request log.
    expect((await accountant.goto("/dashboard"))?.status()).toBe(200);
    await expect(accountant.locator("#log-title")).toHaveCount(0);
  });

  await test.step("the server refuses the accountant's key creation, and nothing is created", async () => {
    const refused = await trpcCall(accountant.request, "mutation", "keys.create", { name: "Zabranjeni" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.code).toBe("FORBIDDEN");
    expect(refused.body.error.message).toBe("Uloga „računovođa” nema pravo na ovu radnju.");
    const listed = await trpcCall(page.request, "query", "keys.list");
    expect(listed.status).toBe(200);
    expect(listed.body.result.data.map((k: { name: string }) => k.name)).toEqual(["Blagajna"]);
  });

  await test.step("the owner sees the accountant in the team and the audit log records the invitation and the acceptance", async () => {
    await page.goto("/team");
    await expect(page.locator(`[data-testid="member-row"][data-email="${accountantEmail}"]`)).toHaveAttribute("data-role", "ACCOUNTANT");
    await expect(page.getByTestId("no-invitations")).toBeVisible();
    const audit = await trpcCall(page.request, "query", "audit.list", { action: "team." });
    expect(audit.body.result.data.items.map((i: { action: string }) => i.action)).toEqual(["team.joined", "team.invited"]);
  });

  await test.step("the last owner cannot leave; the dialog returns the focus to its button", async () => {
    const mine = page.locator('[data-testid="member-row"]').filter({ hasText: owner.email });
    const button = mine.getByTestId("member-remove");
    await button.click();
    await expect(page.getByTestId("remove-dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(button).toBeFocused();
    await button.click();
    await page.getByTestId("confirm-remove").click();
    await expect(page.getByTestId("team-error")).toHaveText("Račun mora imati barem jednog vlasnika. Prvo dodijelite ulogu vlasnika drugom članu.");
    await expect(page.getByTestId("team-outcome")).toBeFocused();
  });
  await test.step("the accountant leaves the team: the page says so and the focus moves to that notice", async () => {
    await accountant.goto("/team");
    await accountant.getByTestId("leave-team").click();
    await accountant.getByTestId("confirm-leave").click();
    await expect(accountant.getByTestId("not-member")).toHaveText("Više niste član tima ovog računa.");
    await expect(accountant.getByTestId("not-member-box")).toBeFocused();
    await page.goto("/team");
    await expect(page.locator(`[data-testid="member-row"][data-email="${accountantEmail}"]`)).toHaveCount(0);
  });
  await context.close();
});
