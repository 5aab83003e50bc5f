export type { Db } from "@fiskal/db";
