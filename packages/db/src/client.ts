import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type Db = PrismaClient;

/** A Prisma client on its own `pg` pool of at most `max` connections; `$disconnect()` ends the pool. */
export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  // Sessions run in UTC: Prisma sends Date parameters without an offset, so any other session time
  // zone would shift every date filter.
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl, max: opts.max ?? 10, options: "-c TimeZone=UTC" }),
  });
}
