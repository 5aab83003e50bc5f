import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createTestDatabase as createDatabase, KPD_CSV_PATH, type TestDatabaseSeed } from "@fiskal/db";
import { seedKpd } from "./kpd.ts";

let kpd: TestDatabaseSeed | undefined;

/** The KPD classification as a template seed; its version follows the data file and the seed's code. */
function kpdSeed(): TestDatabaseSeed {
  kpd ??= {
    version: createHash("sha256")
      .update(readFileSync(KPD_CSV_PATH))
      .update("\0")
      .update(readFileSync(new URL("./kpd.ts", import.meta.url)))
      .digest("hex"),
    run: async (db) => {
      await seedKpd(db);
    },
  };
  return kpd;
}

/**
 * A migrated database of its own with the KPD classification loaded, copied from a template in a
 * fraction of a second: what the apps' tests start from. `@fiskal/db`'s `createTestDatabase` builds
 * it; this package adds the seed, so the database package needs no KPD parser.
 */
export function createTestDatabase(
  opts: { adminUrl?: string; template?: string } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  return createDatabase({ ...opts, seed: kpdSeed() });
}
