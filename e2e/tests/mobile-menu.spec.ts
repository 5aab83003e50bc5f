// At 390 px the portal's navigation folds behind a menu button that says whether it is open, takes
// focus into the menu, closes on Escape (focus back on the button) and on choosing a page.
import { expect, newUser, signUp, test } from "../src/fixtures.ts";

test.use({ viewport: { width: 390, height: 844 } });

test("the menu button opens and closes the navigation by mouse and keyboard", async ({ page }) => {
  await signUp(page, newUser("Mobitel"));
  const button = page.getByTestId("menu-button");
  const nav = page.getByRole("navigation", { name: "Glavna navigacija" });
  await expect(button).toBeVisible();
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(nav).toBeHidden();
  // the page's heading is on the first screen, not below a sidebar
  const heading = await page.getByRole("heading", { level: 1 }).boundingBox();
  expect(heading!.y).toBeLessThan(844 / 2);

  await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await expect(nav).toBeVisible();
  await expect(page.getByTestId("nav-dashboard")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(button).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(nav).toBeVisible();
  await page.getByTestId("nav-keys").click();
  await page.waitForURL("**/keys");
  await expect(nav).toBeHidden();
  await expect(button).toHaveAttribute("aria-expanded", "false");
});

test("at 1440 px the navigation is always shown and there is no menu button", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, newUser("Desktop"));
  await expect(page.getByTestId("menu-button")).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Glavna navigacija" })).toBeVisible();
});
