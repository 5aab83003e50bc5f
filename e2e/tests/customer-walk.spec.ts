// A customer's walk through the portal (issue 27, items 6–12): the month beside today with one
// success rate for customer and operator, bad dashboard parameters answered with a notice, a rotated
// key keeping its expiry, no English left in the interface, focus kept on a sensible element, the
// keys table and the request detail inside the screen, and the small defects of the operator view,
// the 403 page, the export and the audit log.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { createDb } from "@fiskal/db";
import { callApi, createKeyInPortal, eventually, expect, newClientContext, newUser, signIn, signUp, stack, test, validateOib } from "../src/fixtures.ts";

async function accountIdOf(email: string): Promise<string> {
  const db = createDb(stack.databaseUrl, { max: 1 });
  try {
    return (await db.user.findUniqueOrThrow({ where: { email }, select: { accountId: true } })).accountId;
  } finally {
    await db.$disconnect();
  }
}

/** The focused element's test id chain, or "BODY" when focus fell to the page. */
async function focusInside(page: Page, testId: string): Promise<boolean> {
  return page.evaluate((id) => {
    const el = document.activeElement;
    return !!el && el !== document.body && !!el.closest(`[data-testid="${id}"]`);
  }, testId);
}

async function waitForLog(page: Page, n: number): Promise<void> {
  await eventually(
    async () => {
      await page.goto("/dashboard");
      return (await page.getByTestId("log-row").count()) >= n ? true : undefined;
    },
    `${n} requests in the log`,
    15_000,
  );
}

test("dashboard: bad parameters fall back with a notice; today and the month beside the month before, one success rate for customer and operator", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const user = newUser("Mjesec");
  await signUp(page, user);
  const key = await createKeyInPortal(page, "Mjesečni");

  await test.step("bad parameters: a notice in Croatian, never the error page", async () => {
    for (const q of ["from=aaaaaaaaaaaaaaa", "range=custom&from=2026-11-20T00:00&to=2026-11-21", `status=${"x".repeat(300)}`, `endpoint=${"e".repeat(300)}`]) {
      const res = await page.goto(`/dashboard?${q}`);
      expect(res?.status(), q.slice(0, 40)).toBe(200);
      await expect(page.getByRole("heading", { level: 1, name: "Pregled" }), q.slice(0, 40)).toBeVisible();
      await expect(page.getByTestId("view-problem").first(), q.slice(0, 40)).toBeVisible();
    }
  });

  // 3 × 200 and one 400 (no OIB in the body): 3 of 4 handled requests succeeded
  for (let i = 0; i < 3; i++) expect((await validateOib(key)).status).toBe(200);
  expect((await callApi(key, "POST", "/v1/validate/oib", {})).status).toBe(400);
  await waitForLog(page, 4);

  let customerRate = "";
  await test.step("the month figure beside today and the month before", async () => {
    await expect(page.getByTestId("month-row-month").getByTestId("month-requests")).toHaveText("4");
    await expect(page.getByTestId("month-row-today").getByTestId("month-requests")).toHaveText("4");
    await expect(page.getByTestId("month-row-previous").getByTestId("month-requests")).toHaveText("0");
    await expect(page.getByTestId("month-row-month")).toContainText(new Intl.DateTimeFormat("hr-HR", { month: "long", timeZone: "Europe/Zagreb" }).format(new Date()));
    customerRate = (await page.getByTestId("month-row-month").getByTestId("month-success").textContent())!.trim();
    expect(customerRate).toMatch(/^75\s%$/);
  });

  await test.step("the operator sees the same month and the same success rate", async () => {
    const accountId = await accountIdOf(user.email);
    const ctx = await newClientContext(browser);
    try {
      const op = await ctx.newPage();
      await signIn(op, stack.operator.email, stack.operator.password);
      await op.goto(`/admin/accounts/${accountId}`);
      const month = op.locator(".stat", { hasText: "Zahtjevi ovaj mjesec" });
      await expect(month.locator(".value")).toHaveText("4");
      await expect(op.locator(".stat", { hasText: "Uspješnost (mjesec)" }).locator(".value")).toHaveText(customerRate);
      // the quota's next increase as a human duration, not tens of thousands of seconds
      await expect(op.getByText(/\d{3,} sekund/)).toHaveCount(0);
      await expect(op.locator("body")).not.toContainText("Fiskal operations");
    } finally {
      await ctx.close();
    }
  });
});

test("keys: a rotated key keeps its expiry; focus stays on the outcome; the table stays inside its card from 1280 to 1920 px; the overlap in the audit log", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newUser("Rotacija"));
  await page.goto("/keys");

  await test.step("focus after creating a key", async () => {
    await page.getByTestId("key-name").fill("Tjedni");
    await page.getByTestId("key-expiry").selectOption("7");
    await page.getByTestId("create-key").click();
    await expect(page.getByTestId("new-key-panel")).toBeVisible();
    await expect.poll(() => focusInside(page, "keys-outcome")).toBe(true);
  });
  const row = page.locator('[data-testid="key-row"][data-state="active"]', { hasText: "Tjedni" });
  const expiry = (await row.getByTestId("key-expires").textContent())!.trim();
  expect(expiry).not.toBe("ne istječe");

  await test.step("rotation keeps the expiry; focus on the new key", async () => {
    await row.getByTestId("rotate-key").click();
    await expect(page.getByTestId("rotate-expiry")).toContainText(expiry);
    await page.getByTestId("rotate-overlap").selectOption("3600");
    await page.getByTestId("confirm-rotate").click();
    await expect(page.getByTestId("new-key-panel")).toContainText("Novi ključ");
    await expect.poll(() => focusInside(page, "keys-outcome")).toBe(true);
    await expect(page.locator('[data-testid="key-row"][data-state="active"]').getByTestId("key-expires")).toHaveText(expiry);
  });

  await test.step("after a rotation the table and its buttons stay inside the card", async () => {
    for (const width of [1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      const table = page.getByTestId("keys-table");
      const box = await table.evaluate((t) => {
        const wrap = t.parentElement!;
        const card = t.closest(".card")!.getBoundingClientRect();
        const buttons = Array.from(t.querySelectorAll("button"), (b) => b.getBoundingClientRect());
        return { scroll: wrap.scrollWidth, client: wrap.clientWidth, outside: buttons.filter((b) => b.right > card.right + 0.5 || b.left < card.left - 0.5).length, buttons: buttons.length };
      });
      expect(box.buttons, `${width} px`).toBeGreaterThan(0);
      expect(box.scroll, `${width} px: table ${box.scroll} px in ${box.client} px`).toBeLessThanOrEqual(box.client);
      expect(box.outside, `${width} px`).toBe(0);
    }
  });

  await test.step("focus after revoking a key", async () => {
    await page.locator('[data-testid="key-row"][data-state="rotating"]').getByTestId("revoke-key").click();
    await page.getByTestId("confirm-revoke").click();
    await expect(page.getByTestId("keys-notice")).toContainText("opozvan");
    await expect.poll(() => focusInside(page, "keys-outcome")).toBe(true);
  });

  await test.step("the audit log names the overlap as a duration", async () => {
    await page.goto("/audit");
    const rotated = page.getByTestId("audit-table").locator("tr", { hasText: "Ključ rotiran" });
    await expect(rotated).toContainText("preklapanje: 1 h");
    await expect(rotated).not.toContainText("3600");
  });
});

test("no English in the interface: unmatched routes, the CSV's windows, a disabled webhook, the browser's validation, date fields", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newUser("Hrvatski"));
  const key = await createKeyInPortal(page, "Jezik");
  expect((await callApi(key, "GET", "/v1/nepostojece")).status).toBe(404);
  expect((await validateOib(key)).status).toBe(200);
  await waitForLog(page, 2);

  await test.step("dashboard, filters and CSV without 'unmatched' or English window names", async () => {
    await expect(page.locator("main")).not.toContainText("unmatched");
    await expect(page.getByTestId("filter-endpoint").locator("option", { hasText: "nepoznata putanja" })).toHaveCount(1);
    const csv = await page.request.get("/dashboard/export");
    expect(csv.status()).toBe(200);
    const text = await csv.text();
    expect(text).not.toContain("unmatched");
    expect(text).not.toMatch(/,(burst|minute|day),/);
    expect(text).toContain("nepoznata putanja");
  });

  await test.step("a refused export says nothing was exported, not what a page would show", async () => {
    const res = await page.request.get("/dashboard/export?range=custom&from=2026-11-20T00:00&to=2026-11-21");
    expect(res.status()).toBe(400);
    const body = await res.json();
    expect(body.error.message).not.toContain("prikazana su");
  });

  await test.step("the period's dates are typed as dd. mm. yyyy. and checked in the page", async () => {
    const from = page.getByTestId("range-from");
    await expect(from).toHaveAttribute("type", "text");
    await expect(from).toHaveAttribute("placeholder", "dd. mm. gggg.");
    await from.fill("");
    await page.locator('html[data-form-validation="on"]').waitFor({ state: "attached" });
    await page.getByTestId("range-apply").click();
    await expect(page.getByTestId("field-error").first()).toHaveText("Ispunite ovo polje.");
    await expect(from).toHaveAttribute("aria-invalid", "true");
    await expect(from).toBeFocused();
  });

  await test.step("the chart's numbers in a table, opened with the keyboard", async () => {
    const summary = page.getByTestId("chart-table").locator("summary");
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("chart-table-row").first()).toBeVisible();
    await expect(page.getByTestId("chart-table-row")).toHaveCount(24);
  });

  await test.step("an empty webhook address: a Croatian message in the page, focus on the field", async () => {
    await page.goto("/webhooks");
    await page.locator('html[data-form-validation="on"]').waitFor({ state: "attached" });
    await page.getByTestId("create-webhook").click();
    await expect(page.getByTestId("field-error")).toHaveText("Ispunite ovo polje.");
    await expect(page.getByTestId("webhook-url")).toBeFocused();
    await page.getByTestId("webhook-url").fill("https://primjer.hr/x");
    await expect(page.getByTestId("field-error")).toHaveCount(0);
  });

  await test.step("the focus ring of inputs is solid and in the primary colour", async () => {
    const input = page.getByTestId("webhook-url");
    await input.focus();
    const ring = await input.evaluate((el) => {
      const s = getComputedStyle(el);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor };
    });
    expect(ring.style).toBe("solid");
    expect(ring.width).toBeGreaterThanOrEqual(2);
    expect(ring.color).toBe("rgb(36, 71, 214)");
  });

  await test.step("a 410 Gone disables the address with a Croatian reason; focus on the secret after adding", async () => {
    const server = http.createServer((req, res) => req.resume().on("end", () => res.writeHead(410).end()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await page.getByTestId("webhook-url").fill(`http://127.0.0.1:${(server.address() as AddressInfo).port}/gone`);
      await page.getByTestId("create-webhook").click();
      await expect(page.getByTestId("webhook-secret-panel")).toBeVisible();
      await expect.poll(() => focusInside(page, "webhook-secret-panel")).toBe(true);
      await page.getByTestId("send-test-event").click();
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("webhook-row")).toContainText("410 Gone", { timeout: 1_000 });
      }).toPass({ timeout: 30_000, intervals: [500, 1_000] });
      await expect(page.getByTestId("webhook-row")).not.toContainText("answered");
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

test("at 390 px the request detail fits the screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page, newUser("Detalj"));
  const key = await createKeyInPortal(page, "Uski");
  expect((await validateOib(key)).status).toBe(200);
  await waitForLog(page, 1);
  await page.getByTestId("log-detail-toggle").first().click();
  const detail = page.getByTestId("request-detail");
  await expect(detail).toBeVisible();
  const box = (await detail.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});

test("a customer's 403 has a heading and a way back; the operator's limits form drops a stale error", async ({ page, browser }) => {
  await signUp(page, newUser("Zabrana"));
  const res = await page.goto("/admin");
  expect(res?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "Nemate pristup" })).toBeVisible();
  await page.getByTestId("forbidden-back").click();
  await page.waitForURL("**/dashboard");

  const ctx = await newClientContext(browser);
  try {
    const op = await ctx.newPage();
    await signIn(op, stack.operator.email, stack.operator.password);
    await op.goto("/admin");
    await op.getByTestId("edit-limits").first().click();
    const form = op.locator("form", { has: op.getByTestId("save-limits") });
    // burst above the per-minute limit: refused by the server
    await form.locator('input[name="perMinute"]').fill("10");
    await form.locator('input[name="burst"]').fill("50");
    await op.getByTestId("save-limits").click();
    await expect(op.getByTestId("accounts-message")).toBeVisible();
    await form.locator('input[name="burst"]').fill("5");
    await expect(op.getByTestId("accounts-message")).toHaveCount(0);
  } finally {
    await ctx.close();
  }
});

test("request log: search by request id and the size of the view; a webhook address chooses its event types", async ({ page }) => {
  await signUp(page, newUser("Trazi"));
  const key = await createKeyInPortal(page, "Pretraga");
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await validateOib(key);
    expect(r.status).toBe(200);
    ids.push(r.headers.get("x-request-id")!);
  }
  await waitForLog(page, 3);
  await expect(page.getByTestId("log-count")).toContainText("3 zahtjeva u ovom prikazu");
  await page.getByTestId("filter-request").fill(ids[1]!);
  await page.getByTestId("filter-apply").click();
  await page.waitForURL((u) => u.searchParams.get("request") === ids[1]);
  await expect(page.getByTestId("log-row")).toHaveCount(1);
  await expect(page.getByTestId("log-count")).toContainText("1 zahtjev");
  await page.getByTestId("log-detail-toggle").click();
  await expect(page.getByTestId("request-detail")).toContainText(ids[1]!);

  await page.goto("/webhooks");
  await page.getByTestId("webhook-url").fill("http://127.0.0.1:9/samo-racuni");
  await page.getByTestId("new-event-rate_limit.warning").uncheck();
  await page.getByTestId("create-webhook").click();
  const row = page.getByTestId("webhook-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("row-event-rate_limit.warning")).not.toBeChecked();
  await expect(row.getByTestId("row-event-invoice.fiscalized")).toBeChecked();
  // controlled by the saved state: a click asks the server, the box follows after the refresh
  await row.getByTestId("row-event-rate_limit.warning").click();
  await expect(page.getByTestId("webhooks-message")).toContainText("Vrste događaja su spremljene");
  await page.reload();
  await expect(page.getByTestId("webhook-row").getByTestId("row-event-rate_limit.warning")).toBeChecked();
});
