// One database client per server process (Next may evaluate modules several times in dev).
import { createDb, type Db } from "@fiskal/db";
import { env } from "~/env";

const holder = globalThis as typeof globalThis & { __fiskalWebDb?: Db };

export function db(): Db {
  holder.__fiskalWebDb ??= createDb(env().databaseUrl);
  return holder.__fiskalWebDb;
}
