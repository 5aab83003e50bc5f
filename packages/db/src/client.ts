import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type Db = PrismaClient;

/** How `createDb` connects: what a component opening `pg` connections of its own must reuse. */
export interface ConnectionSettings {
  connectionString: string;
  /** Session settings sent at connection start (`-c TimeZone=UTC`). */
  options: string;
}

const settingsOf = new WeakMap<object, ConnectionSettings>();

/** A Prisma client on its own `pg` pool of at most `max` connections; `$disconnect()` ends the pool. */
export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  // Sessions run in UTC: Prisma sends Date parameters without an offset, so any other session time
  // zone would shift every date filter.
  const settings: ConnectionSettings = { connectionString: databaseUrl, options: "-c TimeZone=UTC" };
  const db = new PrismaClient({ adapter: new PrismaPg({ ...settings, max: opts.max ?? 10 }) });
  settingsOf.set(db, settings);
  return db;
}

/**
 * The connection settings `createDb` gave `db`, for a component that needs a plain `pg` connection
 * of its own (the usage meter's `COPY`); undefined for a client `createDb` did not make.
 */
export function connectionSettings(db: Db): ConnectionSettings | undefined {
  const settings = settingsOf.get(db);
  return settings && { ...settings };
}
