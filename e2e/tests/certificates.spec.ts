// A customer uploads a FINA-shaped application certificate (PKCS#12 written by OpenSSL) on
// /certificates: a wrong password is refused beside its field, the certificate's subject, OIB and
// expiry are shown, a certificate close to expiry raises the 30-day warning, and the page stays
// usable at 390 px (no sideways scrolling, no serious accessibility violation).
import AxeBuilder from "@axe-core/playwright";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, newUser, screenshot, signUp, test } from "../src/fixtures.ts";

const OIB = "69435151530";
const PASSWORD = "Lozinka-certifikata-1";

/** A .p12 as OpenSSL writes it, for a FINA-style subject, valid for `days` days. */
function p12(days: number): { name: string; mimeType: string; buffer: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), "fiskal-e2e-p12-"));
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  openssl("req", "-x509", "-newkey", "rsa:2048", "-subj", `/C=HR/O=E2E D.O.O. HR${OIB}/L=ZAGREB/CN=FISKAL 1`, "-days", String(days), "-nodes", "-keyout", "k.pem", "-out", "c.pem");
  openssl("pkcs12", "-export", "-in", "c.pem", "-inkey", "k.pem", "-passout", `pass:${PASSWORD}`, "-out", "fiskal.p12");
  return { name: "fiskal.p12", mimeType: "application/x-pkcs12", buffer: readFileSync(path.join(dir, "fiskal.p12")) };
}

test("upload a certificate, see its subject, OIB and expiry, and the warning 30 days ahead", async ({ page }) => {
  await signUp(page, newUser("Certifikat"));

  await test.step("no certificate yet", async () => {
    await page.goto("/certificates");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Certifikat za fiskalizaciju");
    await expect(page.getByTestId("certificate-none")).toBeVisible();
  });

  await test.step("a wrong password is refused and named", async () => {
    await page.getByTestId("certificate-file").setInputFiles(p12(365));
    await expect(page.locator("#cert-file-name")).toHaveText("fiskal.p12");
    await page.getByTestId("certificate-password").fill("kriva");
    await page.getByTestId("certificate-upload").click();
    await expect(page.getByTestId("certificate-error")).toContainText("Lozinka certifikata nije ispravna.");
    await expect(page.getByTestId("certificate-password")).toHaveAttribute("aria-invalid", "true");
  });

  await test.step("the right password stores it; subject, OIB and expiry are shown", async () => {
    await page.getByTestId("certificate-password").fill(PASSWORD);
    await page.getByTestId("certificate-upload").click();
    await expect(page.getByTestId("certificate-done")).toBeVisible();
    await expect(page.getByTestId("certificate-oib")).toHaveText(OIB);
    await expect(page.getByTestId("certificate-facts")).toContainText(`CN=FISKAL 1,L=ZAGREB,O=E2E D.O.O. HR${OIB},C=HR`);
    await expect(page.getByTestId("certificate-state")).toHaveText("Važeći");
    await expect(page.getByTestId("certificate-expiring")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("certificate-oib")).toHaveText(OIB);
  });

  await test.step("a certificate with 10 days left raises the warning", async () => {
    await page.getByTestId("certificate-file").setInputFiles(p12(10));
    await page.getByTestId("certificate-password").fill(PASSWORD);
    await page.getByTestId("certificate-upload").click();
    await expect(page.getByTestId("certificate-expiring")).toContainText("Certifikat ističe za");
    await expect(page.getByTestId("certificate-state")).toHaveText("Uskoro ističe");
  });

  await test.step("usable at 390 px: no sideways scrolling, no serious accessibility violation", async () => {
    for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(size);
      await page.goto("/certificates");
      await expect(page.getByTestId("certificate-oib")).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `sideways scroll at ${size.width} px`).toBeLessThanOrEqual(0);
      // The page's own content; the shared layout (sidebar, header) is checked by quality.spec.ts.
      const axe = await new AxeBuilder({ page }).include("#sadrzaj").analyze();
      const bad = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
      await screenshot(page, `certificates-${size.width}`);
    }
  });

  await test.step("the public guide from the demo certificate to production reads at 390 px too", async () => {
    await page.getByRole("link", { name: "Fiskalizacija računa" }).click();
    await expect(page.getByTestId("docs-fiscalization")).toBeVisible();
    await expect(page.locator("#produkcija")).toHaveText("Od testnog certifikata do produkcije");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const axe = await new AxeBuilder({ page }).include("#sadrzaj").analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    await screenshot(page, "docs-fiscalization-390");
  });
});
