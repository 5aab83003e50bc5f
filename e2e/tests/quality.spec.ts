// Quality gates over every page of e2e/src/pages.ts, signed out, as a customer with data and as the
// operator: axe-core finds no serious or critical violation (nor a duplicate landmark or a skipped
// heading level) at 1440 and at 390 px; no page scrolls sideways at 390 px; no English word is left in
// the visible text outside code; a screenshot of each page at both widths goes to e2e/artifacts/.
import AxeBuilder from "@axe-core/playwright";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import {
  ARTIFACTS_DIR,
  callApi,
  createKeyInPortal,
  expect,
  newClientContext,
  newUser,
  signIn,
  signUp,
  stack,
  test,
  validateOib,
  type User,
} from "../src/fixtures.ts";
import { englishWords, PAGES, pathOf, type PageData, type Role } from "../src/pages.ts";
import { startReceiver } from "../src/receiver.ts";

// One worker runs this file's tests in order: they add to one axe report (written after the last) and
// the operator's customer view reuses the customer of the test before.
test.describe.configure({ mode: "default" });

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Rules that must not fire at all, whatever axe's impact: the issue's duplicate nav landmark and heading order. */
const ALWAYS_FAIL = new Set(["landmark-unique", "landmark-no-duplicate-banner", "landmark-no-duplicate-contentinfo", "landmark-no-duplicate-main", "heading-order", "page-has-heading-one"]);

type PageReport = { path: string; width: number; serious: number; critical: number; moderate: number; minor: number; violations: string[] };
const report: PageReport[] = [];

/** Visible text outside code: elements set in a monospace font, <code>, <pre> and <kbd> are code or data. */
async function visibleProse(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !node.textContent?.trim()) continue;
      if (el.closest("code, pre, kbd, script, style, noscript, svg, [hidden], [aria-hidden='true']")) continue;
      const style = getComputedStyle(el);
      if (/mono/i.test(style.fontFamily)) continue;
      if (!el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) continue;
      parts.push(node.textContent);
    }
    return parts.join(" ");
  });
}

async function checkPage(page: Page, target: string, name: string, role: Role): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    const res = await page.goto(target);
    // Soft: one page's findings do not hide the next page's; the test fails at its end with all of them.
    expect.soft(res?.status(), `${target} answers`).toBe(name === "not-found" ? 404 : 200);
    expect.soft(new URL(page.url()).pathname, `${target} is shown, not redirected`).toBe(new URL(target, stack.portalUrl).pathname);
    await page.waitForLoadState("networkidle");

    const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
    const count = (impact: string) => axe.violations.filter((v) => v.impact === impact).reduce((n, v) => n + v.nodes.length, 0);
    const failing = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical" || ALWAYS_FAIL.has(v.id));
    report.push({
      path: `${role} ${target}`,
      width: size.width,
      serious: count("serious"),
      critical: count("critical"),
      moderate: count("moderate"),
      minor: count("minor"),
      violations: axe.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`),
    });
    expect.soft(
      failing.map((v) => `${v.id} [${v.impact}]: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`),
      `axe on ${target} at ${size.width} px`,
    ).toEqual([]);

    if (size.width === 390) {
      const overflow = await page.evaluate(() => {
        const viewport = document.documentElement.clientWidth;
        // the outermost elements reaching past the screen, to say what to fix
        const wide = Array.from(document.querySelectorAll<HTMLElement>("body *"))
          .filter((el) => el.getBoundingClientRect().right > viewport + 1 && !(el.parentElement && el.parentElement.getBoundingClientRect().right > viewport + 1))
          .slice(0, 4)
          .map((el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : ""} (${Math.round(el.getBoundingClientRect().right)} px)`);
        return { scroll: document.documentElement.scrollWidth, viewport, wide };
      });
      expect.soft(overflow.scroll, `${target} at 390 px is ${overflow.scroll} px wide: ${overflow.wide.join(", ")}`).toBeLessThanOrEqual(overflow.viewport);
      expect.soft(englishWords(await visibleProse(page)), `English words on ${target}`).toEqual([]);
    }
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}-${size.width}.png`), fullPage: true, timeout: 30_000 });
  }
}

async function visitAll(page: Page, role: Role, data: PageData): Promise<void> {
  for (const p of PAGES.filter((x) => x.role === role)) {
    const target = pathOf(p, data);
    await test.step(`${target}`, () => checkPage(page, target, p.name, role));
  }
}

/** A customer with something on every page: keys, requests with refusals, a webhook delivery, a pending upgrade. */
async function customerWithData(browser: Browser): Promise<{ user: User; accountId: string; page: Page }> {
  const context = await newClientContext(browser);
  const page = await context.newPage();
  const user = newUser("Kvaliteta");
  await signUp(page, user);
  const key = await createKeyInPortal(page, "Blagajna 1");
  await createKeyInPortal(page, "Blagajna 2");
  // burst of 10 per second on Sandbox: 14 at once gives refusals too
  await Promise.all(Array.from({ length: 14 }, () => validateOib(key)));
  await callApi(key, "GET", "/v1/kpd/62.10.11");
  await callApi(key, "GET", "/v1/kpd/nepostojeca");
  const receiver = await startReceiver();
  try {
    await page.goto("/webhooks");
    await page.getByTestId("webhook-url").fill(receiver.url);
    await page.getByTestId("create-webhook").click();
    receiver.setSecret((await page.getByTestId("webhook-secret").textContent())?.trim() ?? "");
    await page.getByTestId("send-test-event").click();
    await expect(page.getByTestId("webhooks-message")).toBeVisible();
    await receiver.waitFor((d) => d.verified, "test event", 20_000);
  } finally {
    await receiver.close();
  }
  await page.goto("/plan");
  await page.getByTestId("upgrade-starter").click();
  await expect(page.getByTestId("plan-message")).toBeVisible();
  const me = await page.request.get(`${stack.portalUrl}/api/trpc/plan.overview`);
  expect(me.status()).toBe(200);
  const accountId = await accountIdOf(user.email);
  return { user, accountId, page };
}

async function accountIdOf(email: string): Promise<string> {
  const { createDb } = await import("@fiskal/db");
  const db = createDb(stack.databaseUrl, { max: 1 });
  try {
    return (await db.user.findUniqueOrThrow({ where: { email }, select: { accountId: true } })).accountId;
  } finally {
    await db.$disconnect();
  }
}

let data: PageData | undefined;

test("signed-out pages pass the gates", async ({ page }) => {
  test.setTimeout(240_000);
  await visitAll(page, "signedOut", { customerAccountId: "" });
});

test("customer pages with data pass the gates", async ({ browser, security }) => {
  test.setTimeout(300_000);
  const { page, accountId } = await customerWithData(browser);
  await security.watch(page.context());
  data = { customerAccountId: accountId };
  await visitAll(page, "customer", data);
});

test("operator pages pass the gates", async ({ page, browser }) => {
  test.setTimeout(240_000);
  // The operator's customer view shows the customer of the test before, or a fresh one when run alone.
  data ??= { customerAccountId: (await customerWithData(browser)).accountId };
  await signIn(page, stack.operator.email, stack.operator.password);
  await visitAll(page, "operator", data);
});

test.afterAll(() => {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  writeFileSync(path.join(ARTIFACTS_DIR, "axe-report.json"), `${JSON.stringify(report, null, 2)}\n`);
});
