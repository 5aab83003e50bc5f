// A customer's whole path: sign up, key, first calls, usage on the dashboard, the 429 and its docs,
// an upgrade approved by an operator, and revocation. Every portal page on the way carries the
// security headers and a nonce-based Content Security Policy that the browser never reports broken.
import {
  callApi,
  createKeyInPortal,
  eventually,
  expect,
  newClientContext,
  newUser,
  screenshot,
  signIn,
  stack,
  test,
  validateOib,
  type ApiResponse,
} from "../src/fixtures.ts";

const header = (r: ApiResponse, name: string) => r.headers.get(name);

/** Every API answer: nosniff, and nothing a shared cache may keep (the stack runs on plain http: no HSTS). */
function expectApiSecurityHeaders(r: ApiResponse) {
  expect(header(r, "x-content-type-options")).toBe("nosniff");
  expect(header(r, "cache-control")).toBe("no-store");
  expect(header(r, "strict-transport-security")).toBeNull();
}

test("sign up → key → API → dashboard → 429 → docs → upgrade → revoke", async ({ page, browser, security }) => {
  const user = newUser("Putanja");
  let key = "";

  await test.step("landing page leads to sign-up", async () => {
    await page.goto("/");
    await expect(page.getByTestId("cta-signup")).toBeVisible();
    await screenshot(page, "01-landing");
    await page.getByTestId("cta-signup").click();
    await page.waitForURL("**/signup");
  });

  await test.step("sign up with a new e-mail", async () => {
    await page.getByTestId("signup-company").fill(user.company);
    await page.getByTestId("signup-email").fill(user.email);
    await page.getByTestId("signup-password").fill(user.password);
    await page.getByTestId("signup-password2").fill(user.password);
    await screenshot(page, "02-signup");
    await page.getByTestId("signup-submit").click();
    await page.waitForURL("**/dashboard");
    await expect(page.getByTestId("user-email")).toHaveAttribute("title", user.email);
    await expect(page.getByTestId("account-plan")).toHaveText("Sandbox");
  });

  await test.step("a customer is refused the admin page with 403", async () => {
    const response = await page.goto("/admin");
    expect(response?.status()).toBe(403);
    await expect(page.getByTestId("admin-forbidden")).toBeVisible();
    await expect(page.getByTestId("user-email")).toHaveAttribute("title", user.email);
  });

  await test.step("create a key in the portal; it is shown once", async () => {
    key = await createKeyInPortal(page, "Blagajna 1");
    expect(key.startsWith("fsk_test_")).toBe(true);
    await screenshot(page, "04-keys-new-key");
    await page.reload();
    await expect(page.getByTestId("key-row")).toHaveCount(1);
    await expect(page.getByTestId("new-key-value")).toHaveCount(0);
    await expect(page.getByTestId("keys-table")).not.toContainText(key);
  });

  await test.step("call the REST API with the key; rate-limit headers describe the binding window", async () => {
    const r = await validateOib(key);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ oib: "69435151530", valid: true });
    // Sandbox: the burst window (10/s) has the fewest requests left after one call.
    expect(header(r, "x-ratelimit-limit")).toBe("10");
    expect(header(r, "x-ratelimit-remaining")).toBe("9");
    const reset = Number(header(r, "x-ratelimit-reset"));
    const nowSeconds = Date.now() / 1000;
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(Math.floor(nowSeconds) - 1);
    expect(reset).toBeLessThanOrEqual(Math.ceil(nowSeconds) + 2);
    expect(header(r, "x-request-id")).toBeTruthy();
    expect(header(r, "ratelimit-policy")).toContain('"minute";q=60;w=60');
    expect(header(r, "ratelimit-policy")).toContain('"burst";q=10;w=1');
    expectApiSecurityHeaders(r);
  });

  await test.step("the call shows on the dashboard", async () => {
    await page.goto("/dashboard");
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("stat-requests")).toHaveText("1", { timeout: 1_000 });
    }).toPass({ timeout: 15_000, intervals: [500, 1_000] });
  });

  let refused: ApiResponse[] = [];
  await test.step("a burst of 20 concurrent calls gets 429s with the exact error body", async () => {
    // The burst window is an exact rolling second: of 20 at once, at most 10 are admitted (fewer if
    // the dashboard's earlier call still counts), and the rest get the exact 429 body.
    const results = await Promise.all(Array.from({ length: 20 }, () => validateOib(key)));
    const admitted = results.filter((r) => r.status === 200);
    refused = results.filter((r) => r.status === 429);
    expect(admitted.length + refused.length, JSON.stringify(results.map((r) => r.status))).toBe(20);
    expect(admitted.length).toBeGreaterThanOrEqual(1);
    expect(admitted.length).toBeLessThanOrEqual(10);
    for (const r of refused) {
      expect(Object.keys(r.body)).toEqual(["error"]);
      expect(Object.keys(r.body.error).sort()).toEqual(["code", "doc_url", "message"]);
      expect(r.body.error.code).toBe("rate_limit_exceeded");
      expect(r.body.error.doc_url).toBe(`${stack.portalUrl}/docs/rate-limits#odgovor-429`);
      const retryAfter = Number(header(r, "retry-after"));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
      expect(r.body.error.message).toContain(` ${retryAfter} sekund`);
      expect(header(r, "x-ratelimit-limit")).toBe("10");
      expect(header(r, "x-ratelimit-remaining")).toBe("0");
      expectApiSecurityHeaders(r);
    }
    for (const r of admitted) expectApiSecurityHeaders(r);
  });

  await test.step("the dashboard counts every call and the refusals", async () => {
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("stat-requests")).toHaveText("21", { timeout: 1_000 });
      await expect(page.getByTestId("stat-refused")).toHaveText(String(refused.length), { timeout: 1_000 });
    }).toPass({ timeout: 15_000, intervals: [500, 1_000] });
    await expect(page.getByTestId("recent-table")).toContainText("/v1/validate/oib");
    await screenshot(page, "03-dashboard");
  });

  await test.step("the 429's doc_url opens the rate-limit page", async () => {
    await page.goto(refused[0]!.body.error.doc_url);
    const doc = page.getByTestId("docs-rate-limits");
    await expect(doc).toBeVisible();
    for (const text of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After", "rate_limit_exceeded"]) {
      await expect(doc).toContainText(text);
    }
    await expect(page.getByTestId("example-429-body")).toContainText('"doc_url"');
    await screenshot(page, "08-docs-rate-limits");
  });

  await test.step("request an upgrade to Business on the plan page", async () => {
    await page.goto("/plan");
    await expect(page.getByTestId("current-plan")).toHaveText("Sandbox");
    await expect(page.getByTestId("limit-minute")).toHaveText("60");
    await page.getByTestId("upgrade-business").click();
    await expect(page.getByTestId("plan-message")).toContainText("Business");
    await expect(page.getByTestId("pending-request")).toBeVisible();
    await expect(page.getByTestId("upgrade-business")).toBeDisabled();
    await screenshot(page, "05-plan");
  });

  await test.step("the operator approves it in /admin", async () => {
    const operatorContext = await newClientContext(browser);
    await security.watch(operatorContext);
    try {
      const admin = await operatorContext.newPage();
      await signIn(admin, stack.operator.email, stack.operator.password);
      await admin.goto("/admin");
      const row = admin.locator(`[data-testid="pending-request-row"][data-account="${user.company}"]`);
      await expect(row).toBeVisible();
      await expect(row).toContainText("Business");
      await screenshot(admin, "06-admin");
      await row.getByTestId("approve-request").click();
      await expect(admin.getByTestId("admin-message")).toContainText("Odobren");
      await expect(row).toHaveCount(0);
    } finally {
      await operatorContext.close();
    }
  });

  await test.step("the next API call is judged by Business limits", async () => {
    const approvedAt = Date.now();
    // Propagation (NOTIFY to the API's key cache) is allowed up to 1 s.
    const r = await eventually(
      async () => {
        const res = await validateOib(key);
        return (header(res, "ratelimit-policy") ?? "").includes('"minute";q=300;w=60') ? res : undefined;
      },
      "RateLimit-Policy with the Business minute limit",
      1_000,
      100,
    );
    expect(Date.now() - approvedAt).toBeLessThanOrEqual(1_500);
    expect(r.status).toBe(200);
    expect(header(r, "ratelimit-policy")).toContain('"burst";q=50;w=1');
    expect(header(r, "ratelimit-policy")).toContain('"day";q=200000;w=86400');
    await page.goto("/plan");
    await expect(page.getByTestId("current-plan")).toHaveText("Business");
    await expect(page.getByTestId("limit-minute")).toHaveText("300");
  });

  await test.step("revoking the key in the portal makes the API refuse it within 5 s", async () => {
    await page.goto("/keys");
    await page.getByTestId("revoke-key").click();
    await expect(page.getByTestId("revoke-dialog")).toBeVisible();
    await page.getByTestId("confirm-revoke").click();
    await expect(page.getByTestId("keys-notice")).toBeVisible();
    const revokedAt = Date.now();
    await expect(page.getByTestId("key-row")).toContainText("Opozvan");
    const r = await eventually(
      async () => {
        const res = await validateOib(key);
        return res.status === 401 ? res : undefined;
      },
      "401 for the revoked key",
      5_000,
      250,
    );
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(5_000);
    expect(r.body.error.code).toBe("unauthorized");
    expect(header(r, "x-ratelimit-limit")).toBeTruthy();
    expectApiSecurityHeaders(r);
    const again = await callApi(key, "GET", "/v1/limits");
    expect(again.status).toBe(401);
    expectApiSecurityHeaders(again);
  });

  await test.step("every portal page on the way carried the security headers; no CSP violation", async () => {
    // Pages reached by a client-side navigation (the landing page's link to /signup) load no document.
    await security.expectClean(["/", "/dashboard", "/keys", "/admin", "/docs/rate-limits", "/plan", "/login"]);
    const admin = security.documents.filter((d) => d.path === "/admin").map((d) => d.status);
    // the customer is refused; the operator lands on /admin after signing in and opens it again
    expect(admin).toEqual([403, 200, 200]);
    // The nonce check above read real pages: most documents had their <script> tags scanned.
    expect(security.documents.filter((d) => d.scripts > 0).length).toBeGreaterThanOrEqual(6);
  });
});
