/**
 * For tests that need a Redis of their own (killed, stopped, restarted, with a password or TLS):
 * private redis-server processes on free ports, so the shared Redis is never touched.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

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

/** Runs redis-cli with `args`; resolves with its output, rejects if it exits with an error. */
export function redisCli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("redis-cli", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`redis-cli ${args.join(" ")} exited with ${code}:\n${out}`))));
  });
}

export interface TestCluster {
  /** client ports of the masters, in creation order */
  ports: number[];
  /** the server processes, in the order of `ports` */
  processes: ChildProcess[];
  /** `redis+cluster://127.0.0.1:P1,127.0.0.1:P2,…` */
  url: string;
  stop(): Promise<void>;
}

/**
 * A Redis Cluster of `masters` masters (at least 3) without replicas or persistence, each server in
 * its own temporary directory (removed when the server exits); stopAllRedis() stops it too.
 * `config`: more redis-server options for every node (e.g. `--cluster-require-full-coverage no`).
 * Resolves once every node reports `cluster_state:ok`.
 */
export async function startCluster(masters = 3, opts: { config?: string[] } = {}): Promise<TestCluster> {
  if (masters < 3) throw new Error("a Redis Cluster needs at least 3 masters");
  const used = new Set<number>();
  const pick = async (): Promise<number> => {
    for (;;) {
      const port = await freePort();
      if (!used.has(port)) {
        used.add(port);
        return port;
      }
    }
  };
  const ports: number[] = [];
  const processes: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    for (const child of processes) {
      child.kill("SIGCONT");
      await stopRedis(child);
    }
  };
  try {
    for (let i = 0; i < masters; i++) {
      const port = await pick();
      // the cluster bus port would otherwise be port + 10000, which may be taken or out of range
      const busPort = await pick();
      const dir = mkdtempSync(path.join(tmpdir(), "fiskal-cluster-"));
      const child = await startRedis(port, [
        "--dir", dir,
        "--cluster-enabled", "yes",
        "--cluster-config-file", "nodes.conf",
        "--cluster-port", String(busPort),
        ...(opts.config ?? []),
      ]);
      child.once("exit", () => rmSync(dir, { recursive: true, force: true }));
      ports.push(port);
      processes.push(child);
    }
    await redisCli(["--cluster", "create", ...ports.map((p) => `127.0.0.1:${p}`), "--cluster-replicas", "0", "--cluster-yes"]);
    for (const port of ports) {
      await waitFor(
        async () => (await redisCli(["-p", String(port), "cluster", "info"])).includes("cluster_state:ok"),
        10_000,
        `cluster_state:ok on port ${port}`,
      );
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { ports, processes, url: `redis+cluster://${ports.map((p) => `127.0.0.1:${p}`).join(",")}`, stop };
}
