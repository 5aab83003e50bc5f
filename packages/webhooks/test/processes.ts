import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Starts `test/fixtures/<name>.ts` under tsx in its own Node process. */
export function spawnFixture(name: string, env: Record<string, string>): ChildProcess & { lines: string[]; waitForLine(match: string): Promise<string> } {
  const script = fileURLToPath(new URL(`./fixtures/${name}.ts`, import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: string[] = [];
  const waiters: { match: string; resolve: (line: string) => void }[] = [];
  let buffer = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      for (const w of waiters.filter((w) => line.includes(w.match))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  return Object.assign(child, {
    lines,
    waitForLine(match: string) {
      const seen = lines.find((l) => l.includes(match));
      if (seen) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        waiters.push({ match, resolve });
        child.once("exit", (code) => reject(new Error(`${name} exited (${code}) before printing "${match}"`)));
      });
    },
  });
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}
