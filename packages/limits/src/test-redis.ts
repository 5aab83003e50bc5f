/**
 * For tests that need a Redis of their own (killed, stopped, restarted, with a password or TLS):
 * private redis-server processes on free ports, so the shared Redis is never touched.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as net.AddressInfo).port;
  server.close();
  await once(server, "close");
  return port;
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

const children = new Set<ChildProcess>();

/** Starts redis-server on `port` with `extra` options; resolves once `probePort` (default `port`) accepts. */
export async function startRedis(port: number, extra: string[] = [], probePort = port): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--loglevel", "warning", ...extra],
    { stdio: "ignore" },
  );
  children.add(child);
  child.once("exit", () => children.delete(child));
  await waitFor(() => accepts(probePort), 5_000, `redis-server on port ${probePort}`);
  return child;
}

export async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}

/** For afterAll: every server this module started and that is still running. */
export async function stopAllRedis(): Promise<void> {
  for (const child of [...children]) {
    child.kill("SIGCONT");
    await stopRedis(child);
  }
}
