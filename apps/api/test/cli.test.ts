// The operator CLI against a real database: accounts, keys, plans, Enterprise endpoint limits.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase } from "@fiskal/accounts";
import { run } from "../src/cli.ts";

let db: Awaited<ReturnType<typeof createTestDatabase>>;
const saved = process.env.DATABASE_URL;
beforeAll(async () => {
  db = await createTestDatabase();
  process.env.DATABASE_URL = db.url;
});
afterAll(async () => {
  process.env.DATABASE_URL = saved;
  await db.drop();
});

async function cli(...args: string[]): Promise<{ code: number; out: any }> {
  const lines: string[] = [];
  const code = await run([...args, "--json"], (l) => lines.push(l));
  return { code, out: JSON.parse(lines.join("\n")) };
}

it("creates an account with a key, lists, changes the plan and revokes the key", async () => {
  const created = await cli("account", "create", "--name", "CLI d.o.o.", "--plan", "STARTER", "--with-key");
  expect(created.code).toBe(0);
  expect(created.out.key.key).toMatch(/^fsk_live_[A-Za-z0-9]{32}$/);
  const id = created.out.account.id;

  const list = await cli("account", "list");
  expect(list.out.some((a: { id: string; plan: string }) => a.id === id && a.plan === "STARTER")).toBe(true);

  const plan = await cli("plan", "set", "--account", id, "--plan", "ENTERPRISE", "--per-minute", "1000", "--per-day", "100000", "--burst", "100", "--endpoint", "oib=50000");
  expect(plan.code).toBe(0);
  expect(plan.out.limitsVersion).toBe(2);
  const shown = await cli("account", "show", "--account", id);
  expect(shown.out.customEndpointLimits).toEqual({ oib: 50000 });

  const second = await cli("key", "create", "--account", id, "--name", "second");
  const revoked = await cli("key", "revoke", "--account", id, "--key", second.out.id);
  expect(revoked).toEqual({ code: 0, out: { revoked: true } });
  const again = await cli("key", "revoke", "--account", id, "--key", second.out.id);
  expect(again.code).toBe(2);
  const keys = await cli("key", "list", "--account", id);
  expect(keys.out.map((k: { revokedAt: string | null }) => k.revokedAt !== null)).toEqual([false, true]);
});

it("refuses bad input clearly and changes nothing", async () => {
  expect((await cli("account", "create", "--name", "X", "--plan", "GOLD")).out.error).toMatch(/--plan must be one of/);
  expect((await cli("account", "create", "--name", "X", "--plan", "ENTERPRISE", "--per-minute", "10")).out.error).toMatch(/--per-day/);
  expect((await cli("account", "create", "--name", "X", "--per-minute", "10")).out.error).toMatch(/only for --plan ENTERPRISE/);
  expect((await cli("account", "create", "--name", "X", "--plan", "ENTERPRISE", "--per-minute", "1", "--per-day", "1", "--burst", "1", "--endpoint", "admin=5")).out.error).toMatch(/--endpoint takes/);
  const list = await cli("account", "list");
  expect(list.out.filter((a: { name: string }) => a.name === "X")).toHaveLength(0);
});
