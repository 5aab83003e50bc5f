// E-mail end to end: an operator approves a customer's upgrade in the portal, and the customer's
// owner receives the Croatian notice over SMTP (read from the catcher the stack sends to).
import { expect, newClientContext, newUser, signIn, signUp, stack, test } from "../src/fixtures.ts";
import { mailTo, waitForMail } from "../src/mail.ts";

test("the plan approval reaches the owner by e-mail", async ({ page, browser, security }) => {
  test.setTimeout(90_000);
  const owner = newUser("Posta");
  await signUp(page, owner);
  await page.goto("/plan");
  await page.getByTestId("upgrade-starter").click();
  await expect(page.getByTestId("plan-message")).toBeVisible();
  expect(await mailTo(owner.email)).toEqual([]);

  const context = await newClientContext(browser);
  await security.watch(context);
  const operator = await context.newPage();
  await signIn(operator, stack.operator.email, stack.operator.password);
  await operator.goto("/admin");
  const row = operator.locator(`[data-testid="pending-request-row"][data-account="${owner.company}"]`);
  await row.getByTestId("approve-request").click();
  await expect(row).toHaveCount(0);

  const mail = await waitForMail(owner.email, /^Odobren je paket/);
  expect(mail.subject).toBe("Odobren je paket Starter");
  expect(mail.text).toContain(`zahtjev tvrtke ${owner.company} za prelazak na paket Starter je odobren. Nove kvote vrijede odmah za sve API ključeve.`);
  expect(mail.text).toContain(`Pregled paketa: ${stack.portalUrl}/plan`);
  expect(mail.from).toContain("noreply@fiskal.test");
  expect(mail.html).toContain('<html lang="hr">');
  expect(await mailTo(owner.email)).toHaveLength(1);
  await context.close();
});
