import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createBoss, DELIVERY_QUEUE, prepareQueue } from "../src/queue.ts";
import { openTestDb, type TestDb } from "./helpers.ts";

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => {
  await t?.close();
});

// API instances started together each prepare the delivery queue; PostgreSQL may abort one of two
// concurrent `create_queue` calls as a deadlock, and no instance may fail to start because of it.
// Each round closes its pools before the next starts: 6 rounds of 6 pools held together would take
// up to 108 connections, more than PostgreSQL's default 100 shared with every other test file.
test("instances starting together all prepare the delivery queue, once", async () => {
  for (let round = 0; round < 6; round++) {
    const pools: pg.Pool[] = [];
    try {
      const schema = `boss_start_${round}`;
      const starts = Array.from({ length: 6 }, () => {
        const pool = new pg.Pool({ connectionString: t.url, max: 3 });
        pools.push(pool);
        const boss = createBoss(pool, { schema, jobExpireSeconds: 60, jobRetryDelaySeconds: 1 }, { supervise: false, schedule: false });
        return prepareQueue(boss).then(() => boss);
      });
      const results = await Promise.allSettled(starts);
      expect(results.filter((r) => r.status === "rejected").map((r) => String(r.reason))).toEqual([]);
      const rows = await pools[0]!.query(`SELECT count(*)::int AS n FROM ${schema}.queue WHERE name = $1`, [DELIVERY_QUEUE]);
      expect(rows.rows[0].n).toBe(1);
      for (const r of results) if (r.status === "fulfilled") await r.value.stop({ graceful: false, wait: true });
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  }
}, 120_000);
