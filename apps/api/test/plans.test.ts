// One home for plans and custom limits: @fiskal/limits (plans.ts). The database's enum must list the
// same plans, and every surface that grants limits applies the same bounds and order.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createTestDatabase, DbInputError, setPlan } from "@fiskal/accounts";
import { Plan, SCHEMA_PATH } from "@fiskal/db";
import {
  assertLimits,
  CustomLimits,
  CustomLimitsBounds,
  CustomLimitsHr,
  InvalidLimitsError,
  MAX_DAY_LIMIT,
  MAX_ROLLING_LIMIT,
  PLAN_NAMES,
} from "@fiskal/limits";
import { run } from "../src/cli.ts";

describe("plan names", () => {
  it("the Prisma enum Plan lists exactly PLAN_NAMES, in order (schema and generated client)", () => {
    const schema = readFileSync(SCHEMA_PATH, "utf8");
    const block = /enum Plan \{([^}]*)\}/.exec(schema);
    expect(block).not.toBeNull();
    const fromSchema = block![1]!
      .split("\n")
      .map((l) => l.replace(/\/\/.*$/, "").trim())
      .filter(Boolean);
    expect(fromSchema).toEqual([...PLAN_NAMES]);
    expect(Object.values(Plan)).toEqual([...PLAN_NAMES]);
  });
});

describe("custom limits", () => {
  const ok = { burst: 100, perMinute: 1_000, perDay: 100_000 };

  it("the zod bounds and the limiter's own check agree at every edge", () => {
    const cases = [
      { ...ok, burst: MAX_ROLLING_LIMIT, perMinute: MAX_ROLLING_LIMIT, perDay: MAX_DAY_LIMIT },
      { ...ok, burst: MAX_ROLLING_LIMIT + 1 },
      { ...ok, perMinute: MAX_ROLLING_LIMIT + 1 },
      { ...ok, perDay: MAX_DAY_LIMIT + 1 },
      { ...ok, burst: 0 },
      { ...ok, perDay: 1.5 },
      { ...ok, endpoints: { oib: MAX_ROLLING_LIMIT } },
      { ...ok, endpoints: { kpd: MAX_ROLLING_LIMIT + 1 } },
      { ...ok, endpoints: { fiscalize: 0 } },
      { ...ok, endpoints: { admin: 5 } },
    ];
    for (const c of cases) {
      const zodOk = CustomLimitsBounds.safeParse(c).success;
      let assertOk = true;
      try {
        assertLimits(c);
      } catch (err) {
        expect(err).toBeInstanceOf(InvalidLimitsError);
        assertOk = false;
      }
      expect({ c, zodOk }).toEqual({ c, zodOk: assertOk });
    }
  });

  it("an operator grant needs burst ≤ per minute ≤ per day, in English and in Croatian", () => {
    expect(CustomLimits.safeParse(ok).success).toBe(true);
    expect(CustomLimits.safeParse({ ...ok, burst: ok.perMinute }).success).toBe(true);
    for (const bad of [{ ...ok, burst: ok.perMinute + 1 }, { ...ok, perMinute: ok.perDay + 1 }]) {
      expect(CustomLimits.safeParse(bad).success).toBe(false);
      const hr = CustomLimitsHr.safeParse(bad);
      expect(hr.success).toBe(false);
      expect(hr.error!.issues[0]!.message).toMatch(/u sekundi ≤ u minuti ≤ dnevno/);
    }
  });
});

describe("the CLI grants only ordered limits", () => {
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

  it("refuses a burst above the per-minute limit, and a per-minute limit above the day, changing nothing", async () => {
    const created = await cli("account", "create", "--name", "Red d.o.o.", "--plan", "STARTER");
    expect(created.code).toBe(0);
    const id = created.out.account.id as string;

    const burstAbove = await cli("plan", "set", "--account", id, "--plan", "ENTERPRISE", "--per-minute", "100", "--per-day", "10000", "--burst", "101");
    expect(burstAbove.code).not.toBe(0);
    expect(burstAbove.out.error).toMatch(/limits\.burst must not exceed perMinute/);
    const minuteAbove = await cli("plan", "set", "--account", id, "--plan", "ENTERPRISE", "--per-minute", "20000", "--per-day", "10000", "--burst", "10");
    expect(minuteAbove.out.error).toMatch(/limits\.perMinute must not exceed perDay/);
    const tooBig = await cli("plan", "set", "--account", id, "--plan", "ENTERPRISE", "--per-minute", String(MAX_ROLLING_LIMIT + 1), "--per-day", "1000000000", "--burst", "10");
    expect(tooBig.out.error).toMatch(/limits\.perMinute must be an integer from 1 to 10000000/);
    const refusedCreate = await cli("account", "create", "--name", "Krivo d.o.o.", "--plan", "ENTERPRISE", "--per-minute", "10", "--per-day", "100", "--burst", "11");
    expect(refusedCreate.out.error).toMatch(/limits\.burst must not exceed perMinute/);

    const shown = await cli("account", "show", "--account", id);
    expect(shown.out).toMatchObject({ plan: "STARTER", limitsVersion: 1, customBurst: null, customPerMinute: null });
    const list = await cli("account", "list");
    expect(list.out.filter((a: { name: string }) => a.name === "Krivo d.o.o.")).toHaveLength(0);

    const equal = await cli("plan", "set", "--account", id, "--plan", "ENTERPRISE", "--per-minute", "100", "--per-day", "10000", "--burst", "100");
    expect(equal.code).toBe(0);
    expect(equal.out).toMatchObject({ plan: "ENTERPRISE", limitsVersion: 2 });
    expect((await cli("account", "show", "--account", id)).out).toMatchObject({ customBurst: 100, customPerMinute: 100, customPerDay: 10_000 });
  });

  it("the database layer applies the same bounds (the order is the operator's rule, not the store's)", async () => {
    const { createDb } = await import("@fiskal/db");
    const prisma = createDb(db.url, { max: 1 });
    try {
      const a = await createAccount(prisma, { name: "Granica d.o.o." });
      await expect(setPlan(prisma, a.id, "ENTERPRISE", { burst: 1, perMinute: 1, perDay: MAX_DAY_LIMIT + 1 })).rejects.toThrow(DbInputError);
      await expect(setPlan(prisma, a.id, "ENTERPRISE", { burst: 1, perMinute: 1, perDay: MAX_DAY_LIMIT + 1 })).rejects.toThrow(/custom\.perDay must be an integer from 1 to 1000000000/);
      // a burst above the minute limit is storable (the tests isolate single windows with it)
      const stored = await setPlan(prisma, a.id, "ENTERPRISE", { burst: 1_000, perMinute: 20, perDay: 1_000 });
      expect(stored.customBurst).toBe(1_000);
    } finally {
      await prisma.$disconnect();
    }
  });
});
