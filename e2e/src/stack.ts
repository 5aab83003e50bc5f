// Starts the real stack for the browser tests: a fresh PostgreSQL database, the API (tsx) and the
// built portal (next start), each on a port picked at run time. State for the teardown and for the
// tests travels in process.env (Playwright hands the runner's environment to its workers).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, ensureDemo } from "@fiskal/accounts";
import { createDb } from "@fiskal/db";
import { startCatcher } from "@fiskal/mail";
import { apiStartCommand } from "../../apps/api/scripts/start-command.mjs";

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REPO_ROOT = path.resolve(E2E_DIR, "..");
const LOG_DIR = path.join(E2E_DIR, "test-results", "servers");

export type Stack = {
  apiUrl: string;
  portalUrl: string;
  databaseUrl: string;
  /** The SMTP catcher's HTTP reader (GET /messages); the API and the portal send to its SMTP port. */
  mailUrl: string;
  operator: { email: string; password: string };
  stop(): Promise<void>;
};

/** A port nobody listens on right now; the kernel picks it, so parallel suites do not collide. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function start(name: string, cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = createWriteStream(path.join(LOG_DIR, `${name}.log`));
  // Its own process group, so that the teardown also ends what the child starts (next start forks).
  const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  // Two sources into one file: neither may end it (the other may still be writing); the child's
  // "close" (both streams drained) does.
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  child.once("close", () => log.end());
  return child;
}

async function waitForHttp(url: string, child: ChildProcess, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${name} exited with code ${child.exitCode}; see ${path.join(LOG_DIR, `${name}.log`)}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not answer ${url} within ${timeoutMs} ms; see ${path.join(LOG_DIR, `${name}.log`)}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

/** Builds what production runs (portal and API bundle); `turbo` makes an unchanged build a cache hit. */
export function buildPortal(): void {
  const r = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--filter=@fiskal/web", "--filter=@fiskal/api", "--output-logs=errors-only"], {
    cwd: REPO_ROOT,
    stdio: "inherit",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error(`build failed (exit ${r.status})`);
}

export async function startStack(): Promise<Stack> {
  const database = await createTestDatabase();
  const catcher = await startCatcher();
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(stopChild));
    await catcher.close();
    await database.drop();
  };
  try {
    const db = createDb(database.url, { max: 2 });
    let operator: { email: string; password?: string };
    try {
      operator = (await ensureDemo(db)).operator;
    } finally {
      await db.$disconnect();
    }
    if (!operator.password) throw new Error("ensureDemo did not create the operator on a fresh database");

    const [apiPort, portalPort] = [await freePort(), await freePort()];
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const portalUrl = `http://127.0.0.1:${portalPort}`;
    const common = {
      ...process.env,
      DATABASE_URL: database.url,
      REDIS_URL: "redis://127.0.0.1:6379",
      // Our own limiter keys, so parallel suites on the shared Redis never count against each other.
      RATE_LIMIT_PREFIX: `fiskal-e2e-${randomBytes(6).toString("hex")}`,
      PORTAL_URL: portalUrl,
      WEBHOOKS_ALLOW_PRIVATE: "1",
      SMTP_URL: catcher.smtpUrl,
      MAIL_FROM: "Fiskal <noreply@fiskal.test>",
      // Encrypts certificate private keys at rest; the API and the portal share it.
      CERT_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    };

    // The API as production runs it: its start script (the bundle in dist/), without the pnpm wrapper.
    const apiDir = path.join(REPO_ROOT, "apps", "api");
    const apiStart = apiStartCommand(apiDir);
    const api = start("api", process.execPath, apiStart.args, apiDir, {
      ...common,
      ...apiStart.env,
      PORT: String(apiPort),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
    });
    children.push(api);
    const webDir = path.join(REPO_ROOT, "apps", "web");
    const portal = start("portal", path.join(webDir, "node_modules", ".bin", "next"), ["start", "-p", String(portalPort), "-H", "127.0.0.1"], webDir, {
      ...common,
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      NEXTAUTH_URL: portalUrl,
      API_URL: apiUrl,
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
    });
    children.push(portal);
    await Promise.all([
      waitForHttp(`${apiUrl}/readyz`, api, "api", 60_000),
      waitForHttp(`${portalUrl}/docs/rate-limits`, portal, "portal", 60_000),
    ]);
    return { apiUrl, portalUrl, databaseUrl: database.url, mailUrl: catcher.httpUrl, operator: { email: operator.email, password: operator.password }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
