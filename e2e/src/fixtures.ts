// Shared test fixtures and helpers: where the stack runs, signing up and in, calling the API and the
// portal's procedures, screenshots.
import { randomBytes, randomInt } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { securityWatch, type SecurityWatch } from "./security.ts";
import { E2E_DIR } from "./stack.ts";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the tests run only through playwright.config.ts (its globalSetup starts the stack)`);
  return value;
}

// Read on use: the runner loads test files to list them before globalSetup has started the stack.
export const stack = {
  get apiUrl() {
    return required("FISKAL_E2E_API_URL");
  },
  get portalUrl() {
    return required("FISKAL_E2E_PORTAL_URL");
  },
  get databaseUrl() {
    return required("FISKAL_E2E_DATABASE_URL");
  },
  get operator() {
    return { email: required("FISKAL_E2E_OPERATOR_EMAIL"), password: required("FISKAL_E2E_OPERATOR_PASSWORD") };
  },
};

export const ARTIFACTS_DIR = path.join(E2E_DIR, "artifacts");

/**
 * The portal limits sign-ups and sign-ins per client IP, taken from the X-Forwarded-For entry its
 * trusted proxy writes (TRUST_PROXY_HOPS=1). Each browser context plays a different client behind
 * that proxy, as real users are, so the journeys do not share one address's sign-up quota.
 */
function clientHeaders(): Record<string, string> {
  return { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` };
}

export async function newClientContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ baseURL: stack.portalUrl, extraHTTPHeaders: clientHeaders(), locale: "hr-HR", timezoneId: "Europe/Zagreb" });
}

/* eslint-disable no-empty-pattern -- Playwright reads a fixture's dependencies from a destructured first argument */
export const test = base.extend<{ security: SecurityWatch }>({
  baseURL: async ({}, use) => use(stack.portalUrl),
  extraHTTPHeaders: async ({}, use) => use(clientHeaders()),
  // Every test's browser context is watched: each portal document it loads must carry the security
  // headers and nonced scripts, and the browser must report no Content Security Policy violation.
  // Contexts a test opens itself join with `security.watch(context)`.
  security: [
    async ({ context }, use) => {
      const watch = securityWatch(stack.portalUrl);
      await watch.watch(context);
      await use(watch);
      await watch.expectClean();
    },
    { auto: true },
  ],
});
/* eslint-enable no-empty-pattern */
export { expect };

export type User = { company: string; email: string; password: string };

export function newUser(label: string): User {
  const tag = randomBytes(4).toString("hex");
  return { company: `${label} ${tag} d.o.o.`, email: `${label.toLowerCase()}-${tag}@e2e.fiskal.test`, password: `Lozinka-${randomBytes(8).toString("hex")}` };
}

export async function signUp(page: Page, user: User): Promise<void> {
  await page.goto("/signup");
  await page.getByTestId("signup-company").fill(user.company);
  await page.getByTestId("signup-email").fill(user.email);
  await page.getByTestId("signup-password").fill(user.password);
  await page.getByTestId("signup-password2").fill(user.password);
  await page.getByTestId("signup-submit").click();
  await page.waitForURL("**/dashboard");
  await expect(page.getByTestId("user-email")).toHaveAttribute("title", user.email);
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByTestId("login-email").fill(email);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await expect(page.getByTestId("user-email")).toHaveAttribute("title", email);
}

/** Creates a key on /keys through the form and reads the full key from the page (shown once). */
export async function createKeyInPortal(page: Page, name: string): Promise<string> {
  await page.goto("/keys");
  await page.getByTestId("key-name").fill(name);
  await page.getByTestId("create-key").click();
  const value = page.getByTestId("new-key-value");
  await expect(value).toBeVisible();
  const key = (await value.textContent())?.trim() ?? "";
  expect(key).toMatch(/^fsk_(test|live)_[0-9A-Za-z]+$/);
  return key;
}

export type ApiResponse = { status: number; headers: Headers; body: any };

/** A plain HTTP call to the API from the test process, as an integrator's code would make it. */
export async function callApi(key: string | null, method: string, pathname: string, body?: unknown): Promise<ApiResponse> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${stack.apiUrl}${pathname}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Kept as text; the assertion that reads it will say what came back.
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

const VALID_OIB = "69435151530";
export const validateOib = (key: string | null) => callApi(key, "POST", "/v1/validate/oib", { oib: VALID_OIB });

export type TrpcResult = { status: number; body: any };

/** A portal procedure called over HTTP with the context's session cookie, as the browser's client does. */
export async function trpcCall(request: APIRequestContext, kind: "query" | "mutation", procedure: string, input?: unknown): Promise<TrpcResult> {
  const url = `${stack.portalUrl}/api/trpc/${procedure}`;
  const res =
    kind === "query"
      ? await request.get(input === undefined ? url : `${url}?input=${encodeURIComponent(JSON.stringify(input))}`)
      : await request.post(url, { data: input ?? {}, headers: { "content-type": "application/json" } });
  return { status: res.status(), body: await res.json() };
}

/** The data of a successful procedure call; fails the test with the server's answer otherwise. */
export async function trpcData(request: APIRequestContext, kind: "query" | "mutation", procedure: string, input?: unknown): Promise<any> {
  const r = await trpcCall(request, kind, procedure, input);
  expect(r.status, `${procedure}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body.result.data;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true, timeout: 30_000 });
}

/** Polls `probe` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs: number, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
