// `pnpm db:seed`: migrates, loads the KPD classification and makes sure the demo customer and the
// operator exist, against DATABASE_URL or the embedded database.
import { createDb, migrate, openTarget } from "@fiskal/db";
import { ensureDemo } from "../accounts.ts";
import { seedKpd } from "../kpd.ts";

const target = await openTarget();
try {
  const { applied } = await migrate(target.url);
  console.log(`${target.label}: ${applied.length ? `applied ${applied.join(", ")}` : "migrations up to date"}`);
  const db = createDb(target.url, { max: 2 });
  try {
    const { inserted } = await seedKpd(db);
    console.log(inserted ? `KPD: inserted ${inserted} codes` : "KPD: already loaded");
    const demo = await ensureDemo(db);
    console.log(`Demo account: ${demo.account.name} (${demo.account.id})`);
    // Printed once, on creation: only hashes are stored, so they cannot be shown again.
    if (demo.apiKey) console.log(`  API key:  ${demo.apiKey}`);
    if (demo.user.password) console.log(`  Portal:   ${demo.user.email} / ${demo.user.password}`);
    else console.log(`  Portal:   ${demo.user.email} (existing; password unchanged)`);
    if (demo.operator.password) console.log(`  Operator: ${demo.operator.email} / ${demo.operator.password}`);
    else console.log(`  Operator: ${demo.operator.email} (existing; password unchanged)`);
  } finally {
    await db.$disconnect();
  }
} finally {
  await target.close();
}
