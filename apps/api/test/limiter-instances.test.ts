// The processes the rate limiter counts while its store is unreachable: heartbeat rows in a real
// PostgreSQL database, read by the database's clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { createLimiterInstances, type LimiterInstances } from "../src/limiter-instances.ts";

describe("LimiterInstance heartbeats", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  const started: LimiterInstances[] = [];
  const instance = async (intervalMs = 50) => {
    const i = createLimiterInstances(db, { intervalMs, expiryMs: 300 });
    await i.start();
    started.push(i);
    return i;
  };
  const waitFor = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url, { max: 4 });
  });
  afterAll(async () => {
    for (const i of started) await i.stop();
    await db?.$disconnect();
    await database?.drop();
  });

  it("counts the live processes, itself included, and forgets one whose heartbeat expired or that stopped", async () => {
    const a = await instance();
    expect(a.count()).toBe(1);
    const b = await instance();
    const c = await instance();
    expect(c.count()).toBe(3);
    await waitFor(() => a.count() === 3 && b.count() === 3, "every process to count three");

    // c stops cleanly: its row is removed
    await c.stop();
    expect(await db.limiterInstance.count({ where: { id: c.id } })).toBe(0);
    await waitFor(() => a.count() === 2, "c to be gone");

    // a process that stops beating without a word (killed): counted until its heartbeat expires
    const d = createLimiterInstances(db, { intervalMs: 60_000, expiryMs: 300 });
    await d.start();
    await waitFor(() => a.count() === 3, "d to be counted");
    await waitFor(() => a.count() === 2, "d's heartbeat to expire (300 ms)");
    await d.stop();
  });

  it("shows each process the others that hold local admissions not yet written back, until they clear it", async () => {
    const a = await instance();
    const b = await instance();
    expect(await a.othersPending()).toBe(0);
    await b.setPending(4);
    expect(await a.othersPending()).toBe(1);
    // only the others: b does not wait for itself
    expect(await b.othersPending()).toBe(0);
    // a beat does not undo the flag, and every beat reads the others' flags too
    await new Promise((r) => setTimeout(r, 150));
    expect(a.othersPendingSeen()).toBe(1);
    expect(await a.othersPending()).toBe(1);
    expect((await db.limiterInstance.findUnique({ where: { id: b.id } }))?.pendingShare).toBe(4);
    await b.setPending(null);
    expect(await a.othersPending()).toBe(0);

    // a process that stops while it still holds them leaves its row: the others keep waiting for it
    await b.setPending(2);
    await b.stop();
    expect(await a.othersPending()).toBe(1);
    await db.limiterInstance.delete({ where: { id: b.id } });
  });
});
