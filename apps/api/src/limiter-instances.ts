// The API processes as the rate limiter counts them while its store is unreachable (LiveInstances
// of @fiskal/limits): one LimiterInstance row per process, its heartbeat written every second by
// the database's clock. A row whose heartbeat is older than the expiry is not live. A process that
// holds local admissions its store has not counted yet says so in the row (pendingShare), and the
// others wait for it before they decide on the store alone again.
import { randomUUID } from "node:crypto";
import type { Db } from "@fiskal/db";

/** How often each process writes its heartbeat and reads the live count. */
const HEARTBEAT_INTERVAL_MS = 1_000;
/** A process is live while its heartbeat is younger than this: five missed beats. */
const HEARTBEAT_EXPIRY_MS = 5_000;
/**
 * A pending row counts this long after its last heartbeat: a process that died holding local
 * admissions cannot write them back, and the others wait until they have left the 60 s windows.
 */
const PENDING_EXPIRY_MS = 60_000;

export interface LimiterInstances {
  readonly id: string;
  /** live processes, this one included, as last read (at least 1) */
  count(): number;
  setPending(divisor: number | null): Promise<void>;
  othersPending(): Promise<number>;
  /** other processes holding local admissions, as of the last heartbeat or othersPending() */
  othersPendingSeen(): number;
  /** writes the first heartbeat (and removes rows a day old), then one every interval */
  start(): Promise<void>;
  /** stops beating and removes this process's row, unless it still holds local admissions */
  stop(): Promise<void>;
}

export function createLimiterInstances(
  db: Db,
  opts: { intervalMs?: number; expiryMs?: number; onError?: (err: unknown) => void } = {},
): LimiterInstances {
  const id = randomUUID();
  const intervalMs = opts.intervalMs ?? HEARTBEAT_INTERVAL_MS;
  const expirySeconds = (opts.expiryMs ?? HEARTBEAT_EXPIRY_MS) / 1_000;
  const pendingSeconds = PENDING_EXPIRY_MS / 1_000;
  let live = 1;
  let pendingOthers = 0;
  let pending: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | undefined;
  let failing = false;

  const beat = async (): Promise<void> => {
    // the pending flag is written by setPending alone, so a beat never undoes it
    await db.$executeRaw`INSERT INTO "LimiterInstance" ("id", "heartbeatAt", "pendingShare") VALUES (${id}::uuid, now(), ${pending})
      ON CONFLICT ("id") DO UPDATE SET "heartbeatAt" = now()`;
    const rows = await db.$queryRaw<{ live: bigint; pending: bigint }[]>`SELECT
        count(*) FILTER (WHERE "heartbeatAt" > now() - make_interval(secs => ${expirySeconds}) OR "id" = ${id}::uuid) AS live,
        count(*) FILTER (WHERE "id" <> ${id}::uuid AND "pendingShare" IS NOT NULL
          AND "heartbeatAt" > now() - make_interval(secs => ${pendingSeconds})) AS pending
      FROM "LimiterInstance"`;
    live = Math.max(1, Number(rows[0]?.live ?? 1));
    pendingOthers = Number(rows[0]?.pending ?? 0);
  };

  const tick = (): void => {
    if (beating) return;
    beating = beat()
      .then(
        () => {
          failing = false;
        },
        (err: unknown) => {
          // the last count stays: a database outage does not make the others disappear
          if (!failing) opts.onError?.(err);
          failing = true;
        },
      )
      .finally(() => {
        beating = undefined;
      });
  };

  return {
    id,
    count: () => live,
    setPending: async (divisor) => {
      await db.$executeRaw`INSERT INTO "LimiterInstance" ("id", "heartbeatAt", "pendingShare") VALUES (${id}::uuid, now(), ${divisor})
        ON CONFLICT ("id") DO UPDATE SET "heartbeatAt" = now(), "pendingShare" = ${divisor}`;
      pending = divisor;
    },
    othersPending: async () => {
      const rows = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "LimiterInstance"
        WHERE "id" <> ${id}::uuid AND "pendingShare" IS NOT NULL AND "heartbeatAt" > now() - make_interval(secs => ${pendingSeconds})`;
      pendingOthers = Number(rows[0]?.n ?? 0);
      return pendingOthers;
    },
    othersPendingSeen: () => pendingOthers,
    start: async () => {
      await db.$executeRaw`DELETE FROM "LimiterInstance" WHERE "heartbeatAt" < now() - interval '1 day'`;
      await beat();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      timer = undefined;
      await beating;
      if (pending === null) await db.$executeRaw`DELETE FROM "LimiterInstance" WHERE "id" = ${id}::uuid AND "pendingShare" IS NULL`;
    },
  };
}
