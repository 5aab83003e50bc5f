import PgBoss from "pg-boss";
import type pg from "pg";

export const DELIVERY_QUEUE = "webhook-delivery";

/**
 * One delivery attempt to make. `auto` jobs carry the `nextAttemptAt` they were scheduled for and
 * are stale once the delivery has moved on (succeeded, failed, or rescheduled by another attempt);
 * `manual` jobs come from a redeliver and always run.
 */
export type DeliveryJob =
  | { deliveryId: string; mode: "auto"; scheduledFor: string }
  | { deliveryId: string; mode: "manual" };

export type QueueSettings = {
  schema: string;
  /** A job still active after this long is taken to belong to a dead worker and is run again. */
  jobExpireSeconds: number;
  /** Delay before a job whose worker died or whose handler threw is run again (doubles each time). */
  jobRetryDelaySeconds: number;
};

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

/** pg-boss runs its SQL through this, so a job can be inserted inside our own open transaction. */
function bossDb(client: Queryable): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[]) {
      const result = await client.query(text, values);
      return { rows: result.rows };
    },
  };
}

export function createBoss(pool: pg.Pool, settings: QueueSettings, extra: PgBoss.ConstructorOptions): PgBoss {
  return new PgBoss({ db: bossDb(pool), schema: settings.schema, ...extra });
}

/**
 * Idempotent: pg-boss creates its schema under an advisory lock and the queue with ON CONFLICT DO
 * NOTHING. Instances starting together can still deadlock inside `create_queue` (each takes the
 * queue table's lock and the other's index tuple); PostgreSQL aborts one of them, which then finds
 * the queue made by the other or tries again.
 */
export async function prepareQueue(boss: PgBoss): Promise<void> {
  await boss.start();
  for (let attempt = 1; ; attempt++) {
    if (await boss.getQueue(DELIVERY_QUEUE)) return;
    try {
      await boss.createQueue(DELIVERY_QUEUE, { name: DELIVERY_QUEUE, policy: "standard" });
      return;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if ((code !== "40P01" && code !== "40001") || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 20 * attempt + Math.random() * 50));
    }
  }
}

export async function enqueueDelivery(
  boss: PgBoss,
  settings: QueueSettings,
  job: DeliveryJob,
  runAt: Date,
  client: Queryable,
): Promise<void> {
  const id = await boss.send(DELIVERY_QUEUE, job, {
    db: bossDb(client),
    startAfter: runAt,
    expireInSeconds: settings.jobExpireSeconds,
    retryLimit: 10,
    retryDelay: settings.jobRetryDelaySeconds,
    retryBackoff: true,
  });
  if (id === null) throw new Error(`queue ${DELIVERY_QUEUE} refused a job for delivery ${job.deliveryId}`);
}
