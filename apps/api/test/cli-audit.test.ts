// Key and plan changes made with the operator CLI go to the account's audit log, as "cli".
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
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

async function cli(...args: string[]): Promise<any> {
  const lines: string[] = [];
  expect(await run([...args, "--json"], (l) => lines.push(l))).toBe(0);
  return JSON.parse(lines.join("\n"));
}

it("records key created, key revoked and plan set with actor cli and no address", async () => {
  const id = (await cli("account", "create", "--name", "Audit CLI d.o.o.")).account.id;
  const key = await cli("key", "create", "--account", id, "--name", "ops");
  await cli("key", "revoke", "--account", id, "--key", key.id);
  await cli("plan", "set", "--account", id, "--plan", "STARTER");
  const prisma = createDb(db.url, { max: 1 });
  try {
    const entries = await prisma.auditLog.findMany({ where: { accountId: id }, orderBy: { createdAt: "asc" } });
    expect(entries.map((e) => [e.action, e.actor, e.target, e.ip])).toEqual([
      ["key.created", "cli", key.prefix, null],
      ["key.revoked", "cli", key.prefix, null],
      ["plan.set", "cli", "STARTER", null],
    ]);
    expect(JSON.stringify(entries)).not.toContain(key.key);
  } finally {
    await prisma.$disconnect();
  }
});
