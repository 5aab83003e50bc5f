// Smaller defects of issue 15, each checked in the browser: webhook address errors and the test
// event in Croatian, failed deliveries shown as failed, the empty delivery log, the delete dialog's
// wording, cancelling a pending upgrade, the operator's badge and customer view, the API reference's
// curl examples and the 429 doc_url's anchor.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { callApi, createKeyInPortal, expect, newClientContext, newUser, signIn, signUp, stack, test, validateOib } from "../src/fixtures.ts";

test("webhooks: Croatian address errors, an explained empty log, a failing receiver shown as failed, an unbroken delete dialog", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page, newUser("Isporuke"));
  await page.goto("/webhooks");
  await expect(page.getByTestId("webhook-log-empty")).toContainText("Još nema isporuka");

  await test.step("refused addresses are explained in Croatian", async () => {
    for (const [url, expected] of [
      ["ftp://primjer.hr/hook", "Shema ftp nije dopuštena"],
      ["https://korisnik:lozinka@primjer.hr/hook", "ne smije sadržavati korisničko ime ni lozinku"],
      ["http://224.0.0.1/hook", "multicast adresa"],
    ] as const) {
      await page.getByTestId("webhook-url").fill(url);
      await page.getByTestId("create-webhook").click();
      const message = page.getByTestId("webhooks-message");
      await expect(message).toContainText(expected);
      await expect(message).not.toContainText(/not allowed|address|scheme/);
    }
  });

  // a receiver that always answers 500
  const server = http.createServer((req, res) => req.resume().on("end", () => res.writeHead(500).end("pokvaren")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/primjer/vrlo/duga/adresa/za/webhook/koja/se/mora/prelomiti`;
  try {
    await page.getByTestId("webhook-url").fill(url);
    await page.getByTestId("create-webhook").click();
    await expect(page.getByTestId("webhook-row")).toHaveCount(1);
    await page.getByTestId("send-test-event").click();
    await expect(page.getByTestId("webhooks-message")).toContainText("Testni događaj");
    const delivery = page.getByTestId("webhook-delivery").first();
    await expect(async () => {
      await page.reload();
      await expect(delivery.getByTestId("delivery-status")).toHaveText("Neuspjelo, ponovit će se", { timeout: 1_000 });
    }).toPass({ timeout: 20_000, intervals: [500, 1_000] });
    await expect(delivery).not.toContainText("U tijeku");
    await expect(delivery).toContainText("sljedeći pokušaj");
    // the test event's own text is Croatian
    await delivery.locator("summary").click();
    await expect(delivery.locator("pre").first()).toContainText("Ovo je testni događaj iz Fiskala.");
    await expect(delivery).toContainText("HTTP 500");
  } finally {
    server.closeAllConnections();
    server.close();
  }

  await test.step("the delete dialog breaks only the URL, never a word of its sentence", async () => {
    await page.getByRole("button", { name: /^Obriši http/ }).click();
    const dialog = page.getByTestId("webhook-confirm");
    await expect(dialog).toBeVisible();
    const text = dialog.locator("#wh-confirm-text");
    await expect(text).toContainText("bit će obrisan");
    const breaks = await text.evaluate((p) => ({ wordBreak: getComputedStyle(p).wordBreak, overflowWrap: getComputedStyle(p).overflowWrap }));
    expect(breaks).toEqual({ wordBreak: "normal", overflowWrap: "normal" });
    const box = await dialog.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await dialog.getByRole("button", { name: "Obriši" }).click();
    await expect(page.getByTestId("webhooks-empty")).toBeVisible();
  });
});

// The badge counts every account's pending upgrades: no other test may ask for or settle one meanwhile.
test("a pending upgrade can be cancelled; the operator sees the badge, lands on /admin and opens the customer's usage and windows", { lock: "-exclusive-" }, async ({ page, browser }) => {
  const user = newUser("Otkaz");
  await signUp(page, user);
  const key = await createKeyInPortal(page, "Blagajna");
  for (let i = 0; i < 3; i++) expect((await validateOib(key)).status).toBe(200);
  await page.goto("/plan");
  await page.getByTestId("upgrade-starter").click();
  await expect(page.getByTestId("pending-request")).toBeVisible();

  const operator = await newClientContext(browser);
  const admin = await operator.newPage();
  await signIn(admin, stack.operator.email, stack.operator.password);
  expect(new URL(admin.url()).pathname).toBe("/admin");
  const badge = admin.getByTestId("pending-badge");
  await expect(badge).toBeVisible();
  const before = Number((await badge.textContent())?.match(/^\d+/)?.[0]);
  expect(before).toBeGreaterThanOrEqual(1);

  await test.step("the customer view shows usage and the current windows, read without consuming any", async () => {
    await admin.getByTestId("account-link").filter({ hasText: user.company }).click();
    await admin.waitForURL("**/admin/accounts/*");
    await expect(admin.getByTestId("account-name")).toHaveText(user.company);
    const minute = admin.locator('[data-testid="account-window"][data-policy="minute"]');
    await expect(minute.getByTestId("window-remaining")).toHaveText("57");
    await expect(admin.locator('[data-testid="account-window"][data-policy="endpoint:oib"]')).toBeVisible();
    await admin.reload();
    await expect(minute.getByTestId("window-remaining")).toHaveText("57");
    const limits = await callApi(key, "GET", "/v1/limits");
    expect(limits.body.windows.find((w: { name: string }) => w.name === "minute").remaining).toBe(57);
  });

  await test.step("the customer cancels; the badge counts one less", async () => {
    await page.getByTestId("cancel-request").click();
    await expect(page.getByTestId("plan-message")).toContainText("Zahtjev je otkazan");
    await expect(page.getByTestId("pending-request")).toHaveCount(0);
    await expect(page.locator('[data-testid="upgrade-status"]').first()).toHaveText("Otkazano");
    await expect(page.getByTestId("upgrade-starter")).toBeEnabled();
    await admin.goto("/admin");
    if (before === 1) await expect(admin.getByTestId("pending-badge")).toHaveCount(0);
    else await expect(admin.getByTestId("pending-badge")).toContainText(String(before - 1));
  });
  await operator.close();
});

test("/docs/api: a curl example with a copy button per endpoint; the 429 doc_url lands on its section", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/docs/api");
  const ops = page.getByTestId("api-operation");
  const count = await ops.count();
  expect(count).toBeGreaterThan(5);
  await expect(page.getByTestId("curl-example")).toHaveCount(count);
  await expect(page.getByTestId("copy-curl")).toHaveCount(count);
  const oib = ops.filter({ hasText: "/v1/validate/oib" }).first();
  const curl = (await oib.getByTestId("curl-example").textContent()) ?? "";
  expect(curl).toContain(`curl -s -X POST '${stack.apiUrl}/v1/validate/oib'`);
  expect(curl).toContain('-d \'{"oib":"69435151530"}\'');
  await oib.getByTestId("copy-curl").click();
  await expect(oib.getByTestId("copy-curl")).toHaveText("Kopirano ✓");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(curl);

  // a 429's doc_url opens the page scrolled to the section about the 429 answer
  const key = await (async () => {
    const p = await context.newPage();
    await signUp(p, newUser("Sidro"));
    const k = await createKeyInPortal(p, "k");
    await p.close();
    return k;
  })();
  const answers = await Promise.all(Array.from({ length: 14 }, () => validateOib(key)));
  const refused = answers.find((r) => r.status === 429);
  expect(refused, "a burst of 14 on Sandbox refuses some").toBeTruthy();
  const docUrl: string = refused!.body.error.doc_url;
  expect(new URL(docUrl).hash).toBe("#odgovor-429");
  await page.goto(docUrl);
  const section = page.locator("#odgovor-429");
  await expect(section).toHaveText("Odgovor 429");
  await expect(section).toBeInViewport();
});
