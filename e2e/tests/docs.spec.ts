// Public documentation: the API reference is rendered from the running API's OpenAPI document.
import { callApi, expect, screenshot, stack, test } from "../src/fixtures.ts";

test("the API reference lists every operation of the API's OpenAPI document", async ({ page }) => {
  const openapi = await callApi(null, "GET", "/v1/openapi.json");
  expect(openapi.status).toBe(200);
  const operations = Object.entries(openapi.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((m) => ["get", "post", "put", "patch", "delete"].includes(m))
      .map((m) => ({ method: m.toUpperCase(), path })),
  );
  expect(operations.length).toBeGreaterThanOrEqual(8);

  await page.goto("/docs/api");
  const doc = page.getByTestId("docs-api");
  await expect(doc).toBeVisible();
  await expect(doc).toContainText(stack.apiUrl);
  const cards = page.getByTestId("api-operation");
  await expect(cards).toHaveCount(operations.length);
  for (const op of operations) {
    await expect(cards.filter({ hasText: op.path }).filter({ hasText: op.method }).first()).toBeVisible();
  }
  await expect(cards.filter({ hasText: "/v1/validate/oib" }).first()).toContainText("300/min");
  await screenshot(page, "09-docs-api");
});
