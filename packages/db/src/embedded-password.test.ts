// The embedded database's port asks for a password: psql without one, or with a wrong one, is
// refused as PostgreSQL refuses it; the generated password (kept 0600 beside the data directory)
// and the URL the apps get open it.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedPasswordFile, startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded.ts";

let dir: string;
let embedded: EmbeddedPostgres;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "fiskal-embedded-pw-"));
  embedded = await startEmbeddedPostgres({ dataDir: path.join(dir, "pglite") });
}, 60_000);

afterAll(async () => {
  await embedded?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** psql run asynchronously: the database's gate lives in this very process. */
function psql(password: string | null): Promise<{ status: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PGCONNECT_TIMEOUT: "5" };
  delete env.PGPASSWORD;
  if (password !== null) env.PGPASSWORD = password;
  // -w: never prompt; without a password psql then fails as a script would.
  const args = ["-w", "-h", "127.0.0.1", "-p", String(embedded.port), "-U", "postgres", "-d", "postgres", "-tAc", "select 40 + 2"];
  return new Promise((resolve) => {
    execFile("psql", args, { env, encoding: "utf8", timeout: 15_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr });
    });
  });
}

describe("embedded database password", () => {
  it("is generated once, kept 0600 beside the data directory, and is in the URL the apps get", () => {
    const file = embeddedPasswordFile(path.join(dir, "pglite"));
    const password = readFileSync(file, "utf8").trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(decodeURIComponent(new URL(embedded.url).password)).toBe(password);
    // The lock file beside the data directory holds the URL: it is 0600 too.
    expect(statSync(`${path.join(dir, "pglite")}.lock`).mode & 0o777).toBe(0o600);
  });

  it("psql without a password is refused", async () => {
    const r = await psql(null);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/password/i);
    expect(r.stdout).toBe("");
  });

  it("psql with a wrong password is refused with PostgreSQL's message", async () => {
    const r = await psql("nije-lozinka");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('password authentication failed for user "postgres"');
  });

  it("psql with the password and a pool with the URL both work", async () => {
    const password = decodeURIComponent(new URL(embedded.url).password);
    const r = await psql(password);
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("42");
    const pool = new pg.Pool({ connectionString: embedded.url, max: 4 });
    try {
      const rows = await Promise.all(Array.from({ length: 8 }, (_, i) => pool.query<{ n: number }>("select $1::int as n", [i])));
      expect(rows.map((x) => x.rows[0]!.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await pool.end();
    }
  });

  it("a restart keeps the password", async () => {
    const before = embedded.url;
    await embedded.close();
    embedded = await startEmbeddedPostgres({ dataDir: path.join(dir, "pglite") });
    expect(new URL(embedded.url).password).toBe(new URL(before).password);
  }, 60_000);
});
