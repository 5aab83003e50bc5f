// Sign-up and sign-in abuse: sign-up does not tell which e-mails have accounts, guessing from one
// address is refused without locking the owner out, and a bad session cookie is one log line.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, newClientContext, newUser, signIn, signUp, stack, test, trpcCall } from "../src/fixtures.ts";
import { mailTo, waitForMail } from "../src/mail.ts";
import { E2E_DIR } from "../src/stack.ts";

const PORTAL_LOG = path.join(E2E_DIR, "test-results", "servers", "portal.log");

test("sign-up answers a taken e-mail exactly as a new one, creates nothing, and the owner keeps the account", async ({ page, browser, request }) => {
  const owner = newUser("Vlasnik");
  await signUp(page, owner);
  const fresh = newUser("Novi");
  const input = (email: string) => ({ company: "Znatiželjni d.o.o.", email, password: "Neka-druga-lozinka-1" });
  // Sign-ups are limited to 2 a second per address: a second apart, as people type.
  await new Promise((r) => setTimeout(r, 1_100));
  const forNew = await trpcCall(request, "mutation", "auth.signUp", input(fresh.email));
  await new Promise((r) => setTimeout(r, 1_100));
  const forTaken = await trpcCall(request, "mutation", "auth.signUp", input(owner.email.toUpperCase()));
  expect(forNew.status).toBe(200);
  expect(forTaken.status).toBe(forNew.status);
  expect(forTaken.body).toEqual(forNew.body);
  expect(forTaken.body.result.data).toEqual({ ok: true });
  // The owner of the taken address is told instead; the new address got no such message.
  const told = await waitForMail(owner.email, /^Pokušaj registracije s vašom adresom$/);
  expect(told.text).toContain(`s adresom ${owner.email}`);
  expect(told.text).toContain("Novi račun nije otvoren.");
  expect((await mailTo(fresh.email)).filter((m) => m.subject.startsWith("Pokušaj registracije"))).toEqual([]);

  // Through the form: no message that the address is taken.
  const other = await newClientContext(browser);
  const p2 = await other.newPage();
  await p2.goto("/signup");
  await p2.getByTestId("signup-company").fill("Znatiželjni d.o.o.");
  await p2.getByTestId("signup-email").fill(owner.email);
  await p2.getByTestId("signup-password").fill("Neka-druga-lozinka-1");
  await p2.getByTestId("signup-password2").fill("Neka-druga-lozinka-1");
  await p2.getByTestId("signup-submit").click();
  await p2.waitForURL((url) => url.pathname === "/login");
  await expect(p2.getByText("već postoji")).toHaveCount(0);
  // The account is untouched: its own password still opens it, the other one does not.
  await signIn(p2, owner.email, owner.password);
  await other.close();
});

test("wrong passwords from one address are refused there, while the owner signs in from another", async ({ page, browser }) => {
  const owner = newUser("Meta");
  await signUp(page, owner);
  await page.getByTestId("sign-out").click();
  await page.waitForURL("**/login");

  const attacker = await newClientContext(browser);
  const a = await attacker.newPage();
  await a.goto("/login");
  const seen: string[] = [];
  // 10 a minute from one address: the 11th and 12th are refused (earlier ones too when 3 come within a second).
  for (let i = 0; i < 12; i++) {
    await a.getByTestId("login-email").fill(owner.email);
    await a.getByTestId("login-password").fill(`pogadam-${i}`);
    await a.getByTestId("login-submit").click();
    await expect(a.getByTestId("login-submit")).toBeEnabled({ timeout: 20_000 });
    seen.push((await a.getByTestId("login-error").textContent()) ?? "");
  }
  expect(seen.filter((m) => m.startsWith("Previše pokušaja")).length).toBeGreaterThanOrEqual(2);
  await attacker.close();

  // Before: one limit per e-mail from every address, so the owner got "Previše pokušaja" too.
  const started = Date.now();
  await signIn(page, owner.email, owner.password);
  expect(new URL(page.url()).pathname).toBe("/dashboard");
  // Slowed (the e-mail's failures of the last minute), not refused.
  expect(Date.now() - started).toBeLessThan(20_000);
});

// Reads what the portal logged during the test: no other test may write there meanwhile.
test("a bad session cookie is one warning line in the portal's log, without a stack trace", { lock: "-exclusive-" }, async ({ request }) => {
  const before = statSync(PORTAL_LOG).size;
  const cookie = { cookie: "next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..bm90LWEtdG9rZW4.Z2FyYmFnZQ.AAAA" };
  const login = await request.get(`${stack.portalUrl}/login`, { headers: cookie });
  expect(login.status()).toBe(200);
  const me = await request.get(`${stack.portalUrl}/api/trpc/account.me`, { headers: cookie });
  expect(me.status()).toBe(401);

  // The log is written by the portal process: wait until both lines are there.
  let added = "";
  for (let i = 0; i < 40; i++) {
    added = readFileSync(PORTAL_LOG).subarray(before).toString("utf8");
    if ((added.match(/session cookie rejected/g) ?? []).length >= 2) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const lines = added.split("\n").filter((l) => l.trim() !== "");
  const rejected = lines.filter((l) => l.includes("session cookie rejected"));
  expect(rejected).toHaveLength(2);
  for (const line of rejected) {
    const entry = JSON.parse(line) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: "warn", msg: "session cookie rejected" });
    expect(JSON.stringify(entry)).not.toContain("eyJhbGci");
  }
  expect(lines.filter((l) => /^\s+at /.test(l) || l.includes("JWT_SESSION_ERROR")), added).toEqual([]);
});
