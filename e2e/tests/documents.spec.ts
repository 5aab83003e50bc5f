// The Dokumenti page: issued e-invoices and receipts with filters, received e-invoices accepted and
// rejected by the recipient (an accountant only reads them), a document's detail (delivery and
// Fiscalization 2.0 status, history, UBL download; a receipt's JIR and QR code), the eIzvještavanje
// deadline notice, the period typed the Croatian way (dd. mm. gggg.) and checked by the server with
// its own messages, and the page at 390 px.
import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { hashPassword, readZip, storeReceivedEInvoice } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
import { callApi, createKeyInPortal, expect, newClientContext, newUser, screenshot, signIn, signUp, stack, test, trpcCall } from "../src/fixtures.ts";
import { E2E_DIR } from "../src/stack.ts";

/** "2026-11-26" → "26. 11. 2026.", as the portal prints and takes days. */
const hr = (day: string) => day.split("-").reverse().map(Number).join(". ") + ".";

const example = JSON.parse(readFileSync(path.join(E2E_DIR, "..", "examples", "einvoices", "01-standard-multi-rate.json"), "utf8")) as Record<string, unknown>;

test("lists issued documents with filters, shows a document's detail and downloads its UBL", async ({ page }) => {
  test.setTimeout(240_000);
  const user = newUser("Dokumenti");
  await signUp(page, user);
  const key = await createKeyInPortal(page, "Dokumenti");
  const tag = Date.now().toString(36).toUpperCase();
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Zagreb" }).format(new Date());

  const numbers = [`DOK-${tag}-1`, `DOK-${tag}-2`];
  for (const number of numbers) {
    const sent = await callApi(key, "POST", "/v1/einvoices/send", { ...example, number, issue_date: today, due_date: undefined });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  }
  const receipt = await callApi(key, "POST", "/v1/invoices/fiscalize", {
    oib: "69435151530",
    issued_at: new Date().toISOString(),
    number: "1",
    premises: "DOK1",
    device: "1",
    total: "125.00",
    payment_method: "K",
    operator_oib: "94577403194",
    vat_registered: true,
    sequence: "P",
    vat: [{ rate: "25", base: "100.00", amount: "25.00" }],
  });
  expect(receipt.status, JSON.stringify(receipt.body)).toBe(200);

  await test.step("the list shows both e-invoices, newest first, and filters by number", async () => {
    await page.getByTestId("nav-documents").click();
    await expect(page).toHaveURL(/\/documents$/);
    await expect(page.getByRole("heading", { level: 1, name: "Dokumenti" })).toBeVisible();
    await expect(page.getByTestId("documents-row")).toHaveCount(2);
    await expect(page.getByTestId("documents-row").first()).toContainText(numbers[1]!);
    // The period typed the way the portal prints dates: today has both, yesterday none.
    const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await page.getByTestId("documents-from").fill(hr(today));
    await page.getByTestId("documents-to").fill(` ${hr(today)} `);
    await page.getByRole("button", { name: "Prikaži" }).click();
    await expect(page).toHaveURL(/from=/);
    await expect(page.getByTestId("documents-row")).toHaveCount(2);
    await expect(page.getByTestId("documents-from")).toHaveValue(hr(today));
    await page.getByTestId("documents-from").fill(hr(yesterday));
    await page.getByTestId("documents-to").fill(hr(yesterday));
    await page.getByRole("button", { name: "Prikaži" }).click();
    await expect(page.getByTestId("documents-empty")).toBeVisible();
    await page.getByTestId("documents-from").fill("");
    await page.getByTestId("documents-to").fill("");
    await page.getByTestId("documents-number").fill(numbers[0]!);
    await page.getByRole("button", { name: "Prikaži" }).click();
    await expect(page.getByTestId("documents-row")).toHaveCount(1);
    await expect(page.getByTestId("documents-row")).toContainText(numbers[0]!);
    await page.getByTestId("documents-status").selectOption("rejected");
    await page.getByRole("button", { name: "Prikaži" }).click();
    await expect(page.getByTestId("documents-empty")).toBeVisible();
  });

  await test.step("an e-invoice's detail: delivery, Fiscalization 2.0, history, and its UBL as delivered", async () => {
    await page.goto(`/documents?number=${encodeURIComponent(numbers[0]!)}`);
    await page.getByRole("link", { name: numbers[0]! }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`E-račun ${numbers[0]}`);
    await expect(page.getByTestId("document-status")).toHaveText("Isporučen");
    await expect(page.getByTestId("document-fiscalization")).not.toBeEmpty();
    await expect(page.getByTestId("document-history")).toContainText("Predan posredniku");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("document-ubl").click()]);
    const ubl = readFileSync(await download.path(), "utf8");
    const db = createDb(stack.databaseUrl, { max: 1 });
    try {
      const stored = await db.eInvoice.findFirstOrThrow({ where: { number: numbers[0]! }, select: { ubl: true, id: true } });
      expect(ubl).toBe(stored.ubl);
      // Another account's document is not there for this user.
      const other = await page.request.get(`/documents/einvoices/${crypto.randomUUID()}/ubl`);
      expect(other.status()).toBe(404);
    } finally {
      await db.$disconnect();
    }
  });

  await test.step("a receipt's detail: JIR and QR code", async () => {
    await page.goto("/documents?kind=receipts");
    await expect(page.getByTestId("documents-row")).toHaveCount(1);
    await page.getByRole("link", { name: "1/DOK1/1" }).click();
    await expect(page.getByTestId("document-status")).toHaveText("Fiskaliziran (JIR)");
    await expect(page.getByTestId("document-qr").locator("svg")).toBeVisible();
  });

  await test.step("the archive export of the period: the same documents as the API's, with its manifest", async () => {
    const api = await fetch(`${stack.apiUrl}/v1/archive/export?from=${today}&to=${today}`, { headers: { authorization: `Bearer ${key}` } });
    expect(api.status).toBe(200);
    const apiFiles = readZip(Buffer.from(await api.arrayBuffer())).map((f) => f.name);
    await page.goto("/documents");
    await page.getByTestId("archive-from").fill(hr(today));
    await page.getByTestId("archive-to").fill(hr(today));
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("archive-download").click()]);
    expect(download.suggestedFilename()).toBe(`fiskal-arhiva-${today}-${today}.zip`);
    const files = readZip(readFileSync(await download.path())).map((f) => f.name);
    expect(files).toEqual(apiFiles);
    expect(files.filter((n) => n.endsWith("/invoice.xml"))).toHaveLength(2);
    expect(files.filter((n) => n.endsWith("/request.json"))).toHaveLength(1);
    expect(files.slice(-2)).toEqual(["manifest.json", "manifest.csv"]);
  });

  await test.step("a wrong day gets the server's Croatian message below its field, never a browser bubble", async () => {
    await page.goto("/documents");
    for (const form of ["documents-filter", "archive-export"]) await expect(page.getByTestId(form)).toHaveAttribute("novalidate", "");
    for (const field of ["documents-from", "documents-to", "documents-buyer", "archive-from", "archive-to"]) {
      await expect(page.getByTestId(field)).not.toHaveAttribute("required");
      await expect(page.getByTestId(field)).not.toHaveAttribute("pattern");
    }
    await expect(page.getByTestId("documents-from")).toHaveAttribute("placeholder", "dd. mm. gggg.");

    // The list's filter: a day that does not exist, then one typed the American way.
    await page.getByTestId("documents-from").fill("31. 2. 2026.");
    await page.getByTestId("documents-to").fill("11/20/2026");
    await page.getByRole("button", { name: "Prikaži" }).click();
    const from = page.getByTestId("documents-from");
    await expect(page.getByTestId("documents-from-error")).toHaveText("Datum 31. 2. 2026. ne postoji u kalendaru.");
    await expect(page.getByTestId("documents-to-error")).toHaveText("„11/20/2026” nije datum u obliku dd. mm. gggg., npr. 20. 11. 2026.");
    await expect(from).toHaveAttribute("aria-invalid", "true");
    await expect(from).toHaveAttribute("aria-describedby", "documents-from-error");
    await expect(from).toBeFocused();
    await expect(from).toHaveValue("31. 2. 2026.");
    await expect(page.getByTestId("documents-invalid")).toBeVisible();
    await expect(page.getByTestId("documents-row")).toHaveCount(0);

    // The export: "do" before "od" is refused by the export route, which sends the page back with the message.
    await page.goto("/documents");
    await page.getByTestId("archive-from").fill(hr(today));
    await page.getByTestId("archive-to").fill("1. 1. 2026.");
    let downloaded = false;
    page.once("download", () => (downloaded = true));
    await page.getByTestId("archive-download").click();
    await expect(page).toHaveURL(/\/documents\?archive_from=/);
    const to = page.getByTestId("archive-to");
    await expect(page.getByTestId("archive-to-error")).toHaveText(`Datum „do” (1. 1. 2026.) je prije datuma „od” (${hr(today)}).`);
    await expect(to).toHaveAttribute("aria-describedby", "archive-to-error");
    await expect(to).toBeFocused();
    await expect(page.getByTestId("archive-from")).toHaveValue(hr(today));
    expect(downloaded).toBe(false);
    // Without a browser form: the same check as a JSON answer, nothing exported.
    const res = await page.request.get(`/documents/export?from=${encodeURIComponent("1. 13. 2026.")}&to=${today}`);
    expect(res.status()).toBe(400);
    expect((await res.json()).error.message).toBe("Razdoblje izvoza: Datum 1. 13. 2026. ne postoji u kalendaru. Ništa nije preuzeto.");
  });

  await test.step("the eIzvještavanje notice while a reporting.due event's deadline is ahead", async () => {
    await page.goto("/documents");
    await expect(page.getByTestId("reporting-notice")).toHaveCount(0);
    const db = createDb(stack.databaseUrl, { max: 1 });
    try {
      const { accountId } = await db.user.findFirstOrThrow({ where: { email: user.email }, select: { accountId: true } });
      const deadline = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      await db.webhookEvent.create({
        data: { id: `msg_${tag}`, accountId, type: "reporting.due", dedupeKey: `reporting.due:e2e-${tag}`, payload: { type: "reporting.due", timestamp: new Date().toISOString(), data: { account_id: accountId, period: "2026-11", deadline, unreported_einvoices: 2, examples: [] } } },
      });
    } finally {
      await db.$disconnect();
    }
    await page.reload();
    await expect(page.getByTestId("reporting-notice")).toContainText("2 isporučenih e-računa");
  });

  await test.step("usable at 390 px: no horizontal scroll", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/documents");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "documents-390");
  });
});

async function axeSerious(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  return axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

const SELLER = "69435151530";
const BUYER = "94577403194";
/** A valid UBL e-invoice from reference/examples, issued by SELLER to BUYER, with its own number. */
const receivedUbl = (number: string) =>
  readFileSync(path.join(E2E_DIR, "..", "reference", "examples", "eRacun_PDV25.xml"), "utf8")
    .replace(/2025-(\d\d)-/g, (_, m: string) => `2026-${String(Number(m) - 2).padStart(2, "0")}-`)
    .replace(/12345678901/g, SELLER)
    .replace(/11111111119/g, BUYER)
    .replace(/<cbc:ID>1-P1-1<\/cbc:ID>/, `<cbc:ID>${number}</cbc:ID>`);

test("received e-invoices: listed beside the issued ones, one accepted and one rejected with a reason, an accountant only reads", async ({ page, browser, security }) => {
  test.setTimeout(150_000);
  const owner = newUser("Primatelj");
  await signUp(page, owner);
  const tag = Date.now().toString(36).toUpperCase();
  const numbers = [`PR-${tag}-1`, `PR-${tag}-2`];
  const accountant = { email: `racunovodja-${tag.toLowerCase()}@e2e.fiskal.test`, password: "Racunovodja-2026!" };
  const db = createDb(stack.databaseUrl, { max: 1 });
  const stored: { id: string; ubl: string }[] = [];
  try {
    const { accountId } = await db.user.findFirstOrThrow({ where: { email: owner.email }, select: { accountId: true } });
    // Delivered by the intermediary as the API's inbox stores it: the backend's own function.
    for (const number of numbers) {
      const { row } = await storeReceivedEInvoice(db, { accountId, messageId: `e2e-${number}`, recipientOib: BUYER, ubl: receivedUbl(number), validation: { valid: true, checked: ["xsd", "en16931", "hr-cius"], violations: [] } });
      stored.push({ id: row.id, ubl: row.ubl });
    }
    const user = await db.user.create({ data: { email: accountant.email, passwordHash: await hashPassword(accountant.password), role: "CUSTOMER", accountId } });
    await db.membership.update({ where: { userId_accountId: { userId: user.id, accountId } }, data: { role: "ACCOUNTANT" } });
  } finally {
    await db.$disconnect();
  }

  await test.step("the Primljeni e-računi tab lists both, awaiting a decision", async () => {
    await page.getByTestId("nav-documents").click();
    await page.getByTestId("documents-kind-received").click();
    await expect(page).toHaveURL(/kind=received/);
    await expect(page.getByTestId("documents-kind-received")).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("documents-row")).toHaveCount(2);
    await expect(page.getByTestId("documents-row").first()).toContainText(numbers[1]!);
    await expect(page.getByTestId("documents-row-status")).toHaveText(["Čeka odluku", "Čeka odluku"]);
    // The issuer's OIB filter of this tab.
    await page.getByTestId("documents-buyer").fill(BUYER);
    await page.getByRole("button", { name: "Prikaži" }).click();
    await expect(page.getByTestId("documents-empty")).toBeVisible();
  });

  await test.step("a received e-invoice's detail: validation, Fiscalization 2.0 (U), the UBL as delivered", async () => {
    await page.goto("/documents?kind=received");
    await page.getByRole("link", { name: numbers[0]! }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Primljeni e-račun ${numbers[0]}`);
    await expect(page.getByTestId("document-status")).toHaveText("Čeka odluku");
    await expect(page.getByTestId("document-validation")).toHaveText("Ispravan");
    await expect(page.getByTestId("document-fiscalization")).not.toBeEmpty();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("document-ubl").click()]);
    expect(download.suggestedFilename()).toBe(`primljeni-e-racun-${numbers[0]}.xml`);
    expect(readFileSync(await download.path(), "utf8")).toBe(stored[0]!.ubl);
  });

  await test.step("Prihvati: a cancelled dialog returns the focus to its button; a confirmed one accepts and focuses the outcome", async () => {
    const accept = page.getByTestId("accept-received");
    await accept.click();
    await expect(page.getByTestId("decision-dialog")).toBeVisible();
    await page.getByRole("button", { name: "Odustani" }).click();
    await expect(page.getByTestId("decision-dialog")).toBeHidden();
    await expect(accept).toBeFocused();
    await accept.click();
    await page.getByTestId("confirm-accept").click();
    await expect(page.getByTestId("decision-notice")).toHaveText(`E-račun ${numbers[0]} je prihvaćen.`);
    await expect(page.getByTestId("decision-outcome")).toBeFocused();
    await expect(page.getByTestId("document-status")).toHaveText("Prihvaćen");
    await expect(page.getByTestId("decision-actions")).toHaveCount(0);
  });

  await test.step("Odbij at 390 px: our own messages, the focus on the first wrong field, axe 0 serious, then rejected with reason U", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/documents/received/${stored[1]!.id}`);
    await page.getByTestId("reject-received").click();
    const dialog = page.getByTestId("decision-dialog");
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId("reject-form")).toHaveAttribute("novalidate", "");
    await page.getByTestId("confirm-reject").click();
    await expect(page.getByTestId("reject-type-error")).toHaveText("Odaberite vrstu razloga odbijanja.");
    await expect(page.getByTestId("reject-reason-error")).toHaveText("Navedite razlog odbijanja.");
    await expect(page.getByTestId("reject-type-N")).toBeFocused();
    await expect(page.getByTestId("reject-reason")).toHaveAttribute("aria-describedby", "reject-reason-error");
    expect(await axeSerious(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "documents-reject-390");
    await page.getByTestId("reject-type-U").check();
    await page.getByTestId("confirm-reject").click();
    await expect(page.getByTestId("reject-type-error")).toHaveCount(0);
    await expect(page.getByTestId("reject-reason")).toBeFocused();
    await page.getByTestId("reject-reason").fill("Obračunata je stopa PDV-a od 25 % umjesto 13 %.");
    await page.getByTestId("confirm-reject").click();
    await expect(page.getByTestId("decision-notice")).toHaveText(`E-račun ${numbers[1]} je odbijen; odbijanje se prijavljuje Poreznoj upravi.`);
    await expect(page.getByTestId("decision-outcome")).toBeFocused();
    await expect(page.getByTestId("document-status")).toHaveText("Odbijen");
    await expect(page.getByTestId("rejection-type")).toHaveText("U — neusklađenost podataka koji utječu na obračun poreza");
    await expect(page.getByTestId("rejection-reason")).toHaveText("Obračunata je stopa PDV-a od 25 % umjesto 13 %.");
    await expect(page.getByTestId("rejection-report")).not.toBeEmpty();
    expect(await axeSerious(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step("both decisions are in the audit log", async () => {
    await page.goto("/audit?action=einvoice.");
    await expect(page.getByText("Primljeni e-račun prihvaćen")).toBeVisible();
    await expect(page.getByText("Primljeni e-račun odbijen")).toBeVisible();
    await expect(page.getByRole("cell", { name: numbers[1]! })).toBeVisible();
  });

  await test.step("an accountant sees the decision but cannot decide; the server refuses the call", async () => {
    const context = await newClientContext(browser);
    await security.watch(context);
    const other = await context.newPage();
    try {
      await signIn(other, accountant.email, accountant.password);
      await other.goto(`/documents/received/${stored[0]!.id}`);
      await expect(other.getByTestId("document-status")).toHaveText("Prihvaćen");
      await expect(other.getByTestId("accept-received")).toHaveCount(0);
      const refused = await trpcCall(other.request, "mutation", "documents.decide", { id: stored[1]!.id, decision: "rejected", reasonType: "O", reason: "x" });
      expect(refused.status).toBe(403);
    } finally {
      await context.close();
    }
  });
});
