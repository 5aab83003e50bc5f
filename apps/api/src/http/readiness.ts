// /readyz asks the database on a connection of its own, with a deadline: a database that hangs
// (accepts connections but never answers) makes the API "not ready" within a second instead of
// holding the probe — and one of the pool's connections — for as long as the hang lasts.
import pg from "pg";
import { connectionSettings, type Db } from "@fiskal/db";

/** The database must answer `SELECT 1` within this, or /readyz says 503 (its answer stays under 1 s). */
const READINESS_TIMEOUT_MS = 800;

interface Probe {
  /** The probe's connection and its connect() (made once, reused while it works). */
  client: { pg: pg.Client; connected: Promise<unknown> } | null;
  /** The check in progress: concurrent probes share it. */
  running: Promise<boolean> | null;
}

const probes = new WeakMap<Db, Probe>();

function destroy(client: pg.Client): void {
  // end() would wait for the hung query; the socket is closed at once instead.
  (client as pg.Client & { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  client.end().catch(() => {});
}

function connect(settings: NonNullable<ReturnType<typeof connectionSettings>>): NonNullable<Probe["client"]> {
  const client = new pg.Client({ connectionString: settings.connectionString, options: settings.options, application_name: "fiskal-readiness" });
  client.on("error", () => {});
  const connected = client.connect();
  connected.catch(() => {});
  return { pg: client, connected };
}

/** Whether the database answers within READINESS_TIMEOUT_MS. Never rejects. */
export function databaseReady(db: Db, timeoutMs = READINESS_TIMEOUT_MS): Promise<boolean> {
  let probe = probes.get(db);
  if (!probe) probes.set(db, (probe = { client: null, running: null }));
  const p = probe;
  const settings = connectionSettings(db);
  if (!settings) return db.$queryRawUnsafe("SELECT 1").then(() => true, () => false);
  p.running ??= new Promise<boolean>((resolve) => {
    const used = (p.client ??= connect(settings));
    const fail = () => {
      if (p.client === used) p.client = null;
      destroy(used.pg);
      resolve(false);
    };
    const timer = setTimeout(fail, timeoutMs);
    used.connected
      .then(() => used.pg.query("SELECT 1"))
      .then(
        () => {
          clearTimeout(timer);
          resolve(true);
        },
        () => {
          clearTimeout(timer);
          fail();
        },
      );
  }).finally(() => {
    p.running = null;
  });
  return p.running;
}

/** Closes the probe's connection (the API's close()). */
export async function closeReadinessProbe(db: Db): Promise<void> {
  const probe = probes.get(db);
  if (!probe) return;
  probes.delete(db);
  await probe.running;
  const client = probe.client;
  probe.client = null;
  await client?.pg.end().catch(() => {});
}
