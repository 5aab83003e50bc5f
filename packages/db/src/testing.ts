// Per-test databases: migrate and seed one template per schema version and seed, then copy it with
// CREATE DATABASE … TEMPLATE, which takes a fraction of a second.
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { createDb, type Db } from "./client.ts";
import { migrate } from "./migrate.ts";
import { MIGRATIONS_DIR } from "./paths.ts";

const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * What a template holds besides the migrations, written once when the template is built. This
 * package seeds nothing itself: the accounts package passes the KPD classification.
 */
export interface TestDatabaseSeed {
  /** Changes whenever what `run` writes changes (e.g. a hash of its data file and code). */
  version: string;
  run(db: Db): Promise<void>;
}

/** Changes whenever a migration or the seed changes, so a stale template is never used. */
export function templateName(seed?: TestDatabaseSeed): string {
  const hash = createHash("sha256");
  const dirs = existsSync(MIGRATIONS_DIR)
    ? readdirSync(MIGRATIONS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()
    : [];
  for (const dir of dirs) {
    hash.update(dir).update("\0").update(readFileSync(path.join(MIGRATIONS_DIR, dir, "migration.sql"))).update("\0");
  }
  if (seed) {
    hash.update("seed\0").update(seed.version).update("\0");
    // The bulk insert a seed writes KPD codes with.
    hash.update(readFileSync(new URL("./kpd.ts", import.meta.url)));
  }
  return `fiskal_tpl_${hash.digest("hex").slice(0, 16)}`;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

const quote = (ident: string) => `"${ident.replace(/"/g, '""')}"`;

async function isReadyTemplate(admin: pg.Client, name: string): Promise<boolean | null> {
  const { rows } = await admin.query<{ datistemplate: boolean }>(
    "SELECT datistemplate FROM pg_database WHERE datname = $1",
    [name],
  );
  return rows[0] ? rows[0].datistemplate : null;
}

/** Builds the template unless a finished one exists; `datistemplate` marks it finished. */
async function ensureTemplate(admin: pg.Client, adminUrl: string, name: string, seed: TestDatabaseSeed | undefined): Promise<void> {
  if ((await isReadyTemplate(admin, name)) === true) return;
  // Serializes builders across test processes; the key is derived from the template name.
  const lockKey = `SELECT ('x' || substr(md5($1), 1, 15))::bit(60)::bigint AS k`;
  const { rows } = await admin.query<{ k: string }>(lockKey, [name]);
  const key = rows[0]!.k;
  await admin.query("SELECT pg_advisory_lock($1)", [key]);
  try {
    const state = await isReadyTemplate(admin, name);
    if (state === true) return;
    // A half-built template from a crashed run.
    if (state === false) await admin.query(`DROP DATABASE ${quote(name)} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${quote(name)}`);
    const url = withDatabase(adminUrl, name);
    await migrate(url);
    if (seed) {
      const db = createDb(url, { max: 2 });
      try {
        await seed.run(db);
      } finally {
        await db.$disconnect();
      }
    }
    await admin.query(`ALTER DATABASE ${quote(name)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  } finally {
    await admin.query("SELECT pg_advisory_unlock($1)", [key]);
  }
}

/**
 * A fresh, migrated database (with `seed`'s rows) of its own, copied from a template. `template`
 * overrides the template's name (the timing script uses it to measure a cold build). The apps' tests
 * use the accounts package's `createTestDatabase`, which adds the KPD classification.
 */
export async function createTestDatabase(
  opts: { adminUrl?: string; template?: string; seed?: TestDatabaseSeed } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = opts.adminUrl ?? process.env.TEST_ADMIN_DATABASE_URL ?? DEFAULT_ADMIN_URL;
  const template = opts.template ?? templateName(opts.seed);
  const name = `fiskal_t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await ensureTemplate(admin, adminUrl, template, opts.seed);
    await admin.query(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(template)}`);
  } finally {
    await admin.end();
  }
  let dropped: Promise<void> | undefined;
  return {
    url: withDatabase(adminUrl, name),
    drop: () =>
      (dropped ??= (async () => {
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        try {
          await client.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
        } finally {
          await client.end();
        }
      })()),
  };
}
