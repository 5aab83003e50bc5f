// What `curl -I` shows on every portal page and on the API: the security headers on pages,
// redirects, error pages, route handlers and static files; the admin page refuses a customer with 403.
import { callApi, expect, newClientContext, newUser, signUp, stack, test } from "../src/fixtures.ts";
import { cspNonce, expectPortalHeaders, securityWatch } from "../src/security.ts";

const PUBLIC_PAGES = ["/", "/login", "/signup", "/docs/rate-limits", "/docs/errors"];
const CUSTOMER_PAGES = ["/dashboard", "/keys", "/plan", "/webhooks"];

type Answer = { status: number; headers: Record<string, string>; body: string };

/** A request from the test process, as curl makes it: no cookies, redirects not followed. */
async function portal(method: "GET" | "HEAD", path: string): Promise<Answer> {
  const res = await fetch(stack.portalUrl + path, { method, redirect: "manual", signal: AbortSignal.timeout(15_000) });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => void (headers[name] = value));
  return { status: res.status, headers, body: method === "GET" ? await res.text() : "" };
}

test("signed out: every page, redirect and error page answers with the headers and a fresh nonce", async () => {
  const nonces = new Set<string>();
  const check = (r: Answer, what: string) => {
    expectPortalHeaders(r.headers, what, { page: true });
    const nonce = cspNonce(r.headers["content-security-policy"])!;
    expect(nonces.has(nonce), `${what}: a nonce of its own`).toBe(false);
    nonces.add(nonce);
  };
  for (const path of PUBLIC_PAGES) {
    for (const method of ["HEAD", "GET"] as const) {
      const r = await portal(method, path);
      expect(r.status, `${method} ${path}`).toBe(200);
      check(r, `${method} ${path}`);
    }
  }
  // Rendered from the API's OpenAPI document on every request: one GET is enough.
  const reference = await portal("GET", "/docs/api");
  expect(reference.status).toBe(200);
  check(reference, "GET /docs/api");
  for (const path of [...CUSTOMER_PAGES, "/admin"]) {
    const r = await portal("HEAD", path);
    expect(r.status, `HEAD ${path}`).toBe(307);
    // the page asked for comes back after sign-in
    expect(r.headers.location, `HEAD ${path}`).toMatch(new RegExp(`/login\\?callbackUrl=${encodeURIComponent(path)}$`));
    check(r, `HEAD ${path} (redirect)`);
  }
  const missing = await portal("GET", "/no-such-page");
  expect(missing.status).toBe(404);
  check(missing, "GET /no-such-page");

  // The HTML's scripts all carry the response's nonce; none is inline without it.
  const landing = await portal("GET", "/");
  const nonce = cspNonce(landing.headers["content-security-policy"]);
  const scripts = landing.body.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(` nonce="${nonce}"`);
});

test("route handlers and static files carry the headers too", async () => {
  const csrf = await portal("GET", "/api/auth/csrf");
  expect(csrf.status).toBe(200);
  expectPortalHeaders(csrf.headers, "GET /api/auth/csrf", { page: false });
  const procedure = await portal("GET", "/api/trpc/account.me");
  expect(procedure.status).toBe(401);
  expectPortalHeaders(procedure.headers, "GET /api/trpc/account.me", { page: false });
  const landing = await portal("GET", "/");
  const asset = /<script\b[^>]*\bsrc="(\/_next\/static\/[^"]+\.js)"/.exec(landing.body)?.[1];
  expect(asset).toBeTruthy();
  const chunk = await portal("HEAD", asset!);
  expect(chunk.status).toBe(200);
  expectPortalHeaders(chunk.headers, `HEAD ${asset}`, { page: false });
  const icon = await portal("HEAD", "/icon.svg");
  expect(icon.status).toBe(200);
  expectPortalHeaders(icon.headers, "HEAD /icon.svg", { page: false });
});

test("signed in: the customer's pages answer 200, the admin page 403, all with the headers", async ({ page }) => {
  await signUp(page, newUser("Zaglavlja"));
  for (const path of CUSTOMER_PAGES) {
    const r = await page.request.fetch(path, { method: "HEAD", maxRedirects: 0 });
    expect(r.status(), `HEAD ${path}`).toBe(200);
    expectPortalHeaders(r.headers(), `HEAD ${path}`, { page: true });
  }
  for (const method of ["HEAD", "GET"]) {
    const admin = await page.request.fetch("/admin", { method, maxRedirects: 0 });
    expect(admin.status(), `${method} /admin as a customer`).toBe(403);
    expectPortalHeaders(admin.headers(), `${method} /admin`, { page: true });
    if (method === "GET") expect(await admin.text()).toContain("Nemate pristup");
  }
});

test("the browser enforces the policy: an injected inline script is blocked and reported; no site can frame /keys", async ({ browser }) => {
  // Its own context and watcher: here violations are the expected outcome.
  const context = await newClientContext(browser);
  const probe = securityWatch(stack.portalUrl);
  await probe.watch(context);
  try {
    const page = await context.newPage();
    await signUp(page, newUser("Okvir"));
    // What an injection into the HTML would add: an inline script without the nonce.
    await page.route("**/keys", async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace("</body>", `<script>document.documentElement.dataset.injected = "ran"</script></body>`);
      await route.fulfill({ response, body: html });
    });
    await page.goto("/keys");
    await expect(page.getByTestId("create-key")).toBeVisible();
    await expect.poll(() => probe.violations.some((v) => v.startsWith("script-src-elem blocked inline"))).toBe(true);
    expect(probe.violations.some((v) => v.startsWith("console") && v.includes("Content Security Policy"))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.dataset.injected)).toBeUndefined();
    await page.unrouteAll();

    const framer = await context.newPage();
    await framer.setContent(`<iframe src="${stack.portalUrl}/keys" width="800" height="600"></iframe>`);
    await expect.poll(() => probe.violations.some((v) => /frame-ancestors/.test(v))).toBe(true);
    const framed = framer.frames().find((f) => f !== framer.mainFrame());
    expect(await framed?.locator("[data-testid=keys-table], [data-testid=create-key]").count()).toBe(0);
  } finally {
    await context.close();
  }
});

test("the API: nosniff on every answer, no-store unless the route caches on purpose", async () => {
  for (const path of ["/healthz", "/readyz"]) {
    const r = await callApi(null, "GET", path);
    expect(r.status, path).toBe(200);
    expect(r.headers.get("x-content-type-options"), path).toBe("nosniff");
    expect(r.headers.get("cache-control"), path).toBe("no-store");
  }
  const doc = await callApi(null, "GET", "/v1/openapi.json");
  expect(doc.status).toBe(200);
  expect(doc.headers.get("x-content-type-options")).toBe("nosniff");
  expect(doc.headers.get("cache-control")).toBe("public, max-age=300");
  const refused = await callApi(null, "GET", "/v1/limits");
  expect(refused.status).toBe(401);
  expect(refused.headers.get("x-content-type-options")).toBe("nosniff");
  expect(refused.headers.get("cache-control")).toBe("no-store");
  expect(refused.headers.get("strict-transport-security")).toBeNull();
});
