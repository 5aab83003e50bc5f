import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type Db = PrismaClient;

/** A Prisma client on its own `pg` pool of at most `max` connections; `$disconnect()` ends the pool. */
export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: opts.max ?? 10 }) });
}
