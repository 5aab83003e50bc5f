// `pnpm start`: API + portal on embedded defaults (or on DATABASE_URL / REDIS_URL when set).
// Owns the embedded database, serves it to both apps over the Postgres protocol, seeds the demo
// account and prints its key and portal credentials.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureDemo, seedKpd } from "@fiskal/accounts";
import { createDb, embeddedPasswordFile, migrate, startEmbeddedPostgres } from "@fiskal/db";
import { startCatcher, type Catcher } from "@fiskal/mail";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// The supported Node versions are those of "engines" in package.json (Prisma 7's own range).
const nodeRange = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (!((major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 24)) {
  console.error(`Fiskal needs Node ${nodeRange}; this is Node ${process.versions.node}.`);
  process.exit(1);
}
const dataDir = process.env.FISKAL_DATA_DIR ?? path.join(root, ".data");
const dev = process.argv.includes("--dev");
const apiPort = Number(process.env.API_PORT ?? 3001);
const webPort = Number(process.env.WEB_PORT ?? 3000);
const apiUrl = process.env.API_URL ?? `http://127.0.0.1:${apiPort}`;
const portalUrl = process.env.PORTAL_URL ?? `http://127.0.0.1:${webPort}`;
mkdirSync(dataDir, { recursive: true });

function readOrCreate(file: string, make: () => string): string {
  const p = path.join(dataDir, file);
  if (existsSync(p)) return readFileSync(p, "utf8").trim();
  const v = make();
  writeFileSync(p, v + "\n", { mode: 0o600 });
  return v;
}

// Set once shutdown() begins (a child's exit is then expected); declared before anything may call it.
let stopping = false;
let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
let databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  embedded = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "pglite"), port: Number(process.env.EMBEDDED_DB_PORT ?? 0) });
  databaseUrl = embedded.url;
}
const applied = await migrate(databaseUrl);
const db = createDb(databaseUrl, { max: 2 });
await seedKpd(db);
const demo = await ensureDemo(db);
await db.$disconnect();

// Secrets are shown once by ensureDemo; for the local trial they are kept in the data folder (0600)
// so every start can print them again.
const credsFile = path.join(dataDir, "demo-credentials.json");
if (demo.apiKey || demo.user.password || demo.operator.password) {
  const previous = existsSync(credsFile) ? (JSON.parse(readFileSync(credsFile, "utf8")) as Record<string, string>) : {};
  const creds = {
    ...previous,
    ...(demo.apiKey ? { apiKey: demo.apiKey } : {}),
    ...(demo.user.password ? { demoPassword: demo.user.password } : {}),
    ...(demo.operator.password ? { operatorPassword: demo.operator.password } : {}),
  };
  writeFileSync(credsFile, JSON.stringify(creds, null, 2), { mode: 0o600 });
  chmodSync(credsFile, 0o600);
}
const creds = existsSync(credsFile) ? (JSON.parse(readFileSync(credsFile, "utf8")) as Record<string, string>) : {};

// Without SMTP_URL, mail goes to a local SMTP catcher (a real SMTP server keeping messages in memory),
// readable at its /messages address; ports from MAIL_CATCHER_PORT (SMTP, default 2525) and the next one.
let catcher: Catcher | null = null;
if (!process.env.SMTP_URL) {
  const smtpPort = Number(process.env.MAIL_CATCHER_PORT ?? 2525);
  catcher = await startCatcher({ smtpPort, httpPort: smtpPort + 1 }).catch(() => startCatcher());
}

const nextAuthSecret = process.env.NEXTAUTH_SECRET ?? readOrCreate("nextauth-secret", () => randomBytes(32).toString("base64url"));
// Encrypts certificate private keys at rest; the API and the portal must share it.
const certEncryptionKey = process.env.CERT_ENCRYPTION_KEY ?? readOrCreate("cert-encryption-key", () => randomBytes(32).toString("base64"));
const sharedEnv: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  PORTAL_URL: portalUrl,
  API_URL: apiUrl,
  NEXTAUTH_URL: portalUrl,
  NEXTAUTH_SECRET: nextAuthSecret,
  CERT_ENCRYPTION_KEY: certEncryptionKey,
  NEXT_TELEMETRY_DISABLED: "1",
  ...(embedded ? { FISKAL_EMBEDDED: "1" } : {}),
  ...(catcher ? { SMTP_URL: catcher.smtpUrl } : {}),
};

if (!dev) {
  // The first build takes about two minutes; say what runs and that it still does. turbo prints a
  // line per task ("cache hit" when nothing changed), errors in full.
  const started = Date.now();
  console.log("Building the API and the portal (the first time takes about 2 minutes; later starts reuse the build)…");
  const ticker = setInterval(() => console.log(`  … still building (${Math.round((Date.now() - started) / 1000)} s)`), 15_000);
  const status = await new Promise<number | null>((resolve) => {
    const build = spawn("pnpm", ["exec", "turbo", "run", "build", "--filter=@fiskal/web", "--filter=@fiskal/api", "--output-logs=hash-only"], {
      cwd: root,
      stdio: "inherit",
      env: sharedEnv,
    });
    build.on("exit", (code) => resolve(code));
    build.on("error", () => resolve(null));
  });
  clearInterval(ticker);
  if (status !== 0) {
    console.error("The build failed.");
    await shutdown(1);
  }
  console.log(`Build ready in ${Math.round((Date.now() - started) / 1000)} s. Starting the API on port ${apiPort} and the portal on port ${webPort}…`);
}

const children: ChildProcess[] = [];
function launch(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(cmd, args, { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] });
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`${name} exited (${signal ?? code}); stopping.`);
      void shutdown(1);
    }
  });
  children.push(child);
}

launch("api", "pnpm", ["--filter", "@fiskal/api", dev ? "dev" : "start"], { ...sharedEnv, PORT: String(apiPort), HOST: "127.0.0.1" });
launch("portal", "pnpm", ["--filter", "@fiskal/web", dev ? "dev" : "start", "-p", String(webPort), "-H", "127.0.0.1"], sharedEnv);

async function waitFor(url: string, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

const [apiUp, webUp] = await Promise.all([waitFor(`${apiUrl}/healthz`, 60_000), waitFor(`${portalUrl}/docs/rate-limits`, 120_000)]);
const line = "─".repeat(72);
console.log(`
${line}
 Fiskal is running${embedded ? " on embedded defaults (database in " + path.relative(root, dataDir) + "/pglite)" : ""}
 ${applied.applied.length ? `Applied migrations: ${applied.applied.join(", ")}` : "Database schema up to date."}

 API     ${apiUrl}/v1        ${apiUp ? "" : "(not answering yet)"}
 Portal  ${portalUrl}        ${webUp ? "" : "(not answering yet)"}
 Docs    ${portalUrl}/docs/rate-limits
${embedded ? ` Database 127.0.0.1:${embedded.port} (psql: user postgres, password in ${path.relative(root, embeddedPasswordFile(path.join(dataDir, "pglite")))})\n` : ""} Mail    ${catcher ? `${catcher.smtpUrl} (local catcher; messages at ${catcher.httpUrl}/messages)` : `SMTP_URL (${process.env.SMTP_URL ? new URL(process.env.SMTP_URL).host : ""})`}

 Demo API key        ${creds.apiKey ?? "(created earlier; see the portal to create a new one)"}
 Portal sign-in      demo@fiskal.local / ${creds.demoPassword ?? "(set earlier)"}
 Operator sign-in    operator@fiskal.local / ${creds.operatorPassword ?? "(set earlier)"}

 Try:
   curl -s -X POST ${apiUrl}/v1/validate/oib \\
     -H "Authorization: Bearer ${creds.apiKey ?? "<key>"}" -H "Content-Type: application/json" \\
     -d '{"oib":"69435151530"}' -i
${line}
 Ctrl+C stops everything.
`);

async function shutdown(code: number): Promise<never> {
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null)));
  if (embedded) {
    await embedded.close();
  }
  if (catcher) await catcher.close();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
