// The dashboard as a customer checks it against the API: the quota bar equals the API's own day
// counter (free GET /v1/limits calls left out), success rate and response time say what they count,
// the period selector and the Zagreb time zone, readable chart labels at 390 px, and the request log
// with filters in the URL, a detail panel with the decision and headers, and the CSV export.
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { callApi, createKeyInPortal, eventually, expect, newClientContext, newUser, screenshot, signUp, test, trpcData, validateOib, type ApiResponse } from "../src/fixtures.ts";

const pct = new Intl.NumberFormat("hr-HR", { style: "percent", maximumFractionDigits: 1 });
const zagrebShort = new Intl.DateTimeFormat("hr-HR", { day: "numeric", month: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", timeZone: "Europe/Zagreb" });
const zagrebHour = new Intl.DateTimeFormat("hr-HR", { hour: "2-digit", hourCycle: "h23", timeZone: "Europe/Zagreb" });
const zagrebDay = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Zagreb", year: "numeric", month: "2-digit", day: "2-digit" });

/** A minimal RFC 4180 parser: quoted fields, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  return rows;
}

async function statText(page: Page, id: string): Promise<string> {
  return ((await page.getByTestId(id).textContent()) ?? "").trim();
}

test("quota equals the API's day counter; stats say what they count; log filters, detail and CSV", async ({ page, browser, security }) => {
  test.setTimeout(120_000);
  const user = newUser("Zapisnik");
  await signUp(page, user);
  const keyName = 'Blagajna "A", smjena 1';
  const key = await createKeyInPortal(page, keyName);
  const key2 = await createKeyInPortal(page, "ERP");
  const answers: ApiResponse[] = [];

  await test.step("calls: admitted, a 400, a burst with 429s, free limits calls, another key", async () => {
    for (let i = 0; i < 4; i++) answers.push(await validateOib(key));
    answers.push(await callApi(key, "POST", "/v1/validate/oib", { oib: 12 }));
    await new Promise((r) => setTimeout(r, 1_100));
    answers.push(...(await Promise.all(Array.from({ length: 14 }, () => validateOib(key)))));
    for (let i = 0; i < 3; i++) expect((await callApi(key, "GET", "/v1/limits")).status).toBe(200);
    // After the burst second, so that the other key's calls are admitted.
    await new Promise((r) => setTimeout(r, 1_100));
    for (let i = 0; i < 2; i++) {
      const r = await validateOib(key2);
      expect(r.status).toBe(200);
      answers.push(r);
    }
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(1);
  });

  const ok = answers.filter((a) => a.status === 200).length;
  const refused = answers.filter((a) => a.status === 429).length;
  const errors = answers.filter((a) => a.status >= 400 && a.status !== 429).length;
  const total = answers.length + 3;

  await test.step("the quota bar shows exactly what the API's day window counted (no free calls)", async () => {
    const limits = await callApi(key, "GET", "/v1/limits");
    const day = limits.body.windows.find((w: { name: string }) => w.name === "day");
    const apiUsed = day.limit - day.remaining;
    expect(apiUsed).toBe(ok + errors);
    await page.goto("/dashboard");
    await eventually(
      async () => {
        await page.reload();
        return (await statText(page, "stat-requests")) === String(total + 1) ? true : undefined;
      },
      "usage flushed",
      10_000,
    );
    await expect(page.getByTestId("quota-used")).toHaveText(String(apiUsed));
    await expect(page.getByTestId("quota-explain")).toContainText("GET /v1/limits");
  });

  await test.step("success rate leaves the 429s out and says so; no 'Propušteni' label", async () => {
    await expect(page.getByTestId("stat-refused")).toHaveText(String(refused));
    await expect(page.getByTestId("stat-errors")).toHaveText(String(errors));
    // 2xx among handled requests: the free calls are 2xx too.
    const handled = total + 1 - refused;
    await expect(page.getByTestId("stat-success-rate")).toHaveText(pct.format((ok + 4) / handled));
    await expect(page.getByTestId("stat-success-explain")).toContainText("odbijeni (429) se ne računaju");
    await expect(page.getByTestId("stat-avg-explain")).toContainText("i odbijenih (429)");
    await expect(page.locator("main")).not.toContainText(/Propušten/);
  });

  await test.step("the 24-hour chart is in Zagreb time with every hour labelled", async () => {
    const bars = page.getByTestId("chart-bar");
    await expect(bars).toHaveCount(24);
    const labels = page.getByTestId("chart-x-labels").locator("span");
    await expect(labels).toHaveCount(24);
    const texts = await labels.allTextContents();
    expect(texts.every((t) => /^\d\d$/.test(t))).toBe(true);
    expect(texts[23]).toBe(zagrebHour.format(new Date()));
    const totals = await bars.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-total"))));
    expect(totals.reduce((a, b) => a + b, 0)).toBe(total + 1);
    await expect(page.locator("main")).toContainText("Europe/Zagreb");
    await screenshot(page, "usage-dashboard-24h");
  });

  await test.step("the request log shows Zagreb time", async () => {
    const [first] = await trpcData(page.request, "query", "usage.recent", { limit: 1 });
    const row = page.getByTestId("log-row").first();
    await expect(row.locator("td").first()).toHaveText(zagrebShort.format(new Date(first.at)));
  });

  await test.step("filters live in the URL and survive a reload", async () => {
    await page.getByTestId("filter-status").selectOption("429");
    await page.getByTestId("filter-apply").click();
    await page.waitForURL((u) => u.searchParams.get("status") === "429");
    await expect(page.getByTestId("log-row")).toHaveCount(refused);
    await page.reload();
    await expect(page.getByTestId("filter-status")).toHaveValue("429");
    await expect(page.getByTestId("log-row")).toHaveCount(refused);
    for (const s of await page.getByTestId("log-row").evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))) expect(s).toBe("429");

    await page.goto("/dashboard?endpoint=GET%20%2Fv1%2Flimits");
    await expect(page.getByTestId("log-row")).toHaveCount(4);
    await expect(page.getByTestId("filter-endpoint")).toHaveValue("GET /v1/limits");
    const keys = await trpcData(page.request, "query", "keys.list");
    const erp = keys.find((k: { name: string }) => k.name === "ERP");
    await page.goto("/dashboard");
    await page.getByTestId("filter-key").selectOption(erp.id);
    await page.getByTestId("filter-apply").click();
    await page.waitForURL((u) => u.searchParams.get("key") === erp.id);
    await expect(page.getByTestId("log-row")).toHaveCount(2);
    await page.getByTestId("filter-status").selectOption("4xx");
    await page.getByTestId("filter-key").selectOption("");
    await page.getByTestId("filter-apply").click();
    // An empty choice means "all": the URL may carry it empty.
    await page.waitForURL((u) => u.searchParams.get("status") === "4xx" && !u.searchParams.get("key"));
    await expect(page.getByTestId("log-row")).toHaveCount(1);
    await expect(page.getByTestId("log-row")).toHaveAttribute("data-status", "400");
  });

  await test.step("the detail panel shows the refusing window, Retry-After and the headers we sent", async () => {
    await page.goto("/dashboard?status=429");
    await page.getByTestId("log-detail-toggle").first().click();
    const detail = page.getByTestId("request-detail");
    await expect(detail).toBeVisible();
    const requestId = ((await detail.locator("dd.mono").first().textContent()) ?? "").trim();
    const sent = answers.find((a) => a.headers.get("x-request-id") === requestId);
    expect(sent?.status).toBe(429);
    await expect(page.getByTestId("detail-decision")).toContainText("Odbijen");
    await expect(page.getByTestId("detail-decision")).toContainText("u sekundi (burst)");
    await expect(page.getByTestId("detail-retry-after")).toHaveText(`${sent!.headers.get("retry-after")} s`);
    const headers = page.getByTestId("detail-headers");
    for (const name of ["RateLimit", "RateLimit-Policy", "X-RateLimit-Remaining", "Retry-After"]) {
      await expect(headers).toContainText(`${name}: ${sent!.headers.get(name)}`);
    }
    await screenshot(page, "usage-request-detail");
  });

  await test.step("CSV export of the filtered view: Croatian headers, quoting, only this view", async () => {
    await page.goto("/dashboard?status=2xx");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
    const text = (await readFile(await download.path(), "utf8")).replace(/^\uFEFF/, "");
    const rows = parseCsv(text);
    expect(rows[0]).toContain("Vrijeme (Europe/Zagreb)");
    expect(rows[0]).toContain("Naziv ključa");
    const body = rows.slice(1);
    expect(body).toHaveLength(ok + 4);
    const status = rows[0]!.indexOf("Status");
    const name = rows[0]!.indexOf("Naziv ključa");
    expect(body.every((r) => r[status] === "200")).toBe(true);
    expect(body.filter((r) => r[name] === keyName).length).toBe(ok + 4 - 2);
    expect(text).toContain('"Blagajna ""A"", smjena 1"');
    // Another account's export has none of these rows.
    const other = await newClientContext(browser);
    await security.watch(other);
    const otherPage = await other.newPage();
    await signUp(otherPage, newUser("Drugi"));
    const res = await otherPage.request.get("/dashboard/export?status=2xx");
    expect(res.status()).toBe(200);
    expect(parseCsv((await res.text()).replace(/^\uFEFF/, ""))).toHaveLength(1);
    await other.close();
  });
});

test("the period selector: 7 and 30 days, chosen dates, all in the URL", async ({ page }) => {
  await signUp(page, newUser("Razdoblje"));
  const key = await createKeyInPortal(page, "k");
  expect((await validateOib(key)).status).toBe(200);
  await page.goto("/dashboard");
  // Usage is metered in batches: wait until the request shows before reading the chart.
  await eventually(async () => ((await page.getByTestId("chart-bar").count()) > 0 ? true : (await page.reload(), undefined)), "chart shown", 10_000);
  await page.getByTestId("range-7d").click();
  await page.waitForURL((u) => u.searchParams.get("range") === "7d");
  await expect(page.getByTestId("chart-bar")).toHaveCount(7);
  await expect(page.getByTestId("range-7d")).toHaveAttribute("aria-current", "page");
  await page.getByTestId("range-30d").click();
  await page.waitForURL((u) => u.searchParams.get("range") === "30d");
  await expect(page.getByTestId("chart-bar")).toHaveCount(30);
  const today = zagrebDay.format(new Date());
  const from = zagrebDay.format(new Date(Date.now() - 2 * 86_400_000));
  // Dates are typed as the portal shows them, dd. mm. yyyy.
  const hr = (iso: string) => `${Number(iso.slice(8, 10))}. ${Number(iso.slice(5, 7))}. ${iso.slice(0, 4)}.`;
  await page.getByTestId("range-from").fill(hr(from));
  await page.getByTestId("range-to").fill(hr(today));
  await page.getByTestId("range-apply").click();
  await page.waitForURL((u) => u.searchParams.get("range") === "custom" && u.searchParams.get("from") === hr(from) && u.searchParams.get("to") === hr(today));
  await expect(page.getByTestId("chart-bar")).toHaveCount(3);
  await page.reload();
  await expect(page.getByTestId("chart-bar")).toHaveCount(3);
  await expect(page.getByTestId("range-from")).toHaveValue(hr(from));
  // Links keep the period (in the URL's own form)
  await expect(page.getByTestId("range-7d")).toHaveAttribute("href", /range=7d/);
  // A period the selector cannot show is named, and the default shown instead.
  await page.goto(`/dashboard?range=custom&from=${today}&to=${from}`);
  await expect(page.getByTestId("view-problem")).toContainText("nakon datuma");
  await expect(page.getByTestId("chart-bar")).toHaveCount(24);
});

test("chart labels stay readable at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page, newUser("Uski"));
  const key = await createKeyInPortal(page, "k");
  expect((await validateOib(key)).status).toBe(200);
  for (const range of ["", "?range=30d"]) {
    await page.goto(`/dashboard${range}`);
    await eventually(async () => ((await page.getByTestId("chart-bar").count()) > 0 ? true : (await page.reload(), undefined)), "chart shown", 10_000);
    // Laid out before it is measured (a loaded machine paints late).
    await expect.poll(() => page.getByTestId("chart-x-labels").evaluate((e) => e.getBoundingClientRect().width)).toBeGreaterThan(0);
    const labels = await page
      .getByTestId("chart-x-labels")
      .locator("span")
      .evaluateAll((els) =>
        els
          .filter((e) => e.textContent && getComputedStyle(e).visibility !== "hidden")
          .map((e) => {
            const r = document.createRange();
            r.selectNodeContents(e);
            const box = r.getBoundingClientRect();
            return { size: parseFloat(getComputedStyle(e).fontSize), left: box.left, right: box.right };
          }),
      );
    expect(labels.length).toBeGreaterThanOrEqual(5);
    for (const l of labels) expect(l.size).toBeGreaterThanOrEqual(12);
    for (let i = 1; i < labels.length; i++) expect(labels[i]!.left).toBeGreaterThan(labels[i - 1]!.right);
    const yLabels = await page.locator("[class*='yaxis'] span").evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)));
    for (const s of yLabels) expect(s).toBeGreaterThanOrEqual(12);
  }
  await screenshot(page, "usage-dashboard-390");
});
