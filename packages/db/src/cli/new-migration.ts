// Usage: pnpm --filter @fiskal/db run migrate:new <name>
import { createMigration } from "../migrations-author.ts";

const name = process.argv.slice(2).join("_");
if (!name) {
  console.error("usage: migrate:new <name>");
  process.exit(1);
}
const result = await createMigration(name);
if (result === null) {
  console.log("schema.prisma matches the migrations; nothing to write");
} else {
  console.log(`wrote prisma/migrations/${result.created}/migration.sql`);
}
